package jsonedit

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

func TestParseAccepts(t *testing.T) {
	cases := []struct {
		name    string
		dialect Dialect
		in      string
	}{
		{"strict", Strict, claudeJSON},
		{"strict minified", Strict, `{"a":[1,2,{"b":null}]}`},
		{"strict no final newline", Strict, `{}`},
		{"strict BOM", Strict, bomStr + "{}\n"},
		{"strict CRLF", Strict, crlf(mcpJSON)},
		{"strict slashes in strings", Strict, `{"url": "https://x/*y*/", "p": "C:\\", "q": "a\"//b"}`},
		{"comments", Comments, geminiSettings},
		{"comments block", Comments, "/* a */{/* b */\"a\"/* c */:/* d */1/* e */}/* f */"},
		{"comments line at EOF", Comments, "{}\n// end"},
		{"jsonc", JSONC, vscodeMCP},
		{"jsonc zed", JSONC, zedSettings},
		{"jsonc array trailing comma", JSONC, `{"a": [1, 2,],}`},
		{"jsonc comment before trailing comma", JSONC, "{\"a\": 1 /* x */, // y\n}"},
		{"jsonc comments in strict-valid doc", JSONC, mcpJSON},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d, err := Parse([]byte(tc.in), tc.dialect)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if string(d.Bytes()) != tc.in {
				t.Fatal("Bytes() differs from the input")
			}
			if d.dialect != tc.dialect {
				t.Fatal("wrong dialect")
			}
		})
	}
}

func TestParseSyntaxErrors(t *testing.T) {
	cases := []struct {
		name      string
		dialect   Dialect
		in        string
		line, col int
		msg       string // substring
	}{
		{"empty", Strict, "", 1, 1, "empty document"},
		{"whitespace", JSONC, " \n\t\r\n", 1, 1, "empty document"},
		{"BOM only", Strict, bomStr + "\n", 1, 1, "empty document"},
		{"comments only jsonc", JSONC, "// nothing here\n", 1, 1, "empty document"},
		{"comments only strict", Strict, "// nothing here\n", 1, 1, "comments are not allowed in strict JSON"},
		{"strict line comment", Strict, "{\n  // hi\n  \"a\": 1\n}", 2, 3, "comments are not allowed in strict JSON"},
		{"strict block comment", Strict, "{\"a\": /* x */ 1}", 1, 7, "comments are not allowed in strict JSON"},
		{"strict trailing comma", Strict, "{\n  \"a\": 1,\n}", 2, 9, "trailing commas are not allowed in strict JSON"},
		{"strict trailing comma in array", Strict, "{\"a\": [1,]}", 1, 9, "trailing commas are not allowed"},
		{"comments trailing comma", Comments, "{\n  // ok\n  \"a\": 1,\n}", 3, 9, "trailing commas are not allowed"},
		{"jsonc lone comma in object", JSONC, "{,}", 1, 2, "unexpected comma"},
		{"jsonc lone comma in array", JSONC, `{"a": [,]}`, 1, 8, "unexpected comma"},
		{"jsonc double comma", JSONC, `{"a": 1,,}`, 1, 9, ""},
		{"missing colon", JSONC, "{\n  \"a\" 1\n}", 2, 7, "invalid character '1' after object key"},
		{"unterminated object", Strict, "{\"a\": 1", 1, 8, "unexpected end"},
		{"unterminated string", Strict, "{\"a\": \"x}", 1, 10, "unexpected end"},
		{"unterminated comment", JSONC, "{} /* x", 1, 4, "unterminated /* comment"},
		{"unterminated comment strict", Strict, "{} /* x", 1, 4, "comments are not allowed"},
		{"garbage after", Strict, "{}\n}", 2, 1, "after top-level value"},
		{"single quotes", JSONC, "{'a': 1}", 1, 2, "invalid character"},
		{"column counts runes", Strict, "{\"ü😀\": x}", 1, 8, "invalid character 'x'"},
		{"column after BOM", Strict, bomStr + "{x}", 1, 2, "invalid character 'x'"},
		{"control character in string", Strict, "{\"a\": \"\x01\"}", 1, 8, "invalid character"},
		{"invalid UTF-8", JSONC, "{\n \"a\": \"\xff\"}", 2, 8, "invalid UTF-8"},
		{"hash comment", JSONC, "# x\n{}", 1, 1, "invalid character '#'"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse([]byte(tc.in), tc.dialect)
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("got %T %v, want *SyntaxError", err, err)
			}
			if se.Line != tc.line || se.Col != tc.col || !strings.Contains(se.Msg, tc.msg) {
				t.Fatalf("got %d:%d %q, want %d:%d containing %q", se.Line, se.Col, se.Msg, tc.line, tc.col, tc.msg)
			}
			if want := "line "; !strings.HasPrefix(se.Error(), want) {
				t.Fatalf("Error() = %q", se.Error())
			}
		})
	}
}

