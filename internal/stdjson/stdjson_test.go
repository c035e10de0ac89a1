package stdjson

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
)

// strs take every path of encoding/json's string encoder.
var strs = []string{
	"", "plain", `{"command":"node","args":["<<root>>/x.js"]}`, "a<b>c&d", "\b\f\n\r\t", "\x00\x01\x1f\x7f",
	"quote\" back\\slash /", "line\u2028para\u2029", "\ufffd", "caf\u00e9 \U0001F600", "bad\xffutf8\xc3", "\xe2\x80",
}

func marshal(t testing.TB, v any) string {
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func TestAppendStringIsMarshal(t *testing.T) {
	for _, s := range strs {
		if got, want := string(AppendString(nil, s)), marshal(t, s); got != want {
			t.Errorf("AppendString(%q) = %s, encoding/json: %s", s, got, want)
		}
	}
}

// encodeNoHTML is s as an encoding/json Encoder with SetEscapeHTML(false)
// writes it.
func encodeNoHTML(t testing.TB, s string) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		t.Fatal(err)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func TestAppendStringNoHTMLIsEncoder(t *testing.T) {
	for _, s := range strs {
		if got, want := string(AppendStringNoHTML(nil, s)), encodeNoHTML(t, s); got != want {
			t.Errorf("AppendStringNoHTML(%q) = %s, encoding/json without HTML escaping: %s", s, got, want)
		}
	}
}

// TestAppendStringEveryPlace puts each kind of byte that needs a look at
// every place in runs of plain text, so that a scan that takes several
// bytes at a time meets it at every offset within its group and in the
// tail after the last whole group.
func TestAppendStringEveryPlace(t *testing.T) {
	specials := []string{"\x00", "\x1f", "\n", "\"", "\\", "<", ">", "&", "\x7f", "\u00e9", "\u2028", "\xff", "\xe2\x80"}
	for n := 0; n <= 40; n++ {
		for at := 0; at <= 20 && at <= n; at++ {
			for _, sp := range specials {
				s := strings.Repeat("a/b-", n)[:at] + sp + strings.Repeat("c.d_", n)[:n-at]
				if got, want := string(AppendString(nil, s)), marshal(t, s); got != want {
					t.Fatalf("AppendString(%q) = %s, encoding/json: %s", s, got, want)
				}
				if got, want := string(AppendStringNoHTML(nil, s)), encodeNoHTML(t, s); got != want {
					t.Fatalf("AppendStringNoHTML(%q) = %s, encoding/json without HTML escaping: %s", s, got, want)
				}
			}
		}
	}
}

func TestAppendIntIsMarshal(t *testing.T) {
	for _, n := range []int{0, 1, 9, 10, 65535, -1, -40, 1 << 40} {
		if got, want := string(AppendInt(nil, n)), marshal(t, n); got != want {
			t.Errorf("AppendInt(%d) = %s, encoding/json: %s", n, got, want)
		}
	}
}

// checkStr: a string Str takes is the one encoding/json reads, and
// AppendString writes the same bytes back; so for a NoHTML reader and
// AppendStringNoHTML.
func checkStr(t testing.TB, text string) (string, bool) {
	t.Helper()
	got, ok := checkStrMode(t, text, false)
	checkStrMode(t, text, true)
	return got, ok
}

func checkStrMode(t testing.TB, text string, noHTML bool) (string, bool) {
	t.Helper()
	r, write := NewReader([]byte(text)), AppendString
	if noHTML {
		r, write = NewReaderNoHTML([]byte(text)), AppendStringNoHTML
	}
	got, ok := r.Str()
	if !ok || !r.Done() {
		return "", false
	}
	var want string
	if err := json.Unmarshal([]byte(text), &want); err != nil {
		t.Fatalf("Str takes %q, encoding/json refuses it: %v", text, err)
	}
	if got != want {
		t.Fatalf("Str reads %q as %q, encoding/json as %q", text, got, want)
	}
	if back := string(write(nil, got)); back != text {
		t.Fatalf("Str (noHTML %v) takes %q, the writer writes %q", noHTML, text, back)
	}
	return got, true
}

func TestStrReadsWhatIsWritten(t *testing.T) {
	for _, s := range strs {
		text := marshal(t, s)
		_, ok := checkStr(t, text)
		if want := !strings.Contains(text, `\ufffd`); ok != want {
			t.Errorf("Str(%s) ok = %v, want %v", text, ok, want)
		}
	}
}

// TestStrNoHTML: a NoHTML reader reads what AppendStringNoHTML writes,
// < > & as they are, and refuses their escapes, which that writer never
// writes.
func TestStrNoHTML(t *testing.T) {
	for _, s := range strs {
		text := string(AppendStringNoHTML(nil, s))
		_, ok := checkStrMode(t, text, true)
		if want := !strings.Contains(text, `\ufffd`); ok != want {
			t.Errorf("NoHTML Str(%s) ok = %v, want %v", text, ok, want)
		}
	}
	for _, text := range []string{`"\u003c"`, `"\u003e"`, `"\u0026"`, `"a\u0026b"`} {
		if r := NewReaderNoHTML([]byte(text)); func() bool { _, ok := r.Str(); return ok }() {
			t.Errorf("NoHTML Str takes %q", text)
		}
	}
	if got, ok := NewReaderNoHTML([]byte(`"R&D <x>"`)).Str(); !ok || got != "R&D <x>" {
		t.Errorf(`NoHTML Str("R&D <x>") = %q, %v`, got, ok)
	}
}

func TestStrRefusesOtherText(t *testing.T) {
	for _, text := range []string{
		`"\/"`, `"\u0041"`, `"\u003C"`, `"\uD83D\uDE00"`, `"\ufffd"`, `"<"`, `"&"`, "\"\t\"", "\"\u2028\"", "\"\xff\"",
		`"\x"`, `"\u00"`, `"abc`, `abc"`, `'a'`, `"\u000a"`, `"\u0008"`,
	} {
		if r := NewReader([]byte(text)); func() bool { _, ok := r.Str(); return ok }() {
			t.Errorf("Str takes %q", text)
		}
	}
}

func TestInt(t *testing.T) {
	for text, want := range map[string]bool{
		"0": true, "7": true, "65535": true, "123456789012345678": true, "1234567890123456789": false,
		"01": false, "-1": false, "1.0": false, "1e3": false, "1E3": false, "": false, "+1": false, "1-": false,
	} {
		r := NewReader([]byte(text))
		n, ok := r.Int()
		if ok != want {
			t.Errorf("Int(%q) ok = %v, want %v", text, ok, want)
		}
		var j int
		if ok && (json.Unmarshal([]byte(text), &j) != nil || j != n) {
			t.Errorf("Int(%q) = %d, encoding/json: %d", text, n, j)
		}
	}
}

func FuzzAppendString(f *testing.F) {
	for _, s := range strs {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want := marshal(t, s)
		if got := string(AppendString(nil, s)); got != want {
			t.Fatalf("AppendString(%q) = %s, encoding/json: %s", s, got, want)
		}
		if got, want := string(AppendStringNoHTML(nil, s)), encodeNoHTML(t, s); got != want {
			t.Fatalf("AppendStringNoHTML(%q) = %s, encoding/json without HTML escaping: %s", s, got, want)
		}
		if _, ok := checkStr(t, want); !ok && !strings.Contains(want, `\ufffd`) {
			t.Fatalf("Str refuses what AppendString writes: %s", want)
		}
	})
}

