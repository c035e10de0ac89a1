package jsonedit

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// batchDocs are objects whose members DeleteAll removes in every layout
// the deletion rules tell apart: own lines, shared lines, comments
// around and between members, trailing commas, CRLF, one line.
var batchDocs = []struct {
	name    string
	text    string
	dialect Dialect
	path    []string
}{
	{"claude", claudeJSON, Strict, []string{"projects", "/home/u/work/app", "mcpServers"}},
	{"vscode", vscodeMCP, JSONC, []string{"servers"}},
	{"pretty", "{\n  \"mcpServers\": {\n    \"a\": {\"command\": \"a\"},\n    \"b\": {\"command\": \"b\"},\n    \"c\": {\n      \"command\": \"c\"\n    }\n  },\n  \"x\": 1\n}\n", Strict, []string{"mcpServers"}},
	{"one line", `{"mcpServers": {"a": 1, "b": 2, "c": 3, "d": 4}}`, Strict, []string{"mcpServers"}},
	{"minified", `{"mcpServers":{"a":1,"b":[2],"c":{"d":3}}}`, Strict, []string{"mcpServers"}},
	{"crlf", crlf("{\n  \"mcpServers\": {\n    \"a\": 1,\n    \"b\": 2,\n    \"c\": 3\n  }\n}\n"), Strict, []string{"mcpServers"}},
	{"comments", "{\n  \"mcpServers\": {\n    // first\n    \"a\": 1, // after a\n    /* block */ \"b\": 2,\n\n    \"c\": 3 /* c */, \"d\": 4\n    // last\n  }\n}", Comments, []string{"mcpServers"}},
	{"trailing commas", "{\n  \"s\": {\n    \"a\": 1,\n    \"b\": 2,\n    \"c\": 3,\n  },\n}", JSONC, []string{"s"}},
	{"mixed lines", "{\"s\": {\"a\": 1,\n  \"b\": 2, \"c\": 3,\n  \"d\": 4}}", Strict, []string{"s"}},
	{"top level", "{\n\t\"a\": 1,\n\t\"b\": 2,\n\t\"c\": 3\n}\n", Strict, nil},
	{"blanks", "{ \"s\" : { \"a\" : 1 ,  \"b\" : 2 , \"c\" : 3 } }", Strict, []string{"s"}},
}

// deleteEach is DeleteAll as a Delete of each key in turn: its definition.
func deleteEach(d *Doc, path, keys []string) (*Doc, error) {
	for _, k := range keys {
		var err error
		if d, err = d.Delete(path, k); err != nil {
			return nil, err
		}
	}
	return d, nil
}

// TestDeleteAllEqualsEach: DeleteAll gives the bytes of a Delete of each
// key in turn, for every subset of a few members in several orders.
func TestDeleteAllEqualsEach(t *testing.T) {
	for _, doc := range batchDocs {
		t.Run(doc.name, func(t *testing.T) {
			d := mustParse(t, doc.text, doc.dialect)
			ms, _, err := d.Object(doc.path)
			if err != nil {
				t.Fatal(err)
			}
			var keys []string
			for _, m := range ms {
				keys = append(keys, m.Key)
			}
			for subset := 1; subset < 1<<len(keys); subset++ {
				var pick []string
				for i, k := range keys {
					if subset&(1<<i) != 0 {
						pick = append(pick, k)
					}
				}
				for _, order := range [][]string{pick, reversed(pick), append(slices.Clone(pick[1:]), pick[0])} {
					sameDeletion(t, d, doc.path, append(order, "absent"))
				}
			}
		})
	}
}

func reversed(s []string) []string {
	r := slices.Clone(s)
	slices.Reverse(r)
	return r
}

// sameDeletion checks DeleteAll against a Delete of each.
func sameDeletion(t *testing.T, d *Doc, path, keys []string) {
	t.Helper()
	want, werr := deleteEach(d, path, keys)
	got, err := d.DeleteAll(path, keys)
	switch {
	case werr != nil && err == nil:
		t.Fatalf("DeleteAll(%q) succeeded where a Delete of each failed (%v)\n%s", keys, werr, d.Bytes())
	case werr == nil && err != nil:
		t.Fatalf("DeleteAll(%q): %v\n%s", keys, err, d.Bytes())
	case werr == nil && !bytes.Equal(got.Bytes(), want.Bytes()):
		t.Fatalf("DeleteAll(%q) differs from a Delete of each:\n%s", keys, diff(string(got.Bytes()), string(want.Bytes())))
	}
}

func TestDeleteAllRefusals(t *testing.T) {
	d := mustParse(t, `{"s": {"a": 1, "b": 2}, "t": 1}`, Strict)
	if _, err := d.DeleteAll([]string{"s"}, []string{"a", "a"}); err == nil || !strings.Contains(err.Error(), `"a" given twice`) {
		t.Errorf("a key twice: %v", err)
	}
	if _, err := d.DeleteAll([]string{"t", "x"}, []string{"a"}); err == nil {
		t.Error("a path through a number was accepted")
	}
	for _, path := range [][]string{{"missing"}, {"s"}} {
		if nd, err := d.DeleteAll(path, []string{"zz"}); err != nil || nd != d {
			t.Errorf("DeleteAll of nothing there in %q: %v, same document: %v", path, err, nd == d)
		}
	}
}

// FuzzDeleteAll: on any document, DeleteAll of any members in any order
// is a Delete of each, or fails where that fails.
func FuzzDeleteAll(f *testing.F) {
	for _, doc := range batchDocs {
		for mode := uint8(0); mode < 12; mode++ {
			f.Add([]byte(doc.text), mode, uint64(mode)*7919)
		}
	}
	for _, tc := range goldenCases {
		f.Add([]byte(tc.in), uint8(3+tc.dialect), uint64(len(tc.in)))
		f.Add([]byte(tc.want), uint8(6+tc.dialect), uint64(len(tc.want)))
	}
	f.Fuzz(func(t *testing.T, doc []byte, mode uint8, seed uint64) {
		d, err := Parse(doc, Dialect(mode%3))
		if err != nil {
			return
		}
		path := fuzzPath(mode, "mcpServers")
		ms, found, err := d.Object(path)
		if err != nil || !found {
			return
		}
		r := rand.New(rand.NewPCG(seed, seed>>32))
		var keys []string
		for _, i := range r.Perm(len(ms)) {
			if r.IntN(3) > 0 {
				keys = append(keys, ms[i].Key)
			}
		}
		sameDeletion(t, d, path, keys)
	})
}
