package jsonedit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"
)

// hostileKeys are keys with a meaning in gjson/sjson path syntax, or that
// need escaping in JSON, or that look like array indexes.
var hostileKeys = []string{
	"a.b", "a*b", "a?b", "#x", "#", "@pretty", "@", "!true", "!", "~t",
	`a\b`, `\`, `a"b`, `"`, ":x", "::", "x:y", "0", "42", "-1", "007",
	"ünï", "日本語", "a b", " ", "(p)", "[0]", "{a}", "a|b", "|", "a,b",
	"1.5", "-", "-2", "a/b", "..", "$", "<>&", "true", "null", "tab\there",
	"new\nline", "ctl\x01", "emoji😀", "amp.mcpServers", "..a..",
}

// setPath joins literal keys into an sjson (write) path.
func setPath(keys []string) string {
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = PathSegment(k)
	}
	return strings.Join(parts, ".")
}

func TestPathSegmentRules(t *testing.T) {
	for k, want := range map[string]string{
		"plain":  "plain",
		"a.b":    `a\.b`,
		":x":     `\:x`,
		"x:y":    `x:y`,
		"0":      ":0",
		"42":     ":42",
		"-1":     ":-1",
		"-2":     "-2",
		"@p":     `\@p`,
		"":       "",
		"ünï":    "ünï",
		`a"b\c`:  `a\"b\\c`,
		"!true":  `\!true`,
		"a*b?c#": `a\*b\?c\#`,
	} {
		if got := PathSegment(k); got != want {
			t.Errorf("PathSegment(%q) = %q, want %q", k, got, want)
		}
	}
}

// TestPathSegmentRoundTrip writes each hostile key with sjson through
// PathSegment, into a document where the parent exists and one where sjson
// must create it, and reads it back with gjson.
func TestPathSegmentRoundTrip(t *testing.T) {
	if len(hostileKeys) < 25 {
		t.Fatal("want at least 25 hostile keys")
	}
	for _, k := range hostileKeys {
		for _, doc := range []string{`{"mcpServers":{"z":1}}`, `{"other":true}`} {
			out, err := sjson.SetBytes([]byte(doc), setPath([]string{"mcpServers", k}), "v")
			if err != nil {
				t.Fatalf("%q: sjson: %v", k, err)
			}
			var got struct{ MCPServers map[string]any }
			if err := json.Unmarshal(out, &got); err != nil {
				t.Fatalf("%q: sjson wrote %s: %v", k, out, err)
			}
			if got.MCPServers[k] != "v" {
				t.Fatalf("%q: sjson wrote %s", k, out)
			}
			if n := len(got.MCPServers); n != 1+strings.Count(doc, `"z"`) {
				t.Fatalf("%q: sjson wrote %s", k, out)
			}
			if r := gjson.GetBytes(out, getPath([]string{"mcpServers", k})); r.Str != "v" {
				t.Fatalf("%q: gjson read %q from %s", k, r.Raw, out)
			}
			// For every key but the index-like ones, PathSegment's output is
			// itself a working gjson path.
			if !isIndexLike(k) {
				if r := gjson.GetBytes(out, "mcpServers."+PathSegment(k)); r.Str != "v" {
					t.Fatalf("%q: gjson read %q from %s", k, r.Raw, out)
				}
			}
		}
		// A top-level key.
		out, err := sjson.SetBytes([]byte(`{"z":1}`), PathSegment(k), "v")
		if err != nil {
			t.Fatalf("%q: sjson: %v", k, err)
		}
		if r := gjson.GetBytes(out, getPath([]string{k})); r.Str != "v" {
			t.Fatalf("%q: top-level round trip: %s", k, out)
		}
	}
}

// TestPathSegmentIndexKeysNeedColonForSjson documents why rule 3 exists and
// why gjson reads do not use it.
func TestPathSegmentIndexKeysNeedColonForSjson(t *testing.T) {
	out, _ := sjson.Set(`{}`, "x.0", 1)
	if out != `{"x":[1]}` {
		t.Fatalf("sjson without ':' = %s", out)
	}
	out, _ = sjson.Set(`{}`, "x."+PathSegment("0"), 1)
	if out != `{"x":{"0":1}}` {
		t.Fatalf("sjson with PathSegment = %s", out)
	}
	if gjson.Get(out, "x."+PathSegment("0")).Exists() {
		t.Fatal("gjson now understands ':0'; getPath could use PathSegment for every key")
	}
	if gjson.Get(out, getPath([]string{"x", "0"})).Int() != 1 {
		t.Fatal("gjson does not read an all-digit object key")
	}
	// The empty key: gjson reads it, sjson cannot create it under a
	// missing parent.
	if gjson.Get(`{"x":{"":1}}`, "x."+PathSegment("")).Int() != 1 {
		t.Fatal("gjson does not read the empty key")
	}
	if out, _ := sjson.Set(`{}`, "x."+PathSegment(""), 1); out != `{"x":[1]}` {
		t.Fatalf("sjson now creates the empty key (%s); update PathSegment's doc", out)
	}
}