func TestSyntaxErrorString(t *testing.T) {
	e := &SyntaxError{Line: 3, Col: 7, Msg: "comments are not allowed in strict JSON"}
	if got, want := e.Error(), "line 3, column 7: comments are not allowed in strict JSON"; got != want {
		t.Fatalf("got %q want %q", got, want)
	}
}

func TestParseTopLevelNotObject(t *testing.T) {
	for in, got := range map[string]string{
		"[1]":        "array",
		"\n  \"x\"":  "string",
		"1":          "number",
		"true":       "boolean",
		"null":       "null",
		"// c\nnull": "null",
	} {
		_, err := Parse([]byte(in), JSONC)
		var te *TypeError
		if !errors.As(err, &te) {
			t.Fatalf("%q: got %v, want *TypeError", in, err)
		}
		if len(te.Path) != 0 || te.Got != got || te.Line < 1 || te.Col < 1 {
			t.Fatalf("%q: got %+v", in, te)
		}
		if !strings.Contains(te.Error(), "top-level value is") {
			t.Fatalf("%q: Error() = %q", in, te.Error())
		}
	}
}

func TestNew(t *testing.T) {
	for _, d := range []Dialect{Strict, Comments, JSONC} {
		doc := New(d)
		if string(doc.Bytes()) != "{}\n" {
			t.Fatalf("New(%v) = %q", d, doc.Bytes())
		}
		ms, found, err := doc.Object(nil)
		if err != nil || !found || len(ms) != 0 {
			t.Fatalf("Object(nil) = %v %v %v", ms, found, err)
		}
	}
}

func TestParseCopiesInput(t *testing.T) {
	in := []byte(`{"a": 1}`)
	d, err := Parse(in, Strict)
	if err != nil {
		t.Fatal(err)
	}
	in[6] = '2'
	if string(d.Bytes()) != `{"a": 1}` {
		t.Fatal("Doc shares the caller's buffer")
	}
	b := d.Bytes()
	b[6] = '3'
	if string(d.Bytes()) != `{"a": 1}` {
		t.Fatal("Bytes() shares the Doc's buffer")
	}
}

func TestObject(t *testing.T) {
	d := mustParse(t, vscodeMCP, JSONC)
	ms, found, err := d.Object([]string{"servers", "Perplexity"})
	if err != nil || !found {
		t.Fatalf("Object: %v %v", found, err)
	}
	var keys []string
	for _, m := range ms {
		keys = append(keys, m.Key)
	}
	if got := strings.Join(keys, ","); got != "type,command,args,env" {
		t.Fatalf("keys = %s", got)
	}
	// Values are compact strict JSON: the trailing comma inside env is gone.
	if got := string(ms[3].Value); got != `{"PERPLEXITY_API_KEY":"${input:perplexity-key}"}` {
		t.Fatalf("env = %s", got)
	}
	if ms[0].Line != 14 || ms[3].Line != 17 {
		t.Fatalf("lines = %d, %d", ms[0].Line, ms[3].Line)
	}

	top, found, err := d.Object(nil)
	if err != nil || !found || len(top) != 2 || top[0].Key != "inputs" || top[0].Line != 3 {
		t.Fatalf("Object(nil) = %+v %v %v", top, found, err)
	}
	if !bytes.HasPrefix(top[0].Value, []byte(`[{"type":"promptString",`)) || !bytes.HasSuffix(top[0].Value, []byte(`"password":true}]`)) {
		t.Fatalf("inputs = %s", top[0].Value)
	}

	for _, missing := range [][]string{{"nope"}, {"servers", "nope"}, {"servers", "Perplexity", "env", "nope"}} {
		ms, found, err := d.Object(missing)
		if err != nil || found || ms != nil {
			t.Fatalf("Object(%q) = %v %v %v, want not found", missing, ms, found, err)
		}
	}
}

