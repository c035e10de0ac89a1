package workspace

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
)

// writeConfig writes the workspace config's [mcp] tools.
func writeConfig(t *testing.T, root, tools string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(root, ".repository", "extensions"), 0o755); err != nil {
		t.Fatal(err)
	}
	data := "[mcp]\ntools = [" + tools + "]\n"
	if err := os.WriteFile(filepath.Join(root, ".repository", "config.toml"), []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A loaded workspace reads its config once: the selection and the team
// policy ask for it in one run, and they see one reading of it. A
// Workspace a host made itself reads the file each time.
func TestConfigReadOncePerRun(t *testing.T) {
	root := t.TempDir()
	writeConfig(t, root, `"claude"`)
	h := Host{Getenv: func(k string) string {
		if k == "HOME" {
			return t.TempDir()
		}
		return ""
	}, Getwd: func() (string, error) { return root, nil }, GOOS: runtime.GOOS}
	w, err := Load(h, root)
	if err != nil {
		t.Fatal(err)
	}
	first, err := w.Config()
	if err != nil || !slices.Equal(first.Tools, []string{"claude"}) {
		t.Fatalf("Config() = %+v, %v; want the tools claude", first, err)
	}
	writeConfig(t, root, `"cursor"`)
	if again, err := w.Config(); err != nil || !slices.Equal(again.Tools, []string{"claude"}) {
		t.Errorf("second Config() of one run = %+v, %v; want the first reading (claude)", again, err)
	}
	own := &Workspace{Root: w.Root}
	if cfg, err := own.Config(); err != nil || !slices.Equal(cfg.Tools, []string{"cursor"}) {
		t.Errorf("Config() of a host's own Workspace = %+v, %v; want the file as it is now (cursor)", cfg, err)
	}
}
