package plan

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// basesStrings are texts that take every path of encoding/json's string
// encoder: HTML characters, control characters with and without a short
// escape, DEL, U+2028 and U+2029, U+FFFD, bytes that are not UTF-8, and
// the text of a real base.
var basesStrings = []string{
	"", "plain", `{"command":"node","args":["<<root>>/x.js"]}`, "a<b>c&d", "\b\f\n\r\t", "\x00\x01\x1f\x7f",
	"quote\" back\\slash /", "line\u2028para\u2029", "\ufffd", "caf\u00e9 \U0001F600", "bad\xffutf8\xc3", "\xe2\x80",
	`{"env":{"TOKEN":"${TOKEN}"},"url":"https://x.test/?a=1&b=<2>"}`,
}

func basesCases() []basesFile {
	var out []basesFile
	for i, s := range basesStrings {
		other := basesStrings[(i+1)%len(basesStrings)]
		out = append(out,
			basesFile{Version: 1, Root: s},
			basesFile{Version: 1, Root: "/ws", Workspace: map[string]string{"sha256:" + s: other, "sha256:0": s}},
			basesFile{Version: 1, Root: other, User: map[string]string{s: s}},
			basesFile{Version: 1, Root: "/ws", Workspace: map[string]string{"a": s, "b": other, "c": ""}, User: map[string]string{"z": other}},
			basesFile{Version: 1, Root: "/ws", Workspace: map[string]string{}, User: map[string]string{}},
		)
	}
	return append(out, basesFile{Version: 2, Root: "/ws"}, basesFile{Version: -12, Root: "/ws"})
}

// marshalBases is what the bases file was written with before appendBases.
func marshalBases(t testing.TB, f *basesFile) []byte {
	want, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return append(want, '\n')
}

// decodeBasesJSON is how readBasesFile reads a file that is not canonical.
func decodeBasesJSON(data []byte) (basesFile, error) {
	var f basesFile
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	err := dec.Decode(&f)
	return f, err
}

func TestAppendBasesIsMarshalIndent(t *testing.T) {
	for _, f := range basesCases() {
		want := marshalBases(t, &f)
		if got := appendBases(nil, &f); !bytes.Equal(got, want) {
			t.Errorf("appendBases(%q):\n%s\nencoding/json:\n%s", f, got, want)
		}
	}
}

// Every file appendBases writes whose strings are UTF-8 is read back by the
// canonical reader, the same as encoding/json reads it.
func TestDecodeCanonicalBasesReadsWhatIsWritten(t *testing.T) {
	for _, f := range basesCases() {
		data := appendBases(nil, &f)
		got, ok := decodeCanonicalBases(data)
		wantOK := f.Version == 1 && !bytes.Contains(data, []byte(`\ufffd`))
		if ok != wantOK {
			t.Errorf("decodeCanonicalBases(%s) ok = %v, want %v", data, ok, wantOK)
			continue
		}
		if ok {
			checkSameAsJSON(t, data, got)
		}
	}
}

// Text the encoder would not write goes to encoding/json, whatever that
// makes of it: each of these is valid JSON or close to it.
func TestDecodeCanonicalBasesRefusesOtherText(t *testing.T) {
	good := string(appendBases(nil, &basesFile{Version: 1, Root: "/ws", Workspace: map[string]string{"a": "x", "b": "y"}, User: map[string]string{"u": "v"}}))
	if _, ok := decodeCanonicalBases([]byte(good)); !ok {
		t.Fatalf("the canonical file is refused:\n%s", good)
	}
	for name, text := range map[string]string{
		"compact":            `{"version":1,"root":"/ws"}`,
		"no final newline":   strings.TrimSuffix(good, "\n"),
		"text after":         good + "{}",
		"newline after":      good + "\n",
		"keys out of order":  strings.Replace(good, `"a": "x",`+"\n"+`    "b": "y"`, `"b": "y",`+"\n"+`    "a": "x"`, 1),
		"key twice":          strings.Replace(good, `"b": "y"`, `"a": "y"`, 1),
		"field case":         strings.Replace(good, `"version"`, `"Version"`, 1),
		"unknown field":      strings.Replace(good, `"root"`, `"roots"`, 1),
		"sections swapped":   strings.Replace(strings.Replace(good, `"workspace"`, `"tmp"`, 1), `"user"`, `"workspace"`, 1),
		"version 2":          strings.Replace(good, `"version": 1`, `"version": 2`, 1),
		"version 1.0":        strings.Replace(good, `"version": 1`, `"version": 1.0`, 1),
		"escaped slash":      strings.Replace(good, `"/ws"`, `"\/ws"`, 1),
		"upper-case hex":     strings.Replace(good, `"x"`, `"\u003C"`, 1),
		"escaped letter":     strings.Replace(good, `"x"`, `"\u0078"`, 1),
		"raw <":              strings.Replace(good, `"x"`, `"<"`, 1),
		"raw U+2028":         strings.Replace(good, `"x"`, "\"\u2028\"", 1),
		"replacement escape": strings.Replace(good, `"x"`, `"\ufffd"`, 1),
		"not UTF-8":          strings.Replace(good, `"x"`, "\"\xff\"", 1),
		"raw tab":            strings.Replace(good, `"x"`, "\"\t\"", 1),
		"empty section":      `{` + "\n" + `  "version": 1,` + "\n" + `  "root": "/ws",` + "\n" + `  "user": {}` + "\n}\n",
		"null section":       `{` + "\n" + `  "version": 1,` + "\n" + `  "root": "/ws",` + "\n" + `  "user": null` + "\n}\n",
		"tab indent":         strings.ReplaceAll(good, "  ", "\t"),
		"CRLF":               strings.ReplaceAll(good, "\n", "\r\n"),
	} {
		if f, ok := decodeCanonicalBases([]byte(text)); ok {
			t.Errorf("%s: read as canonical (%q):\n%s", name, f, text)
		}
	}
}

