package trust

import (
	"strings"
	"testing"

	"github.com/repo-manager/repo/extensions"
)

// TestRedact: a literal credential is neither shown nor kept, while two
// different ones still show as a change; the digest stays that of the
// values.
func TestRedact(t *testing.T) {
	s := baseServer()
	s.Env = append(s.Env, extensions.KV{Key: "API_KEY", Value: "a8f5f167f44f4964e6c998dee827110c"})
	s.Args = append(s.Args, "--token=ghp_abcdefghijklmnopqrstuvwxyz0123456789")
	d := Define(s, nil)
	r := d.Redact([]string{"env API_KEY", "args[3]"})
	text := strings.Join(r.Lines(), "\n")
	for _, secret := range []string{"a8f5f167f44f4964e6c998dee827110c", "ghp_abcdefghijklmnopqrstuvwxyz0123456789"} {
		if strings.Contains(text, secret) {
			t.Fatalf("redacted definition shows %s:\n%s", secret, text)
		}
	}
	if !strings.Contains(text, "env API_KEY=<literal credential, 32 characters, sha256:") || !strings.Contains(text, "--token=<literal credential,") {
		t.Fatalf("redacted values are not marked:\n%s", text)
	}
	if d.Env[1].Value != "a8f5f167f44f4964e6c998dee827110c" {
		t.Fatal("Redact changed the definition it was given")
	}
	s.Env[len(s.Env)-1].Value = "b8f5f167f44f4964e6c998dee827110c"
	r2 := Define(s, nil).Redact([]string{"env API_KEY", "args[3]"})
	var changed []string
	for _, l := range Diff(r, r2) {
		if l.Op != ' ' {
			changed = append(changed, l.String())
		}
	}
	if len(changed) != 2 || !strings.HasPrefix(changed[0], "- env API_KEY=") || !strings.HasPrefix(changed[1], "+ env API_KEY=") {
		t.Fatalf("a changed credential does not show as a change: %q", changed)
	}
}

// TestDiff: a definition compared with itself has no change, and a changed
// argument is one line out and one in, the rest kept in order.
func TestDiff(t *testing.T) {
	a := Define(baseServer(), nil)
	for _, l := range Diff(a, a) {
		if l.Op != ' ' {
			t.Fatalf("a definition differs from itself: %v", l)
		}
	}
	s := baseServer()
	s.Args = []string{"other.py", "--root", "/ws"}
	got := Diff(a, Define(s, nil))
	var ops []string
	for _, l := range got {
		ops = append(ops, l.String())
	}
	want := "  transport stdio|  command /ws/.venv/bin/python|- args server.py --root /ws|+ args other.py --root /ws|  cwd /ws|  env A=${TOKEN}|  env B=2|  include_tools list, read|  exclude_tools x|  auto_approve list"
	if strings.Join(ops, "|") != want {
		t.Fatalf("Diff:\n%s\nwant\n%s", strings.Join(ops, "\n"), strings.ReplaceAll(want, "|", "\n"))
	}
}

// TestLinesAreSafe: text a workspace chose reaches a terminal as what it
// is, never as control characters.
func TestLinesAreSafe(t *testing.T) {
	s := baseServer()
	s.Command = "node\r\x1b[2Kserver.js"
	s.Env = []extensions.KV{{Key: "X", Value: "\x1b]0;title\x07"}}
	for _, l := range Define(s, nil).Lines() {
		if strings.ContainsAny(l, "\r\x1b\x07") {
			t.Fatalf("control characters in %q", l)
		}
	}
}
