package extensions

import (
	"path/filepath"
	"testing"
)

// TestResolveUnderIsEvalSymlinks: for paths inside a folder reached
// through links, with links (inside, outside, dangling, looping) below it,
// resolveUnder finds what filepath.EvalSymlinks finds, or fails as it does.
func TestResolveUnderIsEvalSymlinks(t *testing.T) {
	base := t.TempDir()
	writeTree(t, base, map[string]string{
		"real/ext/mcp.json":        "{}",
		"real/ext/lib/inner.json":  "{}",
		"real/ext/sub/deep/x.json": "{}",
		"outside/o.json":           "{}",
	})
	for link, target := range map[string]string{
		"ws":                   "real",                   // the workspace path itself is a link
		"real/ext/inlink":      "lib",                    // a folder link inside
		"real/ext/file.json":   "lib/inner.json",         // a file link inside
		"real/ext/abs.json":    base + "/outside/o.json", // a file link outside
		"real/ext/out":         "../../outside",          // a folder link outside
		"real/ext/dangling":    "nothing",
		"real/ext/loop":        "loop",
		"real/ext/sub/up.json": "../mcp.json",
	} {
		symlinkOrSkip(t, target, filepath.Join(base, filepath.FromSlash(link)))
	}
	dir := filepath.Join(base, "ws", "ext")
	realDir, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, rel := range []string{
		"mcp.json", "lib/inner.json", "sub/deep/x.json", "inlink/inner.json", "file.json", "abs.json",
		"out/o.json", "dangling", "dangling/x", "loop", "missing.json", "lib/missing.json", "sub/up.json", "lib",
	} {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		want, wantErr := filepath.EvalSymlinks(p)
		got, err := resolveUnder(dir, realDir, p)
		if got != want || (err == nil) != (wantErr == nil) || (err != nil && err.Error() != wantErr.Error()) {
			t.Errorf("%s: resolveUnder = %q, %v; EvalSymlinks = %q, %v", rel, got, err, want, wantErr)
		}
	}
}

// TestLoadThroughLinkedFolders: a workspace reached through a link, and an
// extension folder that is a link, load as the real folders would.
func TestLoadThroughLinkedFolders(t *testing.T) {
	base := t.TempDir()
	writeTree(t, base, map[string]string{
		"real/.repository/extensions/a/extension.toml": "name = \"a\"\n[provides]\nmcp = \"lib/mcp.json\"\n",
		"real/.repository/extensions/a/lib/mcp.json":   `{"mcpServers": {"sa": {"command": "x"}}}`,
		"elsewhere/b/extension.toml":                   "name = \"b\"\n[provides]\nmcp = \"mcp.json\"\n",
		"elsewhere/b/mcp.json":                         `{"mcpServers": {"sb": {"command": "y"}}}`,
	})
	symlinkOrSkip(t, filepath.Join(base, "real"), filepath.Join(base, "ws"))
	symlinkOrSkip(t, filepath.Join(base, "elsewhere", "b"), filepath.Join(base, "real", ".repository", "extensions", "b"))
	symlinkOrSkip(t, "../../../../elsewhere/b/mcp.json", filepath.Join(base, "real/.repository/extensions/a/mcp-out.json"))
	ws, err := Load(Options{Root: filepath.Join(base, "ws"), GOOS: "linux"})
	if err != nil {
		t.Fatal(err)
	}
	if len(ws.Servers) != 2 || ws.Servers[0].Name != "sa" || ws.Servers[1].Name != "sb" {
		t.Fatalf("servers = %+v", ws.Servers)
	}
	// The same link, named by the manifest, leads out of extension a.
	writeTree(t, base, map[string]string{"real/.repository/extensions/a/extension.toml": "name = \"a\"\n[provides]\nmcp = \"mcp-out.json\"\n"})
	if _, err := Load(Options{Root: filepath.Join(base, "ws"), GOOS: "linux"}); err == nil {
		t.Fatal("a link out of the extension folder was accepted")
	}
}
