package serverpaths

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/repo-manager/repo/extensions"
)

// Find reports each file a server names that is not there, once
// for a missing venv, and leaves alone what it cannot know or what only
// looks like a path.
func TestMissingPaths(t *testing.T) {
	root := t.TempDir()
	extDir := filepath.Join(root, ".repository", "extensions", "e")
	if err := os.MkdirAll(filepath.Join(extDir, "lib"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(extDir, "lib", "here.py"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	venv := filepath.Join(extDir, ".venv")
	ext := &extensions.Extension{Name: "e", Dir: extDir, Venv: venv, Python: filepath.Join(venv, "bin", "python")}
	show := func(p string) string {
		if Under(root, p) {
			r, _ := filepath.Rel(root, p)
			return filepath.ToSlash(r)
		}
		return p
	}
	s := extensions.Server{Name: "s", Extension: "e", Source: "m.json", Line: 3, Dir: root,
		Spec: extensions.Spec{Transport: extensions.Stdio, Command: ext.Python, Args: []string{
			filepath.Join(venv, "lib", "site.py"), // in the missing venv: said once, as the venv
			"-x.py",                               // a flag
			"${D}/x.py",                           // the tool's to expand
			filepath.Join(extDir, "lib", "here.py"),
			filepath.Join(extDir, "data"), // a path in the extension folder
			"/elsewhere/data",             // outside: not the workspace's
			"/elsewhere/s.js",             // a script, wherever it is
			"lib/here.py",                 // relative: not in the root
			"owner/repo",                  // only looks like a path
		}}}
	var got []string
	for _, m := range Find(s, ext, root, show) {
		got = append(got, m.Check+" "+m.Field+": "+m.What+" — "+m.Fix)
	}
	want := []string{
		"venv command: venv .repository/extensions/e/.venv does not exist — ",
		"script args[4]: path .repository/extensions/e/data does not exist — create it, or fix args[4] in m.json:3",
		"script args[6]: script /elsewhere/s.js does not exist — create it, or fix args[6] in m.json:3",
		"script args[7]: script lib/here.py does not exist in the workspace root — it is in the extension folder: write <<extension.dir>>/lib/here.py in m.json:3",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
	// A cwd only the tool can expand leaves relative paths unchecked.
	s.Dir, s.Command, s.Args = "", "./run.sh", []string{"x.py"}
	if m := Find(s, ext, root, show); len(m) != 0 {
		t.Errorf("relative to an unknown folder: %+v", m)
	}
	// A remote server names no files.
	if m := Find(extensions.Server{Spec: extensions.Spec{Transport: extensions.HTTP, URL: "https://x.invalid/a.py"}}, ext, root, show); len(m) != 0 {
		t.Errorf("remote: %+v", m)
	}
}
