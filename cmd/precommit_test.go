package cmd

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/goccy/go-yaml"
)

// TestPreCommitHook runs the hooks of .pre-commit-hooks.yaml with the real
// pre-commit in a scratch git repository: the check passes on a synced
// workspace and fails, naming the stale file, on a stale one; the sync hook
// fixes it. The hooks run as `repo: local` with language: system and the
// binary built here, since language: golang would need the network.
func TestPreCommitHook(t *testing.T) {
	preCommit, err := exec.LookPath("pre-commit")
	if err != nil {
		t.Skip("pre-commit is not installed (Debian: apt-get install pre-commit)")
	}
	for _, tool := range []string{"git", "go"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed", tool)
		}
	}
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "bin", "repo")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/repo-manager/repo/cmd/repo").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	ws := filepath.Join(tmp, "ws")
	home := filepath.Join(tmp, "home")
	env := append(os.Environ(),
		"HOME="+home, "USERPROFILE="+home, "XDG_CONFIG_HOME=", "XDG_STATE_HOME=", "XDG_CACHE_HOME=",
		"PRE_COMMIT_HOME="+filepath.Join(tmp, "pre-commit"), "NO_COLOR=1",
		"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+filepath.Join(home, ".gitconfig"))
	run := func(name string, args ...string) (string, error) {
		c := exec.Command(name, args...)
		c.Dir = ws
		c.Env = env
		out, err := c.CombinedOutput()
		return string(out), err
	}
	must := func(name string, args ...string) string {
		t.Helper()
		out, err := run(name, args...)
		if err != nil {
			t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
		}
		return out
	}

	// The hooks as published, run with the binary built above.
	hooks := readPreCommitHooks(t)
	var local []map[string]any
	for _, id := range []string{"repo-sync-check", "repo-sync"} {
		h := hooks[id]
		local = append(local, map[string]any{
			"id": h.ID, "name": h.Name, "language": "system", "pass_filenames": false, "files": h.Files,
			"entry": shellJoin([]string{bin}) + strings.TrimPrefix(h.Entry, "repo"),
		})
	}
	config, err := yaml.Marshal(map[string]any{"repos": []any{map[string]any{"repo": "local", "hooks": local}}})
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"ws/.pre-commit-config.yaml":                   string(config),
		"ws/.repository/config.toml":                   "[mcp]\ntools = [\"claude\", \"vscode\"]\n",
		"ws/.repository/extensions/ext/extension.toml": "name = \"ext\"\n[provides]\nmcp = \"mcp.json\"\n",
		"ws/.repository/extensions/ext/mcp.json":       `{"mcpServers": {"docs": {"command": "docs-server", "args": ["--root", "."]}}}`,
		"ws/README.md":                                 "# scratch\n",
		"home/.gitconfig":                              "[user]\n\tname = t\n\temail = t@example.invalid\n",
	}
	for name, content := range files {
		p := filepath.Join(tmp, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	must("git", "init", "-q")
	must(bin, "sync")
	must("git", "add", "-A")

	// A synced workspace passes.
	out := must(preCommit, "run", "repo-sync-check", "--all-files", "--color", "never")
	if !strings.Contains(out, "Passed") {
		t.Errorf("synced workspace: the check did not report Passed:\n%s", out)
	}

	// A stale one fails, naming each stale file.
	mcp := filepath.Join(ws, ".repository", "extensions", "ext", "mcp.json")
	if err := os.WriteFile(mcp, []byte(`{"mcpServers": {"docs": {"command": "docs-server", "args": ["--verbose"]}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err = run(preCommit, "run", "repo-sync-check", "--all-files", "--color", "never")
	if err == nil || !strings.Contains(out, "Failed") {
		t.Fatalf("stale workspace: the check passed:\n%s", out)
	}
	for _, file := range []string{".mcp.json", ".vscode/mcp.json"} {
		if !regexp.MustCompile(`(?m)out of date.*(^|\s)` + regexp.QuoteMeta(file) + `\b`).MatchString(out) {
			t.Errorf("stale workspace: the check does not name %s:\n%s", file, out)
		}
	}

	// The sync hook brings the files up to date (and fails the commit, as
	// pre-commit does for every hook that changes files); then the check passes.
	out, err = run(preCommit, "run", "repo-sync", "--all-files", "--color", "never")
	if err == nil || !strings.Contains(out, "files were modified by this hook") {
		t.Errorf("stale workspace: the sync hook did not report modified files:\n%s", out)
	}
	out = must(preCommit, "run", "--all-files", "--color", "never")
	if strings.Count(out, "Passed") != 2 {
		t.Errorf("after the sync hook: want both hooks Passed:\n%s", out)
	}
}
