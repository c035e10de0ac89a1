package gittrack

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// FromRepository reports whether the file at path (absolute, in the work
// tree whose top folder is top) holds exactly what git holds for it: the
// version in the index, in the commit HEAD names, or — for a file git no
// longer tracks — the version the commit that stopped tracking it removed
// (git rm --cached, then a commit). Such a file's content came from the
// repository (a clone, a pull, a checkout) and not from this clone: a
// policy that makes the file per-clone found it written on another one.
//
// It compares git's object names, never the bytes, as git would (its
// filters applied to the work tree's file). A missing file, a path outside
// the work tree, or one git never held is not from the repository. The
// history is searched only for a file in neither HEAD nor the index, and
// only back to the last commit that touched it.
func FromRepository(top, path string) (bool, error) {
	rel, err := filepath.Rel(top, path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return false, nil
	}
	rel = filepath.ToSlash(rel)
	if strings.ContainsAny(rel, "\n\r") {
		return false, fmt.Errorf("%s: repo cannot ask git about a path with a line break in it", path)
	}
	if fi, err := os.Lstat(path); err != nil || !fi.Mode().IsRegular() {
		return false, nil
	}
	own, err := run(top, nil, "hash-object", "--", rel)
	if err != nil {
		return false, err
	}
	own = strings.TrimSpace(own)
	names, err := objectNames(top, "HEAD:"+rel, ":"+rel)
	if err != nil {
		return false, err
	}
	if names[0] != "" || names[1] != "" {
		// Tracked, or in HEAD: only those versions count, not older ones
		// (a file this clone rewrote is this clone's).
		return own == names[0] || own == names[1], nil
	}
	head, err := run(top, strings.NewReader("HEAD\n"), "cat-file", "--batch-check")
	if err != nil {
		return false, err
	}
	if f := strings.Fields(head); len(f) != 3 || f[1] != "commit" {
		return false, nil // no commit yet
	}
	last, err := run(top, nil, "log", "-n", "1", "--format=%H", "HEAD", "--", rel)
	if err != nil {
		return false, err
	}
	last = strings.TrimSpace(last)
	if last == "" {
		return false, nil // never committed
	}
	// last removed the file (HEAD does not have it): its parents had it.
	before, err := objectNames(top, last+"^1:"+rel, last+"^2:"+rel)
	if err != nil {
		return false, err
	}
	return own == before[0] || own == before[1], nil
}

// objectNames asks git for the object name of each of specs (git cat-file
// --batch-check), "" for one it does not have or that is not a blob.
func objectNames(top string, specs ...string) ([]string, error) {
	out, err := run(top, strings.NewReader(strings.Join(specs, "\n")+"\n"), "cat-file", "--batch-check")
	if err != nil {
		return nil, err
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != len(specs) {
		return nil, fmt.Errorf("asking git for %s in %s: unexpected answer %q", strings.Join(specs, ", "), top, out)
	}
	names := make([]string, len(specs))
	for i, l := range lines {
		if f := strings.Fields(l); len(f) == 3 && f[1] == "blob" {
			names[i] = f[0]
		}
	}
	return names, nil
}

// run runs git in top with stdin and returns its output; the error says
// what git said.
func run(top string, stdin *strings.Reader, args ...string) (string, error) {
	cmd := exec.Command("git", append([]string{"-C", top}, args...)...)
	if stdin != nil {
		cmd.Stdin = stdin
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if errors.Is(err, exec.ErrNotFound) {
			return "", fmt.Errorf("%s is a git work tree, but %w: install git so that repo can tell what git holds", top, ErrNoGit)
		}
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return "", fmt.Errorf("asking git (%s) in %s: %s", args[0], top, msg)
	}
	return string(out), nil
}
