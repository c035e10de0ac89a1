package gittrack

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// Versions returns the content of path (absolute, in the work tree whose
// top folder is top) as git holds it: in the commit HEAD names and in the
// index. A version git does not have (no commit yet, a file not in the
// commit, not staged, or in conflict) is nil. It is what tells a file's
// lines that came from the repository — a clone, a pull, a checkout —
// from lines this clone wrote since.
func Versions(top, path string) (head, index []byte, err error) {
	rel, err := filepath.Rel(top, path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return nil, nil, nil
	}
	rel = filepath.ToSlash(rel)
	if strings.ContainsAny(rel, "\n\r") {
		// cat-file --batch reads one object name a line.
		return nil, nil, fmt.Errorf("%s: repo cannot ask git about a path with a line break in it", path)
	}
	// One process for both: cat-file --batch answers each object name on
	// its input in turn, "<name> missing" for one it does not have.
	cmd := exec.Command("git", "-C", top, "cat-file", "--batch")
	cmd.Stdin = strings.NewReader("HEAD:" + rel + "\n:" + rel + "\n")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if errors.Is(err, exec.ErrNotFound) {
			return nil, nil, fmt.Errorf("%s is a git work tree, but %w: install git so that repo can tell what git holds", top, ErrNoGit)
		}
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return nil, nil, fmt.Errorf("asking git for %s in %s: %s", rel, top, msg)
	}
	r := bufio.NewReader(bytes.NewReader(out))
	var got [2][]byte
	for i := range got {
		if got[i], err = batchObject(r); err != nil {
			return nil, nil, fmt.Errorf("asking git for %s in %s: %w", rel, top, err)
		}
	}
	return got[0], got[1], nil
}

// batchObject reads one answer of git cat-file --batch: "<oid> <type>
// <size>\n<content>\n", or "<name> missing\n" (nil) — also for a name
// that is not a blob, which a record path never is.
func batchObject(r *bufio.Reader) ([]byte, error) {
	line, err := r.ReadString('\n')
	if err != nil {
		return nil, fmt.Errorf("unexpected end of git's answer")
	}
	f := strings.Fields(line)
	if len(f) != 3 {
		return nil, nil // "<name> missing", "<name> ambiguous"
	}
	size, err := strconv.Atoi(f[2])
	if err != nil || size < 0 {
		return nil, fmt.Errorf("unexpected answer %q", strings.TrimSpace(line))
	}
	buf := make([]byte, size+1) // and the newline after it
	if _, err := io.ReadFull(r, buf); err != nil {
		return nil, fmt.Errorf("unexpected end of git's answer")
	}
	if f[1] != "blob" {
		return nil, nil
	}
	return buf[:size], nil
}
