package writers

import (
	"bytes"
	"io"
	"os"
	"runtime"

	"github.com/repo-manager/repo/internal/bigmem"
)

// splitReadMin is the size from which readFile reads two halves at once.
const splitReadMin = 8 << 20

// readFile is os.ReadFile for the snapshot a sync plans from (and checks
// the file against before replacing it). A large file is read in two
// halves on two cores: most of the cost of reading a 100 MB ~/.claude.json
// is the kernel faulting in the fresh memory, which the halves share. A
// file that shrinks or grows meanwhile is read again from the start, as
// one piece.
func readFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	size := fi.Size()
	if size >= splitReadMin && size == int64(int(size)) && fi.Mode().IsRegular() && runtime.GOMAXPROCS(0) >= 2 {
		if b, ok := readHalves(f, int(size)); ok {
			return b, nil
		}
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return nil, err
		}
	}
	var buf bytes.Buffer
	buf.Grow(int(min(size, 1<<30)) + 512)
	_, err = buf.ReadFrom(f)
	return buf.Bytes(), err
}

// readHalves reads exactly size bytes in two concurrent halves, and
// reports false if the file is not size bytes long any more.
func readHalves(f *os.File, size int) ([]byte, bool) {
	b := bigmem.Alloc(size)
	half := size / 2
	first := make(chan error, 1)
	go func() {
		_, err := f.ReadAt(b[:half], 0)
		first <- err
	}()
	_, errSecond := f.ReadAt(b[half:], int64(half))
	errFirst := <-first
	var more [1]byte
	if n, _ := f.ReadAt(more[:], int64(size)); n > 0 || errFirst != nil || errSecond != nil {
		return nil, false
	}
	return b, true
}
