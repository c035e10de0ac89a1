//go:build windows

package writers

import (
	"io/fs"
	"os"

	"github.com/repo-manager/repo/internal/regfile"
)

// writesInPlace: on Windows a rename over a file another program has open
// fails, and the tools keep their configs open, so files are written in
// place, under the same changed-since-read condition (see commit.go).
const writesInPlace = true

func owner(fs.FileInfo) (uid, gid int) { return -1, -1 }

func renameImpossible(error) bool { return false }

func openInPlace(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err == nil {
		err = regfile.Check(fi)
	}
	if err != nil {
		f.Close()
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	return f, nil
}

// processAlive: staged files on Windows are removed by age only.
func processAlive(int) bool { return true }

func syncDir(string) error { return nil }

// linkCount: hard links are rare on Windows and not counted here.
func linkCount(os.FileInfo) uint64 { return 1 }

// umask: Windows has none.
func umask() fs.FileMode { return 0 }
