//go:build linux && repodev

// Command conformance checks repo against the real AI coding clients: it installs Claude Code,
// Codex, Gemini CLI, Qwen Code, OpenCode, Copilot CLI, Continue's cn, Amp, Factory's droid, the
// Kilo CLI, the Qoder CLI, the Auggie CLI and the Cline CLI from npm into a cache folder, syncs a
// scratch copy of examples/workspace with repo (project scope, and local and user scope into a
// private HOME), then asks each client — offline, with a private HOME and a cleaned
// environment — which servers it loads and whether they start. It prints a table, writes
// conformance/LAST_RUN.md, and exits 1 if an expected server is not connected.
//
//	go run -tags repodev ./conformance [--quick] [--clients claude,codex] [-v]      (make conformance)
//
// Layout: one file per client adapter (claude.go, codex.go, …) behind the Client interface in
// client.go; install.go (npm cache), workspace.go (repo build and syncs), sandbox.go (network
// namespace, clean environment), runner.go and guard.go (running the checks, restoring project
// files a client rewrites), standin.go (a stand-in model for clients without a list command),
// report.go (table and LAST_RUN.md).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"
)

func main() { os.Exit(run()) }

func run() int {
	fs := flag.NewFlagSet("conformance", flag.ContinueOnError)
	defCache := os.Getenv("CONFORMANCE_CACHE")
	if defCache == "" {
		home, _ := os.UserHomeDir()
		defCache = filepath.Join(home, ".cache", "repo-conformance")
	}
	var (
		clientsFlag = fs.String("clients", os.Getenv("CONFORMANCE_CLIENTS"), "only these clients, comma-separated: claude,codex,gemini,qwen,opencode,copilot,cn,amp,droid,kilo,qoder,auggie,cline")
		quick       = fs.Bool("quick", false, "development run: no npm (use what is in the cache), one scope per client, no LAST_RUN.md")
		cache       = fs.String("cache", defCache, "cache folder for Node and the clients (CONFORMANCE_CACHE)")
		pinsFlag    = fs.String("pin", os.Getenv("CONFORMANCE_PINS"), "client versions, e.g. codex=0.170.0,claude=latest (CONFORMANCE_PINS); default: the tested versions")
		update      = fs.Bool("update", false, "reinstall the clients even if the pinned version is in the cache")
		timeout     = fs.Duration("timeout", 90*time.Second, "per client command")
		jobs        = fs.Int("jobs", 2, "checks at a time (checks in the project always run one at a time)")
		work        = fs.String("work", "", "scratch folder (default: a new temporary folder, removed unless --keep)")
		keep        = fs.Bool("keep", false, "keep the scratch folder (workspace, private HOMEs, logs)")
		noNetns     = fs.Bool("no-netns", false, "do not use a network namespace (clients are then kept offline by environment settings only)")
		reportPath  = fs.String("report", "", "write the report here (default: conformance/LAST_RUN.md on a full run, nothing on a partial run)")
		verbose     = fs.Bool("v", false, "print every client command and its duration")
	)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: go run -tags repodev ./conformance [flags]   (make conformance [QUICK=1] [CLIENTS=a,b])")
		fs.PrintDefaults()
	}
	if err := fs.Parse(os.Args[1:]); err != nil {
		return 2
	}
	logf := func(format string, a ...any) { fmt.Fprintf(os.Stderr, "conformance: "+format+"\n", a...) }
	vb := func(string, ...any) {}
	if *verbose {
		vb = func(format string, a ...any) { fmt.Fprintf(os.Stderr, "  · "+format+"\n", a...) }
	}
	fail := func(err error) int { logf("error: %v", err); return 2 }

	clients, err := selectClients(*clientsFlag)
	if err != nil {
		return fail(err)
	}
	pins, err := parsePins(*pinsFlag)
	if err != nil {
		return fail(err)
	}
	module, err := moduleRoot()
	if err != nil {
		return fail(err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	r := &Run{Start: time.Now(), Clients: clients}
	var partial []string
	if *quick {
		partial = append(partial, "--quick (no installation, one scope per client)")
	}
	if *clientsFlag != "" {
		partial = append(partial, "--clients "+*clientsFlag)
	}
	r.Partial = strings.Join(partial, ", ")

	phase := time.Now()
	r.Sandbox = detectSandbox(ctx, *noNetns)
	logf("isolation: %s", r.Sandbox.Mode)
	if !r.Sandbox.isolated() {
		logf("warning: no network namespace; clients are kept offline by environment settings only")
	}
	if abs, err := filepath.Abs(*cache); err == nil {
		*cache = abs
	}
	logf("clients: %s (cache %s)", ids(clients), *cache)
	tb, err := installClients(ctx, *cache, clients, pins, *update, *quick, r.Sandbox, logf)
	if err != nil {
		return fail(err)
	}
	r.Toolbox = tb
	for _, c := range clients {
		if in := tb.Clients[c.ID()]; in.Err != nil {
			logf("%s: %v", c.ID(), in.Err)
		} else {
			logf("%-8s %s %s", c.ID(), in.Package, in.Version)
		}
	}
	r.Phases = append(r.Phases, fmt.Sprintf("installation %.0fs", time.Since(phase).Seconds()))

	phase = time.Now()
	scratch := *work
	if scratch == "" {
		if scratch, err = os.MkdirTemp("", "repo-conformance-"); err != nil {
			return fail(err)
		}
		if !*keep {
			defer os.RemoveAll(scratch)
		}
	} else if err := os.MkdirAll(scratch, 0o755); err != nil {
		return fail(err)
	} else if entries, _ := os.ReadDir(scratch); len(entries) > 0 {
		return fail(fmt.Errorf("--work %s is not empty", scratch))
	}
	if scratch, err = filepath.EvalSymlinks(scratch); err != nil {
		return fail(err)
	}
	var specs []checkSpec
	for _, c := range clients {
		scopes := c.Scopes()
		if *quick {
			scopes = scopes[:1]
		}
		for _, s := range scopes {
			specs = append(specs, checkSpec{client: c, scope: s})
		}
		// Trust: a repository's server reaches Claude Code's local scope (which Claude Code does
		// not gate) only after repo trust. Before it the sync exits 3 and the client starts none
		// of them from there; after it, the local check above: connected.
		if c.ID() == "claude" {
			if !slices.Contains(scopes, ScopeLocal) {
				specs = append(specs, checkSpec{client: c, scope: ScopeLocal})
			}
			specs = append(specs, checkSpec{client: c, scope: ScopeLocal, untrusted: true})
		}
	}
	ws, err := prepareWorkspace(ctx, module, scratch, specs, logf)
	if err != nil {
		return fail(err)
	}
	r.Workspace = ws
	r.PythonInfo = pythonInfo()
	r.Phases = append(r.Phases, fmt.Sprintf("workspace and syncs %.0fs", time.Since(phase).Seconds()))

	phase = time.Now()
	rn := &Runner{ws: ws, tb: tb, sb: r.Sandbox, timeout: *timeout, jobs: *jobs, vb: vb, logf: logf}
	r.Results = rn.run(ctx, specs)
	r.Phases = append(r.Phases, fmt.Sprintf("checks %.0fs", time.Since(phase).Seconds()))
	r.Phases = append(r.Phases, fmt.Sprintf("total %.0fs", time.Since(r.Start).Seconds()))
	if ctx.Err() != nil {
		logf("interrupted")
		return 2
	}

	fmt.Println()
	printTable(os.Stdout, r.Results, r.Sandbox.isolated())
	path := *reportPath
	if path == "" && r.Partial == "" {
		path = filepath.Join(module, "conformance", "LAST_RUN.md")
	}
	if path != "" {
		if err := writeMarkdown(path, r); err != nil {
			return fail(err)
		}
		logf("wrote %s", path)
	}
	if *keep || *work != "" {
		logf("scratch folder kept: %s", scratch)
	}
	if !r.passed() {
		logf("FAIL: not every expected server is connected, or a setting did not arrive")
		return 1
	}
	logf("PASS: every expected server is connected, and every setting checked arrived")
	return 0
}

func selectClients(list string) ([]Client, error) {
	all := allClients()
	if strings.TrimSpace(list) == "" {
		return all, nil
	}
	var out []Client
	for _, id := range strings.Split(list, ",") {
		id = strings.TrimSpace(id)
		if id == "continue" {
			id = "cn"
		}
		found := false
		for _, c := range all {
			if c.ID() == id {
				out = append(out, c)
				found = true
			}
		}
		if !found && id != "" {
			return nil, fmt.Errorf("--clients: unknown client %q (use %s)", id, ids(all))
		}
	}
	return out, nil
}

func ids(cs []Client) string {
	var s []string
	for _, c := range cs {
		s = append(s, c.ID())
	}
	return strings.Join(s, ",")
}

func parsePins(s string) (map[string]string, error) {
	pins := map[string]string{}
	for _, kv := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' }) {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" || v == "" {
			return nil, fmt.Errorf("--pin %q: use client=version", kv)
		}
		if k == "continue" {
			k = "cn"
		}
		pins[k] = v
	}
	return pins, nil
}

// moduleRoot is the folder of this module's go.mod, at or above the working directory.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if b, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil &&
			strings.Contains(string(b), "module github.com/repo-manager/repo\n") {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("run from inside the repo module (github.com/repo-manager/repo)")
		}
		dir = parent
	}
}

func pythonInfo() string {
	out, err := exec.Command("python3", "--version").CombinedOutput()
	if err != nil {
		return "python3 not found"
	}
	return strings.TrimSpace(string(out))
}
