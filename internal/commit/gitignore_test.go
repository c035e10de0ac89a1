package commit

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/repo-manager/repo/extensions"
	"github.com/repo-manager/repo/internal/fileio"
	"github.com/repo-manager/repo/internal/plan"
	"github.com/repo-manager/repo/internal/target"
	"github.com/repo-manager/repo/toolprofiles"
)

// planIgnoreOnly plans a workspace's .gitignore alone, for the block
// listing paths.
func planIgnoreOnly(t *testing.T, env target.Env, paths ...string) (*plan.FilePlan, error) {
	t.Helper()
	p, err := plan.Build(env, nil, plan.Options{Ignore: &plan.IgnoreBlock{Paths: paths}})
	if err != nil {
		return nil, err
	}
	for _, f := range p.Files {
		if f.Scope == plan.ScopeGitignore {
			return f, nil
		}
	}
	return nil, nil
}

// ignoreAfter applies the plan of the block listing paths to a .gitignore
// holding before ("" and missing: no file) and returns the file after it,
// and the plan's changes.
func ignoreAfter(t *testing.T, before string, missing bool, paths ...string) (string, []plan.Change) {
	t.Helper()
	env := testEnv(t)
	gi := filepath.Join(env.Root, plan.IgnoreFile)
	if !missing {
		write(t, gi, before)
	}
	fp, err := planIgnoreOnly(t, env, paths...)
	if err != nil {
		t.Fatal(err)
	}
	p := &plan.Plan{}
	if fp != nil {
		p.Files = []*plan.FilePlan{fp}
	}
	if _, err := Apply(p); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(gi)
	if os.IsNotExist(err) {
		return "<none>", nil
	}
	if err != nil {
		t.Fatal(err)
	}
	// Planned again, the file is up to date.
	again, err := planIgnoreOnly(t, env, paths...)
	if err != nil {
		t.Fatal(err)
	}
	if again != nil && again.Changed() {
		t.Errorf("second plan changes the file again: %q -> %q", again.Before, again.After)
	}
	var changes []plan.Change
	if fp != nil {
		changes = fp.Changes
	}
	return string(data), changes
}

// block is repo's block listing lines, and the names of the staged
// copies (fileio.StagedPattern) after them.
func block(eol string, lines ...string) string {
	out := plan.IgnoreMarkerStart + eol
	for _, l := range lines {
		out += l + eol
	}
	if len(lines) > 0 {
		out += fileio.StagedPattern + eol
	}
	return out + plan.IgnoreMarkerEnd + eol
}

