package tomledit

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestEntries(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		found bool
		want  []string // "key line json"
	}{
		{
			name:  "codex app config",
			in:    codexAppConfig,
			found: true,
			want:  []string{`user_srv 11 {"command":"npx","args":["-y","@acme/mcp"],"env":{"ACME_TOKEN":"t0k"}}`},
		},
		{name: "no table", in: "model = \"o3\"\n", found: false},
		{name: "empty file", in: "", found: false},
		{name: "explicit empty table", in: "[mcp_servers]\n", found: true},
		{
			name:  "bare, quoted and single-quoted headers, in file order",
			in:    "[mcp_servers.b]\nx = 1\n[mcp_servers.\"a.b\"]\nx = 2\n[mcp_servers.'c d']\nx = 3\n",
			found: true,
			want:  []string{`b 1 {"x":1}`, `a.b 3 {"x":2}`, `c d 5 {"x":3}`},
		},
		{
			name: "approval tables a client added inside a managed entry",
			in: start + "[mcp_servers.\"a\"]\ncommand = \"a\"\nenabled = false\nstartup_timeout_sec = 20\n\n" +
				"[mcp_servers.a.tools.search]\napproval_mode = \"approve\"\n" + end,
			found: true,
			want:  []string{`a 2 {"command":"a","enabled":false,"startup_timeout_sec":20,"tools":{"search":{"approval_mode":"approve"}}}`},
		},
		{
			name:  "dotted keys at top level are read",
			in:    "mcp_servers.top.command = \"t\"\nmcp_servers.top.args = [\"a\"]\n\n[mcp_servers.table]\ncommand = \"x\"\n",
			found: true,
			want:  []string{`top 1 {"command":"t","args":["a"]}`, `table 4 {"command":"x"}`},
		},
		{
			name:  "dotted keys and inline tables in [mcp_servers] are read",
			in:    "[mcp_servers]\ninner.command = \"i\"\ninl = { command = \"n\", env = { K = \"V\" } }\n",
			found: true,
			want:  []string{`inner 2 {"command":"i"}`, `inl 3 {"command":"n","env":{"K":"V"}}`},
		},
		{
			name:  "an entry defined by a sub-table only",
			in:    "[mcp_servers.x.env]\nK = \"V\"\n",
			found: true,
			want:  []string{`x 1 {"env":{"K":"V"}}`},
		},
		{
			name:  "an array of tables entry is read",
			in:    "[[mcp_servers.x]]\ncommand = \"a\"\n",
			found: true,
			want:  []string{`x 1 [{"command":"a"}]`},
		},
		{
			name: "TOML types",
			in: "[mcp_servers.t]\ns = 'lit\\eral'\nml = \"\"\"\na\\\n  b\"\"\"\ni = 0x1F\no = 0o17\nb = 0b101\nu = 1_000\nf = 20.0\ng = 1e3\nh = -0.0\n" +
				"inf = -inf\nnan = nan\nd = 1979-05-27T07:32:00Z\nld = 1979-05-27\nlt = 07:32:00\nldt = 1979-05-27 07:32:00\n" +
				"a = [1, \"two\", [3], { x = 1 }]\nin = { a.b = 1 }\n",
			found: true,
			want: []string{`t 1 {"s":"lit\\eral","ml":"ab","i":31,"o":15,"b":5,"u":1000,"f":20.0,"g":1000.0,"h":-0.0,` +
				`"inf":"-inf","nan":"nan","d":"1979-05-27T07:32:00Z","ld":"1979-05-27","lt":"07:32:00","ldt":"1979-05-27 07:32:00",` +
				`"a":[1,"two",[3],{"x":1}],"in":{"a":{"b":1}}}`},
		},
		{
			name:  "BOM and CRLF",
			in:    "\ufeff# c\r\n[mcp_servers.x]\r\ncommand = \"x\"\r\n",
			found: true,
			want:  []string{`x 2 {"command":"x"}`},
		},
		{
			name:  "strings needing JSON escapes",
			in:    "[mcp_servers.\"q\\\"\\n\"]\ns = \"<&>\\u0001\\t\"\n",
			found: true,
			want:  []string{`q"` + "\n" + ` 1 {"s":"<&>\u0001\t"}`},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d, err := Parse([]byte(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			ms, found, err := d.Entries(servers)
			if err != nil {
				t.Fatal(err)
			}
			if found != tc.found {
				t.Fatalf("found = %v", found)
			}
			var got []string
			for _, m := range ms {
				got = append(got, fmt.Sprintf("%s %d %s", m.Key, m.Line, m.Value))
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Fatalf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

// TestLayoutErrors: files repo cannot edit, and what it says about them.
func TestLayoutErrors(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		server  string
		entries bool   // Entries fails too (else only Set and Delete)
		line    int    // of the error
		msg     string // a part of the message
	}{
		{
			name: "inline mcp_servers", in: "model = \"o3\"\nmcp_servers = {}\n", server: "x", entries: true, line: 2,
			msg: `mcp_servers is written as an inline table (mcp_servers = { … }); repo writes one [mcp_servers."<name>"] table per server and cannot add to an inline table: convert it into [mcp_servers."<name>"] tables`,
		},
		{
			name: "inline mcp_servers with entries", in: "mcp_servers = { x = { command = \"a\" } }\n", server: "y", entries: true, line: 1,
			msg: "inline table",
		},
		{
			name: "inline mcp_servers in a table", in: "[profiles]\nmcp_servers = { }\n[mcp]\n", server: "y", entries: true, line: 2, msg: "inline table",
		},
		{
			name: "mcp_servers is a string", in: "\nmcp_servers = \"none\"\n", server: "x", entries: true, line: 2,
			msg: `mcp_servers is a string, not a table; repo needs one [mcp_servers."<name>"] table per server`,
		},
		{
			name: "mcp_servers is an array of tables", in: "[[mcp_servers]]\nname = \"x\"\n", server: "x", entries: true, line: 1,
			msg: "mcp_servers is an array of tables, not a table",
		},
		{
			name: "dotted entry at top level", in: "a = 1\nmcp_servers.x.command = \"a\"\n", server: "x", line: 2,
			msg: "server \"x\" is written as dotted keys (`mcp_servers.x.command = …`); repo only edits servers written as [mcp_servers.\"x\"] tables: rewrite it as such a table, or remove it",
		},
		{
			name: "dotted entry in [mcp_servers]", in: "[mcp_servers]\nx.command = \"a\"\n", server: "x", line: 2,
			msg: "dotted keys (`x.command = …`)",
		},
		{
			name: "inline entry in [mcp_servers]", in: "[mcp_servers]\n\"x\" = { command = \"a\" }\n", server: "x", line: 2,
			msg: "a key/value (`\"x\" = …`)",
		},
		{
			name: "dotted entry with a sub-table", in: "[mcp_servers]\nx.command = \"a\"\n[mcp_servers.x.env]\nK = \"V\"\n", server: "x", line: 2,
			msg: "dotted keys",
		},
		{
			name: "array of tables entry", in: "[[mcp_servers.x]]\ncommand = \"a\"\n", server: "x", line: 1,
			msg: "an array of tables ([[mcp_servers.x]])",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := servers
			if strings.HasPrefix(tc.in, "[profiles]") {
				path = []string{"profiles", "mcp_servers"}
			}
			d, err := Parse([]byte(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			check := func(what string, err error) {
				t.Helper()
				var le *LayoutError
				if !errors.As(err, &le) {
					t.Fatalf("%s: got %v, want a *LayoutError", what, err)
				}
				if le.Line != tc.line || !strings.Contains(le.Msg, tc.msg) {
					t.Fatalf("%s: got %q\nwant line %d and %q", what, err, tc.line, tc.msg)
				}
			}
			_, _, err = d.Entries(path)
			if tc.entries {
				check("Entries", err)
			} else if err != nil {
				t.Fatalf("Entries: %v", err)
			}
			_, err = d.set(path, tc.server, []byte(`{"command":"b"}`))
			check("Set", err)
			_, err = d.Delete(path, tc.server)
			check("Delete", err)
		})
	}
}

// TestDottedEntriesCoexist: a dotted user entry is read, refused for editing,
// and other entries can still be written next to it.
func TestDottedEntriesCoexist(t *testing.T) {
	in := "mcp_servers.user.command = \"u\"\n"
	d, err := Parse([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.set(servers, "user", []byte(`{"command":"u2"}`)); err == nil {
		t.Fatal("Set of a dotted entry succeeded")
	}
	d2, err := d.set(servers, "x", []byte(`{"command":"x"}`))
	if err != nil {
		t.Fatal(err)
	}
	ms, _, err := d2.Entries(servers)
	if err != nil || len(ms) != 2 || string(ms[0].Value) != `{"command":"u"}` || string(ms[1].Value) != `{"command":"x"}` {
		t.Fatalf("Entries = %+v, %v", ms, err)
	}
	d3, err := d2.Delete(servers, "x")
	if err != nil || string(d3.Bytes()) != in {
		t.Fatalf("Delete = %q, %v", d3.Bytes(), err)
	}
}

func TestKeysAfterEndMarker(t *testing.T) {
	block := start + "[mcp_servers.\"git\"]\ncommand = \"git\"\n" + end
	bad := []struct {
		in   string
		line int
	}{
		{"model = \"o3\"\n\n" + block + "approval = \"never\"\n", 7},
		{"model = \"o3\"\n\n" + block + "\n# a comment\n\napproval.mode = \"never\"\n[x]\n", 10},
		{"model = \"o3\"\n\n" + block + "\"quoted\" = 1", 7},
	}
	for _, tc := range bad {
		_, err := Parse([]byte(tc.in))
		var le *LayoutError
		if !errors.As(err, &le) || le.Line != tc.line {
			t.Fatalf("%q: got %v, want a *LayoutError on line %d", tc.in, err, tc.line)
		}
		for _, part := range []string{"comes after the end of repo's managed block (line 6)", `[mcp_servers.git]`, "move it above the block"} {
			if !strings.Contains(err.Error(), part) {
				t.Fatalf("%q: message %q lacks %q", tc.in, err, part)
			}
		}
	}
	if want := "line 7: `approval = …` comes after the end of repo's managed block (line 6) with no table header of its own, " +
		"so TOML reads it as part of [mcp_servers.git] above it, silently changing a server's configuration; " +
		"move it above the block or under its own [table] header"; func() string {
		_, err := Parse([]byte(bad[0].in))
		return err.Error()
	}() != want {
		_, err := Parse([]byte(bad[0].in))
		t.Fatalf("message:\n%s\nwant:\n%s", err, want)
	}
	good := []string{
		"model = \"o3\"\n\n" + block,
		"model = \"o3\"\n\n" + block + "\n# comment\n\n[features]\nx = 1\n",
		"model = \"o3\"\n\n" + block + "[[arr]]\nx = 1\n",
		// An empty block before any table: the key is a top-level key.
		start + end + "model = \"o3\"\n",
		// The marker text inside a string is not a marker.
		"s = '''\n" + end + "'''\nk = 1\n",
	}
	for _, in := range good {
		if _, err := Parse([]byte(in)); err != nil {
			t.Fatalf("%q: %v", in, err)
		}
	}
}

func TestSyntaxErrors(t *testing.T) {
	tests := []struct {
		in        string
		line, col int
	}{
		{"a = 1\nb = \n", 2, 5},
		{"a = 1\na = 2\n", 2, 1},
		{"k = \"ü\" x\n", 1, 9},
		{"\ufeffk = \"ü\" x\n", 1, 9},
		{"[a]\n[a]\n", 2, 2},
		{"a = 1\r\nb = @\r\n", 2, 5},
		{"x = \"\xff\"\n", 1, 6},
	}
	for _, tc := range tests {
		_, err := Parse([]byte(tc.in))
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Fatalf("%q: got %v, want a *SyntaxError", tc.in, err)
		}
		if se.Line != tc.line || se.Col != tc.col {
			t.Errorf("%q: got %v, want line %d, column %d", tc.in, err, tc.line, tc.col)
		}
		if !strings.HasPrefix(err.Error(), fmt.Sprintf("line %d, column %d: ", se.Line, se.Col)) {
			t.Errorf("%q: message %q", tc.in, err)
		}
	}
}

// TestHostileNames: names that need quoting round-trip exactly.
func TestHostileNames(t *testing.T) {
	headers := map[string]string{
		"a.b":        `[mcp_servers."a.b"]`,
		`a"b`:        `[mcp_servers."a\"b"]`,
		"ünï":        `[mcp_servers."ünï"]`,
		"a b":        `[mcp_servers."a b"]`,
		":x":         `[mcp_servers.":x"]`,
		"42":         `[mcp_servers."42"]`,
		"":           `[mcp_servers.""]`,
		`a\b`:        `[mcp_servers."a\\b"]`,
		"tab\there":  `[mcp_servers."tab\there"]`,
		"new\nline":  `[mcp_servers."new\nline"]`,
		"'q'":        `[mcp_servers."'q'"]`,
		"[x]":        `[mcp_servers."[x]"]`,
		"#x":         `[mcp_servers."#x"]`,
		"=":          `[mcp_servers."="]`,
		"x.":         `[mcp_servers."x."]`,
		"@scope/pkg": `[mcp_servers."@scope/pkg"]`,
	}
	value := `{"command":"x","env":{"K":"V"}}`
	for _, name := range hostileNames {
		d, err := Parse([]byte(codexAppConfig))
		if err != nil {
			t.Fatal(err)
		}
		d2, err := d.set(servers, name, []byte(value))
		if err != nil {
			t.Fatalf("%q: %v", name, err)
		}
		h := headers[name]
		want := codexAppConfig + "\n" + start + h + "\ncommand = \"x\"\n\n" + strings.TrimSuffix(h, "]") + ".env]\nK = \"V\"\n" + end
		if string(d2.Bytes()) != want {
			t.Fatalf("%q: got\n%s", name, d2.Bytes())
		}
		ms, _, err := d2.Entries(servers)
		if err != nil || len(ms) != 2 || ms[1].Key != name || string(ms[1].Value) != value {
			t.Fatalf("%q: Entries = %+v, %v", name, ms, err)
		}
		d3, err := d2.set(servers, name, []byte(`{"command":"y"}`))
		if err != nil {
			t.Fatalf("%q: replace: %v", name, err)
		}
		if want := codexAppConfig + "\n" + start + h + "\ncommand = \"y\"\n" + end; string(d3.Bytes()) != want {
			t.Fatalf("%q: replace: got\n%s", name, d3.Bytes())
		}
		d4, err := d3.Delete(servers, name)
		if err != nil || string(d4.Bytes()) != codexAppConfig {
			t.Fatalf("%q: Delete = %v\n%s", name, err, d4.Bytes())
		}
	}
	if len(headers) != len(hostileNames) {
		t.Fatal("a hostile name lacks its header")
	}
	if _, err := New().set(servers, "bad\xff", []byte(`{}`)); err == nil {
		t.Fatal("invalid UTF-8 name accepted")
	}
}

// TestSetOrderIndependence: Set a, Set b, Delete a gives the bytes of Set b.
func TestSetOrderIndependence(t *testing.T) {
	for _, in := range []string{"", "a = 1", "a = 1\n", "a = 1\n\n", "\ufeff[x]\r\ny = 2\r\n"} {
		d, _ := Parse([]byte(in))
		ab, err := d.set(servers, "a", []byte(`{"command":"a"}`))
		if err == nil {
			ab, err = ab.set(servers, "b", []byte(`{"command":"b","env":{"K":"V"}}`))
		}
		if err == nil {
			ab, err = ab.Delete(servers, "a")
		}
		if err != nil {
			t.Fatal(err)
		}
		b, err := d.set(servers, "b", []byte(`{"command":"b","env":{"K":"V"}}`))
		if err != nil {
			t.Fatal(err)
		}
		if string(ab.Bytes()) != string(b.Bytes()) {
			t.Fatalf("%q:\n%q\n%q", in, ab.Bytes(), b.Bytes())
		}
	}
}

func TestSetValueErrors(t *testing.T) {
	tests := []struct{ value, msg string }{
		{`[1]`, "must be a JSON object"},
		{`{"a":`, "not valid JSON"},
		{`{"a":null}`, `server "x" > "a": null has no TOML form`},
		{`{"a":[1,null]}`, `server "x" > "a" > "1": null has no TOML form`},
		{`{"a":1,"a":2}`, `duplicate key "a"`},
		{`{"e":{"k":1,"k":2}}`, `server "x" > "e": duplicate key "k"`},
		{`{"a":[{"k":1,"k":1},2]}`, `duplicate key "k"`},
		{`{"a":123456789012345678901234567890}`, "does not fit in a TOML integer"},
		{`{"a":1e999}`, "out of the range of a TOML float"},
		{"{\"a\":\"\xff\"}", "not valid UTF-8"},
	}
	d, _ := Parse([]byte(codexAppConfig))
	for _, tc := range tests {
		_, err := d.set(servers, "x", []byte(tc.value))
		if err == nil || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%s: got %v, want %q", tc.value, err, tc.msg)
		}
	}
}

// TestDeleteAbsent: deleting a server that is not there changes nothing.
func TestDeleteAbsent(t *testing.T) {
	for _, in := range []string{"", codexAppConfig, "mcp_servers.x.command = \"a\"\n"} {
		d, _ := Parse([]byte(in))
		d2, err := d.Delete(servers, "nope")
		if err != nil || string(d2.Bytes()) != in {
			t.Fatalf("%q: %v %q", in, err, d2.Bytes())
		}
	}
}
