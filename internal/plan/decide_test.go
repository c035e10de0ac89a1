package plan

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/repo-manager/repo/extensions"
	"github.com/repo-manager/repo/internal/canon"
	"github.com/repo-manager/repo/internal/ordered"
	"github.com/repo-manager/repo/internal/record"
	"github.com/repo-manager/repo/internal/target"
	"github.com/repo-manager/repo/toolprofiles"
)

// What happens to one entry, s, of a tool's file: each row is a situation
// — what repo wrote before (and so what its record says), what the file
// holds now, whether a server still wants the entry, who else claims it,
// what git says of the file, the options — and the decision the plan
// makes, with its reason. The versions of the entry are named:
//
//	new         what the extension's server asks for now
//	old         what it asked for before (repo wrote it; the record says so)
//	X+debug     X with an env member the user added by hand
//	old+args    old with args the user changed (the extension changed them too)
//	new+timeout new with a member the tool or the user owns (Claude's timeout)
//	new+unknown new with a member no tool of the target writes
//	moved       new as repo writes it at another workspace root
//	user        the user's own server of that name
//
// Decisions other than a Change: keep (left, repo's), yours (left, the
// user's: Plan.Yours), another workspace's (left to the workspace whose
// record claims it: Plan.Yours), none (left, not repo's), tracked
// (the file is left as the repository has it: Plan.Tracked), conflict,
// claimed and edit conflict (the run stops: ConflictError, ClaimedError,
// EditConflictError).
func TestEntryDecisions(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	for _, c := range []decisionCase{
		// Not in the file.
		{name: "missing: added", file: "", decision: "add", reason: ReasonMissing, after: "new"},
		{name: "deleted by hand: added back", synced: "new", file: "", decision: "add", reason: ReasonMissing, after: "new"},
		{name: "gone, and gone from the file: forgotten", synced: "new", file: "", gone: true, decision: "none"},

		// In the file, this clone's record holds it.
		{name: "as repo wrote it: kept", synced: "new", file: "new", decision: "keep"},
		{name: "the extension changed: updated", synced: "old", file: "old", decision: "update", reason: ReasonStale, after: "new"},
		{name: "a member the user owns changed: kept", synced: "new", file: "new+timeout", decision: "keep"},
		{name: "a member no tool writes added: kept", synced: "new", file: "new+unknown", decision: "keep"},
		{name: "written at another root: updated", synced: "new", file: "moved", decision: "update", reason: ReasonRelocated, after: "new"},
		{name: "written at another root, accepted", synced: "new", file: "moved", opts: Options{AcceptRelocated: true}, decision: "keep"},
		{name: "hand edit, extension unchanged: kept edit", synced: "new", file: "new+debug", decision: "keep", kept: []string{"env"}},
		{name: "hand edit, extension changed: merged", synced: "old", file: "old+debug", decision: "update", reason: ReasonMerged, after: "new+debug", kept: []string{"env"}},
		{name: "hand edit, base not known here: put back", synced: "old", file: "old+debug", noBases: true, decision: "update", reason: ReasonHandEdited, after: "new", warn: "edited by hand"},
		{name: "hand edit collides", synced: "old", file: "old+args", decision: "edit conflict"},
		{name: "hand edit collides, --ours", synced: "old", file: "old+args", opts: Options{Ours: []string{"s"}}, decision: "keep", kept: []string{"args"}},
		{name: "hand edit collides, --theirs", synced: "old", file: "old+args", opts: Options{Theirs: []string{"s"}}, decision: "update", reason: ReasonMerged, after: "new"},
		{name: "gone: removed", synced: "new", file: "new", gone: true, decision: "remove", reason: ReasonGone},
		{name: "gone, edited by hand: forgotten", synced: "new", file: "new+debug", gone: true, decision: "forget", reason: ReasonGone, warn: "edited by hand"},

		// In the file, no record of this clone's holds it.
		{name: "the user's, exactly what repo writes: yours", file: "new", decision: "yours"},
		{name: "the user's, exactly what repo writes, --adopt", file: "new", opts: Options{Adopt: true}, decision: "adopt", reason: ReasonAdopted, after: "new"},
		{name: "the user's, exactly what repo writes, --adopt-name", file: "new", opts: Options{AdoptNames: []string{"s"}}, decision: "adopt", reason: ReasonAdopted, after: "new"},
		{name: "the user's own server: conflict", file: "user", decision: "conflict"},
		{name: "the user's own server, --adopt-name of another", file: "user", opts: Options{AdoptNames: []string{"t"}}, decision: "conflict"},
		{name: "the user's own server, --adopt", file: "user", opts: Options{Adopt: true}, decision: "adopt", reason: ReasonAdopted, after: "new"},
		{name: "differs by a root prefix only: still the user's", file: "moved", decision: "conflict"},
		{name: "gone, the user's: untouched", file: "user", gone: true, decision: "none"},

		// A file every workspace shares (user scope): another workspace's record claims the entry.
		{name: "shared, not here: added", scope: toolprofiles.ScopeUser, file: "", decision: "add", reason: ReasonMissing, after: "new"},
		{name: "shared, another's: claimed", scope: toolprofiles.ScopeUser, other: true, file: "user", decision: "claimed"},
		{name: "shared, another's, what this one wants: left to it", scope: toolprofiles.ScopeUser, other: true, file: "new", decision: "another workspace's"},
		{name: "shared, another's, --adopt: taken from it", scope: toolprofiles.ScopeUser, other: true, file: "user", opts: Options{Adopt: true}, decision: "adopt", reason: ReasonAdopted, after: "new", taken: true},
		{name: "shared, both records, written for this one: settled here", scope: toolprofiles.ScopeUser, synced: "new", other: true, file: "new", decision: "keep", taken: true},
		{name: "shared, gone here, held by another: forgotten", scope: toolprofiles.ScopeUser, synced: "new", other: true, file: "new", gone: true, decision: "forget", reason: ReasonHeldElsewhere},

		// A per-clone file (a machine-specific file git ignores, [mcp] gitignore).
		{name: "per-clone, git tracks it: left as the repository has it", perClone: "tracked", file: "user", decision: "tracked"},
		{name: "per-clone, from the repository, what repo writes: taken", perClone: "from repository", file: "new", decision: "keep", warn: "taken as repo's"},
		{name: "per-clone, from the repository, written at another root: updated", perClone: "from repository", file: "moved", decision: "update", reason: ReasonRelocated, after: "new"},
		{name: "per-clone, from the repository, the user's: conflict", perClone: "from repository", file: "user", decision: "conflict from the repository"},
		{name: "per-clone, the clone's own, the user's: conflict", perClone: "own", file: "user", decision: "conflict"},
		{name: "per-clone, written at another root, accepted only in a committed file: updated", perClone: "own", synced: "new", file: "moved",
			opts: Options{AcceptRelocated: true}, decision: "update", reason: ReasonRelocated, after: "new"},
	} {
		t.Run(c.name, func(t *testing.T) { c.check(t) })
	}
}

