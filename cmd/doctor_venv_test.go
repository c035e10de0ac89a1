package cmd

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// pyvenvHome reads home as Python's getpath does: the first line whose
// key before "=" is home, in any case, both sides trimmed; other lines,
// comments and lines without "=" are not home.
func TestPyvenvHome(t *testing.T) {
	dir := t.TempDir()
	abs := filepath.Join(dir, "py", "bin")
	show := func(p string) string { return p }
	for _, tt := range []struct {
		name, body, home, problem string
	}{
		{"plain", "home = " + abs + "\nversion = 3.12.3\n", abs, ""},
		{"no spaces, CRLF", "home=" + abs + "\r\n", abs, ""},
		{"key in capitals, indented", "  HOME\t=  " + abs + "  \n", abs, ""},
		{"first home wins", "home = " + abs + "\nhome = /elsewhere\n", abs, ""},
		{"other keys first", "include-system-site-packages = false\nhome = " + abs + "\n", abs, ""},
		{"homedir is not home", "homedir = " + abs + "\n", "", "has no home = line"},
		{"home without =", "home " + abs + "\n", "", "has no home = line"},
		{"commented out", "# home = " + abs + "\n", "", "has no home = line"},
		{"empty", "", "", "has no home = line"},
		{"relative home", "home = bin\n", "", "home = bin, which is not an absolute path"},
		{"not text", "home = " + abs + "\x00\n", "", "is not text"},
		{"too large", "home = " + abs + "\n" + strings.Repeat("#\n", pyvenvCfgMax), "", "larger than 64 KiB"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cfg := filepath.Join(dir, "pyvenv.cfg")
			if err := os.WriteFile(cfg, []byte(tt.body), 0o644); err != nil {
				t.Fatal(err)
			}
			home, problem := pyvenvHome(cfg, show)
			if home != tt.home || (tt.problem == "") != (problem == "") || !strings.Contains(problem, tt.problem) {
				t.Fatalf("pyvenvHome = %q, %q; want %q, a problem containing %q", home, problem, tt.home, tt.problem)
			}
		})
	}
}

// A pyvenv.cfg that is not a file (a link to a device, which would never
// end) is refused before it is read.
func TestPyvenvHomeNotAFile(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no /dev/zero")
	}
	dir := t.TempDir()
	cfg := filepath.Join(dir, "pyvenv.cfg")
	if err := os.Symlink("/dev/zero", cfg); err != nil {
		t.Fatal(err)
	}
	if home, problem := pyvenvHome(cfg, func(p string) string { return p }); home != "" || !strings.Contains(problem, "is not a file") {
		t.Fatalf("pyvenvHome = %q, %q; want it refused as not a file", home, problem)
	}
}
