package yamledit

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct {
		name      string
		in        string
		syntax    bool // *SyntaxError, else *ShapeError
		line, col int
		msg       string
	}{
		{"lone CR", "a: 1\rb: 2\n", true, 1, 5, "carriage return"},
		{"lone CR after CRLF", "a: 1\r\nb: 2\r", true, 2, 5, "carriage return"},
		{"invalid UTF-8", "a: 1\nb: \xff\n", true, 2, 4, "invalid UTF-8"},
		{"invalid UTF-8 after BOM", bomStr + "\xfe", true, 1, 1, "invalid UTF-8"},
		{"unclosed flow", "a: [1, 2\nb: 3\n", true, 2, 1, "must be specified"},
		{"bad indentation", "a:\n  b: 1\n c: 2\n", true, 3, 0, ""},
		{"two documents", "a: 1\n---\nb: 2\n", true, 2, 1, "more than one YAML document"},
		{"empty second document", "a: 1\n---\n", true, 2, 1, "more than one YAML document"},
		{"top-level sequence", "- a\n- b\n", false, 1, 1, "want a mapping"},
		{"top-level scalar", "just text\n", false, 1, 1, "want a mapping"},
		{"top-level null", "~\n", false, 1, 1, "want a mapping"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse([]byte(tc.in))
			if err == nil {
				t.Fatal("no error")
			}
			var line, col int
			var msg string
			if tc.syntax {
				var se *SyntaxError
				if !errors.As(err, &se) {
					t.Fatalf("got %T %v, want *SyntaxError", err, err)
				}
				line, col, msg = se.Line, se.Col, se.Msg
			} else {
				var se *ShapeError
				if !errors.As(err, &se) {
					t.Fatalf("got %T %v, want *ShapeError", err, err)
				}
				line, col, msg = se.Line, se.Col, se.Msg
			}
			if line != tc.line || (tc.col != 0 && col != tc.col) || !strings.Contains(msg, tc.msg) {
				t.Fatalf("got line %d col %d %q, want line %d col %d containing %q", line, col, msg, tc.line, tc.col, tc.msg)
			}
			if !strings.HasPrefix(err.Error(), "line ") {
				t.Fatalf("Error() = %q", err.Error())
			}
		})
	}
}

func TestSyntaxErrorFormat(t *testing.T) {
	err := &SyntaxError{Line: 3, Col: 7, Msg: "boom"}
	if got := err.Error(); got != "line 3, column 7: boom" {
		t.Fatalf("Error() = %q", got)
	}
}

// TestParseEmpty: empty, blank, comment-only and marker-only files are
// empty documents, kept byte for byte.
func TestParseEmpty(t *testing.T) {
	for _, in := range []string{"", "\n", "\n\n", "# c\n", "# c", "---\n", "---\n# c\n", "# c\n---\n", bomStr, bomStr + "# c\r\n", "%YAML 1.2\n---\n", "...\n"} {
		d, err := Parse([]byte(in))
		if err != nil {
			t.Fatalf("%q: %v", in, err)
		}
		if string(d.Bytes()) != in {
			t.Fatalf("%q: Bytes() = %q", in, d.Bytes())
		}
		ms, found, err := d.Entries(mcpServers, List, "name")
		if err != nil || found || ms != nil {
			t.Fatalf("%q: Entries = %v %v %v", in, ms, found, err)
		}
	}
}

func TestParseCopiesInput(t *testing.T) {
	in := []byte("a: 1\n")
	d := mustParse(t, string(in))
	in[0] = 'b'
	if string(d.Bytes()) != "a: 1\n" {
		t.Fatal("Parse kept a reference to its input")
	}
	out := d.Bytes()
	out[0] = 'c'
	if string(d.Bytes()) != "a: 1\n" {
		t.Fatal("Bytes returned the internal slice")
	}
}

