package commit

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/repo-manager/repo/internal/regfile"
	"github.com/repo-manager/repo/writers/internal/fileio"
	"github.com/repo-manager/repo/writers/plan"
)

// Committing one staged file. The replace is conditional: it must replace
// exactly the bytes repo planned from (FilePlan.Before), so a tool that
// rewrote the file meanwhile is not clobbered (ErrChanged). And it can be
// undone until the run ends, so that a run that cannot commit every file
// leaves every file as it found it (see Apply):
//   - On Linux the file is swapped with the staged one (renameat2
//     RENAME_EXCHANGE): the replaced inode is then at the staged name,
//     where repo checks it is what was planned from (else it swaps back)
//     and keeps it until the run ends.
//   - Elsewhere the replaced inode is kept by a hard link before the
//     rename, and the condition is a read just before it.
//   - Where a rename cannot replace the file — a single-file bind mount
//     (EBUSY: how ~/.claude.json reaches a dev container) or a file on
//     another file system than its folder (EXDEV) — where a new file
//     cannot be given what the old one has (its owner, its ACL or other
//     extended attributes: fileio.Staged.InPlace), and on Windows, the
//     file is written in place, under the same condition.
// A new file is renamed into place unless one has appeared meanwhile.
// A file to delete is renamed aside (deleteFile), under the same
// condition, and kept there until the run ends: undoing the delete is
// renaming it back.

// commitKind is how a file was committed, which says how it is undone.
type commitKind int

const (
	created   commitKind = iota // a new file: undone by removing it
	exchanged                   // swapped with the staged file; the replaced inode is at aside
	renamed                     // renamed over; the replaced inode is kept at aside by a hard link
	inPlace                     // written in place: undone by writing FilePlan.Before back
	deleted                     // renamed aside (aside): undone by renaming it back
)

// committed is one file of a run that is in place and can still be undone.
type committed struct {
	fs    fileio.FS // what the run writes through
	f     *plan.FilePlan
	kind  commitKind
	aside string // the replaced inode's name until the run ends ("" if none)
	// watch is the replaced inode, open: a tool that opened the file before
	// the swap and writes after it writes there, and its version shows it.
	watch   *os.File
	ver     fileio.Version
	warning string
}

// commitFile puts the staged file (fileio.StageFile) in place of f.Path. On an
// error, the staged file is gone and f.Path is as it was.
func commitFile(fsys fileio.FS, f *plan.FilePlan, s *fileio.Staged) (c *committed, err error) {
	defer func() {
		if err != nil {
			s.Remove()
		} else {
			s.Release() // no longer at a staged name
		}
	}()
	switch {
	case f.Delete:
		return deleteFile(fsys, f)
	case s.InPlace != nil:
		return writeInPlace(fsys, f, "", fmt.Sprintf("%s: written in place, not replaced atomically: %v", f.Display, s.InPlace))
	case !f.Existed:
		return createFile(fsys, f, s.Name)
	case fileio.WritesInPlace:
		return writeInPlace(fsys, f, s.Name, "")
	}
	// The tool usually writes while repo plans, not in the microseconds of
	// the swap: check first, so its update is not hidden even for the
	// instant between a swap and the swap back.
	if !fileio.FileEquals(fsys, f.Path, f.Before) {
		return nil, ErrChanged
	}
	switch err := fileio.RenameExchange(fsys, s.Name, f.Path); {
	case err == nil:
		c := &committed{fs: fsys, f: f, kind: exchanged, aside: s.Name}
		if !c.watchAside() || !fileio.ContentEquals(c.watch, f.Before) {
			// Another program wrote the file after repo read it: put its
			// version back, unless it has written yet again over ours.
			c.undo()
			return nil, ErrChanged
		}
		return c, nil
	case fileio.RenameImpossible(err):
		return writeInPlace(fsys, f, s.Name, renameWarning(f, err))
	case !errors.Is(err, fileio.ErrUnsupported):
		return nil, err
	}
	return replaceByLink(fsys, f, s.Name)
}

// createFile renames the staged file to f.Path, which must not exist.
func createFile(fsys fileio.FS, f *plan.FilePlan, staged string) (*committed, error) {
	switch err := fileio.RenameNoReplace(fsys, staged, f.Path); {
	case err == nil:
		return &committed{fs: fsys, f: f, kind: created}, nil
	case errors.Is(err, fs.ErrExist):
		return nil, ErrChanged
	case !errors.Is(err, fileio.ErrUnsupported):
		return nil, err
	}
	if _, err := fsys.Lstat(f.Path); err == nil {
		return nil, ErrChanged
	}
	if err := fsys.Rename(staged, f.Path); err != nil {
		return nil, err
	}
	return &committed{fs: fsys, f: f, kind: created}, nil
}

