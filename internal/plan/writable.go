package plan

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/repo-manager/repo/internal/cleanpath"
	"github.com/repo-manager/repo/internal/fileio"
	"github.com/repo-manager/repo/internal/regfile"
	"github.com/repo-manager/repo/internal/target"
	"github.com/repo-manager/repo/internal/termtext"
	"github.com/repo-manager/repo/toolprofiles"
)

// realRoot is the workspace root with its symlinks resolved, once per
// Build rather than once per file; ok is false if it could not be.
type realRoot struct {
	path string
	ok   bool
}

func resolveRoot(root string) realRoot {
	if real, err := filepath.EvalSymlinks(root); err == nil {
		return realRoot{path: real, ok: true}
	}
	return realRoot{path: root}
}

// checkWritable refuses, before anything is written, a target that a write
// would damage or that the user has marked as not to be written:
//   - anything but a regular file: a FIFO, socket or device, also behind
//     a symlink;
//   - a project file that leads out of the workspace through a symlink;
//   - a read-only file (rename would replace it regardless of its mode),
//     and one this user may not write by the system's full check (owner,
//     group, ACL, read-only mount, immutable): a rename needs only the
//     folder's permission, and would take the file from its owner;
//   - a file with other hard links (an atomic write gives this name a new
//     file and silently leaves the other names with the old content);
//   - a new file whose folder cannot be created because a file is in the way.
func checkWritable(env target.Env, root realRoot, file *fileGroup, t *target.Target) error {
	fail := func(format string, args ...any) error {
		return &FileError{File: t.Display, Err: fmt.Errorf(format, args...)}
	}
	path := file.path
	if t.Scope == toolprofiles.ScopeProject {
		real := path // already resolved by groupByFile, when it exists
		if !file.real {
			real = existingRealPath(path)
		}
		if !within(root.path, real) {
			return fail("leads outside the workspace (to %s) through a symbolic link; repo writes project files only inside the workspace", real)
		}
		// A profile's path cannot name a version-control folder
		// (toolprofiles.VCSFolder), but a symbolic link in the workspace
		// can lead into one.
		if rel, err := cleanpath.Rel(root.path, real); err == nil {
			if v := toolprofiles.VCSFolder(rel); v != "" {
				return fail("is inside %s, a version-control folder (its files can make it run commands), by way of %s; repo writes nothing there", termtext.Safe(v), termtext.Safe(filepath.ToSlash(rel)))
			}
		}
	}
	// Lstat gives what Stat would for anything but a symlink: only a
	// symlink needs the second look.
	fi, err := os.Lstat(path)
	if err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		if fi, err = os.Stat(path); fileio.IsMissing(err) {
			dest, _ := os.Readlink(path)
			target := dest
			if !filepath.IsAbs(target) {
				target = cleanpath.Join(filepath.Dir(existingRealPath(path)), target)
			}
			if root.ok && t.Scope == toolprofiles.ScopeProject && !within(root.path, existingRealPath(target)) {
				return fail("leads outside the workspace (to %s) through a symbolic link; repo writes project files only inside the workspace", target)
			}
			return fail("is a symbolic link to %s, which does not exist; create the file it points to (or remove the link) and run repo sync again", dest)
		}
	}
	switch {
	case err == nil:
		if fi.IsDir() {
			return fail("cannot read: is a directory")
		}
		if err := regfile.Check(fi); err != nil {
			// A FIFO would block the run; a device behind a link
			// (~/.claude.json -> /dev/null) would be replaced by a file.
			return fail("%v", err)
		}
		if fi.Mode().Perm()&0o200 == 0 {
			return fail("is read-only; make it writable (chmod u+w) to let repo update it")
		}
		if err := fileio.CheckWritable(path, fi); err != nil {
			return fail("%v", err)
		}
		if n := fileio.LinkCount(fi); n > 1 {
			return fail("has %d hard links; an atomic write would give this name a new file and leave the other links unchanged. Replace the hard link with a symbolic link (repo writes through those)", n)
		}
	case fileio.IsMissing(err):
		for dir := filepath.Dir(path); ; dir = filepath.Dir(dir) {
			fi, err := os.Stat(dir)
			if err == nil {
				if !fi.IsDir() {
					return fail("cannot create it: %s is a file, not a folder", env.Display(dir))
				}
				break
			}
			if parent := filepath.Dir(dir); parent == dir {
				break
			}
		}
	}
	return nil
}

// existingRealPath resolves the symlinks of the longest existing prefix of
// p, so a path not created yet is judged by where its folder really is.
func existingRealPath(p string) string { return target.RealPath(p) }

func within(dir, p string) bool {
	r, err := cleanpath.Rel(dir, p)
	return err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator))
}
