package tomledit

import (
	"errors"
	"strings"
	"testing"
)

const (
	start = MarkerStart + "\n"
	end   = MarkerEnd + "\n"
)

type op struct {
	del   bool
	name  string
	value string
}

func set(name, value string) op { return op{name: name, value: value} }
func del(name string) op        { return op{del: true, name: name} }

// goldenCases apply a sequence of edits to a document and compare the bytes.
var goldenCases = []struct {
	name string
	in   string
	ops  []op
	want string
}{
	{
		name: "codex app config: new block at the end",
		in:   codexAppConfig,
		ops:  []op{set("github", `{"command":"npx","args":["-y","@modelcontextprotocol/server-github"],"env":{"GITHUB_TOKEN":"x"}}`)},
		want: codexAppConfig + "\n" + start +
			"[mcp_servers.\"github\"]\n" +
			"command = \"npx\"\n" +
			"args = [\"-y\", \"@modelcontextprotocol/server-github\"]\n" +
			"\n" +
			"[mcp_servers.\"github\".env]\n" +
			"GITHUB_TOKEN = \"x\"\n" +
			end,
	},
	{
		name: "codex app config: second entry after a blank line, then both deleted",
		in:   codexAppConfig,
		ops:  []op{set("a", `{"command":"a"}`), set("b", `{"command":"b"}`)},
		want: codexAppConfig + "\n" + start +
			"[mcp_servers.\"a\"]\ncommand = \"a\"\n\n[mcp_servers.\"b\"]\ncommand = \"b\"\n" + end,
	},
	{
		name: "delete the first of two managed entries",
		in:   codexAppConfig,
		ops:  []op{set("a", `{"command":"a"}`), set("b", `{"command":"b"}`), del("a")},
		want: codexAppConfig + "\n" + start + "[mcp_servers.\"b\"]\ncommand = \"b\"\n" + end,
	},
	{
		name: "delete the last of two managed entries",
		in:   codexAppConfig,
		ops:  []op{set("a", `{"command":"a"}`), set("b", `{"command":"b"}`), del("b")},
		want: codexAppConfig + "\n" + start + "[mcp_servers.\"a\"]\ncommand = \"a\"\n" + end,
	},
	{
		name: "delete the middle one of three",
		in:   codexAppConfig,
		ops:  []op{set("a", `{"command":"a"}`), set("b", `{"command":"b","env":{"K":"V"}}`), set("c", `{"command":"c"}`), del("b")},
		want: codexAppConfig + "\n" + start +
			"[mcp_servers.\"a\"]\ncommand = \"a\"\n\n[mcp_servers.\"c\"]\ncommand = \"c\"\n" + end,
	},
	{
		name: "set then delete restores the original exactly",
		in:   codexAppConfig,
		ops:  []op{set("a", `{"command":"a"}`), set("b", `{"command":"b"}`), del("a"), del("b")},
		want: codexAppConfig,
	},
	{
		name: "replace a managed entry in place",
		in:   codexAppConfig,
		ops:  []op{set("a", `{"command":"a"}`), set("b", `{"command":"b"}`), set("a", `{"url":"https://x","env":{"K":"V"}}`)},
		want: codexAppConfig + "\n" + start +
			"[mcp_servers.\"a\"]\nurl = \"https://x\"\n\n[mcp_servers.\"a\".env]\nK = \"V\"\n\n[mcp_servers.\"b\"]\ncommand = \"b\"\n" + end,
	},
	{
		name: "replace the user's own entry in place (the caller decides whether it may)",
		in:   codexAppConfig,
		ops:  []op{set("user_srv", `{"command":"uvx","args":["acme"]}`)},
		want: strings.Replace(codexAppConfig,
			"[mcp_servers.user_srv]\ncommand = \"npx\"\nargs = [\"-y\", \"@acme/mcp\"]\n\n[mcp_servers.user_srv.env]\nACME_TOKEN = \"t0k\"\n",
			"[mcp_servers.\"user_srv\"]\ncommand = \"uvx\"\nargs = [\"acme\"]\n", 1),
	},
	{
		name: "delete the user's own entry: its comment above stays",
		in:   codexAppConfig,
		ops:  []op{del("user_srv")},
		want: strings.Replace(codexAppConfig,
			"[mcp_servers.user_srv]\ncommand = \"npx\"\nargs = [\"-y\", \"@acme/mcp\"]\n\n[mcp_servers.user_srv.env]\nACME_TOKEN = \"t0k\"\n",
			"", 1),
	},
	{
		name: "empty file",
		in:   "",
		ops:  []op{set("x", `{"command":"x"}`)},
		want: start + "[mcp_servers.\"x\"]\ncommand = \"x\"\n" + end,
	},
	{
		name: "empty file: set and delete",
		in:   "",
		ops:  []op{set("x", `{"command":"x"}`), del("x")},
		want: "",
	},
	{
		name: "whitespace-only file: the blank lines stay after the block",
		in:   "\n\n",
		ops:  []op{set("x", `{"command":"x"}`)},
		want: start + "[mcp_servers.\"x\"]\ncommand = \"x\"\n" + end + "\n\n",
	},
	{
		name: "comment-only file",
		in:   "# just a comment\n",
		ops:  []op{set("x", `{"command":"x"}`)},
		want: "# just a comment\n\n" + start + "[mcp_servers.\"x\"]\ncommand = \"x\"\n" + end,
	},
	{
		name: "file ending with blank lines: they stay after the block",
		in:   "model = \"o3\"\n\n\n",
		ops:  []op{set("x", `{"command":"x"}`)},
		want: "model = \"o3\"\n\n" + start + "[mcp_servers.\"x\"]\ncommand = \"x\"\n" + end + "\n\n",
	},
	{
		name: "file ending with blank lines: set and delete",
		in:   "model = \"o3\"\n\n\n",
		ops:  []op{set("x", `{"command":"x"}`), del("x")},
		want: "model = \"o3\"\n\n\n",
	},
	{
		name: "no final newline: one is added before the block, which ends without one",
		in:   "model = \"o3\"",
		ops:  []op{set("x", `{"command":"x"}`)},
		want: "model = \"o3\"\n\n" + start + "[mcp_servers.\"x\"]\ncommand = \"x\"\n" + MarkerEnd,
	},
	{
		name: "no final newline: a second entry",
		in:   "model = \"o3\"",
		ops:  []op{set("x", `{"command":"x"}`), set("y", `{"command":"y"}`)},
		want: "model = \"o3\"\n\n" + start + "[mcp_servers.\"x\"]\ncommand = \"x\"\n\n[mcp_servers.\"y\"]\ncommand = \"y\"\n" + MarkerEnd,
	},
	{
		name: "no final newline: set and delete restore it exactly",
		in:   "model = \"o3\"",
		ops:  []op{set("x", `{"command":"x"}`), set("y", `{"command":"y"}`), del("x"), del("y")},
		want: "model = \"o3\"",
	},
	{
		name: "no final newline after a comment",
		in:   "a = 1\n# trailing comment",
		ops:  []op{set("x", `{"command":"x"}`), del("x")},
		want: "a = 1\n# trailing comment",
	},
	{
		name: "user entry at the end of a file without a final newline: replaced, still no final newline",
		in:   "a = 1\n\n[mcp_servers.u]\ncommand = \"old\"",
		ops:  []op{set("u", `{"command":"new"}`)},
		want: "a = 1\n\n[mcp_servers.\"u\"]\ncommand = \"new\"",
	},
	{
		name: "user entry at the end of a file without a final newline: deleted, still no final newline",
		in:   "a = 1\n\n[mcp_servers.u]\ncommand = \"old\"",
		ops:  []op{del("u")},
		want: "a = 1",
	},
	{
		name: "CRLF file",
		in:   "# top\r\nmodel = \"o3\"\r\n\r\n[projects.\"C:\\\\w\"]\r\ntrust_level = \"trusted\"\r\n",
		ops:  []op{set("x", `{"command":"x","env":{"K":"V"}}`)},
		want: "# top\r\nmodel = \"o3\"\r\n\r\n[projects.\"C:\\\\w\"]\r\ntrust_level = \"trusted\"\r\n\r\n" +
			MarkerStart + "\r\n[mcp_servers.\"x\"]\r\ncommand = \"x\"\r\n\r\n[mcp_servers.\"x\".env]\r\nK = \"V\"\r\n" + MarkerEnd + "\r\n",
	},
	{
		name: "CRLF file: set and delete",
		in:   "model = \"o3\"\r\n",
		ops:  []op{set("x", `{"command":"x"}`), set("y", `{"command":"y"}`), del("y"), del("x")},
		want: "model = \"o3\"\r\n",
	},
	{
		name: "CRLF file without a final newline",
		in:   "model = \"o3\"\r\nx = 1",
		ops:  []op{set("x", `{"command":"x"}`)},
		want: "model = \"o3\"\r\nx = 1\r\n\r\n" + MarkerStart + "\r\n[mcp_servers.\"x\"]\r\ncommand = \"x\"\r\n" + MarkerEnd,
	},
	{
		name: "BOM",
		in:   "\ufeffmodel = \"o3\"\n",
		ops:  []op{set("x", `{"command":"x"}`)},
		want: "\ufeffmodel = \"o3\"\n\n" + start + "[mcp_servers.\"x\"]\ncommand = \"x\"\n" + end,
	},
	{
		name: "BOM only",
		in:   "\ufeff",
		ops:  []op{set("x", `{"command":"x"}`)},
		want: "\ufeff" + start + "[mcp_servers.\"x\"]\ncommand = \"x\"\n" + end,
	},
	{
		name: "BOM: set and delete",
		in:   "\ufeffmodel = \"o3\"\n",
		ops:  []op{set("x", `{"command":"x"}`), del("x")},
		want: "\ufeffmodel = \"o3\"\n",
	},
	{
		name: "markers removed by a client: the entry is found and replaced in place",
		in: "model = \"o3\"\n\n" +
			"[mcp_servers.alpha]\ncommand = \"npx\"\nargs = [\"-y\", \"pkg\"]\n\n[mcp_servers.alpha.env]\nK = \"V\"\n\n" +
			"[mcp_servers.zeta]\ncommand = \"z\"\n",
		ops: []op{set("alpha", `{"command":"uvx","args":["pkg"]}`)},
		want: "model = \"o3\"\n\n" +
			"[mcp_servers.\"alpha\"]\ncommand = \"uvx\"\nargs = [\"pkg\"]\n\n" +
			"[mcp_servers.zeta]\ncommand = \"z\"\n",
	},
	{
		name: "markers removed by a client: a new entry starts a new block",
		in:   "[mcp_servers.alpha]\ncommand = \"npx\"\n",
		ops:  []op{set("beta", `{"command":"b"}`)},
		want: "[mcp_servers.alpha]\ncommand = \"npx\"\n\n" + start + "[mcp_servers.\"beta\"]\ncommand = \"b\"\n" + end,
	},
	{
		name: "markers removed by a client: delete in place",
		in:   "model = \"o3\"\n\n[mcp_servers.alpha]\ncommand = \"npx\"\n\n[mcp_servers.alpha.env]\nK = \"V\"\n\n[features]\nx = true\n",
		ops:  []op{del("alpha")},
		want: "model = \"o3\"\n\n[features]\nx = true\n",
	},
	{
		name: "start marker dropped by a client: the stray end marker goes, a new block is made",
		in:   "model = \"o3\"\n\n[mcp_servers.a]\ncommand = \"a\"\n" + end,
		ops:  []op{set("b", `{"command":"b"}`)},
		want: "model = \"o3\"\n\n[mcp_servers.a]\ncommand = \"a\"\n\n" + start + "[mcp_servers.\"b\"]\ncommand = \"b\"\n" + end,
	},
	{
		name: "start marker dropped by a client: replacing in place keeps the stray marker",
		in:   "model = \"o3\"\n\n[mcp_servers.a]\ncommand = \"a\"\n" + end,
		ops:  []op{set("a", `{"command":"A"}`)},
		want: "model = \"o3\"\n\n[mcp_servers.\"a\"]\ncommand = \"A\"\n" + end,
	},
	{
		name: "end marker dropped by a client",
		in:   "model = \"o3\"\n\n" + start + "[mcp_servers.a]\ncommand = \"a\"\n",
		ops:  []op{set("b", `{"command":"b"}`)},
		want: "model = \"o3\"\n\n[mcp_servers.a]\ncommand = \"a\"\n\n" + start + "[mcp_servers.\"b\"]\ncommand = \"b\"\n" + end,
	},
	{
		name: "a client emptied the block: a new entry goes inside",
		in:   "model = \"o3\"\n\n" + start + end,
		ops:  []op{set("b", `{"command":"b"}`)},
		want: "model = \"o3\"\n\n" + start + "[mcp_servers.\"b\"]\ncommand = \"b\"\n" + end,
	},
	{
		name: "a client emptied the block: deleting the new entry removes the block",
		in:   "model = \"o3\"\n\n" + start + end,
		ops:  []op{set("b", `{"command":"b"}`), del("b")},
		want: "model = \"o3\"\n",
	},
	{
		name: "a client appended approval tables and keys inside a managed entry: preserved by the caller",
		in: "model = \"o3\"\n\n" + start +
			"[mcp_servers.\"a\"]\ncommand = \"a\"\nenabled = false\nstartup_timeout_sec = 20\n\n" +
			"[mcp_servers.a.tools.search]\napproval_mode = \"approve\"\n" + end,
		ops: []op{set("a", `{"command":"a2","enabled":false,"startup_timeout_sec":20,"tools":{"search":{"approval_mode":"approve"}}}`)},
		want: "model = \"o3\"\n\n" + start +
			"[mcp_servers.\"a\"]\ncommand = \"a2\"\nenabled = false\nstartup_timeout_sec = 20\n\n" +
			"[mcp_servers.\"a\".tools.search]\napproval_mode = \"approve\"\n" + end,
	},
	{
		name: "a client appended a table of a managed entry after the block: it is merged into the block",
		in: "model = \"o3\"\n\n" + start +
			"[mcp_servers.\"a\"]\ncommand = \"a\"\n" + end + "\n" +
			"[mcp_servers.a.tools.search]\napproval_mode = \"approve\"\n",
		ops: []op{set("a", `{"command":"a","tools":{"search":{"approval_mode":"never"}}}`)},
		want: "model = \"o3\"\n\n" + start +
			"[mcp_servers.\"a\"]\ncommand = \"a\"\n\n[mcp_servers.\"a\".tools.search]\napproval_mode = \"never\"\n" + end,
	},
	{
		name: "an entry split around another table: the first part is replaced, the other removed",
		in:   "[mcp_servers.x]\ncommand = \"a\"\n\n[other]\nk = 1\n\n[mcp_servers.x.env]\nK = \"v\"\n",
		ops:  []op{set("x", `{"command":"b","env":{"K":"w"}}`)},
		want: "[mcp_servers.\"x\"]\ncommand = \"b\"\n\n[mcp_servers.\"x\".env]\nK = \"w\"\n\n[other]\nk = 1\n",
	},
	{
		name: "comments inside an entry belong to it; a comment after it does not",
		in:   "[mcp_servers.x]\n# inside\ncommand = \"a\"\n# between\n[mcp_servers.x.env]\nK = \"v\"\n# next table\n[other]\nk = 1\n",
		ops:  []op{set("x", `{"command":"b"}`)},
		want: "[mcp_servers.\"x\"]\ncommand = \"b\"\n# next table\n[other]\nk = 1\n",
	},
	{
		name: "single-quoted header found and replaced",
		in:   "[mcp_servers.'my.srv']\ncommand = 'a'\n",
		ops:  []op{set("my.srv", `{"command":"b"}`)},
		want: "[mcp_servers.\"my.srv\"]\ncommand = \"b\"\n",
	},
	{
		name: "single-quoted header deleted",
		in:   "a = 1\n\n[mcp_servers.'my.srv']\ncommand = 'a'\n\n[mcp_servers.'my.srv'.env]\nK = 'v'\n",
		ops:  []op{del("my.srv")},
		want: "a = 1\n",
	},
	{
		name: "the same value again is a no-op, even in the client's format",
		in:   "[mcp_servers.alpha]\ncommand = 'npx'\nstartup_timeout_sec = 20\n\n[mcp_servers.alpha.env]\nK = \"V\"\n",
		ops:  []op{set("alpha", `{"env":{"K":"V"},"command":"npx","startup_timeout_sec":20.0}`)},
		want: "[mcp_servers.alpha]\ncommand = 'npx'\nstartup_timeout_sec = 20\n\n[mcp_servers.alpha.env]\nK = \"V\"\n",
	},
	{
		name: "dotted-key user entries coexist with the block",
		in:   "mcp_servers.user.command = \"u\"\n",
		ops:  []op{set("x", `{"command":"x"}`)},
		want: "mcp_servers.user.command = \"u\"\n\n" + start + "[mcp_servers.\"x\"]\ncommand = \"x\"\n" + end,
	},
	{
		name: "an explicit [mcp_servers] table is left alone",
		in:   "[mcp_servers]\n\n[mcp_servers.u]\ncommand = \"u\"\n",
		ops:  []op{set("x", `{"command":"x"}`), del("u")},
		want: "[mcp_servers]\n\n" + start + "[mcp_servers.\"x\"]\ncommand = \"x\"\n" + end,
	},
	{
		name: "a marker inside a multi-line string is not a marker",
		in:   "notes = \"\"\"\n" + start + end + "\"\"\"\n",
		ops:  []op{set("x", `{"command":"x"}`)},
		want: "notes = \"\"\"\n" + start + end + "\"\"\"\n\n" + start + "[mcp_servers.\"x\"]\ncommand = \"x\"\n" + end,
	},
	{
		name: "a table after the block is fine, and new entries still go into the block",
		in:   "a = 1\n\n" + start + "[mcp_servers.\"x\"]\ncommand = \"x\"\n" + end + "\n[features]\nk = true\n",
		ops:  []op{set("y", `{"command":"y"}`)},
		want: "a = 1\n\n" + start + "[mcp_servers.\"x\"]\ncommand = \"x\"\n\n[mcp_servers.\"y\"]\ncommand = \"y\"\n" + end + "\n[features]\nk = true\n",
	},
	{
		name: "a table after the block: deleting the last entry",
		in:   "a = 1\n\n" + start + "[mcp_servers.\"x\"]\ncommand = \"x\"\n" + end + "\n[features]\nk = true\n",
		ops:  []op{del("x")},
		want: "a = 1\n\n[features]\nk = true\n",
	},
	{
		name: "rendering: every kind of value",
		in:   "",
		ops: []op{set("all", `{"s":"q\"b\\s\ttab\nnl\u0001\u007fü€","i":-42,"z":0,"f":0.5,"e":1e3,"E":1.5E-3,"t":true,"n":false,`+
			`"arr":["a",1,2.5,true,[1,[2]],{"k":"v","o":{}}],"empty":[],"emptyobj":{},"key with space":1,"":"empty key",`+
			`"env":{"A_B":"1","dotted.key":"2"},"tools":{"search":{"approval_mode":"never"},"x y":{"approval_mode":"approve"}},`+
			`"env_vars":[{"name":"A","source":"env"},{"name":"B","nested":{"deep":[{"x":1}]}}]}`)},
		want: start + `[mcp_servers."all"]
s = "q\"b\\s\ttab\nnl\u0001\u007Fü€"
i = -42
z = 0
f = 0.5
e = 1e3
E = 1.5E-3
t = true
n = false
arr = ["a", 1, 2.5, true, [1, [2]], { k = "v", o = {} }]
empty = []
"key with space" = 1
"" = "empty key"

[mcp_servers."all".emptyobj]

[mcp_servers."all".env]
A_B = "1"
"dotted.key" = "2"

[mcp_servers."all".tools.search]
approval_mode = "never"

[mcp_servers."all".tools."x y"]
approval_mode = "approve"

[[mcp_servers."all".env_vars]]
name = "A"
source = "env"

[[mcp_servers."all".env_vars]]
name = "B"

[[mcp_servers."all".env_vars.nested.deep]]
x = 1
` + end,
	},
	{
		name: "rendering: an object member before scalars comes after them",
		in:   "",
		ops:  []op{set("x", `{"env":{"K":"V"},"command":"c","args":[]}`)},
		want: start + "[mcp_servers.\"x\"]\ncommand = \"c\"\nargs = []\n\n[mcp_servers.\"x\".env]\nK = \"V\"\n" + end,
	},
	{
		name: "rendering: an empty entry",
		in:   "",
		ops:  []op{set("x", `{}`)},
		want: start + "[mcp_servers.\"x\"]\n" + end,
	},
}