// TestHostileKeysEdit sets, reads and deletes every hostile key as a member
// key and as a path segment.
func TestHostileKeysEdit(t *testing.T) {
	base := mustParse(t, mcpJSON, JSONC)
	for _, k := range append(hostileKeys, "") {
		t.Run(fmt.Sprintf("%q", k), func(t *testing.T) {
			value := []byte(`{"command":"x","args":["` + strings.ReplaceAll(k, `"`, `'`) + `"]}`)
			if !json.Valid(value) {
				value = []byte(`{"command":"x"}`)
			}
			for _, path := range [][]string{{"mcpServers"}, {k}, {"mcpServers", k}, {k, k, "mcpServers"}} {
				nd, err := base.set(path, k, value)
				if err != nil {
					t.Fatalf("Set(%q): %v", path, err)
				}
				checkSetProperties(t, base, nd, path, k, value)
				ms, found, err := nd.Object(path)
				if err != nil || !found {
					t.Fatalf("Object(%q): %v %v", path, found, err)
				}
				if ms[len(ms)-1].Key != k {
					t.Fatalf("last key = %q", ms[len(ms)-1].Key)
				}
				back, err := nd.Delete(path, k)
				if err != nil {
					t.Fatalf("Delete: %v", err)
				}
				if path[0] == "mcpServers" && len(path) == 1 && !bytes.Equal(back.Bytes(), base.Bytes()) {
					t.Fatalf("Delete did not restore:\n%s", diff(string(back.Bytes()), mcpJSON))
				}
				checkDeleteProperties(t, nd, back, path, k)
			}
		})
	}
}

func TestSetErrors(t *testing.T) {
	d := mustParse(t, mcpJSON, Strict)
	for _, v := range []string{``, `{`, `{"a":}`, `1 2`, `// c` + "\n1", `{"a":1,}`, `'x'`} {
		if _, err := d.set([]string{"mcpServers"}, "k", []byte(v)); err == nil {
			t.Errorf("Set value %q: no error", v)
		}
	}
	if _, err := d.set([]string{"mcpServers"}, "bad\xff", []byte(`1`)); err == nil {
		t.Error("invalid UTF-8 key: no error")
	}
	if _, err := d.set([]string{"bad\xff"}, "k", []byte(`1`)); err == nil {
		t.Error("invalid UTF-8 path: no error")
	}
}

func TestSetValueFormsAreKept(t *testing.T) {
	d := mustParse(t, "{}", Strict)
	v := `{"n":1.50,"e":1E+3,"neg":-0,"s":"\u00fc\n\/","z":{"b":1,"a":2},"arr":[[],{},[1,[2]]]}`
	nd, err := d.set(nil, "k", []byte(v))
	if err != nil {
		t.Fatal(err)
	}
	want := `{
  "k": {
    "n": 1.50,
    "e": 1E+3,
    "neg": -0,
    "s": "\u00fc\n\/",
    "z": {
      "b": 1,
      "a": 2
    },
    "arr": [
      [],
      {},
      [1, [2]]
    ]
  }
}`
	if got := string(nd.Bytes()); got != want {
		t.Fatal(diff(got, want))
	}
}

func TestDeleteMissing(t *testing.T) {
	d := mustParse(t, vscodeMCP, JSONC)
	for _, tc := range []struct {
		path []string
		key  string
	}{
		{[]string{"servers"}, "nope"},
		{[]string{"nope"}, "Perplexity"},
		{[]string{"servers", "Perplexity", "env", "deeper"}, "x"},
		{nil, "nope"},
	} {
		nd, err := d.Delete(tc.path, tc.key)
		if err != nil {
			t.Fatalf("Delete(%q, %q): %v", tc.path, tc.key, err)
		}
		if !bytes.Equal(nd.Bytes(), d.Bytes()) {
			t.Fatalf("Delete(%q, %q) changed the bytes", tc.path, tc.key)
		}
	}
}

