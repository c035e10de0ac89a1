package target

import (
	"os"
	"path/filepath"
	"testing"
)

// TestLstatLinkAsOSLstat holds lstatLink to os.Lstat: the same link
// answer, and the same error text, for a file, a folder, a link, a
// dangling link, a missing path and a path below a file.
func TestLstatLinkAsOSLstat(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(file, filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "nowhere"), filepath.Join(dir, "dangling")); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"file", ".", "link", "dangling", "missing", "file/below"} {
		p := filepath.Join(dir, name)
		link, err := lstatLink(p)
		fi, osErr := os.Lstat(p)
		if (err == nil) != (osErr == nil) || err != nil && err.Error() != osErr.Error() {
			t.Errorf("%s: lstatLink error %v, os.Lstat's %v", name, err, osErr)
			continue
		}
		if osErr == nil && link != (fi.Mode()&os.ModeSymlink != 0) {
			t.Errorf("%s: lstatLink says link %v, os.Lstat's mode is %v", name, link, fi.Mode())
		}
	}
}
