package fileio

import (
	"io/fs"
	"os"
)

// FS is the file system as a commit uses it: every call of commit
// (internal/commit) and of the functions here it calls — staging, the
// renames, the checks, the locks, the clean-up — that can fail in a way a
// commit must survive. OS is the real one, what every run uses;
// internal/fsfault wraps it to fail a chosen call with an errno,
// or to run a function at a chosen call, so that each way a commit can
// fail is played in ordinary tests, as any user, on any system.
//
// Paths are as the caller gives them. An open file's calls take the
// *os.File (its Name is the path it was opened at); what can only be
// read of it (its bytes, its Stat) is not routed: a read that fails
// reads as a different file. Errors are the system's, wrapped as the os
// package wraps them (*fs.PathError, *os.LinkError).
type FS interface {
	Stat(path string) (fs.FileInfo, error)
	Lstat(path string) (fs.FileInfo, error)
	OpenFile(path string, flag int, perm fs.FileMode) (*os.File, error)
	ReadDir(dir string) ([]fs.DirEntry, error)
	Mkdir(path string, perm fs.FileMode) error
	Remove(path string) error
	Link(oldpath, newpath string) error
	Rename(from, to string) error
	// Exchange swaps two paths atomically and RenameNoReplace renames
	// unless to exists (Linux's renameat2 RENAME_EXCHANGE and
	// RENAME_NOREPLACE). Their errors are the system's own (ENOSYS,
	// EINVAL, EEXIST...); RenameExchange and RenameNoReplace say what
	// they mean. Where the system has no such call, ErrUnsupported.
	Exchange(a, b string) error
	RenameNoReplace(from, to string) error

	WriteAt(f *os.File, b []byte, off int64) (int, error)
	Truncate(f *os.File, size int64) error
	Sync(f *os.File) error // a file's or a folder's fsync
	Chmod(f *os.File, mode fs.FileMode) error
	Chown(f *os.File, uid, gid int) error
	// TryLock takes an exclusive lock on f without waiting (flock; on
	// Windows LockFileEx): false when another holds it.
	TryLock(f *os.File) (bool, error)

	// Extended attributes (Linux; elsewhere ErrUnsupported): of the file
	// at path, and of an open file. List and Get fill dest and return
	// the size, or with an empty dest the size they need.
	Listxattr(path string, dest []byte) (int, error)
	Getxattr(path, name string, dest []byte) (int, error)
	Flistxattr(f *os.File, dest []byte) (int, error)
	Fgetxattr(f *os.File, name string, dest []byte) (int, error)
	Fsetxattr(f *os.File, name string, value []byte) error
	Fremovexattr(f *os.File, name string) error
}

// OS is the real file system, by the os package and the system's calls.
type OS struct{}

var _ FS = OS{}

func (OS) Stat(path string) (fs.FileInfo, error)  { return os.Stat(path) }
func (OS) Lstat(path string) (fs.FileInfo, error) { return os.Lstat(path) }

func (OS) OpenFile(path string, flag int, perm fs.FileMode) (*os.File, error) {
	return os.OpenFile(path, flag, perm)
}

func (OS) ReadDir(dir string) ([]fs.DirEntry, error)            { return os.ReadDir(dir) }
func (OS) Mkdir(path string, perm fs.FileMode) error            { return os.Mkdir(path, perm) }
func (OS) Remove(path string) error                             { return os.Remove(path) }
func (OS) Link(oldpath, newpath string) error                   { return os.Link(oldpath, newpath) }
func (OS) Rename(from, to string) error                         { return os.Rename(from, to) }
func (OS) Exchange(a, b string) error                           { return exchange(a, b) }
func (OS) RenameNoReplace(from, to string) error                { return renameNoReplace(from, to) }
func (OS) WriteAt(f *os.File, b []byte, off int64) (int, error) { return f.WriteAt(b, off) }
func (OS) Truncate(f *os.File, size int64) error                { return f.Truncate(size) }
func (OS) Sync(f *os.File) error                                { return f.Sync() }
func (OS) Chmod(f *os.File, mode fs.FileMode) error             { return f.Chmod(mode) }
func (OS) Chown(f *os.File, uid, gid int) error                 { return f.Chown(uid, gid) }
func (OS) TryLock(f *os.File) (bool, error)                     { return TryLock(f) }

func (OS) Listxattr(path string, dest []byte) (int, error) { return listxattr(path, dest) }
func (OS) Getxattr(path, name string, dest []byte) (int, error) {
	return getxattr(path, name, dest)
}
func (OS) Flistxattr(f *os.File, dest []byte) (int, error) { return flistxattr(f, dest) }
func (OS) Fgetxattr(f *os.File, name string, dest []byte) (int, error) {
	return fgetxattr(f, name, dest)
}
func (OS) Fsetxattr(f *os.File, name string, value []byte) error { return fsetxattr(f, name, value) }
func (OS) Fremovexattr(f *os.File, name string) error            { return fremovexattr(f, name) }
