package gitignore

import (
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/repo-manager/repo/internal/fileio"
	"github.com/repo-manager/repo/internal/target"
	"github.com/repo-manager/repo/toolprofiles"
)

// block is repo's block listing lines, and the names of the staged copies
// (fileio.StagedPattern) after them.
func block(eol string, lines ...string) string {
	out := MarkerStart + eol
	for _, l := range lines {
		out += l + eol
	}
	if len(lines) > 0 {
		out += fileio.StagedPattern + eol
	}
	return out + MarkerEnd + eol
}

// Rewrite on bytes: where the block goes, which line ending it takes, what
// it leaves to the user, and what it says it changed. (The plan of the
// file and its write are tested with internal/commit's TestIgnoreBlock.)
func TestRewrite(t *testing.T) {
	b := block("\n", "/.gemini/settings.json", "/.mcp.json")
	added := func(line, reason string) Change { return Change{Kind: Added, Line: line, Reason: reason} }
	removed := func(line, reason string) Change { return Change{Kind: Removed, Line: line, Reason: reason} }
	for _, c := range []struct {
		name    string
		before  *string // nil: no file
		paths   []string
		want    string
		changes []Change
	}{
		{name: "no file, nothing to list", want: ""},
		{name: "no file", paths: []string{".mcp.json", ".gemini/settings.json"}, want: b,
			changes: []Change{added("/.gemini/settings.json", ReasonNotIgnored), added("/.mcp.json", ReasonNotIgnored)}},
		{name: "appended", before: ptr("a\n"), paths: []string{".mcp.json"}, want: "a\n" + block("\n", "/.mcp.json"),
			changes: []Change{added("/.mcp.json", ReasonNotIgnored)}},
		{name: "no final newline: the block owns the line break", before: ptr("a"), paths: []string{".mcp.json"},
			want: "a\n" + strings.TrimSuffix(block("\n", "/.mcp.json"), "\n"), changes: []Change{added("/.mcp.json", ReasonNotIgnored)}},
		{name: "the file's line ending", before: ptr("a\r\n"), paths: []string{".mcp.json"}, want: "a\r\n" + block("\r\n", "/.mcp.json"),
			changes: []Change{added("/.mcp.json", ReasonNotIgnored)}},
		{name: "a lone last carriage return becomes CRLF", before: ptr("a\r"), paths: []string{".mcp.json"},
			want: "a\r\n" + strings.TrimSuffix(block("\r\n", "/.mcp.json"), "\r\n"), changes: []Change{added("/.mcp.json", ReasonNotIgnored)}},
		{name: "in place", before: ptr("top\n" + b + "end\n"), paths: []string{".mcp.json", ".qwen/settings.json"},
			want:    "top\n" + block("\n", "/.mcp.json", "/.qwen/settings.json") + "end\n",
			changes: []Change{added("/.qwen/settings.json", ReasonNotIgnored), removed("/.gemini/settings.json", ReasonNoLongerOurs)}},
		{name: "removed, with the line break it owned", before: ptr("a\n" + strings.TrimSuffix(block("\n", "/.mcp.json"), "\n")), want: "a",
			changes: []Change{removed("/.mcp.json", ReasonNoLongerOurs)}},
		{name: "a line the user has goes from the block", before: ptr("/.mcp.json\n" + b), paths: []string{".mcp.json", ".gemini/settings.json"},
			want: "/.mcp.json\n" + block("\n", "/.gemini/settings.json"), changes: []Change{removed("/.mcp.json", ReasonUserLine)}},
		{name: "an older block without the staged copies", before: ptr(MarkerPrefix + " (older)\n/.mcp.json\n" + MarkerEnd + "\n"),
			paths: []string{".mcp.json"}, want: block("\n", "/.mcp.json"), changes: []Change{added(fileio.StagedPattern, ReasonStaged)}},
		{name: "lines edited in the block are put back", before: ptr(block("\n", "/.mcp.json", "# mine")), paths: []string{".mcp.json"},
			want: block("\n", "/.mcp.json"), changes: []Change{{Kind: Rewritten, Reason: ReasonIgnoreBlock}}},
		{name: "up to date", before: ptr("x\n" + b), paths: []string{".gemini/settings.json", ".mcp.json"}, want: "x\n" + b},
	} {
		t.Run(c.name, func(t *testing.T) {
			var data []byte
			if c.before != nil {
				data = []byte(*c.before)
			}
			after, changes, err := (&Block{Paths: c.paths}).Rewrite(data)
			if err != nil {
				t.Fatal(err)
			}
			if string(after) != c.want {
				t.Errorf("after:\n%q\nwant:\n%q", after, c.want)
			}
			if !slices.Equal(changes, c.changes) {
				t.Errorf("changes %v, want %v", changes, c.changes)
			}
		})
	}
}

