package cmd

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/goccy/go-yaml"
)

// The published hooks (.pre-commit-hooks.yaml) run with the real pre-commit
// against a snapshot of this repository, as a user's .pre-commit-config.yaml
// names it: the -system hooks with a repo binary on a PATH without Go, and
// the golang hooks built by pre-commit itself (go install ./...).

// preCommitEnv is a scratch git workspace with one extension, and what is
// needed to run pre-commit in it.
type preCommitEnv struct {
	t         *testing.T
	preCommit string
	tmp, ws   string
	env       []string
}

func newPreCommitEnv(t *testing.T) *preCommitEnv {
	t.Helper()
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
	home := filepath.Join(tmp, "home")
	e := &preCommitEnv{t: t, preCommit: preCommit, tmp: tmp, ws: filepath.Join(tmp, "ws")}
	e.env = append(os.Environ(),
		"HOME="+home, "USERPROFILE="+home, "XDG_CONFIG_HOME=", "XDG_STATE_HOME=", "XDG_CACHE_HOME=",
		"PRE_COMMIT_HOME="+filepath.Join(tmp, "pre-commit"), "NO_COLOR=1",
		"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+filepath.Join(home, ".gitconfig"))
	writeFiles(t, tmp, map[string]string{
		"ws/.repository/config.toml":                   "[mcp]\ntools = [\"claude\", \"vscode\"]\n",
		"ws/.repository/extensions/ext/extension.toml": "name = \"ext\"\n[provides]\nmcp = \"mcp.json\"\n",
		"ws/.repository/extensions/ext/mcp.json":       `{"mcpServers": {"docs": {"command": "docs-server", "args": ["--root", "."]}}}`,
		"ws/README.md":                                 "# scratch\n",
		"home/.gitconfig":                              "[user]\n\tname = t\n\temail = t@example.invalid\n[init]\n\tdefaultBranch = main\n",
	})
	e.must("git", "init", "-q")
	return e
}

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func (e *preCommitEnv) run(env []string, name string, args ...string) (string, error) {
	c := exec.Command(name, args...)
	c.Dir = e.ws
	c.Env = env
	out, err := c.CombinedOutput()
	return string(out), err
}

func (e *preCommitEnv) must(name string, args ...string) string {
	e.t.Helper()
	out, err := e.run(e.env, name, args...)
	if err != nil {
		e.t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return out
}

// config writes the workspace's .pre-commit-config.yaml: hooks of this
// repository (the snapshot at rev).
func (e *preCommitEnv) config(repo, rev string, ids ...string) {
	e.t.Helper()
	var hooks []any
	for _, id := range ids {
		hooks = append(hooks, map[string]any{"id": id})
	}
	config, err := yaml.Marshal(map[string]any{"repos": []any{map[string]any{"repo": repo, "rev": rev, "hooks": hooks}}})
	if err != nil {
		e.t.Fatal(err)
	}
	writeFiles(e.t, e.ws, map[string]string{".pre-commit-config.yaml": string(config)})
}

// checkHooks runs the check and sync hooks (ids) with env: a synced
// workspace passes, a stale one fails naming each stale file, the sync
// hook fixes it (failing the commit, as pre-commit does for every hook that
// changes files), and then both pass.
func (e *preCommitEnv) checkHooks(env []string, check, sync string) {
	t := e.t
	t.Helper()
	out, err := e.run(env, e.preCommit, "run", check, "--all-files", "--color", "never")
	if err != nil || !strings.Contains(out, "Passed") {
		t.Fatalf("synced workspace: %s did not pass (%v):\n%s", check, err, out)
	}
	mcp := filepath.Join(e.ws, ".repository", "extensions", "ext", "mcp.json")
	if err := os.WriteFile(mcp, []byte(`{"mcpServers": {"docs": {"command": "docs-server", "args": ["--verbose"]}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err = e.run(env, e.preCommit, "run", check, "--all-files", "--color", "never")
	if err == nil || !strings.Contains(out, "Failed") {
		t.Fatalf("stale workspace: %s passed:\n%s", check, out)
	}
	for _, file := range []string{".mcp.json", ".vscode/mcp.json"} {
		if !regexp.MustCompile(`(?m)^out of date: ` + regexp.QuoteMeta(file) + ` `).MatchString(out) {
			t.Errorf("stale workspace: %s does not name %s:\n%s", check, file, out)
		}
	}
	if !strings.Contains(out, "run 'repo sync' and commit the result") {
		t.Errorf("stale workspace: %s does not say how to fix it:\n%s", check, out)
	}
	out, err = e.run(env, e.preCommit, "run", sync, "--all-files", "--color", "never")
	if err == nil || !strings.Contains(out, "files were modified by this hook") {
		t.Errorf("stale workspace: %s did not report modified files:\n%s", sync, out)
	}
	out, err = e.run(env, e.preCommit, "run", "--all-files", "--color", "never")
	if err != nil || strings.Count(out, "Passed") != 2 {
		t.Errorf("after %s: want both hooks Passed (%v):\n%s", sync, err, out)
	}
}

// snapshotRepo commits the module's files as they are in the working tree
// (tracked and new, not ignored) to a new git repository, as a user's
// pre-commit would clone this repository at a tag, and returns it and the
// commit.
func snapshotRepo(t *testing.T, e *preCommitEnv) (string, string) {
	t.Helper()
	files := moduleFiles(t)
	dir := filepath.Join(e.tmp, "repo-clone")
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join("..", filepath.FromSlash(f)))
		if err != nil {
			t.Fatal(err)
		}
		writeFiles(t, dir, map[string]string{f: string(data)})
	}
	git := func(args ...string) string {
		c := exec.Command("git", args...)
		c.Dir = dir
		c.Env = e.env
		out, err := c.CombinedOutput()
		if err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return strings.TrimSpace(string(out))
	}
	git("init", "-q")
	git("add", "-A")
	git("commit", "-q", "-m", "snapshot")
	return dir, git("rev-parse", "HEAD")
}

// moduleFiles lists the files of this repository a clone has: git's list
// of tracked and untracked, not ignored files.
func moduleFiles(t *testing.T) []string {
	t.Helper()
	c := exec.Command("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	c.Dir = ".."
	out, err := c.Output()
	if err != nil {
		t.Skipf("not a git checkout: %v", err)
	}
	var files []string
	for _, f := range strings.Split(string(out), "\x00") {
		if f == "" {
			continue
		}
		if _, err := os.Lstat(filepath.Join("..", filepath.FromSlash(f))); err != nil {
			continue // deleted in the working tree
		}
		files = append(files, f)
	}
	return files
}

// TestPreCommitSystemHooks runs repo-sync-check-system and repo-sync-system:
// the repo binary on PATH, and no Go on it.
func TestPreCommitSystemHooks(t *testing.T) {
	e := newPreCommitEnv(t)
	bin := filepath.Join(e.tmp, "bin")
	if out, err := exec.Command("go", "build", "-o", filepath.Join(bin, exeName("repo")), "github.com/repo-manager/repo/cmd/repo").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	repo, rev := snapshotRepo(t, e)
	e.config(repo, rev, "repo-sync-check-system", "repo-sync-system")
	// PATH: the binary first, then every folder of PATH that has no go.
	path := []string{bin}
	for _, dir := range filepath.SplitList(os.Getenv("PATH")) {
		if _, err := os.Stat(filepath.Join(dir, exeName("go"))); err != nil {
			path = append(path, dir)
		}
	}
	env := append(slices.Clip(e.env), "PATH="+strings.Join(path, string(filepath.ListSeparator)))
	e.must(filepath.Join(bin, exeName("repo")), "sync")
	e.must("git", "add", "-A")
	e.checkHooks(env, "repo-sync-check-system", "repo-sync-system")
}

// systemHooksEnv builds repo into a folder and returns the environment
// for the -system hooks: that folder first on PATH, then every folder of
// PATH that has no go.
func systemHooksEnv(t *testing.T, e *preCommitEnv) (env []string, bin string) {
	t.Helper()
	dir := filepath.Join(e.tmp, "bin")
	bin = filepath.Join(dir, exeName("repo"))
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/repo-manager/repo/cmd/repo").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	path := []string{dir}
	for _, d := range filepath.SplitList(os.Getenv("PATH")) {
		if _, err := os.Stat(filepath.Join(d, exeName("go"))); err != nil {
			path = append(path, d)
		}
	}
	return append(slices.Clip(e.env), "PATH="+strings.Join(path, string(filepath.ListSeparator))), bin
}

// TestPreCommitDeletedExtension commits with the hook installed: a commit
// that only deletes an extension has no file for pre-commit to match (it
// leaves deleted files out), and the check must still run and fail, since
// the committed configs hold the extension's servers.
func TestPreCommitDeletedExtension(t *testing.T) {
	e := newPreCommitEnv(t)
	env, bin := systemHooksEnv(t, e)
	repo, rev := snapshotRepo(t, e)
	e.config(repo, rev, "repo-sync-check-system")
	e.must(bin, "sync")
	e.must("git", "add", "-A")
	if out, err := e.run(env, e.preCommit, "install"); err != nil {
		t.Fatalf("pre-commit install: %v\n%s", err, out)
	}
	if out, err := e.run(env, "git", "commit", "-q", "-m", "configs"); err != nil {
		t.Fatalf("first commit: %v\n%s", err, out)
	}
	e.must("git", "rm", "-q", "-r", ".repository/extensions/ext")
	out, err := e.run(env, "git", "commit", "-m", "drop the extension")
	if err == nil {
		t.Fatalf("a commit that only deletes an extension passed the hook:\n%s", out)
	}
	if strings.Contains(out, "Skipped") || !strings.Contains(out, "Failed") {
		t.Errorf("want the hook run and Failed, not skipped:\n%s", out)
	}
	for _, want := range []string{`out of date: .mcp.json (project: claude): entry of a removed server "docs"`,
		`out of date: .vscode/mcp.json (project: vscode): entry of a removed server "docs"`, "run 'repo sync' and commit the result"} {
		if !strings.Contains(out, want) {
			t.Errorf("the failed hook does not say %q:\n%s", want, out)
		}
	}
	if log := e.must("git", "log", "--oneline"); strings.Count(log, "\n") != 1 {
		t.Errorf("the commit was made:\n%s", log)
	}
}

// TestPreCommitMonorepo: a workspace in a subfolder of the git repository.
// pre-commit runs hooks from the repository's top, where there is no
// workspace; the hooks name it with args: [--root, svc].
func TestPreCommitMonorepo(t *testing.T) {
	e := newPreCommitEnv(t)
	env, _ := systemHooksEnv(t, e)
	repo, rev := snapshotRepo(t, e)
	// The scratch workspace moves to svc/ of a repository with more in it.
	svc := filepath.Join(e.ws, "svc")
	if err := os.MkdirAll(svc, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{".repository", "README.md"} {
		if err := os.Rename(filepath.Join(e.ws, name), filepath.Join(svc, name)); err != nil {
			t.Fatal(err)
		}
	}
	writeFiles(t, e.ws, map[string]string{"web/index.html": "<!doctype html>\n", "svc/.repository/config.toml": "[mcp]\ntools = [\"claude\", \"vscode\"]\nportable = true\ngitignore = true\n"})
	hooks := func(args ...string) {
		var list []any
		for _, id := range []string{"repo-sync-check-system", "repo-sync-system"} {
			h := map[string]any{"id": id}
			if len(args) > 0 {
				h["args"] = args
			}
			list = append(list, h)
		}
		config, err := yaml.Marshal(map[string]any{"repos": []any{map[string]any{"repo": repo, "rev": rev, "hooks": list}}})
		if err != nil {
			t.Fatal(err)
		}
		writeFiles(t, e.ws, map[string]string{".pre-commit-config.yaml": string(config)})
	}
	run := func(id string) (string, error) {
		return e.run(env, e.preCommit, "run", id, "--all-files", "--color", "never")
	}

	// Without --root, the hooks find no workspace at the top.
	hooks()
	e.must("git", "add", "-A")
	out, err := run("repo-sync-check-system")
	if err == nil || !strings.Contains(out, "- exit code: 2") || !strings.Contains(out, ".repository") {
		t.Fatalf("without --root: want the hook to fail finding no workspace (exit 2):\n%s", out)
	}

	hooks("--root", "svc")
	e.must("git", "add", "-A")
	out, err = run("repo-sync-check-system")
	if err == nil || !strings.Contains(out, "out of date: .vscode/mcp.json (project: vscode): missing entry \"docs\"") ||
		!strings.Contains(out, "run 'repo sync --root svc' and commit the result") {
		t.Fatalf("not synced: want the check to fail naming .vscode/mcp.json and the fix:\n%s", out)
	}
	// The files it creates are new to git: pre-commit, which looks at
	// tracked files only, lets the hook pass.
	if out, err = run("repo-sync-system"); err != nil {
		t.Fatalf("repo-sync with --root svc: %v\n%s", err, out)
	}
	for _, f := range []string{"svc/.vscode/mcp.json", "svc/.mcp.json", "svc/.gitignore", "svc/.repository/mcp-managed.json"} {
		if _, err := os.Stat(filepath.Join(e.ws, filepath.FromSlash(f))); err != nil {
			t.Errorf("repo-sync did not write %s: %v", f, err)
		}
	}
	if _, err := os.Stat(filepath.Join(e.ws, ".mcp.json")); err == nil {
		t.Errorf("repo-sync wrote .mcp.json at the repository's top")
	}
	e.must("git", "add", "-A")
	// svc/.gitignore ignores svc/.mcp.json (machine-specific), not the rest.
	status := e.must("git", "status", "--porcelain", "--untracked-files=all")
	if strings.Contains(status, "svc/.mcp.json") || !strings.Contains(status, "svc/.vscode/mcp.json") || !strings.Contains(status, "svc/.gitignore") {
		t.Errorf("git status after the sync:\n%s", status)
	}
	out, err = e.run(env, e.preCommit, "run", "--all-files", "--color", "never")
	if err != nil || strings.Count(out, "Passed") != 2 {
		t.Errorf("synced: want both hooks Passed (%v):\n%s", err, out)
	}
	// A commit from a subfolder runs the hooks from the top all the same.
	if out, err := e.run(env, e.preCommit, "install"); err != nil {
		t.Fatalf("pre-commit install: %v\n%s", err, out)
	}
	c := exec.Command("git", "commit", "-m", "svc with its MCP configs")
	c.Dir, c.Env = filepath.Join(e.ws, "web"), env
	if out, err := c.CombinedOutput(); err != nil || strings.Count(string(out), "Passed") != 2 {
		t.Errorf("commit from web/: want both hooks Passed (%v):\n%s", err, out)
	}
}

// TestPreCommitGolangHooks runs repo-sync-check and repo-sync as pre-commit
// installs them: `go install ./...` in its clone of this repository, which
// must build repo and nothing else. Modules come from the local module
// cache, so the test needs no network.
func TestPreCommitGolangHooks(t *testing.T) {
	if testing.Short() {
		t.Skip("builds repo in a fresh GOPATH (-short)")
	}
	e := newPreCommitEnv(t)
	goEnv := func(name string) string {
		out, err := exec.Command("go", "env", name).Output()
		if err != nil {
			t.Fatalf("go env %s: %v", name, err)
		}
		return strings.TrimSpace(string(out))
	}
	cache, modcache := goEnv("GOCACHE"), goEnv("GOMODCACHE")
	env := append(slices.Clip(e.env),
		"GOCACHE="+cache, "GOMODCACHE="+filepath.Join(e.tmp, "gomodcache"), "GOFLAGS=-modcacherw",
		"GOPROXY="+fileURL(filepath.Join(modcache, "cache", "download"))+",off", "GOSUMDB=off", "GOTOOLCHAIN=local")
	repo, rev := snapshotRepo(t, e)

	// try-repo, as a hook author tries a hook before tagging it.
	bin := filepath.Join(e.tmp, "bin", exeName("repo"))
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/repo-manager/repo/cmd/repo").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	e.must(bin, "sync")
	e.must("git", "add", "-A")
	out, err := e.run(env, e.preCommit, "try-repo", repo, "repo-sync-check", "--ref", rev, "--all-files", "--color", "never")
	if err != nil || !strings.Contains(out, "Passed") {
		t.Fatalf("pre-commit try-repo %s repo-sync-check: %v\n%s", repo, err, out)
	}

	// The published configuration: both hooks, built once by pre-commit.
	e.config(repo, rev, "repo-sync-check", "repo-sync")
	e.checkHooks(env, "repo-sync-check", "repo-sync")
	envs, _ := filepath.Glob(filepath.Join(e.tmp, "pre-commit", "repo*", "golangenv-*", "bin"))
	if len(envs) == 0 {
		t.Fatal("no golang environment under PRE_COMMIT_HOME")
	}
	for _, dir := range envs {
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, de := range entries {
			names = append(names, de.Name())
		}
		if !slices.Equal(names, []string{exeName("repo")}) {
			t.Errorf("pre-commit's go install ./... built %v, want only repo", names)
		}
	}
}

func exeName(name string) string {
	if filepath.Separator == '\\' {
		return name + ".exe"
	}
	return name
}

// fileURL is a file:// URL for a local folder, as GOPROXY takes it.
func fileURL(dir string) string {
	p := filepath.ToSlash(dir)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // C:/x on Windows
	}
	return "file://" + p
}

// preCommitStage is the name of the commit stage in the installed
// pre-commit's configuration: "commit" before 3.2, "pre-commit" since.
func preCommitStage(t *testing.T, preCommit string) string {
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

// TestPreCommitKeepCurrentHook runs repo-sync-keep-current-system as
// docs/hooks.md installs it, through the real pre-commit and git: a
// teammate's clone pulls a commit that adds a server, and the post-merge
// hook writes the server into the clone's own .mcp.json (git-ignored) and
// changes nothing git tracks; a checkout of another branch does the same
// through post-checkout; a changed server the user has not trusted is
// listed for the local scope, not written, and the pull does not fail.
// The commit hooks, kept to commits by default_stages, do not run then.
func TestPreCommitKeepCurrentHook(t *testing.T) {
	e := newPreCommitEnv(t)
	env, bin := systemHooksEnv(t, e)
	repo, rev := snapshotRepo(t, e)
	config, err := yaml.Marshal(map[string]any{
		"default_stages": []string{preCommitStage(t, e.preCommit)},
		"repos": []any{map[string]any{"repo": repo, "rev": rev, "hooks": []any{
			map[string]any{"id": "repo-sync-check-system"},
			map[string]any{"id": "repo-sync-system"},
			map[string]any{"id": "repo-sync-keep-current-system"},
		}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	writeFiles(t, e.ws, map[string]string{".pre-commit-config.yaml": string(config)})
	install := func(dir string) {
		t.Helper()
		c := exec.Command(e.preCommit, "install", "--hook-type", "pre-commit", "--hook-type", "post-checkout", "--hook-type", "post-merge", "--hook-type", "post-rewrite")
		c.Dir, c.Env = dir, env
		if out, err := c.CombinedOutput(); err != nil {
			t.Fatalf("pre-commit install: %v\n%s", err, out)
		}
	}
	git := func(dir string, args ...string) (string, error) {
		c := exec.Command("git", args...)
		c.Dir, c.Env = dir, env
		out, err := c.CombinedOutput()
		return string(out), err
	}
	mustGit := func(dir string, args ...string) string {
		t.Helper()
		out, err := git(dir, args...)
		if err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return out
	}
	clean := func(dir string) {
		t.Helper()
		if st := mustGit(dir, "status", "--porcelain", "--untracked-files=all"); st != "" {
			t.Errorf("git status in %s is not clean:\n%s", dir, st)
		}
	}
	e.must(bin, "sync")
	install(e.ws)
	mustGit(e.ws, "add", "-A")
	if out, err := git(e.ws, "commit", "-m", "workspace"); err != nil || strings.Count(out, "Passed") != 2 {
		t.Fatalf("the first commit did not pass both commit hooks (%v):\n%s", err, out)
	}
	clean(e.ws)

	// The teammate's clone, at another path, with the hooks installed.
	mate := filepath.Join(e.tmp, "mate", "ws")
	mustGit(e.tmp, "clone", "-q", e.ws, mate)
	install(mate)
	run := func(name string, args ...string) (string, error) {
		c := exec.Command(name, args...)
		c.Dir, c.Env = mate, env
		out, err := c.CombinedOutput()
		return string(out), err
	}
	if out, err := run(bin, "sync"); err != nil {
		t.Fatalf("the teammate's first sync: %v\n%s", err, out)
	}
	if out, err := run(bin, "trust", "--all"); err != nil {
		t.Fatalf("repo trust --all: %v\n%s", err, out)
	}
	writeFiles(t, e.tmp, map[string]string{"home/.claude.json": "{}\n"})
	if out, err := run(bin, "sync", "--scope", "local", "--tool", "claude"); err != nil {
		t.Fatalf("the teammate's local-scope sync: %v\n%s", err, out)
	}
	clean(mate)

	// Upstream: a new server, and the docs server changed.
	writeFiles(t, e.ws, map[string]string{
		".repository/extensions/tasks/extension.toml": "name = \"tasks\"\n[provides]\nmcp = \"mcp.json\"\n",
		".repository/extensions/tasks/mcp.json":       `{"mcpServers": {"tasks": {"command": "tasks-server"}}}`,
		".repository/extensions/ext/mcp.json":         `{"mcpServers": {"docs": {"command": "docs-server", "args": ["--root", ".", "--verbose"]}}}`,
	})
	e.must(bin, "sync")
	mustGit(e.ws, "add", "-A")
	mustGit(e.ws, "commit", "-q", "-m", "tasks, and docs --verbose")

	claudeBefore, err := os.ReadFile(filepath.Join(e.tmp, "home", ".claude.json"))
	if err != nil {
		t.Fatal(err)
	}
	out, err := run("git", "pull", "--no-rebase", "origin", "main")
	if err != nil {
		t.Fatalf("git pull with the post-merge hook failed: %v\n%s", err, out)
	}
	for _, want := range []string{"Keep this clone's MCP configs current (repo sync --hook)", "Passed",
		"wrote .mcp.json (project: claude): add 1, update 1",
		"note: local scope: nothing written: 2 servers are not trusted on this machine"} {
		if !strings.Contains(out, want) {
			t.Errorf("the post-merge hook's output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "MCP configs up to date") || strings.Contains(out, "Failed") {
		t.Errorf("a commit hook ran after the merge, or a hook failed:\n%s", out)
	}
	mcp, err := os.ReadFile(filepath.Join(mate, ".mcp.json"))
	if err != nil || !strings.Contains(string(mcp), `"tasks"`) || !strings.Contains(string(mcp), "--verbose") || !strings.Contains(string(mcp), mate) {
		t.Errorf("the teammate's .mcp.json after the pull (%v):\n%s", err, mcp)
	}
	if after, _ := os.ReadFile(filepath.Join(e.tmp, "home", ".claude.json")); string(after) != string(claudeBefore) {
		t.Errorf("the hook wrote an untrusted server into ~/.claude.json:\n%s", after)
	}
	clean(mate)
	if out, err := run(bin, "sync", "--check"); err != nil {
		t.Errorf("--check after the post-merge hook: %v\n%s", err, out)
	}

	// Trusted now: the next checkout (a new branch) brings the local
	// scope current too, through post-checkout.
	if out, err := run(bin, "trust", "--all"); err != nil {
		t.Fatalf("repo trust --all: %v\n%s", err, out)
	}
	out, err = run("git", "checkout", "-b", "feature")
	if err != nil || !strings.Contains(out, "wrote ~/.claude.json (local: claude): add 1, update 1") {
		t.Errorf("git checkout -b with the post-checkout hook (%v):\n%s", err, out)
	}
	clean(mate)

	// A branch from before: the hook takes the server out of this clone's
	// own .mcp.json, and the local scope's older docs server, which the user
	// trusted in its newer form only, is listed, not written.
	mustGit(mate, "branch", "before-tasks", "HEAD~1")
	out, err = run("git", "checkout", "before-tasks")
	if err != nil {
		t.Fatalf("git checkout with the post-checkout hook failed: %v\n%s", err, out)
	}
	for _, want := range []string{"Passed", "wrote .mcp.json (project: claude): update 1, remove 1",
		"note: local scope: nothing written: 1 server is not trusted on this machine"} {
		if !strings.Contains(out, want) {
			t.Errorf("the post-checkout hook's output lacks %q:\n%s", want, out)
		}
	}
	clean(mate)
	if out, err := run(bin, "sync", "--check"); err != nil {
		t.Errorf("--check after the post-checkout hook: %v\n%s", err, out)
	}

	// A rebase onto a commit that adds a server, with a commit of the
	// teammate's on top: the rebase goes through, and post-rewrite leaves
	// the clone current.
	if out, err := run("git", "checkout", "-q", "feature"); err != nil {
		t.Fatalf("git checkout feature: %v\n%s", err, out)
	}
	writeFiles(t, mate, map[string]string{"notes.txt": "the teammate's work\n"})
	mustGit(mate, "add", "notes.txt")
	if out, err := run("git", "commit", "-q", "-m", "the teammate's work"); err != nil {
		t.Fatalf("the teammate's commit: %v\n%s", err, out)
	}
	writeFiles(t, e.ws, map[string]string{
		".repository/extensions/extra/extension.toml": "name = \"extra\"\n[provides]\nmcp = \"mcp.json\"\n",
		".repository/extensions/extra/mcp.json":       `{"mcpServers": {"extra": {"command": "extra-server"}}}`,
	})
	e.must(bin, "sync")
	mustGit(e.ws, "add", "-A")
	mustGit(e.ws, "commit", "-q", "-m", "extra")
	out, err = run("git", "pull", "--rebase", "origin", "main")
	if err != nil {
		t.Fatalf("git pull --rebase with the hooks failed: %v\n%s", err, out)
	}
	if !strings.Contains(out, "wrote .mcp.json (project: claude): add 1") || strings.Contains(out, "Failed") {
		t.Errorf("the hooks during the rebase:\n%s", out)
	}
	if mcp, err := os.ReadFile(filepath.Join(mate, ".mcp.json")); err != nil || !strings.Contains(string(mcp), `"extra"`) {
		t.Errorf("the teammate's .mcp.json after the rebase (%v):\n%s", err, mcp)
	}
	if log := mustGit(mate, "log", "--format=%s", "-2"); log != "the teammate's work\nextra\n" {
		t.Errorf("the rebase did not put the teammate's commit on top:\n%s", log)
	}
	clean(mate)
	if out, err := run(bin, "sync", "--check"); err != nil {
		t.Errorf("--check after the rebase: %v\n%s", err, out)
	}
}
