//go:build windows

package writers

import (
	"io/fs"
	"os"
)

// writesInPlace: on Windows a rename over a file another program has open
// fails, and the tools keep their configs open, so files are written in
// place, under the same changed-since-read condition (see commit.go).
const writesInPlace = true

func owner(fs.FileInfo) (uid, gid int) { return -1, -1 }

func renameImpossible(error) bool { return false }

// processAlive: staged files on Windows are removed by age only.
func processAlive(int) bool { return true }

func syncDir(string) error { return nil }

// linkCount: hard links are rare on Windows and not counted here.
func linkCount(os.FileInfo) uint64 { return 1 }

// umask: Windows has none.
func umask() fs.FileMode { return 0 }