func TestObjectCommentedOutKeyIsNotReal(t *testing.T) {
	d := mustParse(t, "{\n  // \"mcpServers\": {\"fake\": {}},\n  /* \"mcpServers\": {} */\n  \"x\": 1\n}\n", JSONC)
	if _, found, err := d.Object([]string{"mcpServers"}); found || err != nil {
		t.Fatalf("found a commented-out key: %v %v", found, err)
	}
}

func TestObjectLiteralKeys(t *testing.T) {
	d := mustParse(t, `{"a.b": {"c": 1}, "a": {"b": {"c": 2}}, "*": {"x": 3}, "0": {"y": 4}, "": {"z": 5}, "\u00fc": {"u": 6}}`, Strict)
	for _, tc := range []struct {
		path []string
		want string
	}{
		{[]string{"a.b"}, `c=1`},
		{[]string{"a", "b"}, `c=2`},
		{[]string{"*"}, `x=3`},
		{[]string{"0"}, `y=4`},
		{[]string{""}, `z=5`},
		{[]string{"ü"}, `u=6`},
	} {
		ms, found, err := d.Object(tc.path)
		if err != nil || !found || len(ms) != 1 || ms[0].Key+"="+string(ms[0].Value) != tc.want {
			t.Fatalf("Object(%q) = %+v %v %v", tc.path, ms, found, err)
		}
	}
}

func TestTypeErrors(t *testing.T) {
	for _, tc := range []struct {
		in   string
		path []string
		got  string
		bad  []string
		line int
		col  int
	}{
		{`{"mcpServers": []}`, []string{"mcpServers"}, "array", []string{"mcpServers"}, 1, 16},
		{"{\n  \"mcpServers\": \"x\"\n}", []string{"mcpServers"}, "string", []string{"mcpServers"}, 2, 17},
		{`{"p": {"/x": 3}}`, []string{"p", "/x", "mcpServers"}, "number", []string{"p", "/x"}, 1, 14},
		{`{"p": {"/x": false}}`, []string{"p", "/x"}, "boolean", []string{"p", "/x"}, 1, 14},
	} {
		d := mustParse(t, tc.in, Strict)
		_, _, err1 := d.Object(tc.path)
		_, err2 := d.set(tc.path, "k", []byte(`{}`))
		_, err3 := d.Delete(tc.path, "k")
		for _, err := range []error{err1, err2, err3} {
			var te *TypeError
			if !errors.As(err, &te) {
				t.Fatalf("%s %q: got %v, want *TypeError", tc.in, tc.path, err)
			}
			if te.Got != tc.got || strings.Join(te.Path, "/") != strings.Join(tc.bad, "/") || te.Line != tc.line || te.Col != tc.col {
				t.Fatalf("%s %q: got %+v", tc.in, tc.path, te)
			}
		}
	}
	e := &TypeError{Path: []string{"projects", "/a"}, Got: "array", Line: 2, Col: 3}
	if got, want := e.Error(), `line 2, column 3: the value of "projects" > "/a" is an array, want an object`; got != want {
		t.Fatalf("Error() = %q, want %q", got, want)
	}
}

