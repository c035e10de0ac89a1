package commit

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/repo-manager/repo/extensions"
	"github.com/repo-manager/repo/internal/plan"
	"github.com/repo-manager/repo/internal/target"
	"github.com/repo-manager/repo/toolprofiles"
)

// planScope builds the plan of one sync without applying it.
func planScope(t *testing.T, env target.Env, servers []extensions.Server, scope target.Scope, ids ...string) (*plan.Plan, error) {
	t.Helper()
	targets, _, err := target.Build(servers, profiles(t, ids...), scope, env)
	if err != nil {
		t.Fatal(err)
	}
	return plan.Build(env, targets, plan.Options{})
}

// syncScope plans and applies once.
func syncScope(t *testing.T, env target.Env, servers []extensions.Server, scope target.Scope, ids ...string) *plan.Plan {
	t.Helper()
	p, err := planScope(t, env, servers, scope, ids...)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Apply(p); err != nil {
		t.Fatal(err)
	}
	return p
}

// insertedOnly checks that after is before with one run of bytes inserted,
// and returns that run: every byte outside the managed entry is identical.
func insertedOnly(t *testing.T, before, after []byte) []byte {
	t.Helper()
	p := 0
	for p < len(before) && p < len(after) && before[p] == after[p] {
		p++
	}
	s := 0
	for s < len(before)-p && s < len(after)-p && before[len(before)-1-s] == after[len(after)-1-s] {
		s++
	}
	if p+s != len(before) {
		t.Fatalf("bytes outside the inserted entry changed: %d common prefix + %d common suffix bytes of %d (first difference at %d: before %q, after %q)",
			p, s, len(before), p, excerpt(before, p), excerpt(after, p))
	}
	return after[p : len(after)-s]
}

func excerpt(b []byte, at int) string {
	end := min(at+60, len(b))
	return string(b[at:end])
}

// hugeClaudeJSON is a ~size-byte ~/.claude.json: many projects with
// history, and the workspace's own project (with one user server) in the
// middle.
func hugeClaudeJSON(root string, size int) []byte {
	var b bytes.Buffer
	b.WriteString("{\n  \"numStartups\": 1234,\n  \"projects\": {\n")
	mine := false
	for i := 0; b.Len() < size; i++ {
		if i > 0 {
			b.WriteString(",\n")
		}
		if !mine && b.Len() > size/2 {
			key, _ := json.Marshal(root)
			fmt.Fprintf(&b, "    %s: {\n      \"allowedTools\": [\"Bash(ls)\"],\n      \"mcpServers\": {\n        \"mine\": {\n          \"command\": \"my-server\"\n        }\n      }\n    },\n", key)
			mine = true
		}
		fmt.Fprintf(&b, `    "/home/u/project-%06d": {
      "allowedTools": [],
      "history": [{"display": "fix the // bug /* here */ and the \"quotes\" \\ please ünï", "pastedContents": {}}],
      "mcpServers": {
        "s": {"command": "npx", "args": ["-y", "x"]}
      },
      "lastCost": 0.%06d
    }`, i, i)
	}
	b.WriteString("\n  },\n  \"userID\": \"abc\"\n}\n")
	return b.Bytes()
}

// A ~50 MB ~/.claude.json (Claude Code keeps every project's history in
// it): a local-scope sync inserts the entry and changes no other byte, a
// second sync writes nothing, and removing the server gives back the
// original file byte for byte.
func TestHugeClaudeJSONLocalScope(t *testing.T) {
	if testing.Short() {
		t.Skip("50 MB file")
	}
	env := testEnv(t)
	path := filepath.Join(env.Home, ".claude.json")
	orig := hugeClaudeJSON(filepath.ToSlash(env.Root), 50<<20) // the root as the key (target.rootKey)
	write(t, path, string(orig))
	if err := os.Chmod(path, 0o600); err != nil {
		t.Fatal(err)
	}

	start := time.Now()
	p := syncScope(t, env, []extensions.Server{server}, toolprofiles.ScopeLocal, "claude")
	t.Logf("sync of a %d MB file: %v", len(orig)>>20, time.Since(start))
	if len(p.Stale()) != 2 {
		t.Fatalf("expected the file and the per-user record to be written, got %d files", len(p.Stale()))
	}
	after, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	ins := insertedOnly(t, orig, after)
	if !bytes.Contains(ins, []byte(`"s": {`)) || !bytes.Contains(ins, []byte(`"command": "node"`)) || len(ins) > 200 {
		t.Fatalf("inserted %q, want only the managed entry", ins)
	}
	if !json.Valid(after) {
		t.Fatal("the result is not valid JSON")
	}
	// The entry went into this workspace's project, next to the user's own.
	if i, j := bytes.Index(after, []byte(`"mine"`)), bytes.Index(after, ins); i < 0 || j < i || j-i > 200 {
		t.Fatalf("entry inserted at %d, the workspace's server map is at %d", j, i)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode = %v, want 0600 kept", fi.Mode().Perm())
	}

	start = time.Now()
	again, err := planScope(t, env, []extensions.Server{server}, toolprofiles.ScopeLocal, "claude")
	if err != nil {
		t.Fatal(err)
	}
	if len(again.Stale()) != 0 {
		t.Fatalf("second sync is not a no-op: %s %+v", again.Stale()[0].Display, again.Stale()[0].Changes)
	}
	t.Logf("second plan: %v", time.Since(start))

	syncScope(t, env, nil, toolprofiles.ScopeLocal, "claude")
	if back, _ := os.ReadFile(path); !bytes.Equal(back, orig) {
		insertedOnly(t, back, orig)
		t.Fatal("removing the managed entry did not give back the original bytes")
	}
}

