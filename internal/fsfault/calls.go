package fsfault

import (
	"io/fs"
	"os"

	"github.com/repo-manager/repo/internal/fileio"
)

// fileio.FS's methods: each the real call, under the rules.

func (f *FS) Stat(path string) (fi fs.FileInfo, err error) {
	err = f.do(Stat, []string{path}, func() (err error) { fi, err = f.real.Stat(path); return err })
	return fi, err
}

func (f *FS) Lstat(path string) (fi fs.FileInfo, err error) {
	err = f.do(Lstat, []string{path}, func() (err error) { fi, err = f.real.Lstat(path); return err })
	return fi, err
}

func (f *FS) OpenFile(path string, flag int, perm fs.FileMode) (file *os.File, err error) {
	err = f.do(Open, []string{path}, func() (err error) { file, err = f.real.OpenFile(path, flag, perm); return err })
	return file, err
}

func (f *FS) ReadDir(dir string) (entries []fs.DirEntry, err error) {
	err = f.do(ReadDir, []string{dir}, func() (err error) { entries, err = f.real.ReadDir(dir); return err })
	return entries, err
}

func (f *FS) Mkdir(path string, perm fs.FileMode) error {
	return f.do(Mkdir, []string{path}, func() error { return f.real.Mkdir(path, perm) })
}

func (f *FS) Remove(path string) error {
	return f.do(Remove, []string{path}, func() error { return f.real.Remove(path) })
}

func (f *FS) Link(oldpath, newpath string) error {
	return f.do(Link, []string{oldpath, newpath}, func() error { return f.real.Link(oldpath, newpath) })
}

func (f *FS) Rename(from, to string) error {
	return f.do(Rename, []string{from, to}, func() error { return f.real.Rename(from, to) })
}

func (f *FS) Exchange(a, b string) error {
	return f.do(Exchange, []string{a, b}, func() error { return f.real.Exchange(a, b) })
}

func (f *FS) RenameNoReplace(from, to string) error {
	return f.do(RenameNoReplace, []string{from, to}, func() error { return f.real.RenameNoReplace(from, to) })
}

func (f *FS) WriteAt(file *os.File, b []byte, off int64) (n int, err error) {
	err = f.do(WriteAt, []string{file.Name()}, func() (err error) { n, err = f.real.WriteAt(file, b, off); return err })
	return n, err
}

func (f *FS) Truncate(file *os.File, size int64) error {
	return f.do(Truncate, []string{file.Name()}, func() error { return f.real.Truncate(file, size) })
}

func (f *FS) Sync(file *os.File) error {
	return f.do(Sync, []string{file.Name()}, func() error { return f.real.Sync(file) })
}

func (f *FS) Chmod(file *os.File, mode fs.FileMode) error {
	return f.do(Chmod, []string{file.Name()}, func() error { return f.real.Chmod(file, mode) })
}

func (f *FS) Chown(file *os.File, uid, gid int) error {
	return f.do(Chown, []string{file.Name()}, func() error { return f.real.Chown(file, uid, gid) })
}

func (f *FS) TryLock(file *os.File) (ok bool, err error) {
	err = f.do(Lock, []string{file.Name()}, func() (err error) { ok, err = f.real.TryLock(file); return err })
	return ok, err
}

func (f *FS) Listxattr(path string, dest []byte) (n int, err error) {
	err = f.do(Listxattr, []string{path}, func() (err error) { n, err = f.real.Listxattr(path, dest); return err })
	return n, err
}

func (f *FS) Getxattr(path, name string, dest []byte) (n int, err error) {
	err = f.do(Getxattr, []string{path}, func() (err error) { n, err = f.real.Getxattr(path, name, dest); return err })
	return n, err
}

func (f *FS) Flistxattr(file *os.File, dest []byte) (n int, err error) {
	err = f.do(Flistxattr, []string{file.Name()}, func() (err error) { n, err = f.real.Flistxattr(file, dest); return err })
	return n, err
}

func (f *FS) Fgetxattr(file *os.File, name string, dest []byte) (n int, err error) {
	err = f.do(Fgetxattr, []string{file.Name()}, func() (err error) { n, err = f.real.Fgetxattr(file, name, dest); return err })
	return n, err
}

func (f *FS) Fsetxattr(file *os.File, name string, value []byte) error {
	return f.do(Fsetxattr, []string{file.Name()}, func() error { return f.real.Fsetxattr(file, name, value) })
}

func (f *FS) Fremovexattr(file *os.File, name string) error {
	return f.do(Fremovexattr, []string{file.Name()}, func() error { return f.real.Fremovexattr(file, name) })
}

var _ fileio.FS = (*FS)(nil)