func TestNew(t *testing.T) {
	if got := New(nil).Bytes(); len(got) != 0 {
		t.Fatalf("New(nil) = %q", got)
	}
	if got := string(New([]byte(dropInSkeleton)).Bytes()); got != dropInSkeleton {
		t.Fatalf("New(skeleton) = %q", got)
	}
	defer func() {
		if recover() == nil {
			t.Fatal("New accepted an invalid skeleton")
		}
	}()
	New([]byte("a: [\n"))
}

func TestEntries(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   string
		path []string
		kind Kind
		want []Member
	}{
		{"goose written", gooseWritten, extensions, Map, []Member{
			{"developer", []byte(`{"available_tools":[],"bundled":true,"description":null,"display_name":"Developer","enabled":true,"name":"developer","timeout":300,"type":"builtin"}`), 3},
			{"memory", []byte(`{"args":["-y","@modelcontextprotocol/server-memory"],"available_tools":[],"bundled":null,"cmd":"npx","description":null,"enabled":false,"env_keys":[],"envs":{},"name":"memory","timeout":300,"type":"stdio"}`), 12},
		}},
		{"goose hand", gooseHand, extensions, Map, []Member{
			{"developer", []byte(`{"bundled":true,"enabled":true,"name":"developer","timeout":300,"type":"builtin"}`), 7},
			{"notes", []byte(`{"name":"notes","cmd":"/opt/notes/bin/server","args":["--db","/home/u/notes.db"],"enabled":true,"type":"stdio"}`), 10},
		}},
		{"continue", continueConfig, mcpServers, List, []Member{
			{"user-db", []byte(`{"command":"uvx","args":["mcp-server-sqlite","--db-path","/tmp/test.db"]}`), 21},
		}},
		{"continue crlf bom", bomStr + crlf(continueIndented), mcpServers, List, []Member{
			{"first", []byte(`{"command":"npx","args":["-y","server-first"]}`), 5},
			{"second", []byte(`{"type":"stdio","command":"/usr/bin/second"}`), 12},
		}},
		{"flow list", "mcpServers: [{name: a, command: x}, {command: y, name: b}]\n", mcpServers, List, []Member{
			{"a", []byte(`{"command":"x"}`), 1},
			{"b", []byte(`{"command":"y"}`), 1},
		}},
		{"scalars", "extensions:\n  s:\n    i: 0x1F\n    f: .5\n    g: 1_000.25\n    y: yes\n    q: '1'\n    l: |\n      two\n      lines\n    fo: >-\n      folded\n      text\n    st: !!str 12\n    b: false\n    n: ~\n", extensions, Map, []Member{
			{"s", []byte(`{"i":31,"f":0.5,"g":1000.25,"y":"yes","q":"1","l":"two\nlines\n","fo":"folded text","st":"12","b":false,"n":null}`), 2},
		}},
		{"anchors and aliases", "base: &env {A: '1'}\nextensions:\n  a:\n    envs: *env\n    <<: *env\n", extensions, Map, []Member{
			{"a", []byte(`{"envs":{"A":"1"},"<<":{"A":"1"}}`), 3},
		}},
		{"nested path", "x:\n  servers:\n    a: {cmd: y}\n", []string{"x", "servers"}, Map, []Member{
			{"a", []byte(`{"cmd":"y"}`), 3},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ms, found, err := mustParse(t, tc.in).Entries(tc.path, tc.kind, "name")
			if err != nil || !found {
				t.Fatalf("Entries: %v %v", found, err)
			}
			if len(ms) != len(tc.want) {
				t.Fatalf("got %d members, want %d: %+v", len(ms), len(tc.want), ms)
			}
			for i, m := range ms {
				w := tc.want[i]
				if m.Key != w.Key || !bytes.Equal(m.Value, w.Value) || m.Line != w.Line {
					t.Errorf("member %d = %q %s line %d\n         want %q %s line %d", i, m.Key, m.Value, m.Line, w.Key, w.Value, w.Line)
				}
			}
		})
	}
}

