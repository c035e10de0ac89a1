//go:build windows

package fileio

import (
	"errors"
	"io/fs"
	"os"
	"time"

	"golang.org/x/sys/windows"
)

// WritesInPlace: on Windows a rename over a file another program has open
// fails, and the tools keep their configs open, so files are written in
// place, under the same changed-since-read condition (see internal/commit/commit.go).
const WritesInPlace = true

func Owner(fs.FileInfo) (uid, gid int) { return -1, -1 }

func RenameImpossible(error) bool { return false }

// ProcessAlive reports whether a process with this id is running. One
// that exists but may not be asked about (another user's) is running.
func ProcessAlive(pid int) bool {
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(pid))
	if err != nil {
		return !errors.Is(err, windows.ERROR_INVALID_PARAMETER) // no such process
	}
	defer windows.CloseHandle(h)
	var code uint32
	if windows.GetExitCodeProcess(h, &code) != nil {
		return true
	}
	const stillActive = 259
	return code == stillActive
}

// processStart is when the process with this id was created; ok is false
// when it cannot be told.
func processStart(pid int) (time.Time, bool) {
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(pid))
	if err != nil {
		return time.Time{}, false
	}
	defer windows.CloseHandle(h)
	var created, exited, kernel, user windows.Filetime
	if windows.GetProcessTimes(h, &created, &exited, &kernel, &user) != nil {
		return time.Time{}, false
	}
	return time.Unix(0, created.Nanoseconds()), true
}

// SyncDir: a folder cannot be fsynced on Windows.
func SyncDir(FS, string) error { return nil }

// LinkCount: hard links are rare on Windows and not counted here.
func LinkCount(os.FileInfo) uint64 { return 1 }

// Umask: Windows has none.
func Umask() fs.FileMode { return 0 }
