package tomltext

import (
	"slices"
	"testing"

	"github.com/repo-manager/repo/internal/termtext"
)

func TestCheck(t *testing.T) {
	for _, c := range []struct {
		name, doc string
		want      string // Problem.Error(), "" for none
		line, col int
	}{
		{"clean", "name = \"e\"\n[provides]\nmcp = \"mcp.json\"\n# a comment \x7f\n", "", 0, 0},
		{"escape in a value", "name = \"e\"\n[provides]\nmcp = \"m\\u001b[2K.json\"\n", "provides.mcp: control character U+001B at byte 1", 3, 7},
		{"newline in a value", "name = \"a\\n::error::x\"\n", "name: control character U+000A at byte 1", 1, 8},
		{"in a literal multi-line string", "name = '''a\nb'''\n", "name: control character U+000A at byte 1", 1, 8},
		{"in an array", "[mcp]\ntools = [\"claude\",\n  \"x\\u202ey\"]\n", "mcp.tools: unprintable character U+202E at byte 1", 3, 3},
		{"in an inline table", "a = {b = {c = \"\\u0085\"}}\n", "a.b.c: control character U+0085 at byte 0", 1, 15},
		{"a quoted key", "[scopes]\n\"p\\u001b\" = 1\n", `key "scopes.p\x1b": control character U+001B at byte 1`, 2, 1},
		{"a table header", "[\"t\\r\"]\nx = 1\n", `key "t\r": control character U+000D at byte 1`, 1, 2},
		{"an array of tables", "[[entry.expands]]\npattern = \"\\u2028\"\n", "entry.expands.pattern: unprintable character U+2028 at byte 0", 2, 11},
		{"skipped content", "[scopes.user]\nskeleton = \"a\\nb\"\n", "", 0, 0},
		{"not skipped beside it", "[scopes.user]\nskeleton = \"a\\nb\"\nx = \"\\t\"\n", "scopes.user.x: control character U+0009 at byte 0", 3, 5},
		{"does not parse", "name = \"\\u001b\n", "", 0, 0},
	} {
		p := Check([]byte(c.doc), func(key []string) bool { return !slices.Equal(key, []string{"scopes", "user", "skeleton"}) })
		switch {
		case c.want == "" && p != nil:
			t.Errorf("%s: %v", c.name, p)
		case c.want != "" && p == nil:
			t.Errorf("%s: no problem found, want %s", c.name, c.want)
		case p != nil && (p.Error() != c.want || p.Line != c.line || p.Col != c.col):
			t.Errorf("%s: %d:%d: %s, want %d:%d: %s", c.name, p.Line, p.Col, p, c.line, c.col, c.want)
		}
		if p != nil && !termtext.Printable(p.Error()) {
			t.Errorf("%s: the message %q is not printable", c.name, p.Error())
		}
	}
}

// TestCheckOnly: keys and tables that are not wanted (a shared config's
// other tables) are not looked at, their own keys included.
func TestCheckOnly(t *testing.T) {
	doc := "[\"other\\u001b\"]\nk = \"\\u001b\"\n[mcp]\ntools = [\"a\\u001b\"]\n"
	mcp := func(key []string) bool { return key[0] == "mcp" }
	p := Check([]byte(doc), mcp)
	if p == nil || p.Key != "mcp.tools" || p.Line != 4 {
		t.Fatalf("got %v", p)
	}
	if p := Check([]byte("[\"other\\u001b\"]\nk = \"\\u001b\"\n"), mcp); p != nil {
		t.Errorf("another table was checked: %v", p)
	}
}

// FuzzPlainASCII: a document plainASCII passes without parsing has no key
// or string that the parse finds unprintable.
func FuzzPlainASCII(f *testing.F) {
	for _, s := range []string{
		"name = \"e\"\nversion = \"1.0\"\n[provides]\nmcp = \"mcp.json\"\n",
		"[mcp]\ntools = [\"claude\", 'cursor']\nportable = true\n",
		"a = {b = {c = \"x\"}}\n\"quoted key\" = 'lit'\n",
		"name = '''a\nb'''\n", "name = \"\"\"a\nb\"\"\"\n", "x = \"a\\nb\"\n", "x = \"a\tb\"\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if plainASCII(data) {
			if p := check(data, nil); p != nil {
				t.Fatalf("plainASCII passes %q, the parse finds %v", data, p)
			}
		}
	})
}

// TestPlainASCIITaken: the example workspace's kind of manifest and config
// is checked without a parse, and text that may hide a character is not.
func TestPlainASCIITaken(t *testing.T) {
	for doc, want := range map[string]bool{
		"name = \"sync-ai-rules\"\nversion = \"0.3.0\"\n\n[provides]\nmcp = \"mcp.json\"\n": true,
		"# Which AI tools\n[mcp]\ntools = [\"claude\", \"copilot\"]\nportable = true\n":     true,
		"name = \"e\\u001b\"\n":    false,
		"name = \"e\"\r\n":         false,
		"name = \"\u202ee\"\n":     false,
		"name = \"e\"\t# tab\n":    false,
		"name = '''e\n'''\n":       false,
		"name = \"\"\"e\n\"\"\"\n": false,
		"name = \"e\x7f\"\n":       false,
	} {
		if got := plainASCII([]byte(doc)); got != want {
			t.Errorf("plainASCII(%q) = %v, want %v", doc, got, want)
		}
	}
}