// Bytes no JSON reader accepts: an error with file:line:col before
// anything is written; the file keeps its bytes.
func TestHostileHostBytesRefused(t *testing.T) {
	cases := []struct {
		name, tool, file, data, want string
	}{
		{"binary", "claude", ".mcp.json", "\x7fELF\x02\x01\x01\x00\x00\x00\xff\xfe", ".mcp.json:1:11: invalid UTF-8"},
		{"latin-1 in a string", "claude", ".mcp.json", "{\n  \"name\": \"caf\xe9\",\n  \"mcpServers\": {}\n}\n", ".mcp.json:2:15: invalid UTF-8"},
		{"latin-1 in jsonc", "vscode", ".vscode/mcp.json", "{\n  // caf\xe9\n  \"servers\": {}\n}\n", ".vscode/mcp.json:2:9: invalid UTF-8"},
		{"utf-16le with BOM", "claude", ".mcp.json", "\xff\xfe{\x00}\x00", ".mcp.json:1:1: invalid UTF-8"},
		{"utf-16be", "gemini", ".gemini/settings.json", "\x00{\x00}", ".gemini/settings.json:1:1: invalid character '\\x00'"},
		{"NUL after the object", "claude", ".mcp.json", "{\"mcpServers\": {}}\x00", ".mcp.json:1:19: invalid character '\\x00' after top-level value"},
		{"top level array", "claude", ".mcp.json", "[]", ".mcp.json:1:1: the top-level value is an array, want an object"},
		{"top level string", "gemini", ".gemini/settings.json", `"x"`, ".gemini/settings.json:1:1: the top-level value is a string, want an object"},
		{"unterminated jsonc comment", "vscode", ".vscode/mcp.json", "{\n  \"servers\": {} /* open\n}\n", ".vscode/mcp.json:2:17: unterminated /* comment"},
		{"gemini trailing comma", "gemini", ".gemini/settings.json", "{\n  \"mcpServers\": {},\n}\n", ".gemini/settings.json:2:19: trailing commas are not allowed in this file"},
		{"strict missing brace", "claude", ".mcp.json", "{\n  \"mcpServers\": {\n", ".mcp.json:3:1: unexpected end of JSON input"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			env := testEnv(t)
			path := filepath.Join(env.Root, filepath.FromSlash(c.file))
			write(t, path, c.data)
			p, err := planScope(t, env, []extensions.Server{server}, toolprofiles.ScopeProject, c.tool, "cursor")
			if err == nil {
				t.Fatalf("planned %d files, want an error", len(p.Files))
			}
			if !strings.HasPrefix(err.Error(), c.want) {
				t.Fatalf("err = %q, want it to start with %q", err, c.want)
			}
			if !strings.HasSuffix(err.Error(), "; fix the file (repo changes nothing until every file parses)") {
				t.Errorf("err = %q does not say what to do", err)
			}
			var fe *plan.FileError
			if !errors.As(err, &fe) || fe.Line == 0 || fe.Col == 0 {
				t.Errorf("err is not a FileError with a position: %#v", err)
			}
			if got := read(t, path); got != c.data {
				t.Fatalf("file changed: %q", got)
			}
		})
	}
}