// decisionCase is one row of TestEntryDecisions.
type decisionCase struct {
	name string
	// The situation.
	scope    target.Scope // the target's scope; project when empty
	synced   string       // the version a sync wrote before (the record then holds it); "" none
	noBases  bool         // this machine does not know what repo last wrote (the bases of hand edits)
	file     string       // the version the file holds now; "" no entry s
	gone     bool         // no server wants s any more
	other    bool         // another workspace's record claims s (a per-user file)
	perClone string       // a per-clone file: "own" (never in git), "tracked" (git tracks it), "from repository" (git held these bytes)
	opts     Options
	// The decision.
	decision string // add, update, adopt, remove, forget (Changes); keep, yours, …; conflict…, claimed, edit conflict
	reason   Reason
	after    string   // the version the file holds after an add, update or adopt
	kept     []string // the fields of a hand edit kept (Plan.KeptEdits)
	taken    bool     // the other workspace's record forgets s (ReasonTakenOver)
	warn     string   // a warning says this
}

// decisionWorld is a workspace and its home for one row.
type decisionWorld struct {
	t    *testing.T
	env  target.Env
	file string // the tool's file
}

func (c decisionCase) check(t *testing.T) {
	dir := t.TempDir()
	w := &decisionWorld{t: t, env: target.Env{Root: filepath.Join(dir, "ws"), Env: toolprofiles.Env{Home: filepath.Join(dir, "home"), GOOS: "linux", Getenv: func(string) string { return "" }}}}
	mkdir(t, filepath.Join(w.env.Root, ".repository"))
	scope := c.scope
	if scope == "" {
		scope = toolprofiles.ScopeProject
	}
	if c.perClone != "" {
		w.env.Gitignore = true
		git(t, w.env.Root, "init", "-q")
	}
	w.file = filepath.Join(w.env.Root, ".mcp.json")
	if scope != toolprofiles.ScopeProject {
		w.file = filepath.Join(w.env.Env.Home, ".claude.json")
	}
	if c.synced != "" {
		w.sync(scope, c.synced)
	}
	if c.noBases {
		bases, _ := BasesPath(w.env)
		if err := os.Remove(bases); err != nil {
			t.Fatal(err)
		}
	}
	w.writeEntry(scope, c.file)
	var otherRecord string
	if c.other {
		otherRecord = w.otherClaims(c.file)
	}
	targets := w.targets(scope, "new")
	if c.gone {
		targets = w.targets(scope, "")
	}
	switch c.perClone {
	case "tracked":
		git(t, w.env.Root, "add", ".mcp.json")
		if err := MarkTracked(w.env, targets); err != nil {
			t.Fatal(err)
		}
	case "from repository":
		// Committed, then untracked by a commit: the bytes are what git held.
		git(t, w.env.Root, "add", ".mcp.json")
		git(t, w.env.Root, "commit", "-q", "-m", "a")
		git(t, w.env.Root, "rm", "-q", "--cached", ".mcp.json")
		git(t, w.env.Root, "commit", "-q", "-m", "b")
	}
	p, err := Build(w.env, targets, c.opts)
	decision, reason := w.decisionOf(p, err, scope)
	if decision != c.decision || reason != c.reason {
		t.Fatalf("decision %s (%q), want %s (%q); error: %v", decision, reason, c.decision, c.reason, err)
	}
	if err != nil {
		return
	}
	w.checkFile(p, c)
	if recorded, want := w.recorded(p, scope), slices.Contains([]string{"add", "update", "adopt", "keep"}, c.decision); recorded != want {
		t.Errorf("recorded in this clone's record: %v, want %v", recorded, want)
	}
	var kept []string
	for _, k := range p.KeptEdits {
		kept = append(kept, k.Fields...)
	}
	if !slices.Equal(kept, c.kept) {
		t.Errorf("kept edits %v, want %v", kept, c.kept)
	}
	if taken := takenFrom(p, otherRecord); taken != c.taken {
		t.Errorf("taken from the other workspace's record: %v, want %v", taken, c.taken)
	}
	warned := slices.ContainsFunc(p.Warnings, func(s string) bool { return c.warn != "" && strings.Contains(s, c.warn) })
	if c.warn != "" && !warned {
		t.Errorf("no warning says %q: %q", c.warn, p.Warnings)
	}
}

