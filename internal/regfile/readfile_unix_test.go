//go:build unix

package regfile

import (
	"bytes"
	"errors"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
)

// TestReadFileAsOS: ReadFile reads what Open and an os.File read, and
// fails as they fail, with the same message and kind of error, for every
// kind of path a user can leave where repo reads.
func TestReadFileAsOS(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	big := bytes.Repeat([]byte("0123456789abcdef"), 70000) // over 1 MB
	paths := map[string]string{
		"empty":               write("empty.json", nil),
		"small":               write("small.json", []byte(`{"mcpServers": {}}`)),
		"big":                 write("big.json", big),
		"missing":             filepath.Join(dir, "missing.json"),
		"in a missing folder": filepath.Join(dir, "no", "such.json"),
		"under a file":        filepath.Join(dir, "small.json", "x"),
		"directory":           dir,
		"device":              os.DevNull,
	}
	link := func(name, to string) {
		p := filepath.Join(dir, name)
		if err := os.Symlink(to, p); err != nil {
			t.Fatal(err)
		}
		paths[name] = p
	}
	link("link to a file", "small.json")
	link("dangling link", "nowhere.json")
	link("link loop", "link loop")
	link("link to a device", os.DevNull)
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err == nil {
		paths["fifo"] = fifo
	}
	if l, err := net.Listen("unix", filepath.Join(dir, "s.sock")); err == nil {
		defer l.Close()
		paths["socket"] = filepath.Join(dir, "s.sock")
	}
	unreadable := write("unreadable.json", []byte("{}"))
	if err := os.Chmod(unreadable, 0); err != nil {
		t.Fatal(err)
	}
	paths["unreadable"] = unreadable
	for name, p := range paths {
		got, gotErr := ReadFile(p)
		want, wantErr := readFileOS(p)
		if !bytes.Equal(got, want) {
			t.Errorf("%s: read %d bytes, os reads %d", name, len(got), len(want))
		}
		if (gotErr == nil) != (wantErr == nil) || (gotErr != nil && gotErr.Error() != wantErr.Error()) {
			t.Errorf("%s: error %v, os's %v", name, gotErr, wantErr)
			continue
		}
		if gotErr == nil {
			continue
		}
		if reflect.TypeOf(gotErr) != reflect.TypeOf(wantErr) || errors.Is(gotErr, fs.ErrNotExist) != errors.Is(wantErr, fs.ErrNotExist) ||
			errors.Is(gotErr, fs.ErrPermission) != errors.Is(wantErr, fs.ErrPermission) || IsNotRegular(gotErr) != IsNotRegular(wantErr) {
			t.Errorf("%s: error %#v is not of os's kind %#v", name, gotErr, wantErr)
		}
	}
	if got, _ := ReadFile(paths["big"]); !bytes.Equal(got, big) {
		t.Errorf("big: read %d bytes of %d", len(got), len(big))
	}
	if !strings.Contains(func() string { _, err := ReadFile(paths["fifo"]); return err.Error() }(), "named pipe") {
		t.Error("a FIFO was not refused by kind")
	}
}

// BenchmarkReadFile: a small tool config read with the system calls
// themselves, against Open and an os.File.
func BenchmarkReadFile(b *testing.B) {
	p := filepath.Join(b.TempDir(), "mcp.json")
	if err := os.WriteFile(p, bytes.Repeat([]byte(`{"mcpServers": {"s": {"command": "node"}}}`+"\n"), 40), 0o644); err != nil {
		b.Fatal(err)
	}
	for name, read := range map[string]func(string) ([]byte, error){"syscalls": ReadFile, "os.File": readFileOS} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := read(p); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