// A server map of the wrong type, or a duplicate key, is an error that
// names file:line:col of the offending value or key.
func TestServerMapErrorsHavePosition(t *testing.T) {
	cases := []struct{ name, data, want string }{
		{"string", "{\n  \"mcpServers\": \"x\"\n}\n", `.gemini/settings.json:2:17: the value of "mcpServers" is a string, want an object`},
		{"number", "{\n  \"mcpServers\": 42\n}\n", `.gemini/settings.json:2:17: the value of "mcpServers" is a number, want an object`},
		{"duplicate server", "{\n  \"mcpServers\": {\n    \"a\": {},\n    \"a\": {}\n  }\n}\n", `.gemini/settings.json:4:5: duplicate key "a" in the object at "mcpServers"`},
		{"duplicate top-level", "{\n  \"mcpServers\": {},\n  \"mcpServers\": {}\n}\n", `.gemini/settings.json:3:3: duplicate key "mcpServers" in the top-level object`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			env := testEnv(t)
			path := filepath.Join(env.Root, ".gemini", "settings.json")
			write(t, path, c.data)
			_, err := planScope(t, env, []extensions.Server{server}, toolprofiles.ScopeProject, "gemini")
			if err == nil {
				t.Fatal("no error")
			}
			if got := read(t, path); got != c.data {
				t.Fatalf("file changed: %q", got)
			}
			if !strings.HasPrefix(err.Error(), c.want) || !strings.Contains(err.Error(), `(repo expects the server map ["mcpServers"] here)`) {
				t.Fatalf("err = %q, want it to start with %q", err, c.want)
			}
		})
	}
}

// BOM and CRLF are kept, inserted lines use CRLF, and removing the entry
// gives back the original bytes, in every JSON dialect.
func TestBOMAndCRLFKept(t *testing.T) {
	const bom = "\xef\xbb\xbf"
	// Removing the entry leaves the original bytes, also where repo had to
	// create the server map: the map it created goes with its last entry.
	type hostCase struct{ name, tool, file, data string }
	cases := []hostCase{
		{"strict bom crlf", "claude", ".mcp.json", bom + "{\r\n  \"mcpServers\": {\r\n    \"mine\": {\r\n      \"command\": \"x\"\r\n    }\r\n  }\r\n}\r\n"},
		{"strict crlf no final newline", "claude", ".mcp.json", "{\r\n  \"mcpServers\": {\r\n    \"mine\": {\"command\": \"x\"}\r\n  }\r\n}"},
		{"strict bom lf", "claude", ".mcp.json", bom + "{\n  \"mcpServers\": {\n    \"mine\": {\"command\": \"x\"}\n  }\n}\n"},
		{"jsonc bom crlf tabs", "vscode", ".vscode/mcp.json", bom + "{\r\n\t// keep me\r\n\t\"servers\": {\r\n\t\t\"mine\": { \"command\": \"x\" },\r\n\t},\r\n}\r\n"},
		{"comments crlf", "gemini", ".gemini/settings.json", "{\r\n  /* theme */ \"theme\": \"x\",\r\n  \"mcpServers\": {\r\n    \"mine\": {\"command\": \"x\"}\r\n  }\r\n}\r\n"},
		{"comments bom, no server map", "gemini", ".gemini/settings.json", bom + "{\r\n  \"theme\": \"x\"\r\n}\r\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			env := testEnv(t)
			path := filepath.Join(env.Root, filepath.FromSlash(c.file))
			write(t, path, c.data)
			syncScope(t, env, []extensions.Server{server}, toolprofiles.ScopeProject, c.tool)
			after := []byte(read(t, path))
			ins := insertedOnly(t, []byte(c.data), after)
			if !bytes.Contains(ins, []byte(`"s"`)) {
				t.Fatalf("inserted %q", ins)
			}
			if bytes.HasPrefix([]byte(c.data), []byte(bom)) != bytes.HasPrefix(after, []byte(bom)) {
				t.Fatalf("BOM not kept: %q", after)
			}
			if strings.Contains(c.data, "\r\n") {
				if n, crlf := bytes.Count(after, []byte("\n")), bytes.Count(after, []byte("\r\n")); n != crlf {
					t.Fatalf("%d of %d line breaks are bare LF:\n%q", n-crlf, n, after)
				}
			} else if bytes.Contains(after, []byte("\r")) {
				t.Fatalf("CR inserted into an LF file: %q", after)
			}
			syncScope(t, env, nil, toolprofiles.ScopeProject, c.tool)
			if got := read(t, path); got != c.data {
				t.Fatalf("removing the entry did not restore the file:\n got %q\nwant %q", got, c.data)
			}
		})
	}
}

