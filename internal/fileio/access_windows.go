//go:build windows

package fileio

import "io/fs"

// CheckWritable: on Windows a file's read-only attribute is its mode's
// write bits, which the caller checks; its ACLs are not read here.
func CheckWritable(string, fs.FileInfo) error { return nil }