func TestIgnoreBlock(t *testing.T) {
	b := block("\n", "/.gemini/settings.json", "/.mcp.json")
	cases := []struct {
		name    string
		before  string
		missing bool
		paths   []string
		want    string
		changes []plan.Change
	}{
		{name: "a new .gitignore", missing: true, paths: []string{".mcp.json", ".gemini/settings.json"}, want: b,
			changes: []plan.Change{{Action: plan.ActionAdd, Entry: "/.gemini/settings.json", Reason: plan.ReasonNotIgnored}, {Action: plan.ActionAdd, Entry: "/.mcp.json", Reason: plan.ReasonNotIgnored}}},
		{name: "nothing to ignore, no file", missing: true, want: "<none>"},
		{name: "nothing to ignore, the user's file", before: "node_modules/\n", want: "node_modules/\n"},
		{name: "created at the end", before: "# mine\nnode_modules/\n\n*.log\n", paths: []string{".mcp.json", ".gemini/settings.json"},
			want: "# mine\nnode_modules/\n\n*.log\n" + b},
		{name: "an empty file", before: "", paths: []string{".mcp.json", ".gemini/settings.json"}, want: b},
		{name: "no final newline: the block owns the line break before it",
			before: "node_modules/", paths: []string{".mcp.json"},
			want: "node_modules/\n" + strings.TrimSuffix(block("\n", "/.mcp.json"), "\n")},
		{name: "no final newline, then nothing to ignore: the file as it was",
			before: "node_modules/\n" + strings.TrimSuffix(block("\n", "/.mcp.json"), "\n"), want: "node_modules/",
			changes: []plan.Change{{Action: plan.ActionRemove, Entry: "/.mcp.json", Reason: plan.ReasonNoLongerOurs}}},
		{name: "no final newline, the block changed", before: "a\n" + strings.TrimSuffix(block("\n", "/.mcp.json"), "\n"),
			paths: []string{".mcp.json", ".qwen/settings.json"},
			want:  "a\n" + strings.TrimSuffix(block("\n", "/.mcp.json", "/.qwen/settings.json"), "\n")},
		{name: "CRLF", before: "node_modules/\r\n*.log\r\n", paths: []string{".mcp.json", ".gemini/settings.json"},
			want: "node_modules/\r\n*.log\r\n" + block("\r\n", "/.gemini/settings.json", "/.mcp.json")},
		{name: "CRLF without a final newline", before: "node_modules/\r\n*.log", paths: []string{".mcp.json"},
			want: "node_modules/\r\n*.log\r\n" + strings.TrimSuffix(block("\r\n", "/.mcp.json"), "\r\n")},
		{name: "replaced in place, the lines around it kept", before: "top\n\n" + b + "\n# after\nbuild/\n",
			paths: []string{".mcp.json", ".qwen/settings.json"},
			want:  "top\n\n" + block("\n", "/.mcp.json", "/.qwen/settings.json") + "\n# after\nbuild/\n",
			changes: []plan.Change{{Action: plan.ActionAdd, Entry: "/.qwen/settings.json", Reason: plan.ReasonNotIgnored},
				{Action: plan.ActionRemove, Entry: "/.gemini/settings.json", Reason: plan.ReasonNoLongerOurs}}},
		{name: "removed when empty, the lines around it kept", before: "top\n" + b + "build/\n", want: "top\nbuild/\n",
			changes: []plan.Change{{Action: plan.ActionRemove, Entry: "/.gemini/settings.json", Reason: plan.ReasonNoLongerOurs}, {Action: plan.ActionRemove, Entry: "/.mcp.json", Reason: plan.ReasonNoLongerOurs}}},
		{name: "a file that was only the block", before: b, want: ""},
		{name: "lines edited inside the block are put back", before: "x\n" + block("\n", "/.mcp.json", "# mine", "/.gemini/settings.json"),
			paths: []string{".mcp.json", ".gemini/settings.json"}, want: "x\n" + block("\n", "/.gemini/settings.json", "/.mcp.json"),
			changes: []plan.Change{{Action: plan.ActionUpdate, Entry: "", Reason: plan.ReasonIgnoreBlock}}},
		{name: "an older marker text is recognised", before: "# >>> repo: machine-specific files (older words)\n/.mcp.json\n" + plan.IgnoreMarkerEnd + "\n",
			paths: []string{".mcp.json"}, want: block("\n", "/.mcp.json"),
			changes: []plan.Change{{Action: plan.ActionAdd, Entry: fileio.StagedPattern, Reason: plan.ReasonStaged}}},
		{name: "the user's own line is not repeated", before: "/.mcp.json\n.gemini/settings.json\n",
			paths: []string{".mcp.json", ".gemini/settings.json", ".qwen/settings.json"},
			want:  "/.mcp.json\n.gemini/settings.json\n" + block("\n", "/.qwen/settings.json")},
		{name: "an unanchored line names a file in the root", before: ".mcp.json\n**/opencode.json\n",
			paths: []string{".mcp.json", "opencode.json"}, want: ".mcp.json\n**/opencode.json\n"},
		{name: "the user un-ignores a file: left to the user", before: "!/.mcp.json\n",
			paths: []string{".mcp.json", ".qwen/settings.json"}, want: "!/.mcp.json\n" + block("\n", "/.qwen/settings.json")},
		{name: "every path is the user's: the block goes", before: "/.mcp.json\n" + b, paths: []string{".mcp.json"},
			want: "/.mcp.json\n", changes: []plan.Change{{Action: plan.ActionRemove, Entry: "/.gemini/settings.json", Reason: plan.ReasonNoLongerOurs}, {Action: plan.ActionRemove, Entry: "/.mcp.json", Reason: plan.ReasonUserLine}}},
		{name: "wider patterns are not the same line", before: ".gemini/\n*.json\n", paths: []string{".gemini/settings.json"},
			want: ".gemini/\n*.json\n" + block("\n", "/.gemini/settings.json")},
		{name: "a BOM before the user's first line", before: "\ufeff/.mcp.json\n", paths: []string{".mcp.json"},
			want: "\ufeff/.mcp.json\n"},
		{name: "paths git reads as patterns are escaped", missing: true, paths: []string{"a*b/[x]?.json", "trailing "},
			want: block("\n", `/a\*b/\[x]\?.json`, `/trailing\ `)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, changes := ignoreAfter(t, c.before, c.missing, c.paths...)
			if got != c.want {
				t.Errorf("after:\n%q\nwant:\n%q", got, c.want)
			}
			if c.changes != nil && !slices.Equal(changes, c.changes) {
				t.Errorf("changes %v, want %v", changes, c.changes)
			}
		})
	}
}