// decisionOf is what a plan decided for entry s of the tool's file: the
// error that stopped it, the file left as the repository has it, the entry
// left to the user, its Change; else keep when the record the plan leaves
// holds it, none when not.
func (w *decisionWorld) decisionOf(p *Plan, err error, scope target.Scope) (string, Reason) {
	file := w.file
	var conflict *ConflictError
	var claimed *ClaimedError
	var edit *EditConflictError
	switch {
	case errors.As(err, &conflict) && conflict.FromRepository:
		return "conflict from the repository", ""
	case errors.As(err, &conflict):
		return "conflict", ""
	case errors.As(err, &claimed):
		return "claimed", ""
	case errors.As(err, &edit):
		return "edit conflict", ""
	case err != nil:
		return "error: " + err.Error(), ""
	}
	for _, tf := range p.Tracked {
		if tf.Path == file {
			return "tracked", ""
		}
	}
	for _, y := range p.Yours {
		if y.Entry == "s" && y.Workspace != "" {
			return "another workspace's", ""
		}
		if y.Entry == "s" {
			return "yours", ""
		}
	}
	for _, f := range p.Files {
		if f.Path != file && f.Path != target.RealPath(file) {
			continue
		}
		for _, ch := range f.Changes {
			if ch.Entry == "s" {
				return string(ch.Action), ch.Reason
			}
		}
	}
	if w.recorded(p, scope) {
		return "keep", ""
	}
	return "none", ""
}

