package target

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// The memo resolves every path as RealPath does — files, folders, links
// to files and to folders, relative and absolute, chains, links to what
// is missing, paths below a file or below a missing folder, loops — and,
// once it has, a path asked again costs no look at the file system.
func TestPathsResolveAsRealPath(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the memo hands Windows paths to RealPath")
	}
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	mk := func(rel string) {
		if err := os.MkdirAll(filepath.Join(dir, rel), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	file := func(rel string) {
		if err := os.WriteFile(filepath.Join(dir, rel), []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	link := func(target, rel string) {
		if err := os.Symlink(target, filepath.Join(dir, rel)); err != nil {
			t.Fatal(err)
		}
	}
	mk("ws/.cursor")
	mk("real/sub")
	file("ws/.mcp.json")
	file("real/sub/mcp.json")
	link("../.mcp.json", "ws/.cursor/mcp.json")      // relative, to a file
	link(filepath.Join(dir, "real"), "ws/linked")    // absolute, to a folder
	link("linked/sub", "ws/chain")                   // a link through a link
	link("nowhere/mcp.json", "ws/dangling")          // to nothing
	link("loop-b", "ws/loop-a")                      // a loop
	link("loop-a", "ws/loop-b")                      //
	link("../real/sub/../sub/mcp.json", "ws/dotdot") // .. in the target
	paths := []string{
		"/",
		dir,
		filepath.Join(dir, "ws"),
		filepath.Join(dir, "ws/.mcp.json"),
		filepath.Join(dir, "ws/.cursor/mcp.json"),
		filepath.Join(dir, "ws/linked/sub/mcp.json"),
		filepath.Join(dir, "ws/linked/sub/new.json"),
		filepath.Join(dir, "ws/linked/missing/deeper/new.json"),
		filepath.Join(dir, "ws/chain/mcp.json"),
		filepath.Join(dir, "ws/chain"),
		filepath.Join(dir, "ws/dangling"),
		filepath.Join(dir, "ws/dangling/below"),
		filepath.Join(dir, "ws/loop-a"),
		filepath.Join(dir, "ws/loop-a/below"),
		filepath.Join(dir, "ws/dotdot"),
		filepath.Join(dir, "ws/.mcp.json/below"), // below a file
		filepath.Join(dir, "ws/not-yet/.vscode/mcp.json"),
		filepath.Join(dir, "ws/.cursor/../.mcp.json"), // not clean: RealPath's own way
		"relative/path",
	}
	env := Env{Paths: NewPaths()}
	for round := range 2 {
		for _, p := range paths {
			if got, want := env.RealPath(p), RealPath(p); got != want {
				t.Errorf("round %d: %s resolves to %s, RealPath says %s", round, p, got, want)
			}
			got, gotErr := env.EvalSymlinks(p)
			want, wantErr := filepath.EvalSymlinks(p)
			if got != want || (gotErr == nil) != (wantErr == nil) {
				t.Errorf("round %d: EvalSymlinks(%s) = %q, %v; filepath says %q, %v", round, p, got, gotErr, want, wantErr)
			}
		}
	}
	// Exists and RealPath share what lstat said of a path: one that Exists
	// looked at first (links included) still resolves as RealPath does.
	looked := Env{Paths: NewPaths()}
	for _, p := range paths {
		looked.Exists(p)
	}
	for _, p := range paths {
		if got, want := looked.RealPath(p), RealPath(p); got != want {
			t.Errorf("after Exists, %s resolves to %s, RealPath says %s", p, got, want)
		}
	}
	// What the memo saw is what the run judges by, until it forgets.
	p := filepath.Join(dir, "ws/linked/sub/mcp.json")
	before := env.RealPath(p)
	if err := os.Remove(filepath.Join(dir, "ws/linked")); err != nil {
		t.Fatal(err)
	}
	mk("ws/linked/sub")
	if got := env.RealPath(p); got != before {
		t.Errorf("the memo looked again before Forget: %s, then %s", before, got)
	}
	env.Paths.Forget()
	if got, want := env.RealPath(p), RealPath(p); got != want || got == before {
		t.Errorf("after Forget %s resolves to %s, want %s (not %s)", p, got, want, before)
	}
}

// Exists says what Lstat says (a dangling link is there), remembers it,
// and passes on errors other than "not there" without remembering them.
func TestPathsExists(t *testing.T) {
	dir := t.TempDir()
	there := filepath.Join(dir, "there")
	if err := os.WriteFile(there, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	dangling := filepath.Join(dir, "dangling")
	if err := os.Symlink("nowhere", dangling); err != nil {
		t.Fatal(err)
	}
	env := Env{Paths: NewPaths()}
	for _, c := range []struct {
		path string
		want bool
	}{{there, true}, {dangling, true}, {filepath.Join(dir, "missing"), false}, {filepath.Join(there, "below"), false}} {
		for _, e := range []Env{env, {}} {
			if got, err := e.Exists(c.path); err != nil || got != c.want {
				t.Errorf("Exists(%s) (memo %v) = %v, %v; want %v", c.path, e.Paths != nil, got, err, c.want)
			}
		}
	}
	if err := os.Remove(there); err != nil {
		t.Fatal(err)
	}
	if got, _ := env.Exists(there); !got {
		t.Error("the memo looked again before Forget")
	}
	env.Paths.Forget()
	if got, _ := env.Exists(there); got {
		t.Error("after Forget, a removed file still exists")
	}
	if os.Geteuid() != 0 {
		locked := filepath.Join(dir, "locked")
		if err := os.Mkdir(locked, 0o000); err != nil {
			t.Fatal(err)
		}
		defer os.Chmod(locked, 0o755)
		if _, err := env.Exists(filepath.Join(locked, "f")); err == nil {
			t.Error("a folder that cannot be searched: no error")
		}
	}
}
