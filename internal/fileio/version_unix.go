//go:build !windows

package fileio

import (
	"io/fs"
	"syscall"
)

// VersionOf identifies one state of a file: which inode it is, and what
// every write to it changes (size, modification and change times, in
// nanoseconds). Two reads with the same version read the same bytes.
func VersionOf(fi fs.FileInfo) Version {
	v := Version{size: fi.Size(), mtime: fi.ModTime().UnixNano()}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		v.dev, v.ino = uint64(st.Dev), uint64(st.Ino)
		v.ctime = changeTime(st)
	}
	return v
}