// replaceByLink replaces f.Path by the staged file where the two cannot
// be swapped: the replaced inode is kept by a hard link before the
// rename, and the condition is a read just before it.
func replaceByLink(fsys fileio.FS, f *plan.FilePlan, staged string) (*committed, error) {
	aside := ""
	if tmp, err := fileio.CreateTemp(fsys, f.Path, 0o600); err == nil {
		// A name for the hard link: reserve one, then link over it.
		tmp.Close()
		fsys.Remove(tmp.Name())
		if fsys.Link(f.Path, tmp.Name()) == nil {
			aside = tmp.Name()
		}
	}
	c := &committed{fs: fsys, f: f, kind: renamed, aside: aside}
	if !fileio.FileEquals(fsys, f.Path, f.Before) {
		c.finish()
		return nil, ErrChanged
	}
	if aside != "" {
		c.watchAside()
	}
	if err := fsys.Rename(staged, f.Path); err != nil {
		c.finish()
		if fileio.RenameImpossible(err) {
			return writeInPlace(fsys, f, staged, renameWarning(f, err))
		}
		return nil, err
	}
	return c, nil
}

// deleteFile removes f.Path if it still holds f.Before: it is renamed to
// a staging name next to it (where a later run's fileio.RemoveStale finds it if
// this one is killed), checked there, and kept until the run ends. Where
// a rename cannot move it (a single-file bind mount, another file system,
// and on Windows a file a tool holds open), the file stays, written in
// place with f.After, with a warning.
func deleteFile(fsys fileio.FS, f *plan.FilePlan) (*committed, error) {
	if !fileio.FileEquals(fsys, f.Path, f.Before) {
		return nil, ErrChanged
	}
	tmp, err := fileio.CreateTemp(fsys, f.Path, 0o600)
	if err != nil {
		return nil, err
	}
	aside := tmp.Name()
	tmp.Close()
	// Over the reserved name: no moment where another file could take it.
	if err := fsys.Rename(f.Path, aside); err != nil {
		fsys.Remove(aside)
		switch {
		case fileio.IsMissing(err):
			return nil, ErrChanged
		case fileio.RenameImpossible(err) || fileio.WritesInPlace:
			c, werr := writeInPlace(fsys, f, "", "")
			if werr == nil {
				c.warning = fmt.Sprintf("%s: left in place holding nothing, not deleted: it cannot be renamed (%v)", f.Display, fileio.UnwrapPath(err))
			}
			return c, werr
		}
		return nil, err
	}
	c := &committed{fs: fsys, f: f, kind: deleted, aside: aside}
	if !c.watchAside() || !fileio.ContentEquals(c.watch, f.Before) {
		// Another program replaced the file after repo read it: its
		// version goes back.
		c.undo()
		return nil, ErrChanged
	}
	return c, nil
}

// watchAside opens the replaced inode kept at c.aside, locks it as a
// staged file is locked (a later run's fileio.RemoveStale leaves it to
// this run while it goes), notes its version, and reports whether it
// could.
func (c *committed) watchAside() bool {
	f, fi, err := regfile.OpenIn(c.fs, c.aside)
	if err != nil {
		return false
	}
	fileio.HoldStaged(c.fs, f)
	c.watch, c.ver = f, fileio.VersionOf(fi)
	return true
}

// writtenAside reports whether the replaced inode was written since it
// was replaced: by a tool that had it open and saved into it in place.
func (c *committed) writtenAside() bool {
	if c.watch == nil {
		return false
	}
	fi, err := c.watch.Stat()
	if err != nil {
		return true
	}
	now := fileio.VersionOf(fi)
	return !now.SameWrite(c.ver)
}

// writeInPlace writes f.After over f.Path's own bytes, if they are still
// f.Before: the fallback where a rename cannot replace the file, or where
// a new file cannot keep what the old one has. It is not atomic — a crash
// halfway leaves a mix — so the run warns (warning, "" on Windows, where
// every file is written so).
func writeInPlace(fsys fileio.FS, f *plan.FilePlan, staged string, warning string) (*committed, error) {
	if staged != "" {
		fsys.Remove(staged)
	}
	file, err := regfile.OpenWriteIn(fsys, f.Path)
	if err != nil {
		return nil, err
	}
	defer file.Close()
	if !fileio.ContentEquals(file, f.Before) {
		return nil, ErrChanged
	}
	if err := overwrite(fsys, file, f.After); err != nil {
		if overwrite(fsys, file, f.Before) != nil {
			return nil, fmt.Errorf("%w; writing it in place failed halfway and its old content could not be put back either: restore it from a backup", err)
		}
		return nil, err
	}
	return &committed{fs: fsys, f: f, kind: inPlace, warning: warning}, nil
}

// renameWarning is the warning of a file written in place because the
// rename over it failed with why.
func renameWarning(f *plan.FilePlan, why error) string {
	return fmt.Sprintf("%s: written in place, not replaced atomically: it cannot be renamed over (%v; a single-file bind mount or another file system)", f.Display, fileio.UnwrapPath(why))
}

