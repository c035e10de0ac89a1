//go:build linux && repodev

package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// Workspace is the scratch copy of examples/workspace that repo synced, and the private HOMEs
// repo synced for the local- and user-scope checks, one per check (repo's ownership record names
// the file by its absolute path, so a check uses the HOME repo wrote, not a copy). Project checks
// run with an empty HOME: whatever loads comes from the project's files.
type Workspace struct {
	Module      string // the repo module root
	Work        string // scratch folder
	Project     string // the synced workspace
	Repo        string // the repo binary built for this run
	RepoVersion string
	Commit      string
	RepoHome    string            // HOME of repo's project-scope runs (only its state: locks)
	Homes       map[string]string // "client/scope" → HOME repo synced for a local or user check
	Syncs       []SyncRun
}

// SyncRun is one repo invocation that prepared the workspace.
type SyncRun struct {
	Label  string
	Args   []string
	Code   int
	Output string
	Wrote  []string // files named in "wrote …" lines
	Home   string
	Files  map[string][]byte // the client's config files right after the sync (local, user scope)
	// Untrusted: a sync before repo trust, which is to write nothing (exit 3).
	Untrusted bool
}

func (c checkSpec) key() string {
	if c.untrusted {
		return c.client.ID() + "/" + c.scope + "/untrusted"
	}
	return c.client.ID() + "/" + c.scope
}

// untrustedCode is the exit code of the sync an untrusted check made (-1: none ran).
func (w *Workspace) untrustedCode(c checkSpec) int {
	for _, s := range w.Syncs {
		if s.Untrusted && s.Home == w.Homes[c.key()] {
			return s.Code
		}
	}
	return -1
}

// written is what repo wrote into the files the client reads in the check's scope.
func (w *Workspace) written(c checkSpec) map[string][]byte {
	if c.scope == ScopeProject {
		return readFiles(w.Project, c.client.Files(c.scope)) // restored after every client
	}
	for _, s := range w.Syncs {
		if s.Home == w.Homes[c.key()] && s.covers(c.client.Tool(), c.scope) {
			return s.Files
		}
	}
	return nil
}

// Failed reports whether the sync for tool in scope failed, and why.
func (w *Workspace) syncFailure(tool, scope string) (string, bool) {
	for _, s := range w.Syncs {
		if s.Code != 0 && !s.Untrusted && s.covers(tool, scope) {
			return s.reason(), true
		}
	}
	return "", false
}

func (s SyncRun) covers(tool, scope string) bool {
	if len(s.Args) > 0 && s.Args[0] == "trust" {
		return false // not a sync; a failed one shows in the sync after it
	}
	sc, tl := ScopeProject, ""
	for i, a := range s.Args {
		if i+1 < len(s.Args) {
			switch a {
			case "--scope":
				sc = s.Args[i+1]
			case "--tool":
				tl = s.Args[i+1]
			}
		}
	}
	return sc == scope && (tl == "" || tl == tool)
}

func (s SyncRun) reason() string {
	for _, ln := range strings.Split(s.Output, "\n") {
		if strings.HasPrefix(ln, "repo: ") {
			return strings.TrimPrefix(ln, "repo: ")
		}
	}
	return oneLine(s.Output, 300)
}

// unsupported is true when repo cannot write the format yet (its TOML/YAML writers).
func unsupported(reason string) bool { return strings.Contains(reason, "no editor for format") }

