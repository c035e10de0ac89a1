package writers_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/repo-manager/repo/writers"
)

// A sync that would write a server the user has not trusted into a
// user-scope file writes nothing and says which; Trust records the
// definitions it showed, and the same sync then writes. A definition
// that changed since it was shown is not trusted.
func TestTrustLetsTheSyncWrite(t *testing.T) {
	root := t.TempDir()
	home := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		path := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(".repository/extensions/hello/extension.toml", "name = \"hello\"\nversion = \"1.0.0\"\n\n[provides]\nmcp = \"mcp.json\"\n")
	write(".repository/extensions/hello/mcp.json", `{"mcpServers": {"hello": {"command": "npx", "args": ["-y", "hello-mcp"]}}}`)
	opts := writers.Options{Root: root, Scope: "user", Tools: []string{"claude"}, Getenv: func(name string) string {
		if name == "HOME" {
			return home
		}
		return ""
	}}
	userFile := filepath.Join(home, ".claude.json")

	rep, err := writers.Run(context.Background(), opts)
	var untrusted *writers.UntrustedError
	if !errors.As(err, &untrusted) || len(untrusted.Servers) != 1 || untrusted.Servers[0].Server != "hello" {
		t.Fatalf("first sync: %v; want the gate to stop it at hello", err)
	}
	if rep == nil || len(rep.Untrusted) != 1 {
		t.Fatalf("the report of a stopped sync names no untrusted server: %+v", rep)
	}
	if _, err := os.Stat(userFile); !os.IsNotExist(err) {
		t.Fatalf("the stopped sync wrote %s: %v", userFile, err)
	}

	// The definition changes after it was shown: no trust for it.
	shown := untrusted.Servers
	write(".repository/extensions/hello/mcp.json", `{"mcpServers": {"hello": {"command": "npx", "args": ["-y", "other-mcp"]}}}`)
	if err := writers.Trust(opts, shown); err == nil {
		t.Fatal("Trust trusted a definition that changed since it was shown")
	}
	if _, err := writers.Run(context.Background(), opts); !errors.As(err, &untrusted) {
		t.Fatalf("sync after a refused Trust: %v; want it stopped", err)
	}

	if err := writers.Trust(opts, untrusted.Servers); err != nil {
		t.Fatal(err)
	}
	rep, err = writers.Run(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(userFile); err != nil || len(rep.Untrusted) != 0 {
		t.Fatalf("sync after Trust: %s: %v, untrusted %v", userFile, err, rep.Untrusted)
	}
}
