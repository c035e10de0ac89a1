package ordered

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"
)

func TestJSONKeepsOrderAndDoesNotEscapeHTML(t *testing.T) {
	o := Object{{"z", "a&b<c>"}, {"a", []string{"x", "ü"}}, {"m", Object{{"k", true}, {"n", int64(3)}}}, {"raw", json.RawMessage(`{"q":1}`)}}
	got := string(JSON(o))
	want := `{"z":"a&b<c>","a":["x","ü"],"m":{"k":true,"n":3},"raw":{"q":1}}`
	if got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
	if !json.Valid([]byte(got)) {
		t.Fatal("invalid JSON")
	}
}

func TestSetWithoutGet(t *testing.T) {
	var o Object
	o = o.Set("a", "1").Set("b", "2").Set("a", "3")
	if v, _ := o.Get("a"); v != "3" || len(o) != 2 || o.Keys()[0] != "a" {
		t.Fatalf("%v", o)
	}
	if w := o.Without("a"); len(w) != 1 || w[0].Key != "b" || len(o) != 2 {
		t.Fatalf("Without changed the original or kept the key: %v %v", o, w)
	}
}

func TestMapValuesAreSorted(t *testing.T) {
	got := string(JSON(Object{{"set", map[string]any{"b": 1, "a": true}}}))
	if got != `{"set":{"a":true,"b":1}}` {
		t.Fatal(got)
	}
}

func TestStringsEncodeLikeEncodingJSON(t *testing.T) {
	for _, s := range []string{"", "plain /path/x-1", "q\"uote", `back\slash`, "tab\t", "ünï", "a&b<c>", "\x7f", "\u2028"} {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		enc.Encode(s)
		want := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
		got := JSON(s)
		if app := AppendString([]byte("x"), s); string(app) != "x"+string(got) {
			t.Errorf("%q: AppendString gives %s, JSON %s", s, app[1:], got)
		}
		var back string
		if err := json.Unmarshal(got, &back); err != nil || back != s {
			t.Errorf("%q: %s does not decode back (%v)", s, got, err)
		}
		if plain(s) && string(got) != string(want) {
			t.Errorf("%q: %s, encoding/json gives %s", s, got, want)
		}
		if string(got) != string(want) {
			t.Errorf("%q: %s, encoding/json (SetEscapeHTML(false)) gives %s", s, got, want)
		}
	}
}

// plain reports a string that JSON writes as is: printable ASCII without
// quote or backslash.
func plain(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}

// TestScalarsEncodeLikeEncodingJSON holds the hand-written booleans and
// integers to encoding/json's text.
func TestScalarsEncodeLikeEncodingJSON(t *testing.T) {
	for _, v := range []any{true, false, 0, 1, -1, 42, math.MaxInt, math.MinInt, int64(0), int64(-7),
		int64(math.MaxInt64), int64(math.MinInt64), 0.5, 1e21, -1e-7, float64(3)} {
		want, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if got := JSON(v); string(got) != string(want) {
			t.Errorf("JSON(%#v) = %s, encoding/json gives %s", v, got, want)
		}
	}
}

// TestJSONSizesItsBufferOnce fails when size falls short of the text of a
// value without escapes, and the buffer grows again.
func TestJSONSizesItsBufferOnce(t *testing.T) {
	v := Object{
		{Key: "type", Value: "stdio"},
		{Key: "command", Value: "/home/user/src/project/.repository/extensions/x/.venv/bin/python"},
		{Key: "args", Value: []string{"-m", "x_mcp", "--root", "/home/user/src/project"}},
		{Key: "env", Value: Object{{Key: "X_HOME", Value: "/home/user"}, {Key: "N", Value: int64(3)}}},
		{Key: "on", Value: true},
		{Key: "more", Value: []any{"a", Object{{Key: "b", Value: nil}}, json.RawMessage(`{"c":1}`)}},
	}
	if got, want := len(JSON(v)), size(v); got > want {
		t.Errorf("size = %d, the text is %d bytes", want, got)
	}
	// Two: the buffer, which escapes into encode, and its bytes.
	if n := testing.AllocsPerRun(20, func() { JSON(v) }); n != 2 && !raceEnabled {
		t.Errorf("JSON allocates %v times, want 2", n)
	}
}