func checkSameAsJSON(t testing.TB, data []byte, got basesFile) {
	t.Helper()
	want, err := decodeBasesJSON(data)
	if err != nil {
		t.Fatalf("read as canonical, refused by encoding/json (%v):\n%s", err, data)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("read as %q, encoding/json reads %q:\n%s", got, want, data)
	}
	if back := appendBases(nil, &got); !bytes.Equal(back, data) {
		t.Fatalf("read as canonical, written back differently:\n%s\nwas:\n%s", back, data)
	}
}

func FuzzAppendBases(f *testing.F) {
	for i, s := range basesStrings {
		f.Add(s, s, basesStrings[(i+1)%len(basesStrings)], "k", "")
	}
	f.Fuzz(func(t *testing.T, root, k1, v1, k2, v2 string) {
		for _, b := range []basesFile{
			{Version: 1, Root: root, Workspace: map[string]string{k1: v1, k2: v2}},
			{Version: 1, Root: root, Workspace: map[string]string{k1: v2}, User: map[string]string{k2: v1, root: k1}},
		} {
			want := marshalBases(t, &b)
			if got := appendBases(nil, &b); !bytes.Equal(got, want) {
				t.Fatalf("appendBases:\n%s\nencoding/json:\n%s", got, want)
			}
			if got, ok := decodeCanonicalBases(want); ok {
				checkSameAsJSON(t, want, got)
			} else if !bytes.Contains(want, []byte(`\ufffd`)) {
				t.Fatalf("refused what the encoder writes:\n%s", want)
			}
		}
	})
}

// FuzzBasesDecode: whatever text the canonical reader takes, encoding/json
// reads the same, and appendBases writes the same bytes back.
func FuzzBasesDecode(f *testing.F) {
	for _, b := range basesCases() {
		f.Add(appendBases(nil, &b))
	}
	f.Add([]byte("{\n  \"version\": 1,\n  \"root\": \"/ws\",\n  \"user\": {\n    \"a\": \"\\u003c\\u2028\\n\"\n  }\n}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if got, ok := decodeCanonicalBases(data); ok {
			checkSameAsJSON(t, data, got)
		}
	})
}

func TestBasesCodecSeedsAreCanonical(t *testing.T) {
	// the benchmark's store: a real shape
	f := benchBasesFile(200)
	data := appendBases(nil, &f)
	got, ok := decodeCanonicalBases(data)
	if !ok {
		t.Fatal("the benchmark's store is not read as canonical")
	}
	checkSameAsJSON(t, data, got)
}

func benchBasesFile(n int) basesFile {
	f := basesFile{Version: 1, Root: "/home/u/src/ws", Workspace: map[string]string{}}
	for i := range n {
		text := fmt.Sprintf(`{"args":["<<root>>/.repository/extensions/ext-%04d/dist/server.js","--stdio"],"command":"node","env":{"API_URL":"https://api.example.test/v1?x=1&y=2","NODE_ENV":"production","TOKEN":"${TOKEN_%d}"},"type":"stdio"}`, i, i)
		f.Workspace[fmt.Sprintf("sha256:%032x", i*7919)] = text
	}
	return f
}