// A null where an object belongs is an empty object that is not there
// yet (Zed's "context_servers": null): nothing to read, nothing to
// delete, and an insert writes the object in the null's place, at any
// depth, leaving every other byte alone.
func TestNullContainer(t *testing.T) {
	for _, tc := range []struct {
		in    string
		path  []string
		depth int
		want  string
	}{
		{`{"mcpServers": null}`, []string{"mcpServers"}, 1, `{"mcpServers": {"k":{}}}`},
		{"{\n  \"theme\": 1,\n  \"context_servers\": null\n}\n", []string{"context_servers"}, 1,
			"{\n  \"theme\": 1,\n  \"context_servers\": {\n    \"k\": {}\n  }\n}\n"},
		{`{"p": {"/x": null}}`, []string{"p", "/x", "mcpServers"}, 2, `{"p": {"/x": {"mcpServers":{"k":{}}}}}`},
	} {
		d := mustParse(t, tc.in, Strict)
		if ms, found, err := d.Object(tc.path); err != nil || found || len(ms) != 0 {
			t.Fatalf("%s: Object = %v %v %v, want not found", tc.in, ms, found, err)
		}
		if depth, err := d.Depth(tc.path); err != nil || depth != tc.depth {
			t.Fatalf("%s: Depth = %d %v, want %d (the null counts)", tc.in, depth, err, tc.depth)
		}
		if nd, err := d.Delete(tc.path, "k"); err != nil || string(nd.Bytes()) != tc.in {
			t.Fatalf("%s: Delete = %v, changed the bytes", tc.in, err)
		}
		nd, err := d.Insert(tc.path, []KeyValue{{"k", []byte(`{}`)}})
		if err != nil {
			t.Fatalf("%s: Insert: %v", tc.in, err)
		}
		if got := string(nd.Bytes()); got != tc.want {
			t.Fatalf("%s: Insert gave\n%s\nwant\n%s", tc.in, got, tc.want)
		}
	}
}

func TestDuplicateKeys(t *testing.T) {
	in := "{\n  \"mcpServers\": {\"a\": 1, \"b\": 2, \"a\": 3},\n  \"x\": {\"y\": {}, \"y\": {}},\n  \"\\u0070\": 1,\n  \"p\": 2\n}"
	d := mustParse(t, in, Strict)
	check := func(err error, path []string, key string, line, col int) {
		t.Helper()
		var de *DuplicateKeyError
		if !errors.As(err, &de) {
			t.Fatalf("got %v, want *DuplicateKeyError", err)
		}
		if strings.Join(de.Path, "/") != strings.Join(path, "/") || de.Key != key || de.Line != line || de.Col != col {
			t.Fatalf("got %+v", de)
		}
	}
	// The top-level object has "p" twice ("\u0070" decodes to "p").
	_, _, err := d.Object(nil)
	check(err, nil, "p", 5, 3)
	_, err = d.set([]string{"mcpServers"}, "c", []byte(`1`))
	check(err, nil, "p", 5, 3)

	d = mustParse(t, "{\n  \"mcpServers\": {\"a\": 1, \"b\": 2, \"a\": 3},\n  \"x\": {\"y\": {}, \"y\": {}}\n}", Strict)
	_, _, err = d.Object([]string{"mcpServers"})
	check(err, []string{"mcpServers"}, "a", 2, 34)
	_, err = d.set([]string{"mcpServers"}, "c", []byte(`1`))
	check(err, []string{"mcpServers"}, "a", 2, 34)
	_, err = d.Delete([]string{"mcpServers"}, "a")
	check(err, []string{"mcpServers"}, "a", 2, 34)
	_, _, err = d.Object([]string{"x", "y"})
	check(err, []string{"x"}, "y", 3, 18)
	if got := err.Error(); got != `line 3, column 18: duplicate key "y" in the object at "x"` {
		t.Fatalf("Error() = %q", got)
	}
	// Objects off the path are not checked.
	if _, err := d.set([]string{"z"}, "k", []byte(`1`)); err != nil {
		t.Fatalf("Set elsewhere: %v", err)
	}
}