// A file with nothing in it but whitespace (or a BOM) holds nothing to
// keep: it is filled like a new file (see sync_empty_file.txtar).
func TestBlankFilesAreFilled(t *testing.T) {
	envNew := testEnv(t)
	syncScope(t, envNew, []extensions.Server{server}, toolprofiles.ScopeProject, "claude")
	fresh := read(t, filepath.Join(envNew.Root, ".mcp.json"))
	for _, data := range []string{"", " ", " \t \n\n", "\r\n\r\n", "\xef\xbb\xbf", "\xef\xbb\xbf\r\n"} {
		env := testEnv(t)
		path := filepath.Join(env.Root, ".mcp.json")
		write(t, path, data)
		syncScope(t, env, []extensions.Server{server}, toolprofiles.ScopeProject, "claude")
		if got := read(t, path); got != fresh {
			t.Errorf("%q became %q, want what a new file gets (%q)", data, got, fresh)
		}
	}
}

// A JSONC (or Gemini) file holding only comments is read as empty, as VS
// Code reads it: the comments stay and the object goes after them. A
// strict-JSON file with comments is refused (its tool cannot read it).
func TestCommentsOnlyFile(t *testing.T) {
	for _, c := range []struct{ tool, file string }{{"vscode", ".vscode/mcp.json"}, {"gemini", ".gemini/settings.json"}, {"claude", ".mcp.json"}} {
		env := testEnv(t)
		path := filepath.Join(env.Root, filepath.FromSlash(c.file))
		data := "// servers go here\n/* nothing yet */\n"
		write(t, path, data)
		p, err := planScope(t, env, []extensions.Server{server}, toolprofiles.ScopeProject, c.tool)
		if c.tool == "claude" {
			want := c.file + ":1:1: comments are not allowed in strict JSON"
			if err == nil || !strings.HasPrefix(err.Error(), want) {
				t.Errorf("%s: err = %v, want %q", c.tool, err, want)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", c.tool, err)
		}
		got := string(p.Files[0].After)
		if !strings.HasPrefix(got, data+"{\n") || !strings.Contains(got, `"s": {`) {
			t.Errorf("%s: comments not kept, or no entry:\n%s", c.tool, got)
		}
	}
}

// A hard-linked target is refused at plan time: an atomic write would
// split the link.
func TestHardLinkRefused(t *testing.T) {
	env := testEnv(t)
	other := filepath.Join(env.Root, "dotfiles", "mcp.json")
	write(t, other, "{\"mcpServers\": {}}\n")
	path := filepath.Join(env.Root, ".mcp.json")
	if err := os.Link(other, path); err != nil {
		t.Skip("no hard links:", err)
	}
	_, err := planScope(t, env, []extensions.Server{server}, toolprofiles.ScopeProject, "claude", "cursor")
	if err == nil || !strings.Contains(err.Error(), ".mcp.json: has 2 hard links") || !strings.Contains(err.Error(), "symbolic link") {
		t.Fatalf("err = %v", err)
	}
	if _, err := os.Stat(filepath.Join(env.Root, ".cursor")); !os.IsNotExist(err) {
		t.Fatal("another target was created")
	}
}

// A dangling symlink as target. Whatever repo decides, it must not write
// outside through it, nor replace the link.
func TestDanglingSymlinkTarget(t *testing.T) {
	env := testEnv(t)
	path := filepath.Join(env.Root, ".mcp.json")
	dest := filepath.Join(env.Root, "dotfiles", "mcp.json")
	if err := os.Symlink(dest, path); err != nil {
		t.Skip("no symlinks:", err)
	}
	p, err := planScope(t, env, []extensions.Server{server}, toolprofiles.ScopeProject, "claude")
	if err == nil {
		_, err = Apply(p)
	}
	if err == nil {
		t.Fatal("a dangling link was written to without an error")
	}
	if target, lerr := os.Readlink(path); lerr != nil || target != dest {
		t.Fatalf("the link was replaced: %q %v", target, lerr)
	}
	if _, err := os.Stat(dest); !os.IsNotExist(err) {
		t.Fatal("the link's target was created")
	}
	// Today: planned as a new file, then refused at rename as if another
	// program had created it (see the report).
	if !errors.Is(err, ErrChanged) {
		t.Logf("err = %v", err)
	}
}
