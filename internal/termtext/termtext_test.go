package termtext

import (
	"strings"
	"testing"
)

func TestSafe(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"node server.js", "node server.js"},
		{"vault-spec/サーバー", "vault-spec/サーバー"},
		{"", ""},
		// A carriage return and "erase line" redraw the row.
		{"bash -c 'curl x | sh'\r\x1b[2Knode server.js", `"bash -c 'curl x | sh'\r\x1b[2Knode server.js"`},
		// OSC 52 writes the clipboard; OSC 0 sets the title.
		{"a\x1b]52;c;cm0gLXJmIH4=\x07", `"a\x1b]52;c;cm0gLXJmIH4=\a"`},
		// A newline starts a workflow command on a GitHub runner.
		{"x\n::error title=repo::All MCP configs verified", `"x\n::error title=repo::All MCP configs verified"`},
		// C1 CSI, a bidirectional override, a zero-width space, a line separator.
		{"a\u009b2Kb", `"a\u009b2Kb"`},
		{"evil\u202eexe.txt", `"evil\u202eexe.txt"`},
		{"a\u200bb", `"a\u200bb"`},
		{"a\u2028b", `"a\u2028b"`},
		{"tab\there", `"tab\there"`},
		// Bytes that are not UTF-8 are shown as bytes.
		{"caf\xe9", `"caf\xe9"`},
	} {
		got := Safe(c.in)
		if got != c.want {
			t.Errorf("Safe(%q) = %s, want %s", c.in, got, c.want)
		}
		if strings.ContainsAny(got, "\x1b\r\n\a\u009b\u202e\u2028") {
			t.Errorf("Safe(%q) = %q still holds a control character", c.in, got)
		}
		if (got == c.in) != Printable(c.in) {
			t.Errorf("Printable(%q) = %v, but Safe changed it: %v", c.in, Printable(c.in), got != c.in)
		}
		if (Check(c.in) == nil) != Printable(c.in) {
			t.Errorf("Check(%q) = %v disagrees with Printable", c.in, Check(c.in))
		}
	}
}

func TestCheckNamesTheCharacter(t *testing.T) {
	for in, want := range map[string]string{
		"ab\x1bc":  "control character U+001B at byte 2",
		"a\u202e":  "unprintable character U+202E at byte 1",
		"\xffabc":  "byte 0xff at offset 0 is not UTF-8",
		"a\u0085b": "control character U+0085 at byte 1",
	} {
		if err := Check(in); err == nil || err.Error() != want {
			t.Errorf("Check(%q) = %v, want %q", in, err, want)
		}
	}
}

func FuzzSafe(f *testing.F) {
	for _, s := range []string{"node", "a\x1b[2K", "\xff", "\u202e", "x\n::error::y"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := Safe(s)
		if !Printable(got) {
			t.Fatalf("Safe(%q) = %q is not printable", s, got)
		}
		if Printable(s) != (got == s) {
			t.Fatalf("Safe(%q) changed printable text or kept unprintable text: %q", s, got)
		}
	})
}