// overwrite makes file hold exactly data, durably.
func overwrite(fsys fileio.FS, file *os.File, data []byte) error {
	if _, err := fsys.WriteAt(file, data, 0); err != nil {
		return err
	}
	if err := fsys.Truncate(file, int64(len(data))); err != nil {
		return err
	}
	if err := fsys.Sync(file); err != nil {
		return err
	}
	if !fileio.ContentEquals(file, data) {
		return errors.New("reading it back gave different bytes; check the disk")
	}
	return nil
}

// undo puts back what c replaced, if f.Path still holds what repo wrote
// (else another program has written it since, and its version stays), and
// reports whether f.Path no longer holds repo's version. It ends c.
func (c *committed) undo() (restored bool) {
	defer c.finish()
	path := c.f.Path
	if c.kind == deleted {
		switch err := putBack(c.fs, c.aside, path); {
		case err == nil:
			c.aside = ""
		case errors.Is(err, fs.ErrExist):
			// A file appeared where repo deleted one: another program's,
			// which stays.
		default:
			// The file is not back: the aside copy is not repo's to
			// remove (a later run's fileio.RemoveStale does, past its age).
			c.aside = ""
			return false
		}
		return true
	}
	if !fileio.FileEquals(c.fs, path, c.f.After) {
		// Someone else's version: not repo's to undo. A file repo created
		// that then changed is kept, and is reported as written.
		return c.kind != created
	}
	switch c.kind {
	case created:
		return c.fs.Remove(path) == nil
	case exchanged:
		if fileio.RenameExchange(c.fs, c.aside, path) == nil {
			return true // repo's version is now at aside, which finish removes
		}
	case renamed:
		if c.aside != "" && c.fs.Rename(c.aside, path) == nil {
			c.aside = ""
			return true
		}
	case inPlace:
		file, err := regfile.OpenWriteIn(c.fs, path)
		if err == nil {
			defer file.Close()
			return overwrite(c.fs, file, c.f.Before) == nil
		}
	}
	return false
}

// putBack renames aside to path unless path exists.
func putBack(fsys fileio.FS, aside, path string) error {
	err := fileio.RenameNoReplace(fsys, aside, path)
	if !errors.Is(err, fileio.ErrUnsupported) {
		return err
	}
	// A hard link is created only where no file is; then the aside name
	// goes. Where there are no hard links, a rename after a look.
	if err := fsys.Link(aside, path); err == nil {
		return fsys.Remove(aside)
	} else if errors.Is(err, fs.ErrExist) {
		return err
	}
	if _, err := fsys.Lstat(path); err == nil {
		return fs.ErrExist
	}
	return fsys.Rename(aside, path)
}

// finish ends c: the replaced inode is let go (its name first, then its
// lock).
func (c *committed) finish() {
	if c.aside != "" {
		c.fs.Remove(c.aside)
		c.aside = ""
	}
	if c.watch != nil {
		c.watch.Close()
		c.watch = nil
	}
}

// makeFolders creates the missing folders of the new files, from the top
// down, and returns the ones it created, so that a run that fails can
// remove them again: an empty .vscode/ left behind would count as
// evidence that the workspace uses VS Code.
func makeFolders(fsys fileio.FS, files []*plan.FilePlan) (created []string, err error) {
	for _, f := range files {
		if f.Existed {
			continue
		}
		var missing []string
		for dir := filepath.Dir(f.Path); ; dir = filepath.Dir(dir) {
			if _, err := fsys.Lstat(dir); err == nil {
				break
			}
			missing = append(missing, dir)
			if filepath.Dir(dir) == dir {
				break
			}
		}
		for i := len(missing) - 1; i >= 0; i-- {
			switch err := fsys.Mkdir(missing[i], 0o777); {
			case err == nil:
				created = append(created, missing[i])
			case !errors.Is(err, fs.ErrExist):
				return created, fmt.Errorf("%s: cannot create its folder: %w", f.Display, fileio.UnwrapPath(err))
			}
		}
	}
	return created, nil
}

// removeFolders removes the folders makeFolders created, deepest first,
// if they are empty.
func removeFolders(fsys fileio.FS, created []string) {
	for i := len(created) - 1; i >= 0; i-- {
		fsys.Remove(created[i])
	}
}

// removeEmptyFolders removes the folders repo created for a file it has
// deleted (FilePlan.folders, outermost first), deepest first, each only
// if it is still a folder (not a link someone put there) and empty.
func removeEmptyFolders(fsys fileio.FS, folders []string) {
	for i := len(folders) - 1; i >= 0; i-- {
		if fi, err := fsys.Lstat(folders[i]); err != nil || !fi.IsDir() || fsys.Remove(folders[i]) != nil {
			return
		}
	}
}
