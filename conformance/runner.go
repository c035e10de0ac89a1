//go:build linux && repodev

package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
)

// The five servers of examples/workspace that every check expects connected.
var expectedServers = []string{"vs-subagent-mcp", "sync-ai-rules", "aifp", "reference-manager", "sudocode"}

// The example user's own servers (uvx mcp-server-fetch, npx server-github): they need the network,
// so they fail offline. Listed, never counted.
var ownServers = map[string]bool{"fetch": true, "github": true}

type checkSpec struct {
	client Client
	scope  string
	// untrusted: the check of what a sync does before the user trusts the workspace's servers
	// (repo trust): it writes nothing into the scope (exit 3), so the client starts none of them
	// from there.
	untrusted bool
}

// CheckResult is one check after it ran.
type CheckResult struct {
	checkSpec
	Version  string
	Records  []Record // expected servers first, then the others
	Notes    []string
	Output   string
	Err      error  // the harness could not ask the client (it did not start, timed out, …)
	SyncErr  string // repo sync failed for this tool and scope: nothing to ask
	SyncCode int    // an untrusted check: the exit code of its sync (3 expected)
	Changes  []Change
	Duration time.Duration
	Home     string // the private HOME the check ran with
	// RemoteWarning is repo's warning, when its sync gave one, that the remote conformance server's
	// header reaches the client as literal text (settings.go).
	RemoteWarning string
}

// Verdict of the check's expectation.
func (r *CheckResult) Verdict() (string, string) {
	if r.untrusted {
		return r.untrustedVerdict()
	}
	switch {
	case r.SyncErr != "" && unsupported(r.SyncErr):
		return "NOT SUPPORTED BY REPO", "repo sync: " + r.SyncErr
	case r.SyncErr != "":
		return "FAIL (repo sync)", "repo sync: " + r.SyncErr
	}
	n, bad := 0, []string{}
	for _, rec := range r.Records {
		if !isExpected(rec.Server) {
			continue
		}
		if rec.Status == Connected {
			n++
		} else {
			bad = append(bad, rec.Server+" "+string(rec.Status))
		}
	}
	detail := fmt.Sprintf("%d/%d connected", n, len(expectedServers))
	if len(bad) > 0 {
		detail += "; " + strings.Join(bad, ", ")
	}
	switch {
	case n == len(expectedServers):
		return "PASS", detail
	case r.Err != nil:
		return "ERROR (client or harness)", detail + "; " + r.Err.Error()
	}
	return "FAIL", detail
}

// passed: the expected servers connected, and no expectation about the settings failed.
func (r *CheckResult) passed(isolated bool) bool {
	if v, _ := r.Verdict(); v != "PASS" {
		return false
	}
	for _, row := range r.settingRows(isolated) {
		if row.verdict == "FAIL" {
			return false
		}
	}
	return true
}

// untrustedVerdict: before repo trust, the sync must exit 3 and the client must start none of
// the expected servers from the checked scope.
func (r *CheckResult) untrustedVerdict() (string, string) {
	var started []string
	for _, rec := range r.Records {
		if isExpected(rec.Server) && rec.Status == Connected {
			started = append(started, rec.Server)
		}
	}
	detail := fmt.Sprintf("repo sync exit %d, %d/%d connected from the %s scope", r.SyncCode, len(started), len(expectedServers), r.scope)
	switch {
	case r.SyncErr != "":
		return "FAIL (repo sync)", "repo sync: " + r.SyncErr
	case r.SyncCode != 3:
		return "FAIL", detail + "; want exit 3 (not trusted) and nothing written"
	case len(started) > 0:
		return "FAIL", detail + ": " + strings.Join(started, ", ")
	case r.Err != nil:
		return "ERROR (client or harness)", detail + "; " + r.Err.Error()
	}
	return "PASS", detail
}

func isExpected(server string) bool { return slices.Contains(expectedServers, server) }

// Runner runs the checks: those that start in the project one after the other (so that a file a
// client rewrites is attributed to it and restored before the next one starts), the others (user
// scope, in their own empty folder) alongside.
type Runner struct {
	ws      *Workspace
	tb      *Toolbox
	sb      Sandbox
	timeout time.Duration
	jobs    int
	vb      func(string, ...any)
	logf    func(string, ...any)
	project sync.Mutex
}