func TestEntriesNotFound(t *testing.T) {
	for _, tc := range []struct {
		in   string
		kind Kind
	}{
		{"name: x\n", List},
		{"mcpServers:\n", List},
		{"mcpServers: # nothing\nname: x\n", List},
		{"mcpServers: []\n", List},
		{"mcpServers: null\n", List},
		{"mcpServers: ~\n", List},
		{"extensions: {}\n", Map},
		{"extensions:", Map},
	} {
		d := mustParse(t, tc.in)
		path := mcpServers
		if tc.kind == Map {
			path = extensions
		}
		ms, found, err := d.Entries(path, tc.kind, "name")
		if err != nil || found || len(ms) != 0 {
			t.Errorf("%q: Entries = %v %v %v", tc.in, ms, found, err)
		}
	}
}

func TestEntriesErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   string
		path []string
		kind Kind
		line int
		msg  string
	}{
		{"map where a list is expected", "mcpServers:\n  a:\n    command: x\n", mcpServers, List, 2, `"mcpServers" is a mapping, want a sequence`},
		{"list where a map is expected", "extensions:\n- name: a\n", extensions, Map, 2, `"extensions" is a sequence, want a mapping`},
		{"flow list where a map is expected", "extensions: []\n", extensions, Map, 1, `"extensions" is a flow sequence, want a mapping`},
		{"scalar container", "a: 1\nmcpServers: none\n", mcpServers, List, 2, "is a string, want a sequence"},
		{"duplicate names", "mcpServers:\n- name: a\n  command: x\n- name: b\n- name: a\n", mcpServers, List, 5, `duplicate name "a"`},
		{"duplicate map entries", "extensions:\n  a: {}\n  b: {}\n  a: {}\n", extensions, Map, 4, `duplicate key "a"`},
		{"duplicate container key", "mcpServers: []\nname: x\nmcpServers: []\n", mcpServers, List, 3, `duplicate key "mcpServers"`},
		{"duplicate key in an entry", "mcpServers:\n- name: a\n  command: x\n  command: y\n", mcpServers, List, 4, `duplicate key "command"`},
		{"name not a string", "mcpServers:\n- name: 42\n", mcpServers, List, 2, `item 1 of "mcpServers": its "name" is a number, want a string`},
		{"name null", "mcpServers:\n- uses: x\n- name:\n  command: y\n", mcpServers, List, 3, `item 2 of "mcpServers": its "name" is null, want a string`},
		{"item not a mapping", "mcpServers:\n- just text\n", mcpServers, List, 2, `item 1 of "mcpServers" is a string, want a mapping`},
		{"infinity", "mcpServers:\n- name: a\n  timeout: .inf\n", mcpServers, List, 3, "cannot be represented in JSON"},
		{"parent not a mapping", "x: [1]\n", []string{"x", "servers"}, Map, 1, `"x" is a flow sequence, want a mapping`},
		{"alias without anchor", "extensions:\n  a: *nope\n", extensions, Map, 2, "has no anchor"},
		{"recursive alias", "extensions:\n  a: &x [*x]\n", extensions, Map, 2, "refers to itself"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := mustParse(t, tc.in)
			_, _, err := d.Entries(tc.path, tc.kind, "name")
			var se *ShapeError
			if !errors.As(err, &se) {
				t.Fatalf("got %T %v, want *ShapeError", err, err)
			}
			if se.Line != tc.line || !strings.Contains(se.Msg, tc.msg) {
				t.Fatalf("got %v, want line %d with %q", err, tc.line, tc.msg)
			}
			// Set and Delete refuse the same container.
			if _, err := d.set(tc.path, tc.kind, "name", "zz", []byte(`{"command":"x"}`)); !errors.As(err, &se) {
				t.Fatalf("Set: got %v, want a *ShapeError", err)
			}
			if _, err := d.Delete(tc.path, tc.kind, "name", "a"); !errors.As(err, &se) {
				t.Fatalf("Delete: got %v, want a *ShapeError", err)
			}
		})
	}
}