// checkFile checks what the file holds for s after the plan: the version
// the row says, for a change that writes s; nothing, for a removal; else
// what it held.
func (w *decisionWorld) checkFile(p *Plan, c decisionCase) {
	w.t.Helper()
	var fp *FilePlan
	for _, f := range p.Files {
		if f.Path == target.RealPath(w.file) {
			fp = f
		}
	}
	switch c.decision {
	case "keep", "yours", "another workspace's", "none", "forget", "tracked":
		if fp != nil && fp.Changed() && !(c.decision == "none" && c.file == "") {
			w.t.Errorf("the file changes: %s", fp.After)
		}
	case "remove":
		if got := w.entryIn(fp.After, c); got != "" {
			w.t.Errorf("removed, the file still holds %s", got)
		}
	default:
		want := w.value(c.after)
		if got := w.entryIn(fp.After, c); !sameJSON([]byte(got), want) {
			w.t.Errorf("the file holds\n%s\nwant (%s)\n%s", got, c.after, want)
		}
	}
}

// entryIn is entry s in a file's bytes, "" when there is none.
func (w *decisionWorld) entryIn(data []byte, c decisionCase) string {
	return gjson.GetBytes(data, "mcpServers.s").Raw
}

// recorded reports whether the record this plan leaves for the scope
// holds s.
func (w *decisionWorld) recorded(p *Plan, scope target.Scope) bool {
	path := record.ProjectPath(w.env.Root)
	if w.env.Gitignore {
		path = record.MachinePath(w.env.Root)
	}
	if scope != toolprofiles.ScopeProject {
		var err error
		if path, err = UserRecordPath(w.env); err != nil {
			w.t.Fatal(err)
		}
	}
	for _, f := range p.Files {
		if f.Path == path && f.Scope == ScopeRecord && !f.Delete {
			r, err := record.Parse(f.After, f.Display)
			if err != nil {
				w.t.Fatal(err)
			}
			file := filepath.ToSlash(target.RealPath(w.file))
			if scope == toolprofiles.ScopeProject {
				file = ".mcp.json"
			}
			return r.Claims(file, []string{"mcpServers"}, "s")
		}
	}
	return false
}

// takenFrom reports whether the plan makes the record at path forget s.
func takenFrom(p *Plan, path string) bool {
	for _, f := range p.Files {
		if f.Path == path && slices.Contains(f.Changes, Change{Action: ActionForget, Entry: "s", Reason: ReasonTakenOver}) {
			return true
		}
	}
	return false
}

// server is s as the extension declares it in a version ("new", "old"),
// with the workspace root in it as a resolved server has it.
func (w *decisionWorld) server(version string) extensions.Server {
	return extensions.Server{Name: "s", Extension: "ext", Spec: extensions.Spec{Transport: extensions.Stdio, Command: "node",
		Args: []string{filepath.Join(w.env.Root, "s.js"), "--" + version}}}
}