func (rn *Runner) run(ctx context.Context, specs []checkSpec) []*CheckResult {
	results := make([]*CheckResult, len(specs))
	var inProject, elsewhere []int
	for i, s := range specs {
		if s.scope == ScopeUser {
			elsewhere = append(elsewhere, i)
		} else {
			inProject = append(inProject, i)
		}
	}
	queue := func(idx []int, workers int, wg *sync.WaitGroup) {
		ch := make(chan int)
		for range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range ch {
					results[i] = rn.one(ctx, specs[i])
				}
			}()
		}
		go func() {
			for _, i := range idx {
				ch <- i
			}
			close(ch)
		}()
	}
	var wg sync.WaitGroup
	if rn.jobs <= 1 {
		queue(append(inProject, elsewhere...), 1, &wg)
	} else {
		queue(inProject, 1, &wg)
		queue(elsewhere, rn.jobs-1, &wg)
	}
	wg.Wait()
	return results
}

func (rn *Runner) one(ctx context.Context, s checkSpec) *CheckResult {
	t0 := time.Now()
	res := &CheckResult{checkSpec: s}
	in := rn.tb.Clients[s.client.ID()]
	if in != nil {
		res.Version = in.Version
	}
	defer func() {
		res.Duration = time.Since(t0)
		v, d := res.Verdict()
		rn.logf("%-8s %-7s %s — %s (%.0fs)", s.client.ID(), s.scope, v, d, res.Duration.Seconds())
	}()
	if in == nil || in.Err != nil {
		res.Err = fmt.Errorf("%s is not installed", s.client.Name())
		if in != nil {
			res.Err = fmt.Errorf("%s is not installed: %w", s.client.Name(), in.Err)
		}
		res.Records = missingAll(res, "client not installed")
		return res
	}
	if s.untrusted {
		res.SyncCode = rn.ws.untrustedCode(s)
	} else if why, failed := rn.ws.syncFailure(s.client.Tool(), s.scope); failed {
		res.SyncErr = why
		res.Records = missingAll(res, "repo did not write this scope")
		return res
	}
	res.RemoteWarning = rn.ws.remoteWarning(s.client.Tool(), s.scope)
	dir := filepath.Join(rn.ws.Work, "checks", strings.ReplaceAll(s.key(), "/", "-"))
	c := &Check{Client: s.client, Scope: s.scope, Project: rn.ws.Project, Home: filepath.Join(dir, "home"),
		Dir: rn.ws.Project, Tmp: filepath.Join(dir, "tmp"), Version: res.Version, Timeout: rn.timeout,
		tb: rn.tb, sb: rn.sb, vb: rn.vb}
	if s.scope != ScopeProject {
		c.Home = rn.ws.Homes[s.key()] // the HOME repo synced for this check
	}
	if s.scope == ScopeUser {
		c.Dir = filepath.Join(dir, "cwd") // outside the project: only the user scope applies
	}
	res.Home = c.Home
	for _, d := range []string{c.Home, c.Tmp, c.Dir} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			res.Err = err
			return res
		}
	}
	if err := s.client.Prepare(c); err != nil {
		res.Err = fmt.Errorf("prepare: %w", err)
		res.Records = missingAll(res, "")
		return res
	}
	// The config files repo wrote into the private HOME (local, user scope): a client that rewrites
	// them is reported like one that rewrites the project (the HOME is private: nothing to restore).
	homeBefore := readFiles(c.Home, s.client.Files(s.scope))
	var snap *snapshot
	if c.Dir == rn.ws.Project {
		rn.project.Lock()
		defer rn.project.Unlock()
		var err error
		if snap, err = takeSnapshot(c.Project); err != nil {
			res.Err = err
			return res
		}
	}
	cctx, cancel := context.WithTimeout(ctx, 3*rn.timeout)
	r, err := s.client.List(cctx, c)
	cancel()
	if r == nil {
		r = &Result{}
	}
	res.Err, res.Notes, res.Output = err, r.Notes, r.Output
	res.Records = rn.scoped(res, r.Records)
	if snap != nil {
		rn.guard(ctx, res, snap)
	}
	if s.scope != ScopeProject {
		rn.guardHome(ctx, res, c.Home, homeBefore)
	}
	return res
}

// readFiles reads the files that exist among rels under dir.
func readFiles(dir string, rels []string) map[string][]byte {
	out := map[string][]byte{}
	for _, rel := range rels {
		if b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel))); err == nil {
			out[rel] = b
		}
	}
	return out
}

