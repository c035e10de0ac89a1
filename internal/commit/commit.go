package commit

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/repo-manager/repo/internal/fileio"
	"github.com/repo-manager/repo/internal/plan"
	"github.com/repo-manager/repo/internal/regfile"
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

// errChangedSince: undoing a commit found another program's version of
// the file, which stays.
var errChangedSince = errors.New("another program changed it since repo wrote it")

// commitFile puts the staged file (fileio.StageFile) in place of f.Path.
// On an error with no committed, the staged file is gone and f.Path is as
// it was. On an error with one, f.Path holds repo's version, which the
// committed undoes: the check after the swap found another program's
// write, or could not be made.
func commitFile(fsys fileio.FS, f *plan.FilePlan, s *fileio.Staged) (c *committed, err error) {
	defer func() {
		if err != nil && c == nil {
			s.Remove()
		} else {
			s.Release() // no longer at a staged name, or holding the replaced file
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
	if err := holds(fsys, f.Path, f.Before); err != nil {
		return nil, err
	}
	switch err := fileio.RenameExchange(fsys, s.Name, f.Path); {
	case err == nil:
		c := &committed{fs: fsys, f: f, kind: exchanged, aside: s.Name}
		// Another program may have written the file after repo read it:
		// the run puts its version back (unless it has written yet again
		// over ours).
		return c, c.checkAside()
	case fileio.RenameImpossible(err):
		return writeInPlace(fsys, f, s.Name, renameWarning(f, err))
	case !errors.Is(err, fileio.ErrUnsupported):
		return nil, err
	}
	return replaceByLink(fsys, f, s.Name)
}

// holds is nil if the file at path holds want, ErrChanged if it does not
// (another program changed it, or removed it), or why it cannot be read.
func holds(fsys fileio.FS, path string, want []byte) error {
	eq, err := fileio.FileEquals(fsys, path, want)
	switch {
	case err != nil:
		return err
	case !eq:
		return ErrChanged
	}
	return nil
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
	switch _, err := fsys.Lstat(f.Path); {
	case err == nil:
		return nil, ErrChanged
	case !fileio.IsMissing(err):
		return nil, err
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
	if err := holds(fsys, f.Path, f.Before); err != nil {
		c.finish()
		return nil, err
	}
	if aside != "" {
		_ = c.watchAside() // best effort: without it a write into it goes unseen
	}
	if err := fsys.Rename(staged, f.Path); err != nil {
		c.finish()
		if fileio.RenameImpossible(err) {
			return writeInPlace(fsys, f, staged, renameWarning(f, err))
		}
		return nil, err
	}
	if c.watch == nil {
		return c, nil
	}
	// The rename unlinked the replaced inode from f.Path, which changed
	// its change time: its version is taken again (else every file would
	// look written into), then it is checked as a swapped-out one is.
	if fi, err := c.watch.Stat(); err == nil {
		c.ver = fileio.VersionOf(fi)
	} else {
		c.watch.Close() // unwatched, as where no hard link can be made
		c.watch = nil
		return c, nil
	}
	if !fileio.ContentEquals(c.watch, f.Before) {
		return c, ErrChanged
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
	if err := holds(fsys, f.Path, f.Before); err != nil {
		return nil, err
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
	// Another program may have replaced the file after repo read it: the
	// run puts its version back.
	return c, c.checkAside()
}

// checkAside opens the inode c replaced (watchAside) and checks that it
// is the one repo planned from: ErrChanged if another program wrote it
// after repo read it.
func (c *committed) checkAside() error {
	if err := c.watchAside(); err != nil {
		return err
	}
	if !fileio.ContentEquals(c.watch, c.f.Before) {
		return ErrChanged
	}
	return nil
}

// watchAside opens the replaced inode kept at c.aside, locks it as a
// staged file is locked (a later run's fileio.RemoveStale leaves it to
// this run while it goes), and notes its version.
func (c *committed) watchAside() error {
	f, fi, err := regfile.OpenIn(c.fs, c.aside)
	if err != nil {
		return err
	}
	fileio.HoldStaged(c.fs, f)
	c.watch, c.ver = f, fileio.VersionOf(fi)
	return nil
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

// undo puts back what c replaced, if f.Path still holds what repo wrote,
// and ends c. It returns nil when f.Path no longer holds repo's version:
// put back, or another program's version, which stays; else why it
// holds it still: errChangedSince for a file repo created that another
// program then changed (not repo's to remove), or the error that kept it
// from putting the file back.
func (c *committed) undo() error {
	defer c.finish()
	if c.kind == deleted {
		return c.undoDelete()
	}
	path := c.f.Path
	switch eq, err := fileio.FileEquals(c.fs, path, c.f.After); {
	case err != nil:
		return fmt.Errorf("reading it: %w", fileio.UnwrapPath(err))
	case !eq && c.kind == created:
		return errChangedSince
	case !eq:
		return nil // someone else's version: not repo's to undo
	}
	switch c.kind {
	case created:
		if err := c.fs.Remove(path); err != nil {
			return fmt.Errorf("removing it: %w", fileio.UnwrapPath(err))
		}
	case exchanged:
		if err := fileio.RenameExchange(c.fs, c.aside, path); err != nil {
			return fmt.Errorf("swapping it back: %w", fileio.UnwrapPath(err))
		}
		// repo's version is now at aside, which finish removes
	case renamed:
		if c.aside == "" {
			return errors.New("its old version could not be kept: no hard link to it could be made")
		}
		if err := c.fs.Rename(c.aside, path); err != nil {
			return fmt.Errorf("renaming its old version back: %w", fileio.UnwrapPath(err))
		}
		c.aside = ""
	case inPlace:
		return c.undoInPlace()
	}
	return nil
}

// undoDelete renames the deleted file back, unless a file has appeared
// at its name: another program's, which stays.
func (c *committed) undoDelete() error {
	switch err := putBack(c.fs, c.aside, c.f.Path); {
	case err == nil:
		c.aside = ""
	case errors.Is(err, fs.ErrExist):
	default:
		// The file is not back: the aside copy is not repo's to
		// remove (a later run's fileio.RemoveStale does, past its age).
		c.aside = ""
		return fmt.Errorf("renaming it back: %w", fileio.UnwrapPath(err))
	}
	return nil
}

// undoInPlace writes f.Before back over the file c wrote in place.
func (c *committed) undoInPlace() error {
	file, err := regfile.OpenWriteIn(c.fs, c.f.Path)
	if err == nil {
		defer file.Close()
		err = overwrite(c.fs, file, c.f.Before)
	}
	if err != nil {
		return fmt.Errorf("writing its old content back: %w", fileio.UnwrapPath(err))
	}
	return nil
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
		fsys.Remove(aside) // else finish tries again
		return nil
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
