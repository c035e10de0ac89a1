package cmd

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/repo-manager/repo/extensions"
)

// TestRootTooLongToStat: a workspace whose path is longer than PATH_MAX
// (4,096 bytes on Linux) cannot be looked into by path. repo used to take
// the failed stat for "no .repository here" and walk up to the workspace
// around it, syncing that one instead (issue 18, class 7); it is an error
// now, from the working directory and with --root.
func TestRootTooLongToStat(t *testing.T) {
	outer := t.TempDir()
	if err := os.MkdirAll(filepath.Join(outer, extensions.RepoDir, "extensions"), 0o755); err != nil {
		t.Fatal(err)
	}
	// A path this long cannot be given to mkdir: each folder is made in
	// the one before, by file descriptor.
	fd, err := unix.Open(outer, unix.O_RDONLY|unix.O_DIRECTORY, 0)
	if err != nil {
		t.Fatal(err)
	}
	deep := outer
	for len(deep) <= 4200 {
		name := strings.Repeat("d", 200)
		if err := unix.Mkdirat(fd, name, 0o755); err != nil {
			t.Fatal(err)
		}
		next, err := unix.Openat(fd, name, unix.O_RDONLY|unix.O_DIRECTORY, 0)
		unix.Close(fd)
		if err != nil {
			t.Fatal(err)
		}
		fd, deep = next, deep+"/"+name
	}
	err = unix.Mkdirat(fd, extensions.RepoDir, 0o755)
	unix.Close(fd)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(deep, extensions.RepoDir)); !errors.Is(err, unix.ENAMETOOLONG) {
		t.Skipf("stat of a %d-byte path: %v, not ENAMETOOLONG", len(deep), err)
	}

	for _, c := range []struct{ wd, flag string }{{deep, ""}, {deep + "/sub", ""}, {"/", deep}} {
		root, err := factoryAt(c.wd, nil).Root(c.flag)
		if err == nil {
			t.Errorf("wd %d bytes, --root %d bytes: root %s, want an error", len(c.wd), len(c.flag), root)
			continue
		}
		var ue usageError
		if !strings.Contains(err.Error(), "file name too long") || errors.As(err, &ue) {
			t.Errorf("wd %d bytes, --root %d bytes: %v", len(c.wd), len(c.flag), err)
		}
	}
}
