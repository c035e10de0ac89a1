//go:build !windows

package regfile

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestOnlyRegularFiles plays the files a user can leave where repo reads:
// a FIFO (reading it would wait for a writer forever), a device behind a
// symbolic link (~/.claude.json -> /dev/null is a common setup), a socket
// and a directory. Each is refused at once, by kind; a regular file and a
// link to one are read.
func TestOnlyRegularFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.json")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	devLink := filepath.Join(dir, "dev.json")
	if err := os.Symlink(os.DevNull, devLink); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "s.sock")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	regular := filepath.Join(dir, "ok.json")
	if err := os.WriteFile(regular, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink(regular, link); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path, kind string
	}{
		{fifo, "a named pipe (FIFO)"},
		{devLink, "a character device"},
		{sock, "a socket"},
		{dir, "a directory"},
	} {
		done := make(chan error, 1)
		go func() { _, err := ReadFile(tc.path); done <- err }()
		select {
		case err := <-done:
			if !IsNotRegular(err) || !strings.Contains(err.Error(), tc.kind) {
				t.Errorf("%s: got %v, want a refusal naming %s", filepath.Base(tc.path), err, tc.kind)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: reading it blocked", filepath.Base(tc.path))
		}
	}
	for _, p := range []string{regular, link} {
		if b, err := ReadFile(p); err != nil || string(b) != "{}" {
			t.Errorf("%s: %q, %v", filepath.Base(p), b, err)
		}
	}
	if _, err := ReadFile(filepath.Join(dir, "missing")); !os.IsNotExist(err) {
		t.Errorf("missing file: %v, want not-exist", err)
	}
}
