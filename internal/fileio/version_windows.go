//go:build windows

package fileio

import "io/fs"

// VersionOf identifies one state of a file (see version_unix.go); Windows
// gives no inode or change time through os.Stat.
func VersionOf(fi fs.FileInfo) Version {
	return Version{size: fi.Size(), mtime: fi.ModTime().UnixNano()}
}
