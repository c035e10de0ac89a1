package cleanpath

import (
	"path/filepath"
	"testing"
)

// paths covers the shapes the shortcut must tell apart: clean and not,
// absolute and relative, prefixes that stop inside an element.
var paths = []string{
	"", "/", "//", ".", "..", "a", "a/", "./a", "../a", "a/.", "a/..", "a/./b", "a/../b", "a//b",
	"/a", "/a/", "/a/b", "/a/b/", "/a//b", "/a/./b", "/a/../b", "/a/.", "/a/..", "/..", "/.",
	"/ab", "/a/bc", "/a/b/c", "/a.b", "/a/.b", "/a/..b", "/a/b..", ".a", "..a", "a..", "/a/b/../c",
	"/home/u/.config/repo", "/home/u/.config", "/home/u/.config/", "/home/u/.configs",
	"/tmp/ws/.repository/extensions/x/mcp.json", "/tmp/ws", ".vscode/mcp.json", "mcp.json",
}

func TestJoinAsFilepath(t *testing.T) {
	for _, a := range paths {
		for _, b := range paths {
			if got, want := Join(a, b), filepath.Join(a, b); got != want {
				t.Errorf("Join(%q, %q) = %q, filepath.Join gives %q", a, b, got, want)
			}
		}
	}
	for _, elems := range [][]string{nil, {}, {"/a"}, {"/a", "b", "c"}, {"", ""}} {
		if got, want := Join(elems...), filepath.Join(elems...); got != want {
			t.Errorf("Join(%q) = %q, filepath.Join gives %q", elems, got, want)
		}
	}
}

func TestCleanDirAsFilepath(t *testing.T) {
	for _, p := range paths {
		if got, want := Clean(p), filepath.Clean(p); got != want {
			t.Errorf("Clean(%q) = %q, filepath.Clean gives %q", p, got, want)
		}
		if got, want := Dir(p), filepath.Dir(p); got != want {
			t.Errorf("Dir(%q) = %q, filepath.Dir gives %q", p, got, want)
		}
	}
}

func TestRelAsFilepath(t *testing.T) {
	for _, a := range paths {
		for _, b := range paths {
			got, gotErr := Rel(a, b)
			want, wantErr := filepath.Rel(a, b)
			if got != want || (gotErr == nil) != (wantErr == nil) {
				t.Errorf("Rel(%q, %q) = %q, %v; filepath.Rel gives %q, %v", a, b, got, gotErr, want, wantErr)
			}
		}
	}
}

// TestShortcutTaken fails if the shortcut never applies: the differential
// tests above would pass with Join and Rel only calling filepath.
func TestShortcutTaken(t *testing.T) {
	if !slash {
		t.Skip("no shortcut on this OS")
	}
	for _, p := range []string{"/", "/a", "/home/u/.config/repo"} {
		if !absClean(p) {
			t.Errorf("absClean(%q) = false", p)
		}
	}
	for _, p := range []string{"a", ".vscode/mcp.json", "a..", ".a"} {
		if !relClean(p) {
			t.Errorf("relClean(%q) = false", p)
		}
	}
	for _, p := range []string{"", "/a/", "//", "/a/./b", "/a/..", "/a//b"} {
		if absClean(p) {
			t.Errorf("absClean(%q) = true", p)
		}
	}
	for _, p := range []string{"", ".", "..", "a/", "./a", "a/../b", "/a"} {
		if relClean(p) {
			t.Errorf("relClean(%q) = true", p)
		}
	}
	if n := testing.AllocsPerRun(10, func() { _, _ = Rel("/home/u", "/home/u/.config/repo") }); n != 0 {
		t.Errorf("Rel of clean paths allocates %v times; the shortcut should not", n)
	}
}

func FuzzJoin(f *testing.F) {
	for _, a := range paths {
		f.Add(a, "b")
		f.Add("/a", a)
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		if got, want := Join(a, b), filepath.Join(a, b); got != want {
			t.Errorf("Join(%q, %q) = %q, filepath.Join gives %q", a, b, got, want)
		}
	})
}

func FuzzRel(f *testing.F) {
	for _, a := range paths {
		f.Add(a, "/a/b")
		f.Add("/a", a)
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		got, gotErr := Rel(a, b)
		want, wantErr := filepath.Rel(a, b)
		if got != want || (gotErr == nil) != (wantErr == nil) {
			t.Errorf("Rel(%q, %q) = %q, %v; filepath.Rel gives %q, %v", a, b, got, gotErr, want, wantErr)
		}
	})
}

func FuzzCleanDir(f *testing.F) {
	for _, p := range paths {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, p string) {
		if got, want := Clean(p), filepath.Clean(p); got != want {
			t.Errorf("Clean(%q) = %q, filepath.Clean gives %q", p, got, want)
		}
		if got, want := Dir(p), filepath.Dir(p); got != want {
			t.Errorf("Dir(%q) = %q, filepath.Dir gives %q", p, got, want)
		}
	})
}