func ptr(s string) *string { return &s }

// A block repo cannot tell apart from the user's lines is an error at its
// line.
func TestRewriteBroken(t *testing.T) {
	for _, c := range []struct {
		body string
		line int
	}{
		{"a\n" + MarkerStart + "\n/.mcp.json\n", 2},
		{"a\n/.mcp.json\n" + MarkerEnd + "\n", 3},
		{block("\n", "/a") + block("\n", "/b"), 5},
		{MarkerStart + "\n" + block("\n", "/b"), 2},
	} {
		_, _, err := (&Block{Paths: []string{".mcp.json"}}).Rewrite([]byte(c.body))
		var lerr *LineError
		if !errors.As(err, &lerr) || lerr.Line != c.line {
			t.Errorf("%q: error %v, want one at line %d", c.body, err, c.line)
		}
	}
}

// FuzzRewrite: whatever the user's .gitignore holds, the block added
// keeps the user's bytes before it, a second rewrite changes nothing, and
// the block removed again gives the user's bytes back.
func FuzzRewrite(f *testing.F) {
	for _, s := range []string{"", "\n", "a", "a\n", "a\r\nb", "\ufeff# x\n\n", "x\r", "/.mcp.json\n", "\r"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, user string) {
		if strings.Contains(user, MarkerPrefix) || strings.Contains(user, MarkerEnd) {
			return
		}
		b := &Block{Paths: []string{".qwen/settings.json", "a b/c.json", "x*"}}
		with, _, err := b.Rewrite([]byte(user))
		if err != nil {
			t.Fatal(err)
		}
		if s := string(with); !strings.HasPrefix(s, user) && !strings.HasPrefix(s, user+"\n") && !strings.HasPrefix(s, strings.TrimSuffix(user, "\r")+"\r\n") {
			t.Fatalf("with the block: %q does not start with the user's %q", with, user)
		}
		again, changes, err := b.Rewrite(with)
		if err != nil || string(again) != string(with) || changes != nil {
			t.Fatalf("second rewrite of %q: %q, %v, %v", with, again, changes, err)
		}
		back, _, err := (&Block{}).Rewrite(with)
		// A lone last carriage return got the newline that makes it CRLF;
		// which of the two bytes were the user's is not known any more.
		if err != nil || string(back) != user && !(strings.HasSuffix(user, "\r") && string(back) == strings.TrimSuffix(user, "\r")) {
			t.Fatalf("block removed: %q (%v), want the user's %q", back, err, user)
		}
	})
}

// Paths lists each candidate of the machine-specific targets that get
// entries, and the clone's record, root-relative and sorted; not a file
// outside the root, nor a settings file git tracks, nor a target without
// entries.
func TestPaths(t *testing.T) {
	root := t.TempDir()
	in := func(rel string) string { return filepath.Join(root, rel) }
	entry := []target.Desired{{Name: "s"}}
	targets := []*target.Target{
		{Scope: toolprofiles.ScopeProject, Machine: true, Path: in(".mcp.json"), Candidates: []string{in("b/.mcp.json"), in(".mcp.json")}, Entries: entry},
		{Scope: toolprofiles.ScopeProject, Machine: true, Path: filepath.Join(filepath.Dir(root), "outside.json"), Entries: entry},
		{Scope: toolprofiles.ScopeProject, Machine: true, Settings: true, Tracked: true, Path: in(".zed/settings.json"), Entries: entry},
		{Scope: toolprofiles.ScopeProject, Machine: true, Settings: true, Path: in(".gemini/settings.json"), Entries: entry},
		{Scope: toolprofiles.ScopeProject, Machine: true, Path: in("none.json")},
		{Scope: toolprofiles.ScopeProject, Path: in("portable.json"), Entries: entry},
		{Scope: toolprofiles.ScopeLocal, Machine: true, Path: in("local.json"), Entries: entry},
	}
	want := []string{".gemini/settings.json", ".mcp.json", ".repository/mcp-managed.machine.json", "b/.mcp.json"}
	if got := Paths(root, targets); !slices.Equal(got, want) {
		t.Errorf("Paths = %q\nwant %q", got, want)
	}
	if got := Paths(root, targets[4:]); got != nil {
		t.Errorf("nothing to list: %q", got)
	}
}
