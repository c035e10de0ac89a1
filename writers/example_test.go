package writers_test

import (
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/repo-manager/repo/extensions"
	"github.com/repo-manager/repo/toolprofiles"
	"github.com/repo-manager/repo/writers"
)

// A host program loads a workspace, plans a sync of its servers into
// Cursor's project file, and prints what `repo sync --check` reports and
// the diff `repo sync --dry-run` shows. Apply(p) would write it.
func Example() {
	root, _ := os.MkdirTemp("", "workspace")
	defer os.RemoveAll(root)
	ext := filepath.Join(root, ".repository", "extensions", "hello")
	must(os.MkdirAll(ext, 0o755))
	must(os.WriteFile(filepath.Join(ext, "extension.toml"), []byte("name = \"hello\"\nversion = \"1.0.0\"\n\n[provides]\nmcp = \"mcp.json\"\n"), 0o644))
	must(os.WriteFile(filepath.Join(ext, "mcp.json"), []byte(`{"mcpServers": {"hello": {"command": "npx", "args": ["-y", "hello-mcp"]}}}`), 0o644))
	must(os.MkdirAll(filepath.Join(root, ".cursor"), 0o755))
	must(os.WriteFile(filepath.Join(root, ".cursor", "mcp.json"), []byte("{\n  \"mcpServers\": {}\n}\n"), 0o644))

	// Load: the workspace's servers and the tool profiles.
	home := filepath.Join(root, "home")
	ws, err := extensions.Load(extensions.Options{Root: root, Home: home, GOOS: "linux"})
	must(err)
	set, err := toolprofiles.Builtin()
	must(err)
	env := writers.Env{Root: root, Env: toolprofiles.Env{Home: home, GOOS: "linux", Getenv: func(string) string { return "" }}}

	// Plan: nothing is written.
	targets, _, err := writers.BuildTargets(ws.Servers, []*toolprofiles.Profile{set.Get("cursor")}, toolprofiles.ScopeProject, env)
	must(err)
	p, err := writers.Build(env, targets, writers.Options{ReadOnly: true})
	must(err)
	defer p.Close()

	// Check and diff.
	for _, f := range p.Stale() {
		for _, c := range f.Changes {
			fmt.Printf("%s: %s %q: %s\n", f.Display, c.Action, c.Entry, c.Reason)
		}
	}
	for _, f := range p.Stale() {
		if f.Display == ".cursor/mcp.json" {
			fmt.Print(writers.Diff(f))
		}
	}
	// Output:
	// .cursor/mcp.json: add "hello": missing entry
	// .repository/mcp-managed.json: update "": ownership record out of date
	// diff --git a/.cursor/mcp.json b/.cursor/mcp.json
	// --- a/.cursor/mcp.json
	// +++ b/.cursor/mcp.json
	// @@ -1,3 +1,8 @@
	//  {
	// -  "mcpServers": {}
	// +  "mcpServers": {
	// +    "hello": {
	// +      "command": "npx",
	// +      "args": ["-y", "hello-mcp"]
	// +    }
	// +  }
	//  }
}

func must(err error) {
	if err != nil {
		log.Fatal(err)
	}
}
