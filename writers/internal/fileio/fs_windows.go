//go:build windows

package fileio

import (
	"io/fs"
	"os"
)

// WritesInPlace: on Windows a rename over a file another program has open
// fails, and the tools keep their configs open, so files are written in
// place, under the same changed-since-read condition (see writers/commit/commit.go).
const WritesInPlace = true

func Owner(fs.FileInfo) (uid, gid int) { return -1, -1 }

func RenameImpossible(error) bool { return false }

// ProcessAlive: staged files on Windows are removed by age only.
func ProcessAlive(int) bool { return true }

func SyncDir(string) error { return nil }

// LinkCount: hard links are rare on Windows and not counted here.
func LinkCount(os.FileInfo) uint64 { return 1 }

// Umask: Windows has none.
func Umask() fs.FileMode { return 0 }
