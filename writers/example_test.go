package writers_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/repo-manager/repo/writers"
)

// A host program syncs a workspace's servers into the files of the two
// tools its config lists, then takes one tool off the list and syncs
// again: repo removes what it wrote for that tool, and the file it had
// created for it. Each report is what `repo sync --output json` prints.
func Example() {
	root, _ := os.MkdirTemp("", "workspace")
	defer os.RemoveAll(root)
	write := func(name, text string) {
		path := filepath.Join(root, filepath.FromSlash(name))
		must(os.MkdirAll(filepath.Dir(path), 0o755))
		must(os.WriteFile(path, []byte(text), 0o644))
	}
	write(".repository/extensions/hello/extension.toml", "name = \"hello\"\nversion = \"1.0.0\"\n\n[provides]\nmcp = \"mcp.json\"\n")
	write(".repository/extensions/hello/mcp.json", `{"mcpServers": {"hello": {"command": "npx", "args": ["-y", "hello-mcp"]}}}`)
	write(".repository/config.toml", "[mcp]\ntools = [\"claude\", \"cursor\"]\n")

	// The run's environment: a home folder of its own, where repo keeps
	// its state (the workspace lock).
	home := filepath.Join(root, "home")
	opts := writers.Options{Root: root, Getenv: func(name string) string {
		if name == "HOME" {
			return home
		}
		return ""
	}}
	sync := func() {
		rep, err := writers.Run(context.Background(), opts)
		must(err)
		fmt.Printf("%s %v:\n", rep.Mode, rep.Tools)
		for _, f := range rep.Files {
			fmt.Printf("  %s %s (%s)", f.Status, f.Path, f.Scope)
			for _, c := range f.Changes {
				fmt.Printf(" %s %q: %s;", c.Action, c.Entry, c.Reason)
			}
			fmt.Println()
		}
	}
	sync()
	write(".repository/config.toml", "[mcp]\ntools = [\"claude\"]\n")
	sync()
	_, err := os.Stat(filepath.Join(root, ".cursor", "mcp.json"))
	fmt.Println("cursor's file is gone:", os.IsNotExist(err))
	// Output:
	// sync [claude cursor]:
	//   written .mcp.json (project) add "hello": missing entry;
	//   written .cursor/mcp.json (project) add "hello": missing entry;
	//   written .repository/mcp-managed.json (record) update "": ownership record out of date;
	// sync [claude]:
	//   unchanged .mcp.json (project)
	//   written .cursor/mcp.json (project) remove "hello": entry of a tool no longer selected; delete "": file repo created, left empty;
	//   written .repository/mcp-managed.json (record) update "": ownership record out of date;
	// cursor's file is gone: true
}

func must(err error) {
	if err != nil {
		log.Fatal(err)
	}
}
