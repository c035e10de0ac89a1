package trust

import "io/fs"

// ownedByMe: Windows keeps owners in ACLs, which the profile folder's
// defaults already restrict to the user; the other checks still apply.
func ownedByMe(fs.FileInfo) (uid int, mine bool) { return -1, true }

// othersMayWrite: the mode bits Go reports on Windows say only whether a
// file is read-only, not who may write it.
func othersMayWrite(fs.FileInfo) bool { return false }