// guardHome reports what the client changed in the config files of the check's HOME, and asks
// repo (with that HOME, hence its ownership record) whether they are still in sync.
func (rn *Runner) guardHome(ctx context.Context, res *CheckResult, home string, before map[string][]byte) {
	after := readFiles(home, res.client.Files(res.scope))
	var changes []Change
	for rel, b := range before {
		a, ok := after[rel]
		switch {
		case !ok:
			changes = append(changes, Change{Path: "~/" + rel, Kind: "deleted"})
		case string(a) != string(b):
			changes = append(changes, Change{Path: "~/" + rel, Kind: "modified", Lines: describe(rel, b, a)})
		}
	}
	if len(changes) == 0 {
		return
	}
	args := []string{"sync", "--check", "--scope", res.scope, "--tool", res.client.Tool()}
	code, out := rn.ws.repo(ctx, home, args...)
	verdict := "in sync"
	if code != 0 {
		verdict = fmt.Sprintf("exit %d: %s", code, oneLine(out, 300))
	}
	for i := range changes {
		changes[i].Client, changes[i].Scope = res.client.ID(), res.scope
		changes[i].RepoCheck, changes[i].RepoCmd = verdict, "repo "+strings.Join(args, " ")
	}
	sort.Slice(changes, func(i, j int) bool { return changes[i].Path < changes[j].Path })
	res.Changes = append(res.Changes, changes...)
}

// scoped keeps the records the client attributes to the checked scope (a local-scope check also
// sees the project's servers), adds the expected servers the client did not list, and orders
// them: expected servers first.
func (rn *Runner) scoped(res *CheckResult, recs []Record) []Record {
	var out []Record
	seen := map[string]bool{}
	var other []string
	for _, r := range recs {
		if r.Scope != "" && r.Scope != res.scope {
			other = append(other, fmt.Sprintf("%s (%s, %s)", r.Server, r.Scope, r.Status))
			continue
		}
		r.Client, r.Version, r.Scope = res.client.ID(), res.Version, scopeLabel(res)
		if ownServers[r.Server] && !isExpected(r.Server) {
			r.Detail = strings.TrimSpace("user's own server, not counted; " + r.Detail)
		}
		seen[r.Server] = true
		out = append(out, r)
	}
	if len(other) > 0 {
		res.Notes = append(res.Notes, "also listed, from other scopes: "+strings.Join(other, ", "))
	}
	for _, name := range expectedServers {
		if !seen[name] {
			detail := "not listed by the client"
			if res.Err != nil {
				detail = "client not asked: " + res.Err.Error()
			}
			out = append(out, Record{Client: res.client.ID(), Version: res.Version, Scope: scopeLabel(res),
				Server: name, Status: Missing, Detail: oneLine(detail, 200)})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return rank(out[i].Server) < rank(out[j].Server) })
	return out
}

// scopeLabel is the scope a record shows: the check's, marked for a check before repo trust.
func scopeLabel(res *CheckResult) string {
	if res.untrusted {
		return res.scope + " before trust"
	}
	return res.scope
}

func rank(server string) int {
	for i, s := range expectedServers {
		if s == server {
			return i
		}
	}
	return len(expectedServers)
}

func missingAll(res *CheckResult, detail string) []Record {
	var out []Record
	for _, name := range expectedServers {
		out = append(out, Record{Client: res.client.ID(), Version: res.Version, Scope: res.scope,
			Server: name, Status: Missing, Detail: detail})
	}
	return out
}

// guard reports what the client changed in the project, asks repo whether the rewritten project is
// still in sync, and restores the original bytes.
func (rn *Runner) guard(ctx context.Context, res *CheckResult, snap *snapshot) {
	changes, err := snap.diff()
	if err != nil {
		res.Notes = append(res.Notes, "project snapshot: "+err.Error())
		return
	}
	if len(changes) == 0 {
		return
	}
	args := []string{"sync", "--check", "--tool", res.client.Tool()}
	code, out := rn.ws.repo(ctx, rn.ws.RepoHome, args...)
	verdict := "in sync"
	if code != 0 {
		verdict = fmt.Sprintf("exit %d: %s", code, oneLine(out, 300))
	}
	for i := range changes {
		changes[i].Client, changes[i].Scope = res.client.ID(), res.scope
		changes[i].RepoCheck, changes[i].RepoCmd = verdict, "repo "+strings.Join(args, " ")
	}
	res.Changes = changes
	if err := snap.restore(); err != nil {
		res.Notes = append(res.Notes, err.Error())
	}
}