// prepareWorkspace builds repo, lets examples/demo.sh copy the example workspace, create the python
// venvs (and aifp's .pth) and sync the tools of its config.toml, then syncs what the checks need
// beyond that: other project-scope tools, and the local and user scopes into a private HOME.
func prepareWorkspace(ctx context.Context, module, work string, checks []checkSpec, logf func(string, ...any)) (*Workspace, error) {
	w := &Workspace{Module: module, Work: work, Project: filepath.Join(work, "ws"),
		Repo: filepath.Join(work, "bin", "repo"), RepoHome: filepath.Join(work, "home-repo"),
		Homes: map[string]string{}, Commit: gitCommit(module)}
	for _, d := range []string{w.RepoHome, filepath.Join(work, "logs")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, err
		}
	}
	goBin := os.Getenv("GO")
	if goBin == "" {
		goBin = "go"
	}
	short := w.Commit
	if len(short) > 12 {
		short = short[:12]
	}
	ld := "-X github.com/repo-manager/repo/cmd.version=conformance -X github.com/repo-manager/repo/cmd.commit=" + short
	build := exec.CommandContext(ctx, goBin, "build", "-buildvcs=false", "-ldflags", ld, "-o", w.Repo, "./cmd/repo")
	build.Dir = module
	if out, err := build.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("go build ./cmd/repo: %v\n%s", err, out)
	}
	if out, err := exec.Command(w.Repo, "version").Output(); err == nil {
		w.RepoVersion = strings.TrimSpace(string(out))
	}
	logf("built %s", w.RepoVersion)

	// examples/demo.sh, as a new user would run it. It keeps the real HOME (python3 may be a
	// pyenv shim that needs it); repo's state goes to a private folder through XDG_STATE_HOME.
	demo := exec.CommandContext(ctx, filepath.Join(module, "examples", "demo.sh"), w.Repo)
	demo.Dir = work
	demo.Env = append(repoEnv(os.Getenv("HOME")), "DEMO_DIR="+w.Project,
		"XDG_STATE_HOME="+filepath.Join(w.RepoHome, ".local", "state"))
	out, err := demo.CombinedOutput()
	_ = os.WriteFile(filepath.Join(work, "logs", "demo.log"), out, 0o644)
	w.Syncs = append(w.Syncs, newSyncRun("project: the tools of .repository/config.toml (examples/demo.sh)",
		[]string{"examples/demo.sh"}, exitCode(err), string(out)))
	if err != nil {
		return w, fmt.Errorf("examples/demo.sh failed (%v); see %s", err, filepath.Join(work, "logs", "demo.log"))
	}
	logf("examples/demo.sh: workspace %s synced", w.Project)
	// The harness's own extension (settings.go), which the syncs below write for every tool.
	if err := writeSettingsExtension(w.Project); err != nil {
		return w, err
	}

	// Project scope for tools the demo did not write (codex): a sync per tool, which writes nothing
	// for a tool the demo already wrote (a second sync is a no-op). Local and user scope: into the
	// check's own private HOME.
	done := map[string]bool{}
	for _, c := range checks {
		tool := c.client.Tool()
		args := []string{"sync", "--tool", tool}
		home, label := w.RepoHome, c.scope+": "+tool
		if c.scope == ScopeProject {
			if done[tool] {
				continue
			}
			done[tool] = true
		} else {
			home = filepath.Join(work, "home-"+strings.ReplaceAll(c.key(), "/", "-"))
			if err := os.MkdirAll(home, 0o755); err != nil {
				return w, err
			}
			w.Homes[c.key()] = home
			args = append(args, "--scope", c.scope)
			label += " (into the private HOME of the " + c.client.ID() + " check)"
			if c.untrusted {
				label += ", before repo trust: to write nothing, exit 3"
			} else {
				// The user's step before a sync reaches a file outside the workspace: trust the
				// workspace's servers, as a script that has shown them does.
				code, out := w.repo(ctx, home, "trust", "--all")
				t := newSyncRun("trust the workspace's servers (the private HOME of the "+c.client.ID()+" check)", []string{"trust", "--all"}, code, out)
				t.Home = home
				w.Syncs = append(w.Syncs, t)
				logf("repo trust --all: exit %d", code)
			}
		}
		code, out := w.repo(ctx, home, args...)
		s := newSyncRun(label, args, code, out)
		s.Home = home
		s.Untrusted = c.untrusted
		if c.scope != ScopeProject {
			s.Files = readFiles(home, c.client.Files(c.scope))
		}
		w.Syncs = append(w.Syncs, s)
		logf("repo %s: exit %d", strings.Join(args, " "), code)
	}
	return w, nil
}

// repo runs the built repo in the project with HOME set to home (and nothing else pointing at
// the real HOME's tool folders).
func (w *Workspace) repo(ctx context.Context, home string, args ...string) (int, string) {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, w.Repo, args...)
	cmd.Dir = w.Project
	cmd.Env = repoEnv(home)
	out, err := cmd.CombinedOutput()
	return exitCode(err), string(out)
}

func repoEnv(home string) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "HOME", "CODEX_HOME", "CONTINUE_GLOBAL_DIR", "XDG_STATE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME",
			"CLAUDE_CONFIG_DIR", "GEMINI_CLI_HOME", "COPILOT_HOME", "DEMO_DIR":
			continue
		}
		env = append(env, kv)
	}
	return append(env, "HOME="+home)
}

func newSyncRun(label string, args []string, code int, out string) SyncRun {
	s := SyncRun{Label: label, Args: args, Code: code, Output: out}
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		if f, ok := strings.CutPrefix(sc.Text(), "wrote "); ok {
			s.Wrote = append(s.Wrote, f)
		}
	}
	return s
}

func exitCode(err error) int {
	if err == nil {
		return 0
	}
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	return -1
}

// gitCommit reads HEAD from the .git folder (without running git).
func gitCommit(module string) string {
	dir := filepath.Join(module, ".git")
	if b, err := os.ReadFile(dir); err == nil { // a worktree: "gitdir: …"
		if p, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir: "); ok {
			dir = p
		}
	}
	head, err := os.ReadFile(filepath.Join(dir, "HEAD"))
	if err != nil {
		return "unknown"
	}
	ref, ok := strings.CutPrefix(strings.TrimSpace(string(head)), "ref: ")
	if !ok {
		return strings.TrimSpace(string(head))
	}
	common := dir
	if b, err := os.ReadFile(filepath.Join(dir, "commondir")); err == nil {
		common = filepath.Join(dir, strings.TrimSpace(string(b)))
	}
	for _, d := range []string{dir, common} {
		if b, err := os.ReadFile(filepath.Join(d, filepath.FromSlash(ref))); err == nil {
			return strings.TrimSpace(string(b)) + " (" + strings.TrimPrefix(ref, "refs/heads/") + ")"
		}
		if b, err := os.ReadFile(filepath.Join(d, "packed-refs")); err == nil {
			for _, ln := range bytes.Split(b, []byte("\n")) {
				if f := strings.Fields(string(ln)); len(f) == 2 && f[1] == ref {
					return f[0] + " (" + strings.TrimPrefix(ref, "refs/heads/") + ")"
				}
			}
		}
	}
	return "unknown"
}