// targets are Claude Code's targets in scope for s in a version ("": no
// server).
func (w *decisionWorld) targets(scope target.Scope, version string) []*target.Target {
	set, err := toolprofiles.Builtin()
	if err != nil {
		w.t.Fatal(err)
	}
	var servers []extensions.Server
	if version != "" {
		servers = append(servers, w.server(version))
	}
	targets, _, err := target.Build(servers, []*toolprofiles.Profile{set.Get("claude")}, scope, w.env)
	if err != nil {
		w.t.Fatal(err)
	}
	return targets
}

// value is entry s in a named version (see TestEntryDecisions).
func (w *decisionWorld) value(version string) []byte {
	base, edit, _ := strings.Cut(version, "+")
	var v ordered.Object
	switch base {
	case "new", "old":
		v = w.targets(toolprofiles.ScopeProject, base)[0].Entries[0].Value
	case "moved":
		moved := strings.ReplaceAll(string(w.value("new")), canon.Text(w.env.Root), "/elsewhere/ws")
		return []byte(moved)
	case "user":
		return []byte(`{"command":"python","args":["mine.py"]}`)
	default:
		w.t.Fatalf("no version %q", version)
	}
	switch edit {
	case "debug":
		v = v.Set("env", ordered.Object{{Key: "DEBUG", Value: "1"}})
	case "args":
		v = v.Set("args", []string{"mine"})
	case "timeout":
		v = v.Set("timeout", 99)
	case "unknown":
		v = v.Set("alwaysLoad", true)
	}
	return ordered.JSON(v)
}

// sync plans s in a version and writes every file of the plan, as repo
// sync does.
func (w *decisionWorld) sync(scope target.Scope, version string) {
	p, err := Build(w.env, w.targets(scope, version), Options{})
	if err != nil {
		w.t.Fatal(err)
	}
	for _, f := range append(p.Files, p.State...) {
		switch {
		case f.Delete:
			os.Remove(f.Path)
		case f.Changed() || !f.Existed && f.After != nil:
			mkdir(w.t, filepath.Dir(f.Path))
			if err := os.WriteFile(f.Path, f.After, 0o600); err != nil {
				w.t.Fatal(err)
			}
		}
	}
}

// writeEntry makes the tool's file hold s in a version ("": no s).
func (w *decisionWorld) writeEntry(scope target.Scope, version string) {
	body := `{"mcpServers": {}}`
	if version != "" {
		body = `{"mcpServers": {"s": ` + string(w.value(version)) + `}}`
	}
	mkdir(w.t, filepath.Dir(w.file))
	if err := os.WriteFile(w.file, []byte(body+"\n"), 0o600); err != nil {
		w.t.Fatal(err)
	}
}

// otherClaims writes the per-user record of another workspace on this
// machine, which claims s in the tool's file as it holds it (version),
// and returns its path.
func (w *decisionWorld) otherClaims(version string) string {
	other := w.env
	other.Root = filepath.Join(filepath.Dir(w.env.Root), "other")
	mkdir(w.t, filepath.Join(other.Root, ".repository"))
	path, err := UserRecordPath(other)
	if err != nil {
		w.t.Fatal(err)
	}
	digest := record.NormalizedDigest(w.value(version), other.Root)
	r := &record.Record{Version: 1, Root: other.Root, Targets: []*record.Entry{{File: filepath.ToSlash(target.RealPath(w.file)), Key: []string{"mcpServers"},
		Entries: map[string]record.Owned{"s": {Extension: "ext", Digest: digest}}}}}
	mkdir(w.t, filepath.Dir(path))
	if err := os.WriteFile(path, r.Bytes(), 0o600); err != nil {
		w.t.Fatal(err)
	}
	return path
}

func mkdir(t *testing.T, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
}

func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_SYSTEM=/dev/null",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}
