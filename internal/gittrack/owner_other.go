//go:build !unix

package gittrack

import "io/fs"

// ownedByUs is false where repo does not check ownership as git does (on
// Windows, by security identifier): git is asked there.
func ownedByUs(string, fs.FileInfo) bool { return false }