func FuzzStr(f *testing.F) {
	for _, s := range strs {
		f.Add(marshal(f, s))
	}
	f.Add(`"\u003c\u2028\n\"x"`)
	f.Fuzz(func(t *testing.T, text string) {
		checkStr(t, text)
	})
}

// TestObjectAndArray: Object takes each name once, and at most 20;
// SortedObject takes names in strictly increasing order only, however
// many; both, and Array, take any white space and refuse a trailing comma.
func TestObjectAndArray(t *testing.T) {
	read := func(text string, sorted bool) bool {
		r := NewReader([]byte(text))
		member := func(string) bool { _, ok := r.Int(); return ok }
		if sorted {
			return r.SortedObject(member) && r.AtEnd()
		}
		return r.Object(member) && r.AtEnd()
	}
	many := func(n int, name func(int) string) string {
		var b strings.Builder
		b.WriteString("{")
		for i := range n {
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, "%q:%d", name(i), i)
		}
		return b.String() + "}"
	}
	letters := func(i int) string { return fmt.Sprintf("k%03d", i) }
	for _, c := range []struct {
		text         string
		object, sort bool
	}{
		{`{}`, true, true},
		{" { \"a\" : 1 ,\n\"b\":2 } ", true, true},
		{`{"b":1,"a":2}`, true, false},
		{`{"a":1,"a":2}`, false, false},
		{`{"a":1,}`, false, false},
		{`{"a":"x"}`, false, false},
		{many(20, letters), true, true},
		{many(21, letters), false, true},
	} {
		if got := read(c.text, false); got != c.object {
			t.Errorf("Object(%.40s) = %v, want %v", c.text, got, c.object)
		}
		if got := read(c.text, true); got != c.sort {
			t.Errorf("SortedObject(%.40s) = %v, want %v", c.text, got, c.sort)
		}
	}
	for text, want := range map[string]bool{`[]`: true, ` [ 1 , 2 ] `: true, `[1,]`: false, `[1 2]`: false, `[`: false} {
		r := NewReader([]byte(text))
		if got := r.Array(func() bool { _, ok := r.Int(); return ok }) && r.AtEnd(); got != want {
			t.Errorf("Array(%s) = %v, want %v", text, got, want)
		}
	}
}

func TestStringsAndStringMap(t *testing.T) {
	for text, want := range map[string][]string{`[]`: {}, `["a","b"]`: {"a", "b"}, `["a",1]`: nil, `{}`: nil} {
		r := NewReader([]byte(text))
		got, ok := r.Strings()
		if ok != (want != nil) || (ok && !slices.Equal(got, want)) || (ok && got == nil) {
			t.Errorf("Strings(%s) = %q, %v; want %q", text, got, ok, want)
		}
	}
	for text, want := range map[string]map[string]string{`{}`: {}, `{"a":"1","b":"2"}`: {"a": "1", "b": "2"}, `{"b":"1","a":"2"}`: nil, `{"a":1}`: nil} {
		r := NewReader([]byte(text))
		got, ok := r.StringMap()
		if ok != (want != nil) || (ok && !maps.Equal(got, want)) || (ok && got == nil) {
			t.Errorf("StringMap(%s) = %q, %v; want %q", text, got, ok, want)
		}
	}
}
