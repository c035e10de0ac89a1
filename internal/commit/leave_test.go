package commit

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/goccy/go-yaml"
	"github.com/pelletier/go-toml/v2"
	"github.com/tidwall/jsonc"

	"github.com/repo-manager/repo/extensions"
	"github.com/repo-manager/repo/internal/fileio"
	"github.com/repo-manager/repo/internal/fsfault"
	"github.com/repo-manager/repo/internal/plan"
	"github.com/repo-manager/repo/internal/target"
	"github.com/repo-manager/repo/toolprofiles"
)

var second = extensions.Server{Name: "t", Extension: "ext", Spec: extensions.Spec{Transport: extensions.Stdio, Command: "node", Args: []string{"t.js"}}}

// planLeaving plans a run of scope that writes servers for the staying
// tools and removes what repo wrote for the leaving ones.
func planLeaving(t *testing.T, env target.Env, scope target.Scope, servers []extensions.Server, staying, leaving []string) (*plan.Plan, []plan.Kept) {
	t.Helper()
	var stay []*toolprofiles.Profile
	if len(staying) > 0 {
		stay = profiles(t, staying...)
	}
	targets, _, err := target.Build(servers, stay, scope, env)
	if err != nil {
		t.Fatal(err)
	}
	lt, kept, err := plan.LeavingTargets(env, scope, profiles(t, leaving...), stay, plan.ReasonDeselected, nil)
	if err != nil {
		t.Fatal(err)
	}
	p, err := plan.Build(env, append(targets, lt...), plan.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return p, kept
}

func leaveScope(t *testing.T, env target.Env, scope target.Scope, servers []extensions.Server, staying, leaving []string) (*plan.Plan, []plan.Kept) {
	t.Helper()
	p, kept := planLeaving(t, env, scope, servers, staying, leaving)
	if _, err := Apply(p); err != nil {
		t.Fatal(err)
	}
	return p, kept
}

func exists(t *testing.T, path string) bool {
	t.Helper()
	_, err := os.Lstat(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
	return err == nil
}

// noop checks that planning the same run again changes nothing.
func noop(t *testing.T, env target.Env, scope target.Scope, servers []extensions.Server, staying, leaving []string) {
	t.Helper()
	p, _ := planLeaving(t, env, scope, servers, staying, leaving)
	if st := p.Stale(); len(st) != 0 {
		t.Fatalf("a second run would write %s: %+v", st[0].Display, st[0].Changes)
	}
}

// A tool's file that repo created goes with the tool: the entries, the
// file, the folder repo made for it, the record's target.
func TestLeavingToolsCreatedFileIsDeleted(t *testing.T) {
	env := testEnv(t)
	servers := []extensions.Server{server, second}
	mustSync(t, env, servers, "claude", "amazonq", "continue")
	amazonq := filepath.Join(env.Root, ".amazonq", "mcp.json")
	cont := filepath.Join(env.Root, ".continue", "mcpServers", "repo-managed.yaml")
	if !exists(t, amazonq) || !exists(t, cont) {
		t.Fatal("sync did not create the files")
	}
	p, _ := leaveScope(t, env, toolprofiles.ScopeProject, servers, []string{"claude"}, []string{"amazonq", "continue"})
	for _, path := range []string{amazonq, filepath.Dir(amazonq), cont, filepath.Join(env.Root, ".continue")} {
		if exists(t, path) {
			t.Errorf("%s is still there", path)
		}
	}
	var deleted []string
	for _, f := range p.Files {
		if f.Delete {
			deleted = append(deleted, f.Display)
			if len(f.Changes) != 3 || f.Changes[0].Action != plan.ActionRemove || f.Changes[0].Reason != plan.ReasonDeselected || f.Changes[2].Action != plan.ActionDelete {
				t.Errorf("%s: changes %+v", f.Display, f.Changes)
			}
		}
	}
	if strings.Join(deleted, " ") != ".amazonq/mcp.json .continue/mcpServers/repo-managed.yaml" {
		t.Errorf("deleted %v", deleted)
	}
	rec := recordText(t, env)
	if strings.Contains(rec, "amazonq") || strings.Contains(rec, "continue") || !strings.Contains(rec, ".mcp.json") {
		t.Errorf("record:\n%s", rec)
	}
	assertNoStaged(t, env.Root)
	noop(t, env, toolprofiles.ScopeProject, servers, []string{"claude"}, []string{"amazonq", "continue"})
}

// A file repo did not create is never deleted: its bytes are the user's
// again, to the byte, whatever repo added to it.
func TestLeavingToolsOwnFileStays(t *testing.T) {
	env := testEnv(t)
	cases := map[string]string{
		filepath.Join(env.Root, ".amazonq", "mcp.json"):                         "{}\n",
		filepath.Join(env.Root, ".cursor", "mcp.json"):                          "{\n  \"mcpServers\": {}\n}\n",
		filepath.Join(env.Root, ".gemini", "settings.json"):                     "{\n  // mine\n  \"theme\": \"GitHub\"\n}\n",
		filepath.Join(env.Root, ".vscode", "mcp.json"):                          "{\r\n\t\"servers\": {\r\n\t\t\"mine\": {\"command\": \"x\"},\r\n\t},\r\n}\r\n",
		filepath.Join(env.Root, ".codex", "config.toml"):                        "model = \"o3\"\n",
		filepath.Join(env.Root, ".continue", "mcpServers", "repo-managed.yaml"): "name: mine\nversion: 0.0.1\nschema: v1\nmcpServers: []\n",
	}
	for path, data := range cases {
		write(t, path, data)
	}
	ids := []string{"amazonq", "cursor", "gemini", "vscode", "codex", "continue"}
	mustSync(t, env, []extensions.Server{server}, ids...)
	leaveScope(t, env, toolprofiles.ScopeProject, nil, nil, ids)
	for path, data := range cases {
		if got := read(t, path); got != data {
			t.Errorf("%s:\n got %q\nwant %q", path, got, data)
		}
	}
	noop(t, env, toolprofiles.ScopeProject, nil, nil, ids)
}

// A file repo created that the user wrote into since keeps what the user
// wrote; repo's entries go. The record then knows nothing of it.
func TestLeavingToolsCreatedFileWithUserEntriesStays(t *testing.T) {
	env := testEnv(t)
	mustSync(t, env, []extensions.Server{server}, "cursor")
	path := filepath.Join(env.Root, ".cursor", "mcp.json")
	write(t, path, strings.Replace(read(t, path), `"mcpServers": {`, `"mcpServers": {
    "mine": {"command": "x"},`, 1))
	leaveScope(t, env, toolprofiles.ScopeProject, nil, nil, []string{"cursor"})
	if got, want := read(t, path), "{\n  \"mcpServers\": {\n    \"mine\": {\"command\": \"x\"}\n  }\n}\n"; got != want {
		t.Fatalf("got %q\nwant %q", got, want)
	}
	if strings.Contains(recordText(t, env), "cursor") {
		t.Fatalf("record:\n%s", recordText(t, env))
	}
}

// A record from before repo said what it created (version 1 or 2) has
// nothing created: the file stays, holding {} and the emptied map.
func TestLeavingToolsOldRecordCreatedNothing(t *testing.T) {
	env := testEnv(t)
	mustSync(t, env, []extensions.Server{server}, "cursor")
	rec := plan.ProjectRecordPath(env.Root)
	r, _, err := plan.ReadRecord(rec, "record")
	if err != nil {
		t.Fatal(err)
	}
	for _, tg := range r.Targets {
		tg.Created = nil
	}
	r.Version = r.MinVersion()
	write(t, rec, string(r.Bytes()))
	leaveScope(t, env, toolprofiles.ScopeProject, nil, nil, []string{"cursor"})
	path := filepath.Join(env.Root, ".cursor", "mcp.json")
	if got, want := read(t, path), "{\n  \"mcpServers\": {}\n}\n"; got != want {
		t.Fatalf("got %q\nwant %q", got, want)
	}
}

// A file shared by two tools (Claude Code and Copilot CLI: .mcp.json)
// keeps its entries while one of them stays; they go with the last.
func TestLeavingToolSharedFileKept(t *testing.T) {
	env := testEnv(t)
	mustSync(t, env, []extensions.Server{server}, "claude", "copilot")
	path := filepath.Join(env.Root, ".mcp.json")
	before := read(t, path)
	p, kept := leaveScope(t, env, toolprofiles.ScopeProject, []extensions.Server{server}, []string{"claude"}, []string{"copilot"})
	if len(kept) != 1 || kept[0].Display != ".mcp.json" || strings.Join(kept[0].Tools, ",") != "copilot" || strings.Join(kept[0].By, ",") != "claude" {
		t.Fatalf("kept %+v", kept)
	}
	if st := p.Stale(); len(st) != 0 {
		t.Fatalf("wrote %s: %+v", st[0].Display, st[0].Changes)
	}
	if read(t, path) != before {
		t.Fatal(".mcp.json changed")
	}
	leaveScope(t, env, toolprofiles.ScopeProject, nil, nil, []string{"claude", "copilot"})
	if exists(t, path) {
		t.Fatal(".mcp.json, which repo created, is still there")
	}
}

// Claude Code's local scope: repo made ~/.claude.json's projects entry
// for the workspace (the file existed); it goes, and the rest of the file
// is back to its bytes. Made from nothing, the whole file goes.
func TestLeavingLocalScopeProjectEntry(t *testing.T) {
	env := testEnv(t)
	path := filepath.Join(env.Home, ".claude.json")
	orig := claudeJSON(2)
	write(t, path, orig)
	syncScope(t, env, []extensions.Server{server}, toolprofiles.ScopeLocal, "claude")
	leaveScope(t, env, toolprofiles.ScopeLocal, nil, nil, []string{"claude"})
	if got := read(t, path); got != orig {
		t.Fatalf("~/.claude.json:\n got %s\nwant %s", got, orig)
	}

	env = testEnv(t)
	path = filepath.Join(env.Home, ".claude.json")
	syncScope(t, env, []extensions.Server{server}, toolprofiles.ScopeLocal, "claude")
	leaveScope(t, env, toolprofiles.ScopeLocal, nil, nil, []string{"claude"})
	if exists(t, path) {
		t.Fatalf("~/.claude.json, which repo created, is still there:\n%s", read(t, path))
	}
	if exists(t, env.Home) != true {
		t.Fatal("the home folder went") // it existed: repo created no folder
	}
}

// One file, two targets of one record: ~/.claude.json holds the local
// and the user scope. The scope that created the file leaves first: the
// file stays for the other, which then knows repo created it, and deletes
// it when it leaves in turn.
func TestCreatedFileHandedOver(t *testing.T) {
	env := testEnv(t)
	path := filepath.Join(env.Home, ".claude.json")
	syncScope(t, env, []extensions.Server{server}, toolprofiles.ScopeLocal, "claude")
	syncScope(t, env, []extensions.Server{server}, toolprofiles.ScopeUser, "claude")
	leaveScope(t, env, toolprofiles.ScopeLocal, nil, nil, []string{"claude"})
	if got, want := read(t, path), "{\n  \"mcpServers\": {\n"; !strings.HasPrefix(got, want) || strings.Contains(got, "projects") {
		t.Fatalf("~/.claude.json:\n%s", got)
	}
	leaveScope(t, env, toolprofiles.ScopeUser, nil, nil, []string{"claude"})
	if exists(t, path) {
		t.Fatalf("~/.claude.json is still there:\n%s", read(t, path))
	}
}

// Goose's config.yaml got an extensions map from repo: the map goes with
// the last entry, and Goose's own settings stay to the byte.
func TestLeavingGooseExtensionsMap(t *testing.T) {
	env := testEnv(t)
	path := filepath.Join(env.Home, ".config", "goose", "config.yaml")
	orig := "GOOSE_PROVIDER: openai\r\nGOOSE_MODEL: gpt-4o\r\n"
	write(t, path, orig)
	syncScope(t, env, []extensions.Server{server, second}, toolprofiles.ScopeUser, "goose")
	if got := read(t, path); !strings.Contains(got, "extensions:\r\n") {
		t.Fatalf("no extensions map:\n%s", got)
	}
	leaveScope(t, env, toolprofiles.ScopeUser, nil, nil, []string{"goose"})
	if got := read(t, path); got != orig {
		t.Fatalf("got %q\nwant %q", got, orig)
	}
}

// A tool's entries are found in every file the tool may write, not only
// the one a sync would choose now: here the installation whose file repo
// wrote is gone.
func TestLeavingToolFoundAtEveryCandidate(t *testing.T) {
	env := testEnv(t)
	mustSync(t, env, []extensions.Server{server}, "opencode")
	oc := filepath.Join(env.Root, "opencode.json")
	write(t, filepath.Join(env.Root, "opencode.jsonc"), "{}\n") // a sync would now write this one
	leaveScope(t, env, toolprofiles.ScopeProject, nil, nil, []string{"opencode"})
	if exists(t, oc) {
		t.Fatalf("opencode.json is still there:\n%s", read(t, oc))
	}
}

// The deletion is one of the all-or-nothing commits: when a later commit
// fails, the deleted file is back.
func TestDeletedFilePutBackWhenRunFails(t *testing.T) {
	env := testEnv(t)
	mustSync(t, env, []extensions.Server{server}, "amazonq", "cursor")
	amazonq := filepath.Join(env.Root, ".amazonq", "mcp.json")
	cursor := filepath.Join(env.Root, ".cursor", "mcp.json")
	saved := read(t, amazonq)
	// The deletion first, then cursor's update.
	lt, _, err := plan.LeavingTargets(env, toolprofiles.ScopeProject, profiles(t, "amazonq"), profiles(t, "cursor"), plan.ReasonDeselected, nil)
	if err != nil {
		t.Fatal(err)
	}
	targets, _, err := target.Build([]extensions.Server{second}, profiles(t, "cursor"), toolprofiles.ScopeProject, env)
	if err != nil {
		t.Fatal(err)
	}
	p, err := plan.Build(env, append(lt, targets...), plan.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// The record's intent, then the deletion: a tool saves cursor's file.
	fsys := fsfault.New().After(fsfault.Commit, "", 2, func() { write(t, cursor, "{\"mcpServers\": {}}\n") })
	applied, err := apply(p, Interrupt{}, fsys)
	if !errors.Is(err, ErrChanged) || len(applied.Written) != 0 {
		t.Fatalf("err = %v (written %d), want ErrChanged", err, len(applied.Written))
	}
	if got := read(t, amazonq); got != saved {
		t.Fatalf("the deleted file was not put back: %q", got)
	}
	assertNoStaged(t, env.Root)
}

// A file another program rewrote since repo read it is not deleted.
func TestDeleteOfChangedFileRefused(t *testing.T) {
	env := testEnv(t)
	mustSync(t, env, []extensions.Server{server}, "amazonq")
	path := filepath.Join(env.Root, ".amazonq", "mcp.json")
	p, _ := planLeaving(t, env, toolprofiles.ScopeProject, nil, nil, []string{"amazonq"})
	write(t, path, "{\"mcpServers\": {\"mine\": {\"command\": \"x\"}}}\n")
	if _, err := Apply(p); !errors.Is(err, ErrChanged) {
		t.Fatalf("err = %v, want ErrChanged", err)
	}
	if !strings.Contains(read(t, path), "mine") {
		t.Fatal("the tool's save is lost")
	}
	assertNoStaged(t, env.Root)
}

// A tool that had the file open before repo deleted it and writes into it
// after (an in-place save) has its write kept: the run is undone.
func TestWriteIntoDeletedFileIsPutBack(t *testing.T) {
	if fileio.WritesInPlace {
		t.Skip("files are written in place here: nothing is renamed aside to write into")
	}
	env := testEnv(t)
	mustSync(t, env, []extensions.Server{server}, "amazonq")
	path := filepath.Join(env.Root, ".amazonq", "mcp.json")
	p, _ := planLeaving(t, env, toolprofiles.ScopeProject, nil, nil, []string{"amazonq"})
	tool, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer tool.Close()
	saved := "{\"mcpServers\": {\"tool\": {\"command\": \"y\"}}}\n"
	// Once the file is deleted, and checked: before the folders' fsync.
	fsys := fsfault.New().Before(fsfault.Sync, filepath.Dir(path), 1, func() {
		tool.Truncate(0)
		tool.WriteAt([]byte(saved), 0)
	})
	if _, err := apply(p, Interrupt{}, fsys); !errors.Is(err, ErrChanged) {
		t.Fatalf("err = %v, want ErrChanged", err)
	}
	if got := read(t, path); got != saved {
		t.Fatalf("the tool's save was not put back: %q", got)
	}
}

// The dry run shows a deletion as git does.
func TestDiffOfDeletedFile(t *testing.T) {
	env := testEnv(t)
	mustSync(t, env, []extensions.Server{server}, "amazonq")
	path := filepath.Join(env.Root, ".amazonq", "mcp.json")
	if err := os.Chmod(path, 0o640); err != nil {
		t.Fatal(err)
	}
	p, _ := planLeaving(t, env, toolprofiles.ScopeProject, nil, nil, []string{"amazonq"})
	for _, f := range p.Files {
		if f.Display != ".amazonq/mcp.json" {
			continue
		}
		d := plan.Diff(f)
		head := "diff --git a/.amazonq/mcp.json b/.amazonq/mcp.json\ndeleted file mode 100640\n--- a/.amazonq/mcp.json\n+++ /dev/null\n@@ -1,8 +0,0 @@\n-{\n"
		if !strings.HasPrefix(d, head) || strings.Contains(strings.TrimPrefix(d, head), "\n+") {
			t.Fatalf("diff:\n%s", d)
		}
		return
	}
	t.Fatal("no plan for .amazonq/mcp.json")
}

// fuzzTools are the tools FuzzLeave writes for, one per format and shape.
var fuzzTools = []struct{ id, file string }{
	{"cursor", ".cursor/mcp.json"},                         // strict JSON
	{"vscode", ".vscode/mcp.json"},                         // JSONC, "servers"
	{"gemini", ".gemini/settings.json"},                    // JSON with comments
	{"codex", ".codex/config.toml"},                        // TOML, a marked block
	{"continue", ".continue/mcpServers/repo-managed.yaml"}, // YAML list, a skeleton
}

// FuzzLeave syncs a server into a tool's file as the user left it (or
// into no file), then has the tool leave. Whenever the sync can be made:
//   - the leave succeeds, and a second one changes nothing;
//   - a file the user had is still there and means what it meant (a
//     blank file is filled as a new one, and keeps what a new one holds:
//     {} for JSON); the editors' own fuzz targets hold the bytes to
//     their rules, the table tests above to the bytes of real files;
//   - a file repo created is gone, with the folders it made;
//   - the record keeps nothing of the tool.
func FuzzLeave(f *testing.F) {
	seeds := []string{
		"", "{}", "{}\n", "{ }", "{\"mcpServers\": {}}\n", "{\"mcpServers\": {\"mine\": {\"command\": \"x\"}}}\n",
		"{\r\n\t// c\r\n\t\"servers\": {},\r\n}\r\n", "{\n  \"theme\": \"GitHub\"\n}", "\xef\xbb\xbf{\"a\": 1}",
		"model = \"o3\"\n", "[mcp_servers.mine]\ncommand = \"x\"\n", "# c\n",
		"name: mine\nversion: 0.0.1\nschema: v1\nmcpServers: []\n", "name: x\nmcpServers:\n  - name: mine\n    command: y\n",
	}
	for _, s := range seeds {
		for i := range fuzzTools {
			f.Add([]byte(s), uint8(i), true)
		}
	}
	for i := range fuzzTools {
		f.Add([]byte(nil), uint8(i), false)
	}
	f.Fuzz(func(t *testing.T, data []byte, tool uint8, present bool) {
		ft := fuzzTools[int(tool)%len(fuzzTools)]
		env := testEnv(t)
		path := filepath.Join(env.Root, filepath.FromSlash(ft.file))
		if present {
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		withSettle(t, 0, fileio.SettleMax) // the file is written by the test, not a tool saving it
		targets, _, err := target.Build([]extensions.Server{server}, profiles(t, ft.id), toolprofiles.ScopeProject, env)
		if err != nil {
			t.Fatal(err)
		}
		p, err := plan.Build(env, targets, plan.Options{})
		if err != nil {
			return // a file repo refuses: nothing was written
		}
		if _, err := Apply(p); err != nil {
			t.Fatalf("sync: %v", err)
		}
		lp, _ := planLeaving(t, env, toolprofiles.ScopeProject, nil, nil, []string{ft.id})
		if _, err := Apply(lp); err != nil {
			t.Fatalf("leave: %v", err)
		}
		noop(t, env, toolprofiles.ScopeProject, nil, nil, []string{ft.id})
		if !present {
			if exists(t, path) || exists(t, filepath.Join(env.Root, strings.Split(ft.file, "/")[0])) {
				t.Fatalf("what repo created for %s is still there", ft.file)
			}
		} else {
			got := []byte(read(t, path))
			if len(bytes.TrimSpace(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")))) != 0 { // not blank
				format, err := plan.FormatFor(targets[0])
				if err != nil {
					t.Fatal(err)
				}
				if _, err := format.Parse(got); err != nil {
					t.Fatalf("the file does not parse: %v\n%s", err, got)
				}
				// A file the tool's reader refuses (a key given twice
				// outside the server map) has no meaning to compare.
				if before, err := meaning(targets[0].Format, data); err == nil {
					after, err := meaning(targets[0].Format, got)
					if err != nil {
						t.Fatalf("the file does not decode: %v\n%s", err, got)
					}
					// A server map that was null is left empty (Delete's rule
					// for a container the user wrote).
					if at(before, targets[0].Key) == nil && isEmptyValue(at(after, targets[0].Key)) {
						before = setAt(before, targets[0].Key, at(after, targets[0].Key))
					}
					if !reflect.DeepEqual(before, after) {
						t.Fatalf("the file changed meaning:\nbefore %v\nafter  %v\n%s", before, after, got)
					}
				}
			}
		}
		if r, _, err := plan.ReadRecord(plan.ProjectRecordPath(env.Root), "record"); err != nil || len(r.Targets) != 0 {
			t.Fatalf("record: %v %+v", err, r)
		}
	})
}

// at is the value at key in v (nil where it is not).
func at(v any, key []string) any {
	for _, k := range key {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}

// setAt is v with the value at key (whose parents are maps) set to to.
func setAt(v any, key []string, to any) any {
	if len(key) == 0 {
		return to
	}
	m, ok := v.(map[string]any)
	if !ok {
		return v
	}
	cp := make(map[string]any, len(m)+1)
	for k, e := range m {
		cp[k] = e
	}
	cp[key[0]] = setAt(m[key[0]], key[1:], to)
	return cp
}

func isEmptyValue(v any) bool {
	switch x := v.(type) {
	case map[string]any:
		return len(x) == 0
	case []any:
		return len(x) == 0
	}
	return false
}

// meaning decodes a file of a format (see toolprofiles.Format*), as a
// tool's own reader would, into plain Go values.
func meaning(format target.Format, data []byte) (any, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	var v any
	switch format {
	case toolprofiles.FormatTOML:
		err := toml.Unmarshal(data, &v)
		return v, err
	case toolprofiles.FormatYAML:
		err := yaml.Unmarshal(data, &v)
		return v, err
	}
	dec := json.NewDecoder(bytes.NewReader(jsonc.ToJSON(data)))
	dec.UseNumber()
	err := dec.Decode(&v)
	return v, err
}

// A file repo created that the user has since made a symbolic link (to a
// dotfiles copy) is not deleted, nor is what it points to: the entries go
// from the target, through the link.
func TestCreatedFileNowALinkStays(t *testing.T) {
	env := testEnv(t)
	mustSync(t, env, []extensions.Server{server}, "cursor")
	path := filepath.Join(env.Root, ".cursor", "mcp.json")
	dotfile := filepath.Join(env.Root, "dotfiles", "cursor-mcp.json")
	write(t, dotfile, read(t, path))
	os.Remove(path)
	if err := os.Symlink(dotfile, path); err != nil {
		t.Skip("no symlinks:", err)
	}
	leaveScope(t, env, toolprofiles.ScopeProject, nil, nil, []string{"cursor"})
	if fi, err := os.Lstat(path); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Fatalf("the link is gone: %v", err)
	}
	if got := read(t, dotfile); got != "{}\n" {
		t.Fatalf("the link's target: %q", got)
	}
}
