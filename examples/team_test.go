package examples

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestTeamCloneAtAnotherPath: the example workspace is set up as the
// README says a team sets up a workspace it commits. Alice syncs it in a
// git repository and commits with the published hooks installed; Bob
// clones it at another path. What his clone holds passes CI's check
// (--committed) before any sync; his first sync writes only ignored files,
// after which both commit hooks pass and git status stays clean; so does
// Alice's after she pulls his commit that drops an extension, which the
// post-merge hook takes out of her own files. The hooks run through the
// real pre-commit when it is installed, else their commands are run as the
// hooks would.
func TestTeamCloneAtAnotherPath(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the repo binary and runs git")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	bin := repoBinary(t)
	// repo writes the real path of a workspace (macOS's temp folder is
	// behind a symlink).
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	preCommit, _ := exec.LookPath("pre-commit")
	type person struct{ name, home, ws string }
	alice := person{"alice", filepath.Join(dir, "alice"), filepath.Join(dir, "alice", "src", "ws")}
	bob := person{"bob", filepath.Join(dir, "bob"), filepath.Join(dir, "bob", "work", "team", "workspace")}
	envOf := func(p person) []string {
		return append(os.Environ(), "HOME="+p.home, "USERPROFILE="+p.home, "XDG_STATE_HOME=", "XDG_CONFIG_HOME=", "XDG_CACHE_HOME=",
			"PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "NO_COLOR=1",
			"PRE_COMMIT_HOME="+filepath.Join(dir, "pre-commit-"+p.name),
			"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+filepath.Join(p.home, ".gitconfig"))
	}
	run := func(p person, wd string, name string, args ...string) (string, error) {
		c := exec.Command(name, args...)
		c.Dir, c.Env = wd, envOf(p)
		out, err := c.CombinedOutput()
		return string(out), err
	}
	must := func(p person, name string, args ...string) string {
		t.Helper()
		out, err := run(p, p.ws, name, args...)
		if err != nil {
			t.Fatalf("%s: %s %s: %v\n%s", p.name, name, strings.Join(args, " "), err, out)
		}
		return out
	}
	for _, p := range []person{alice, bob} {
		if err := os.MkdirAll(p.home, 0o755); err != nil {
			t.Fatal(err)
		}
		gitconfig := "[user]\n\tname = " + p.name + "\n\temail = " + p.name + "@example.invalid\n[init]\n\tdefaultBranch = main\n"
		if err := os.WriteFile(filepath.Join(p.home, ".gitconfig"), []byte(gitconfig), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	repo := filepath.Join(bin, exe("repo"))

	// The published hooks, from a repository holding this one's
	// .pre-commit-hooks.yaml (the -system hooks need nothing else).
	var hooksConfig string
	if preCommit != "" {
		hooks := person{"hooks", alice.home, filepath.Join(dir, "hooks")}
		data, err := os.ReadFile(filepath.Join("..", ".pre-commit-hooks.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(hooks.ws, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(hooks.ws, ".pre-commit-hooks.yaml"), data, 0o644); err != nil {
			t.Fatal(err)
		}
		must(hooks, "git", "init", "-q")
		must(hooks, "git", "add", "-A")
		must(hooks, "git", "commit", "-q", "-m", "hooks")
		rev := strings.TrimSpace(must(hooks, "git", "rev-parse", "HEAD"))
		hooksConfig = "default_stages: [" + commitStage(t, preCommit) + "]\nrepos:\n  - repo: " + hooks.ws + "\n    rev: " + rev +
			"\n    hooks:\n      - id: repo-sync-check-system\n      - id: repo-sync-system\n      - id: repo-sync-keep-current-system\n"
	}
	// hooks runs both hooks as a commit would: through pre-commit, or
	// their commands.
	install := func(p person) {
		t.Helper()
		if preCommit != "" {
			must(p, preCommit, "install", "--hook-type", "pre-commit", "--hook-type", "post-checkout", "--hook-type", "post-merge", "--hook-type", "post-rewrite")
		}
	}
	hooks := func(p person) {
		t.Helper()
		if preCommit != "" {
			out, err := run(p, p.ws, preCommit, "run", "--all-files", "--color", "never")
			if err != nil || strings.Count(out, "Passed") != 2 {
				t.Fatalf("%s: the hooks did not both pass (%v):\n%s", p.name, err, out)
			}
			return
		}
		must(p, repo, "sync", "--check")
		must(p, repo, "sync")
	}
	commit := func(p person, msg string) {
		t.Helper()
		out := must(p, "git", "commit", "-m", msg)
		if preCommit != "" && strings.Count(out, "Passed") != 2 {
			t.Fatalf("%s: commit %q without both hooks passing:\n%s", p.name, msg, out)
		}
	}
	clean := func(p person) {
		t.Helper()
		if st := must(p, "git", "status", "--porcelain", "--untracked-files=all"); st != "" {
			t.Errorf("%s: git status is not clean:\n%s", p.name, st)
		}
	}

	// Alice: the example workspace in a new repository, synced, committed.
	if err := os.CopyFS(alice.ws, os.DirFS("workspace")); err != nil {
		t.Fatal(err)
	}
	must(alice, "git", "init", "-q")
	if preCommit != "" {
		if err := os.WriteFile(filepath.Join(alice.ws, ".pre-commit-config.yaml"), []byte(hooksConfig), 0o644); err != nil {
			t.Fatal(err)
		}
		install(alice)
	}
	must(alice, repo, "sync")
	must(alice, "git", "add", "-A")
	commit(alice, "workspace")
	clean(alice)

	ignored := ignoreBlock(t, filepath.Join(alice.ws, ".gitignore"))
	committed := strings.Fields(must(alice, "git", "ls-files"))
	for _, f := range []string{".gitignore", ".repository/config.toml", ".repository/mcp-managed.json", ".vscode/mcp.json", ".cursor/mcp.json", ".roo/mcp.json"} {
		if !slices.Contains(committed, f) {
			t.Errorf("%s is not committed", f)
		}
	}
	for _, f := range []string{".mcp.json", ".gemini/settings.json", ".zed/settings.json", ".qwen/settings.json", "opencode.jsonc",
		".junie/mcp/mcp.json", ".kiro/settings/mcp.json", ".amazonq/mcp.json", ".repository/mcp-managed.machine.json"} {
		if !slices.Contains(ignored, "/"+f) {
			t.Errorf("%s is not in the .gitignore block %q", f, ignored)
		}
		if slices.Contains(committed, f) {
			t.Errorf("the machine-specific %s is committed", f)
		}
		if _, err := os.Stat(filepath.Join(alice.ws, filepath.FromSlash(f))); err != nil {
			t.Errorf("alice's sync did not write %s: %v", f, err)
		}
	}
	// What is committed holds no path of Alice's.
	for _, f := range committed {
		if data, err := os.ReadFile(filepath.Join(alice.ws, filepath.FromSlash(f))); err == nil && holds(data, alice.home) {
			t.Errorf("the committed %s holds Alice's path %s", f, alice.home)
		}
	}

	// Bob: a clone at another path. What it holds passes CI's check before
	// any sync; --check, which judges what his tools read too, fails until
	// his first sync, which writes his own ignored files only.
	if err := os.MkdirAll(filepath.Dir(bob.ws), 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := run(bob, filepath.Dir(bob.ws), "git", "clone", "-q", alice.ws, bob.ws); err != nil {
		t.Fatalf("git clone: %v\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(bob.ws, ".mcp.json")); err == nil {
		t.Fatal("the clone has .mcp.json before any sync")
	}
	install(bob)
	must(bob, repo, "sync", "--check", "--committed")
	if out, err := run(bob, bob.ws, repo, "sync", "--check"); err == nil || !strings.Contains(out, `out of date: .mcp.json (project: claude, copilot): missing entry "aifp"`) {
		t.Fatalf("bob: --check before the first sync passed, or did not name .mcp.json (%v):\n%s", err, out)
	}
	must(bob, repo, "sync")
	clean(bob)
	hooks(bob)
	clean(bob)
	mcp, err := os.ReadFile(filepath.Join(bob.ws, ".mcp.json"))
	if err != nil || !holds(mcp, bob.ws) {
		t.Errorf("bob's .mcp.json does not hold his path (%v):\n%s", err, mcp)
	}
	filepath.WalkDir(bob.ws, func(p string, d fs.DirEntry, err error) error {
		if d != nil && d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if data, rerr := os.ReadFile(p); err == nil && rerr == nil && !d.IsDir() && holds(data, alice.home) {
			t.Errorf("bob's %s holds Alice's path", p)
		}
		return nil
	})
	if out := must(bob, repo, "sync"); !strings.Contains(out, "up to date:") {
		t.Errorf("bob's second sync:\n%s", out)
	}
	hooks(bob)
	clean(bob)

	// Bob drops an extension. Committing only that fails the check; the
	// sync fixes the committed files, and the commit goes through.
	must(bob, "git", "rm", "-q", "-r", ".repository/extensions/sudocode")
	if preCommit != "" {
		out, err := run(bob, bob.ws, "git", "commit", "-m", "drop sudocode")
		if err == nil || !strings.Contains(out, "out of date: .vscode/mcp.json (project: vscode): entry of a removed server \"sudocode\"") {
			t.Fatalf("bob: a commit dropping an extension passed the check (%v):\n%s", err, out)
		}
	} else if _, err := run(bob, bob.ws, repo, "sync", "--check"); err == nil {
		t.Fatal("bob: --check passed with an extension dropped")
	}
	must(bob, repo, "sync")
	must(bob, "git", "add", "-A")
	commit(bob, "drop sudocode")
	clean(bob)

	// Alice pulls it: the post-merge hook (or her sync) takes the server
	// out of her own ignored files too, and nothing she would commit
	// changes.
	must(alice, "git", "pull", "-q", "--ff-only", bob.ws, "main")
	if preCommit == "" {
		must(alice, repo, "sync", "--hook")
	}
	must(alice, repo, "sync", "--check")
	hooks(alice)
	clean(alice)
	for _, f := range []string{".mcp.json", ".gemini/settings.json", "opencode.jsonc"} {
		if data, err := os.ReadFile(filepath.Join(alice.ws, filepath.FromSlash(f))); err != nil || bytes.Contains(data, []byte("sudocode")) {
			t.Errorf("alice's %s still has the dropped server (%v)", f, err)
		}
	}
}

// commitStage is the name of the commit stage in the installed
// pre-commit's configuration: "commit" before 3.2, "pre-commit" since.
func commitStage(t *testing.T, preCommit string) string {
	t.Helper()
	out, err := exec.Command(preCommit, "--version").Output()
	if err != nil {
		t.Fatalf("pre-commit --version: %v", err)
	}
	var major, minor int
	if _, err := fmt.Sscanf(strings.TrimPrefix(strings.TrimSpace(string(out)), "pre-commit "), "%d.%d", &major, &minor); err != nil {
		t.Fatalf("pre-commit --version: %q: %v", out, err)
	}
	if major < 3 || (major == 3 && minor < 2) {
		return "commit"
	}
	return "pre-commit"
}

// holds reports whether data has path in it, as is or as a JSON string
// spells it (Windows' backslashes doubled).
func holds(data []byte, path string) bool {
	quoted, _ := json.Marshal(path)
	return bytes.Contains(data, []byte(path)) || bytes.Contains(data, quoted[1:len(quoted)-1])
}

// ignoreBlock is the lines of repo's block in a .gitignore.
func ignoreBlock(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines []string
	in := false
	for s := bufio.NewScanner(f); s.Scan(); {
		switch line := s.Text(); {
		case strings.HasPrefix(line, "# >>> repo:"):
			in = true
		case strings.HasPrefix(line, "# <<< repo:"):
			in = false
		case in:
			lines = append(lines, line)
		}
	}
	return lines
}