func TestGolden(t *testing.T) {
	for _, tc := range goldenCases {
		t.Run(tc.name, func(t *testing.T) {
			d, err := Parse([]byte(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			for _, o := range tc.ops {
				if o.del {
					d, err = d.Delete(servers, o.name)
				} else {
					d, err = d.set(servers, o.name, []byte(o.value))
				}
				if err != nil {
					t.Fatalf("%+v: %v", o, err)
				}
			}
			if got := string(d.Bytes()); got != tc.want {
				t.Errorf("got:\n%s\nwant:\n%s\n(got %q)", got, tc.want, got)
			}
			// Every result parses, and setting the last value again is a no-op.
			if _, err := Parse(d.Bytes()); err != nil {
				t.Fatalf("result does not parse: %v", err)
			}
			if last := tc.ops[len(tc.ops)-1]; !last.del {
				again, err := d.set(servers, last.name, []byte(last.value))
				if err != nil || string(again.Bytes()) != tc.want {
					t.Errorf("second Set: %v\n%s", err, again.Bytes())
				}
			}
		})
	}
}

func TestNew(t *testing.T) {
	d := New()
	if len(d.Bytes()) != 0 {
		t.Fatalf("New().Bytes() = %q", d.Bytes())
	}
	ms, found, err := d.Entries(servers)
	if err != nil || found || len(ms) != 0 {
		t.Fatalf("Entries = %v, %v, %v", ms, found, err)
	}
	d2, err := d.set(servers, "x", []byte(`{"command":"x"}`))
	if err != nil {
		t.Fatal(err)
	}
	if want := start + "[mcp_servers.\"x\"]\ncommand = \"x\"\n" + end; string(d2.Bytes()) != want {
		t.Fatalf("got %q", d2.Bytes())
	}
}

func TestImmutable(t *testing.T) {
	in := []byte(codexAppConfig)
	d, err := Parse(in)
	if err != nil {
		t.Fatal(err)
	}
	in[0] = 'X'
	if _, err := d.set(servers, "x", []byte(`{"command":"x"}`)); err != nil {
		t.Fatal(err)
	}
	b := d.Bytes()
	b[0] = 'Y'
	if string(d.Bytes()) != codexAppConfig {
		t.Fatal("the document changed")
	}
}

func TestTablePath(t *testing.T) {
	d, err := Parse([]byte("[profiles.\"my profile\"]\nmodel = \"o3\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	path := []string{"profiles", "my profile", "mcp_servers"}
	d, err = d.set(path, "x", []byte(`{"command":"x"}`))
	if err != nil {
		t.Fatal(err)
	}
	want := "[profiles.\"my profile\"]\nmodel = \"o3\"\n\n" + start + "[profiles.\"my profile\".mcp_servers.\"x\"]\ncommand = \"x\"\n" + end
	if string(d.Bytes()) != want {
		t.Fatalf("got:\n%s", d.Bytes())
	}
	ms, found, err := d.Entries(path)
	if err != nil || !found || len(ms) != 1 || ms[0].Key != "x" || ms[0].Line != 5 {
		t.Fatalf("Entries = %+v, %v, %v", ms, found, err)
	}
	if _, err := d.set(nil, "x", []byte(`{}`)); err == nil {
		t.Fatal("empty table path accepted")
	}
}

func TestErrorTypes(t *testing.T) {
	_, err := Parse([]byte("a = 1\n" + start + "[mcp_servers.\"x\"]\ncommand = \"x\"\n" + end + "b = 2\n"))
	var le *LayoutError
	if !errors.As(err, &le) || le.Line != 6 {
		t.Fatalf("got %#v", err)
	}
	_, err = Parse([]byte("a = \n"))
	var se *SyntaxError
	if !errors.As(err, &se) {
		t.Fatalf("got %#v", err)
	}
}
