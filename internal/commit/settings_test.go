package commit

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/repo-manager/repo/extensions"
	"github.com/repo-manager/repo/internal/ordered"
	"github.com/repo-manager/repo/internal/plan"
	"github.com/repo-manager/repo/internal/target"
	"github.com/repo-manager/repo/toolprofiles"
)

func on(v bool) *bool { return &v }

// withSettings is server with the given settings.
func withSettings(s extensions.Settings) extensions.Server {
	out := server
	out.Settings = s
	return out
}

// entryOf reads entry "s" of a JSON file under the key path.
func entryOf(t *testing.T, path string, key ...string) map[string]any {
	t.Helper()
	p := strings.Join(key, ".") + ".s"
	r := gjson.Get(read(t, path), p)
	if !r.Exists() {
		return nil
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(r.Raw), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// setMember rewrites member k of entry "s" in a JSON file, as a tool's UI
// would (nil removes it).
func setMember(t *testing.T, path string, k string, v any, key ...string) {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal([]byte(read(t, path)), &doc); err != nil {
		t.Fatal(err)
	}
	m := doc
	for _, seg := range key {
		m = m[seg].(map[string]any)
	}
	e := m["s"].(map[string]any)
	if v == nil {
		delete(e, k)
	} else {
		e[k] = v
	}
	b, _ := json.MarshalIndent(doc, "", "  ")
	write(t, path, string(b)+"\n")
}

func recordText(t *testing.T, env target.Env) string {
	t.Helper()
	return read(t, plan.ProjectRecordPath(env.Root))
}

// The author's settings are written when the entry is created; a sync
// after it writes nothing; the record remembers the offers as digests
// (version 2; 3 here, as it also says that repo created the file), never
// the values.
func TestSettingsWrittenAndRemembered(t *testing.T) {
	env := testEnv(t)
	s := withSettings(extensions.Settings{Enabled: on(false), AutoApprove: []string{"search"}, ToolTimeout: 60})
	mustSync(t, env, []extensions.Server{s}, "roo")
	roo := filepath.Join(env.Root, ".roo", "mcp.json")
	got := entryOf(t, roo, "mcpServers")
	if got["disabled"] != true || !reflect.DeepEqual(got["alwaysAllow"], []any{"search"}) || got["timeout"] != float64(60) {
		t.Fatalf("entry = %v", got)
	}
	rec := recordText(t, env)
	if !strings.Contains(rec, `"version": 3`) || !strings.Contains(rec, `"defaults": {`) || strings.Contains(rec, "search") {
		t.Fatalf("record:\n%s", rec)
	}
	if p := mustSync(t, env, []extensions.Server{s}, "roo"); len(p.Stale()) != 0 {
		t.Fatalf("second sync would write %s: %+v", p.Stale()[0].Display, p.Stale()[0].Changes)
	}
}

// A workspace whose extensions use no settings, in files repo did not
// create, keeps a version 1 record, byte for byte what earlier releases
// wrote — OpenCode's fixed "enabled": true included.
func TestRecordWithoutSettingsStaysVersion1(t *testing.T) {
	env := testEnv(t)
	write(t, filepath.Join(env.Root, "opencode.json"), "{\n  \"mcp\": {}\n}\n")
	write(t, filepath.Join(env.Root, ".roo", "mcp.json"), "{\n  \"mcpServers\": {}\n}\n")
	mustSync(t, env, []extensions.Server{server}, "opencode", "roo")
	if rec := recordText(t, env); !strings.Contains(rec, `"version": 1`) || strings.Contains(rec, "defaults") {
		t.Fatalf("record:\n%s", rec)
	}
}

// The user's toggle in the tool's UI wins over the author's default, on
// every later sync, also when the author's other settings change.
func TestUserToggleWins(t *testing.T) {
	env := testEnv(t)
	s := withSettings(extensions.Settings{Enabled: on(false), AutoApprove: []string{"a"}})
	mustSync(t, env, []extensions.Server{s}, "roo")
	roo := filepath.Join(env.Root, ".roo", "mcp.json")
	setMember(t, roo, "disabled", false, "mcpServers") // switched on in Roo's UI

	p := mustSync(t, env, []extensions.Server{s}, "roo")
	if len(p.Stale()) != 0 || len(p.Warnings) != 0 {
		t.Fatalf("a toggle made the file stale or warned: %+v %v", p.Stale(), p.Warnings)
	}
	s.Settings.AutoApprove = []string{"a", "b"} // the author's new release
	p = mustSync(t, env, []extensions.Server{s}, "roo")
	got := entryOf(t, roo, "mcpServers")
	if got["disabled"] != false || !reflect.DeepEqual(got["alwaysAllow"], []any{"a", "b"}) {
		t.Fatalf("want the user's toggle and the author's new list, got %v", got)
	}
	if len(p.Warnings) != 0 {
		t.Errorf("warnings: %v", p.Warnings)
	}
}

// An author's changed default reaches every entry nobody touched, and a
// setting the author drops goes; a member the user changed stays, with a
// warning when the author changed it too, once.
func TestAuthorChangesMeetUserChanges(t *testing.T) {
	env := testEnv(t)
	s := withSettings(extensions.Settings{ToolTimeout: 60, AutoApprove: []string{"a"}})
	mustSync(t, env, []extensions.Server{s}, "roo")
	roo := filepath.Join(env.Root, ".roo", "mcp.json")
	setMember(t, roo, "timeout", 30, "mcpServers") // tuned by hand

	s.Settings = extensions.Settings{ToolTimeout: 120} // autoApprove dropped, timeout raised
	p := mustSync(t, env, []extensions.Server{s}, "roo")
	got := entryOf(t, roo, "mcpServers")
	if got["timeout"] != float64(30) {
		t.Errorf("the user's timeout was replaced: %v", got)
	}
	if _, ok := got["alwaysAllow"]; ok {
		t.Errorf("the dropped autoApprove is still written: %v", got)
	}
	if len(p.Warnings) != 1 || !strings.Contains(p.Warnings[0], `.roo/mcp.json: entry "s" keeps timeout 30, set outside repo since repo wrote it; the extension now asks for timeout 120 (delete the entry to take the extension's values)`) {
		t.Fatalf("warnings: %q", p.Warnings)
	}
	if p = mustSync(t, env, []extensions.Server{s}, "roo"); len(p.Warnings) != 0 || len(p.Stale()) != 0 {
		t.Fatalf("the second sync warned again or writes: %v %+v", p.Warnings, p.Stale())
	}
	// A member the user removed stays removed.
	setMember(t, roo, "timeout", nil, "mcpServers")
	if p = mustSync(t, env, []extensions.Server{s}, "roo"); len(p.Stale()) != 0 {
		t.Fatalf("a removed member is written back: %+v", p.Stale()[0].Changes)
	}
}

// An entry an earlier release wrote (OpenCode's fixed "enabled": true, a
// record without offers) reads as untouched: the author's enabled: false
// reaches it. One the user switched off stays off when the author says on.
func TestEntriesFromEarlierReleases(t *testing.T) {
	env := testEnv(t)
	mustSync(t, env, []extensions.Server{server}, "opencode")
	oc := filepath.Join(env.Root, "opencode.json")
	mustSync(t, env, []extensions.Server{withSettings(extensions.Settings{Enabled: on(false)})}, "opencode")
	if got := entryOf(t, oc, "mcp"); got["enabled"] != false {
		t.Fatalf("the author's enabled: false did not reach an untouched entry: %v", got)
	}

	env = testEnv(t)
	mustSync(t, env, []extensions.Server{server}, "opencode")
	oc = filepath.Join(env.Root, "opencode.json")
	setMember(t, oc, "enabled", false, "mcp")
	p := mustSync(t, env, []extensions.Server{withSettings(extensions.Settings{Enabled: on(true)})}, "opencode")
	if got := entryOf(t, oc, "mcp"); got["enabled"] != false || len(p.Warnings) != 0 {
		t.Fatalf("the user's switch-off was overridden or warned about: %v %v", got, p.Warnings)
	}
}

// A server switched off leaves the files of tools without a toggle (a file
// repo created for it alone goes with it), and is written disabled for the
// others; switched on again, it comes back.
func TestSwitchedOffServerLeavesToolsWithoutToggle(t *testing.T) {
	env := testEnv(t)
	mustSync(t, env, []extensions.Server{server}, "gemini", "roo")
	gem := filepath.Join(env.Root, ".gemini", "settings.json")
	roo := filepath.Join(env.Root, ".roo", "mcp.json")
	off := withSettings(extensions.Settings{Enabled: on(false)})
	p := mustSync(t, env, []extensions.Server{off}, "gemini", "roo")
	if _, err := os.Lstat(gem); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("gemini's file, which repo created for the switched-off server alone, is still there: %v", err)
	}
	if _, err := os.Lstat(filepath.Dir(gem)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the .gemini folder repo created for it is still there: %v", err)
	}
	if got := entryOf(t, roo, "mcpServers"); got["disabled"] != true {
		t.Errorf("roo: %v", got)
	}
	var removed bool
	for _, f := range p.Files {
		for _, c := range f.Changes {
			removed = removed || (f.Display == ".gemini/settings.json" && c.Action == plan.ActionRemove)
		}
	}
	if !removed {
		t.Error("the plan does not say the gemini entry is removed")
	}
	mustSync(t, env, []extensions.Server{server}, "gemini", "roo")
	if entryOf(t, gem, "mcpServers") == nil {
		t.Error("switched on again, the server is not back in gemini")
	}
}

// Claude Code and Copilot CLI share .mcp.json: the entry holds what either
// tool's settings write, and they agree on the member both write.
func TestSharedFileTakesEachToolsSettings(t *testing.T) {
	env := testEnv(t)
	s := withSettings(extensions.Settings{IncludeTools: []string{"a"}, ToolTimeout: 90})
	targets, warnings, err := target.Build([]extensions.Server{s}, profiles(t, "claude", "copilot"), toolprofiles.ScopeProject, env)
	if err != nil {
		t.Fatal(err)
	}
	if len(targets) != 1 || len(targets[0].Entries) != 1 {
		t.Fatalf("targets: %+v", targets)
	}
	got := string(ordered.JSON(targets[0].Entries[0].Value))
	if want := `{"type":"stdio","command":"node","args":["s.js"],"timeout":90000,"tools":["a"]}`; got != want {
		t.Errorf("entry:\n got %s\nwant %s", got, want)
	}
	var claudeWarned bool
	for _, w := range warnings {
		claudeWarned = claudeWarned || (w.Tool == "claude" && strings.Contains(w.Msg, "includeTools"))
	}
	if !claudeWarned {
		t.Errorf("Claude Code reads no includeTools, and says so: %v", warnings)
	}
}

// Codex's per-tool approval table, a TOML sub-table, is a preserved member
// like the others: Codex's own approvals in it are kept.
func TestCodexApprovalTable(t *testing.T) {
	env := testEnv(t)
	s := withSettings(extensions.Settings{AutoApprove: []string{"search"}, StartupTimeout: 20})
	mustSync(t, env, []extensions.Server{s}, "codex")
	path := filepath.Join(env.Root, ".codex", "config.toml")
	got := read(t, path)
	for _, want := range []string{`startup_timeout_sec = 20`, `[mcp_servers."s".tools.search]`, `approval_mode = "approve"`} {
		if !strings.Contains(got, want) {
			t.Fatalf("config.toml lacks %s:\n%s", want, got)
		}
	}
	// Codex records the user's "always allow" for another tool.
	write(t, path, strings.Replace(got, `approval_mode = "approve"`, "approval_mode = \"approve\"\n\n[mcp_servers.\"s\".tools.write]\napproval_mode = \"approve\"", 1))
	if p := mustSync(t, env, []extensions.Server{s}, "codex"); len(p.Stale()) != 0 {
		t.Fatalf("Codex's own approval made the file stale: %+v", p.Stale()[0].Changes)
	}
	if got := read(t, path); !strings.Contains(got, `tools.write]`) {
		t.Fatalf("Codex's approval was dropped:\n%s", got)
	}
}

func TestReadRecordVersions(t *testing.T) {
	dir := t.TempDir()
	for v, ok := range map[int]bool{0: false, 1: true, 2: true, 3: true, 4: true, 5: false} {
		path := filepath.Join(dir, "r.json")
		if err := os.WriteFile(path, []byte(`{"version": `+string(rune('0'+v))+`, "targets": []}`), 0o644); err != nil {
			t.Fatal(err)
		}
		_, _, err := plan.ReadRecord(path, "r.json")
		if (err == nil) != ok {
			t.Errorf("version %d: err = %v", v, err)
		}
	}
}
