package cmd

import (
	"os"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Moments of a sync that a test can signal it at, seen with inotify: the
// first file it stages, and the first rename of its commit.
const (
	atStaging = unix.IN_CREATE
	atRename  = unix.IN_MOVED_TO | unix.IN_MOVED_FROM
)

// onFirstEvent calls fire once, at the first event of mask in one of dirs
// for a name that match accepts, and returns the function that stops
// watching; ok is false where this cannot be watched.
func onFirstEvent(dirs []string, mask uint32, match func(name string) bool, fire func()) (stop func(), ok bool) {
	fd, err := unix.InotifyInit1(unix.IN_CLOEXEC | unix.IN_NONBLOCK)
	if err != nil {
		return nil, false
	}
	for _, d := range dirs {
		if _, err := unix.InotifyAddWatch(fd, d, mask); err != nil {
			unix.Close(fd)
			return nil, false
		}
	}
	f := os.NewFile(uintptr(fd), "inotify") // through the poller: Close ends a Read
	done := make(chan struct{})
	go func() {
		defer close(done)
		buf := make([]byte, 64<<10)
		for {
			n, err := f.Read(buf)
			if err != nil {
				return
			}
			for off := 0; off+unix.SizeofInotifyEvent <= n; {
				ev := (*unix.InotifyEvent)(unsafe.Pointer(&buf[off]))
				name := buf[off+unix.SizeofInotifyEvent : off+unix.SizeofInotifyEvent+int(ev.Len)]
				off += unix.SizeofInotifyEvent + int(ev.Len)
				if ev.Mask&mask != 0 && match(string(trimNUL(name))) {
					fire()
					return
				}
			}
		}
	}()
	return func() { f.Close(); <-done }, true
}

func trimNUL(b []byte) []byte {
	for i, c := range b {
		if c == 0 {
			return b[:i]
		}
	}
	return b
}
