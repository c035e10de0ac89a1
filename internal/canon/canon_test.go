package canon

import (
	"bytes"
	"encoding/json"
	"regexp"
	"testing"
	"unicode/utf8"

	"github.com/tidwall/gjson"

	"github.com/repo-manager/repo/internal/ordered"
)

var seeds = []string{
	`{"type":"stdio","command":"/ws/.venv/bin/python","args":["-m","srv"],"env":{"B":"2","A":"${A}"}}`,
	"{\n  \"env\": {\"A\": \"${A}\", \"B\": \"2\"},\n  \"args\": [\"-m\", \"srv\"]\n}",
	`{"k\u00e9y":"caf\u00e9 \"q\" \\ \t \u2028 \u001f \/","args":["a\nb","\ud83d\ude00"],"nested":{"z":[1,{"b":null,"a":false}],"a":[]}}`,
	`{"url":"https://x.example/mcp?a=1&b=<2>","timeout":300,"ratio":1.50,"big":1e400}`,
	`{"a":1,"a":2}`, `"plain"`, `{"a":`, `[]`, `{}`, `null`, "bad \xff",
}

// FuzzCanonical: the canonical form is a fixed point, and two texts of one
// value (reordered, reindented, escaped differently) give the same bytes.
func FuzzCanonical(f *testing.F) {
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, x []byte) {
		if !utf8.Valid(x) || !json.Valid(x) {
			// Entries come from files their editor parsed. A text that is
			// not JSON is walked leniently, and JSON text is UTF-8: a bad
			// byte in a string is spelled \ufffd, which reads back as
			// U+FFFD, spelled as itself, so a second pass differs from the
			// first (digests have always been taken after one pass).
			return
		}
		c := JSON(x)
		if again := JSON(c); !bytes.Equal(again, c) {
			t.Fatalf("JSON(JSON(%q)) = %q, want %q", x, again, c)
		}
		if w := Without(x, []string{"a"}); !bytes.Equal(JSON(w), w) {
			t.Fatalf("Without(%q) = %q is not canonical", x, w)
		}
		if hasDuplicateKeys(gjson.ParseBytes(x)) || surrogateEscape.Match(x) {
			// gjson reads a lone surrogate escape and the escape after it
			// as one U+FFFD, encoding/json as two characters.
			return
		}
		// The same value as encoding/json writes it: keys sorted, HTML
		// characters escaped, no whitespace; then indented.
		dec := json.NewDecoder(bytes.NewReader(x))
		dec.UseNumber()
		var v any
		if dec.Decode(&v) != nil {
			return
		}
		other, err := json.Marshal(v)
		if err != nil {
			return
		}
		var indented bytes.Buffer
		if json.Indent(&indented, other, "", "\t") != nil {
			t.Fatal(err)
		}
		if got := JSON(indented.Bytes()); !bytes.Equal(got, c) {
			t.Fatalf("one value, two forms:\n%q gives %q\n%q gives %q", x, c, indented.Bytes(), got)
		}
	})
}

var surrogateEscape = regexp.MustCompile(`\\[uU][dD][89abcdefABCDEF]`)

func hasDuplicateKeys(r gjson.Result) bool {
	if !r.IsObject() && !r.IsArray() {
		return false
	}
	dup := false
	seen := map[string]bool{}
	r.ForEach(func(k, v gjson.Result) bool {
		if r.IsObject() {
			if seen[k.String()] {
				dup = true
			}
			seen[k.String()] = true
		}
		if hasDuplicateKeys(v) {
			dup = true
		}
		return !dup
	})
	return dup
}

func TestWithoutKeepsLastOfEach(t *testing.T) {
	got := string(Without([]byte(`{"b":1,"a":2,"b":3,"c":{"y":1,"x":2}}`), []string{"a"}))
	if want := `{"b":3,"c":{"x":2,"y":1}}`; got != want {
		t.Errorf("Without = %s, want %s", got, want)
	}
}

func TestTextAsMarshal(t *testing.T) {
	for _, s := range []string{"", "/home/me/ws", `C:\Users\me`, `q"uote`, "a&b<c>", "ünï", "\u2028", "tab\t", "\x7f", "bad \xff"} {
		b, _ := json.Marshal(s)
		if got, want := Text(s), string(b[1:len(b)-1]); got != want {
			t.Errorf("Text(%q) = %q, json.Marshal gives %q", s, got, want)
		}
	}
}

// FuzzValue: the canonical form of a value of the ordered model is that
// of its rendered text.
func FuzzValue(f *testing.F) {
	f.Add("a", "b")
	f.Add("\xff", "\u2028")
	f.Add(`C:\x`, "\x00\"")
	f.Fuzz(func(t *testing.T, a, b string) {
		v := ordered.Object{{Key: a, Value: b}, {Key: "args", Value: []string{a, b}},
			{Key: "m", Value: map[string]any{a: b, b: []any{a, int64(len(b)), 1.5, nil, true}}}, {Key: b, Value: ordered.Object{}}}
		got, ok := Value(v)
		if want := JSON(ordered.JSON(v)); !ok || !bytes.Equal(got, want) {
			t.Fatalf("Value(%s) = %q (ok %v), want %q", ordered.JSON(v), got, ok, want)
		}
	})
}

func TestValueLeavesRawText(t *testing.T) {
	if _, ok := Value(ordered.Object{{Key: "a", Value: json.RawMessage(`[ "b" ]`)}}); ok {
		t.Error("Value took a json.RawMessage apart")
	}
}
