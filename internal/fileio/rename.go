package fileio

// RenameExchange atomically swaps two paths (renameat2 RENAME_EXCHANGE).
// ErrUnsupported: the system or the file system has no such call.
func RenameExchange(fsys FS, a, b string) error { return renameErr(fsys.Exchange(a, b)) }

// RenameNoReplace renames unless the destination exists (fs.ErrExist).
// ErrUnsupported: the system or the file system has no such call.
func RenameNoReplace(fsys FS, from, to string) error {
	return renameErr(fsys.RenameNoReplace(from, to))
}