// A block repo cannot tell apart from the user's lines is an error at its
// line, and nothing is written.
func TestIgnoreBlockBroken(t *testing.T) {
	for _, c := range []struct{ name, body, want string }{
		{"no end", "a\n" + plan.IgnoreMarkerStart + "\n/.mcp.json\n", ".gitignore:2:1: repo's block starts here but has no end marker"},
		{"no start", "a\n/.mcp.json\n" + plan.IgnoreMarkerEnd + "\n", ".gitignore:3:1: the end marker of repo's block, without its start marker"},
		{"two blocks", block("\n", "/a") + block("\n", "/b"), ".gitignore:5:1: a second block of repo's (the first is on lines 1-4)"},
		{"a start inside the block", plan.IgnoreMarkerStart + "\n" + block("\n", "/b"), ".gitignore:2:1: repo's block that starts on line 1 has no end marker"},
	} {
		t.Run(c.name, func(t *testing.T) {
			env := testEnv(t)
			write(t, filepath.Join(env.Root, plan.IgnoreFile), c.body)
			_, err := planIgnoreOnly(t, env, ".mcp.json")
			if err == nil || !strings.HasPrefix(err.Error(), c.want) {
				t.Fatalf("error %v, want %q…", err, c.want)
			}
			var ferr *plan.FileError
			if !errors.As(err, &ferr) {
				t.Errorf("error %T, want a *FileError", err)
			}
		})
	}
}

// FuzzIgnoreBlockRoundTrip: whatever the user's .gitignore holds, adding
// the block and removing it again gives back its bytes, and the bytes
// before the block are the user's, unchanged.
func FuzzIgnoreBlockRoundTrip(f *testing.F) {
	for _, s := range []string{"", "\n", "a", "a\n", "a\r\nb", "a\r\nb\r\n", "\ufeff# x\n\n", "a\n\n\n", "x\r", "/.mcp.json\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, user string) {
		if strings.Contains(user, plan.IgnoreMarkerPrefix) || strings.Contains(user, plan.IgnoreMarkerEnd) {
			return
		}
		// A file ending in a lone carriage return gets the newline that
		// makes it CRLF; which of the two bytes were the user's is not
		// known when the block goes again.
		lastCR := strings.HasSuffix(user, "\r")
		got, _ := ignoreAfter(t, user, false, ".qwen/settings.json", "a b/c.json")
		if !strings.HasPrefix(got, user) && !strings.HasPrefix(got, user+"\n") && !strings.HasPrefix(got, user+"\r\n") {
			t.Fatalf("with the block: %q does not start with the user's %q", got, user)
		}
		env := testEnv(t)
		gi := filepath.Join(env.Root, plan.IgnoreFile)
		write(t, gi, got)
		fp, err := planIgnoreOnly(t, env)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Apply(&plan.Plan{Files: []*plan.FilePlan{fp}}); err != nil {
			t.Fatal(err)
		}
		if back := read(t, gi); back != user && !(lastCR && back == strings.TrimSuffix(user, "\r")) {
			t.Fatalf("block removed: %q, want the user's %q", back, user)
		}
	})
}

// IgnoredFiles lists every candidate path of the machine-specific targets
// that get entries, and the clone's record; not the portable tools' files,
// nor a file no server is written to.
func TestIgnoredFiles(t *testing.T) {
	env := testEnv(t)
	env.Portable = true
	remote := extensions.Server{Name: "r", Extension: "ext", Spec: extensions.Spec{Transport: extensions.HTTP, URL: "https://example.invalid/mcp"}}
	targets, _, err := target.Build([]extensions.Server{server, remote}, profiles(t, "claude", "vscode", "opencode", "kilo", "jetbrains"), toolprofiles.ScopeProject, env)
	if err != nil {
		t.Fatal(err)
	}
	got := plan.IgnoredFiles(env, targets)
	want := []string{".junie/mcp/mcp.json", ".kilo/kilo.json", ".kilo/kilo.jsonc", ".mcp.json", ".repository/mcp-managed.machine.json",
		"kilo.json", "kilo.jsonc", "opencode.json", "opencode.jsonc"}
	if !slices.Equal(got, want) {
		t.Errorf("IgnoredFiles = %q\nwant %q", got, want)
	}
	env.Portable = false
	targets, _, err = target.Build([]extensions.Server{server}, profiles(t, "vscode"), toolprofiles.ScopeProject, env)
	if err != nil {
		t.Fatal(err)
	}
	if got := plan.IgnoredFiles(env, targets); !slices.Equal(got, []string{".repository/mcp-managed.machine.json", ".vscode/mcp.json"}) {
		t.Errorf("without portable mode, IgnoredFiles = %q", got)
	}
	if got := plan.IgnoredFiles(env, nil); got != nil {
		t.Errorf("no targets: %q", got)
	}
}