func TestDeleteTopLevelMember(t *testing.T) {
	d := mustParse(t, "{\n  \"a\": 1\n}\n", Strict)
	nd, err := d.Delete(nil, "a")
	if err != nil {
		t.Fatal(err)
	}
	if got := string(nd.Bytes()); got != "{}\n" {
		t.Fatalf("got %q", got)
	}
}

func TestSetIsImmutable(t *testing.T) {
	d := mustParse(t, mcpJSON, Strict)
	nd, err := d.set([]string{"mcpServers"}, "b", []byte(`1`))
	if err != nil {
		t.Fatal(err)
	}
	if string(d.Bytes()) != mcpJSON {
		t.Fatal("Set changed the receiver")
	}
	if _, err := nd.Delete([]string{"mcpServers"}, "b"); err != nil {
		t.Fatal(err)
	}
	if memberValue(t, nd, []string{"mcpServers"}, "b") == nil {
		t.Fatal("Delete changed the receiver")
	}
}

// TestEditSequence builds a file from nothing through a series of edits, as
// the CLI would over several runs, and checks the exact result.
func TestEditSequence(t *testing.T) {
	d := New(JSONC)
	steps := []struct {
		del   bool
		path  []string
		key   string
		value string
	}{
		{false, []string{"mcpServers"}, "a", `{"command":"x","args":["y"]}`},
		{false, []string{"mcpServers"}, "b", `{"command":"z"}`},
		{false, []string{"mcpServers"}, "a", `{"command":"x2"}`},
		{false, nil, "theme", `"dark"`},
		{true, []string{"mcpServers"}, "b", ``},
		{false, []string{"projects", "/abs", "mcpServers"}, "c", `{"url":"https://x"}`},
		{true, []string{"mcpServers"}, "a", ``},
	}
	for _, s := range steps {
		var err error
		if s.del {
			d, err = d.Delete(s.path, s.key)
		} else {
			d, err = d.set(s.path, s.key, []byte(s.value))
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	want := `{
  "mcpServers": {},
  "theme": "dark",
  "projects": {
    "/abs": {
      "mcpServers": {
        "c": {
          "url": "https://x"
        }
      }
    }
  }
}
`
	if got := string(d.Bytes()); got != want {
		t.Fatal(diff(got, want))
	}
}

// bigClaudeJSON returns a ~n-byte ~/.claude.json-shaped document.
func bigClaudeJSON(n int) []byte {
	var b bytes.Buffer
	b.WriteString("{\n  \"numStartups\": 1,\n  \"projects\": {\n")
	for i := 0; b.Len() < n; i++ {
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, `    "/home/u/p%d": {
      "allowedTools": [],
      "history": [{"display": "fix the // bug /* here */ please", "pastedContents": {}}],
      "mcpServers": {
        "s": {"command": "npx", "args": ["-y", "x"]}
      }
    }`, i)
	}
	b.WriteString("\n  },\n  \"userID\": \"abc\"\n}\n")
	return b.Bytes()
}

// TestLargeDocument edits a 20 MB file (parsed in two halves, see
// validateHalves) and deletes the edit again, byte for byte. Its speed is
// BenchmarkSetLarge's business.
func TestLargeDocument(t *testing.T) {
	if testing.Short() {
		t.Skip("large document")
	}
	data := bigClaudeJSON(20 << 20)
	d, err := Parse(data, Strict)
	if err != nil {
		t.Fatal(err)
	}
	nd, err := d.set([]string{"projects", "/home/u/p7", "mcpServers"}, "repo", []byte(`{"command":"repo"}`))
	if err != nil {
		t.Fatal(err)
	}
	back, err := nd.Delete([]string{"projects", "/home/u/p7", "mcpServers"}, "repo")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(back.Bytes(), data) {
		t.Fatal("round trip changed the file")
	}
	checkDerived(t, nd)
	checkDerived(t, back)
}

func BenchmarkSetLarge(b *testing.B) {
	data := bigClaudeJSON(10 << 20)
	d, err := Parse(data, Strict)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for b.Loop() {
		if _, err := d.set([]string{"projects", "/home/u/p7", "mcpServers"}, "repo", []byte(`{"command":"repo"}`)); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParseLarge(b *testing.B) {
	data := bigClaudeJSON(10 << 20)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := Parse(data, JSONC); err != nil {
			b.Fatal(err)
		}
	}
}

// TestNewThenSet is the example from the package's specification.
func TestNewThenSet(t *testing.T) {
	d, err := New(Strict).set([]string{"mcpServers"}, "a", []byte(`{"command":"x","args":["y"]}`))
	if err != nil {
		t.Fatal(err)
	}
	want := `{
  "mcpServers": {
    "a": {
      "command": "x",
      "args": ["y"]
    }
  }
}
`
	if got := string(d.Bytes()); got != want {
		t.Fatal(diff(got, want))
	}
}

// TestCommentLikeStrings checks that // and /* inside strings, in the file
// and in the value, are left alone.
func TestCommentLikeStrings(t *testing.T) {
	in := "{\n  \"url\": \"https://x/*y*/\", // real comment\n  \"s\": {\n    \"p\": \"C:\\\\\"\n  }\n}\n"
	d := mustParse(t, in, JSONC)
	nd, err := d.set([]string{"s"}, "q", []byte(`{"u":"http://a//b/*c"}`))
	if err != nil {
		t.Fatal(err)
	}
	want := "{\n  \"url\": \"https://x/*y*/\", // real comment\n  \"s\": {\n    \"p\": \"C:\\\\\",\n    \"q\": {\n      \"u\": \"http://a//b/*c\"\n    }\n  }\n}\n"
	if got := string(nd.Bytes()); got != want {
		t.Fatal(diff(got, want))
	}
	checkSetProperties(t, d, nd, []string{"s"}, "q", []byte(`{"u":"http://a//b/*c"}`))
}

// TestTrailingCommentLinesAndTrailingComma: the new member goes after the
// comment lines at the end of the object and keeps the trailing comma.
func TestTrailingCommentLinesAndTrailingComma(t *testing.T) {
	in := "{\n  \"servers\": {\n    \"a\": 1,\n    // \"b\": 2,\n  },\n}\n"
	d := mustParse(t, in, JSONC)
	nd, err := d.set([]string{"servers"}, "c", []byte(`3`))
	if err != nil {
		t.Fatal(err)
	}
	want := "{\n  \"servers\": {\n    \"a\": 1,\n    // \"b\": 2,\n    \"c\": 3,\n  },\n}\n"
	if got := string(nd.Bytes()); got != want {
		t.Fatal(diff(got, want))
	}
	back, err := nd.Delete([]string{"servers"}, "c")
	if err != nil {
		t.Fatal(err)
	}
	if string(back.Bytes()) != in {
		t.Fatal(diff(string(back.Bytes()), in))
	}
}

// TestMixedLineEndings: the line break opened for a new member copies the
// one it is inserted before, so Delete restores a mixed file exactly.
func TestMixedLineEndings(t *testing.T) {
	in := "{\r\n  \"s\": {\r\n    \"a\": 1\n  }\r\n}\r\n"
	d := mustParse(t, in, Strict)
	nd, err := d.set([]string{"s"}, "b", []byte(`{"x":1}`))
	if err != nil {
		t.Fatal(err)
	}
	want := "{\r\n  \"s\": {\r\n    \"a\": 1,\n    \"b\": {\r\n      \"x\": 1\r\n    }\n  }\r\n}\r\n"
	if got := string(nd.Bytes()); got != want {
		t.Fatalf("got %q\nwant %q", got, want)
	}
	back, err := nd.Delete([]string{"s"}, "b")
	if err != nil {
		t.Fatal(err)
	}
	if string(back.Bytes()) != in {
		t.Fatalf("got %q", back.Bytes())
	}
}

// TestIndentUnitDetection covers the unit used inside empty objects.
func TestIndentUnitDetection(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"from sibling depth", "{\n   \"a\": {}\n}", "{\n   \"a\": {\n      \"k\": 1\n   }\n}"},
		{"comment lines ignored", "/*\n        text\n*/\n{\n\t\"a\": {}\n}", "/*\n        text\n*/\n{\n\t\"a\": {\n\t\t\"k\": 1\n\t}\n}"},
		{"deeper object decides", "{\n  \"x\": {\n      \"y\": 1\n  },\n  \"a\": {}\n}", "{\n  \"x\": {\n      \"y\": 1\n  },\n  \"a\": {\n    \"k\": 1\n  }\n}"},
		{"file default", "{\"a\": {}\n}", "{\"a\": {\n  \"k\": 1\n}\n}"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := mustParse(t, tc.in, JSONC)
			nd, err := d.set([]string{"a"}, "k", []byte(`1`))
			if err != nil {
				t.Fatal(err)
			}
			if got := string(nd.Bytes()); got != tc.want {
				t.Fatalf("got %q\nwant %q", got, tc.want)
			}
		})
	}
}
