//go:build windows

package writers

import "io/fs"

// versionOf identifies one state of a file (see version_unix.go); Windows
// gives no inode or change time through os.Stat.
func versionOf(fi fs.FileInfo) version {
	return version{size: fi.Size(), mtime: fi.ModTime().UnixNano()}
}
