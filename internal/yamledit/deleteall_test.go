package yamledit

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// deleteDocs are layouts where one Delete changes what the next one sees:
// blank lines that a Delete takes along, markers apart from their entry, a
// "|+" scalar whose trailing blank lines grow when the next entry goes, a
// file without a final line break ending in a block scalar, anchors used
// by another entry.
var deleteDocs = []string{
	"extensions:\n  a:\n    x: 1\n\n  b:\n    x: 2\n\n  c:\n    x: 3\n\n  d:\n    x: 4\nother: 1\n",
	"extensions:\n  a:\n    x: 1\n\n\n  b:\n    x: 2\n\n  c:\n    x: 3\n\n",
	"extensions:\n  # >>> repo managed: a\n  a:\n    x: 1\n  # <<< repo managed: a\n  # >>> repo managed: b\n\n  b:\n    x: 2\n\n  # <<< repo managed: b\n  c:\n    x: 3\n",
	"extensions:\n  a:\n    d: |+\n      keep\n\n  b:\n    x: 2\n\n  c:\n    x: 3\n\n  d:\n    x: 4",
	"extensions:\n  a:\n    d: |\n      text\n  b:\n    x: 2\n\n  c:\n    d: >\n      folded",
	"extensions:\n  a:\n    d: |\n  b:\n    x: 2\n\n  c:\n    x: 3",
	"extensions:\n  a:\n    v: &v 1\n  b:\n    w: *v\n  c:\n    x: 3\n",
	"mcpServers:\n  - name: a\n    command: x\n\n  - uses: org/block\n\n  - name: b\n    command: y\n\n  - name: c\n    command: z\n",
	"mcpServers:\n- name: a\n  d: |\n    t\n- name: b\n  c: 1\n\n- name: c\n  c: 2",
}

// deleteEach is DeleteAll as a Delete of each name in turn: its definition.
func deleteEach(d *Doc, path []string, kind Kind, names []string) (*Doc, error) {
	for _, n := range names {
		var err error
		if d, err = d.Delete(path, kind, "name", n); err != nil {
			return nil, err
		}
	}
	return d, nil
}

// sameDeletion checks DeleteAll against a Delete of each: the same bytes,
// or both refused. DeleteAll may succeed where a Delete of each fails on
// the way: a Delete checks every entry left after it, and one step can
// change an entry a later step removes (a "|+" scalar taking the blank
// lines an entry after it leaves); DeleteAll checks what is left at the
// end, which must then be the entries that were not removed.
func sameDeletion(t *testing.T, d *Doc, path []string, kind Kind, names []string) {
	t.Helper()
	want, werr := deleteEach(d, path, kind, names)
	got, err := d.DeleteAll(path, kind, "name", names)
	switch {
	case werr != nil && err == nil:
		before, _, _ := d.Entries(path, kind, "name")
		after, _, aerr := got.Entries(path, kind, "name")
		left := slices.DeleteFunc(before, func(m Member) bool { return slices.Contains(names, m.Key) })
		if aerr != nil || !slices.EqualFunc(after, left, func(a, b Member) bool { return a.Key == b.Key && sameJSON(a.Value, b.Value) }) {
			t.Fatalf("DeleteAll(%q) succeeded where a Delete of each failed (%v), and left other entries\n%s", names, werr, got.Bytes())
		}
	case werr == nil && err != nil:
		t.Fatalf("DeleteAll(%q): %v\n%s", names, err, d.Bytes())
	case werr == nil && !bytes.Equal(got.Bytes(), want.Bytes()):
		t.Fatalf("DeleteAll(%q) differs from a Delete of each:\n%q\nwant\n%q\nfrom\n%q", names, got.Bytes(), want.Bytes(), d.Bytes())
	case werr == nil && len(got.origins) != len(want.origins):
		t.Fatalf("DeleteAll(%q) remembers other origins than a Delete of each", names)
	}
}

// TestDeleteAllEqualsEach: DeleteAll gives the bytes of a Delete of each
// entry in turn, for subsets of the entries in several orders, on the
// real-world shapes, the golden inputs and the layouts above, and after
// an Insert (whose container Delete may give back).
func TestDeleteAllEqualsEach(t *testing.T) {
	targets := []struct {
		path []string
		kind Kind
	}{{extensions, Map}, {mcpServers, List}, {[]string{"x", "servers"}, Map}}
	for _, doc := range append(batchDocs(), deleteDocs...) {
		d, err := Parse([]byte(doc))
		if err != nil {
			continue
		}
		for _, tg := range targets {
			if ins, err := d.Insert(tg.path, tg.kind, "name", batchEntries(tg.kind, "n-1", "n-2")); err == nil {
				checkSubsets(t, ins, tg.path, tg.kind)
			}
			checkSubsets(t, d, tg.path, tg.kind)
		}
	}
}

func checkSubsets(t *testing.T, d *Doc, path []string, kind Kind) {
	t.Helper()
	ms, _, err := d.Entries(path, kind, "name")
	if err != nil {
		return
	}
	var names []string
	for _, m := range ms {
		names = append(names, m.Key)
	}
	if len(names) > 6 {
		names = names[:6]
	}
	for subset := 1; subset < 1<<len(names); subset++ {
		var pick []string
		for i, n := range names {
			if subset&(1<<i) != 0 {
				pick = append(pick, n)
			}
		}
		rev := slices.Clone(pick)
		slices.Reverse(rev)
		for _, order := range [][]string{pick, rev, append(slices.Clone(pick[1:]), pick[0])} {
			sameDeletion(t, d, path, kind, append(order, "absent"))
		}
	}
}

func TestDeleteAllRefusals(t *testing.T) {
	d, err := Parse([]byte(deleteDocs[6]))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.DeleteAll(extensions, Map, "", []string{"b", "b"}); err == nil || !strings.Contains(err.Error(), `"b" is given twice`) {
		t.Errorf("a name twice: %v", err)
	}
	// a defines an anchor b uses: refused while b is there, not once b has gone.
	if _, err := d.DeleteAll(extensions, Map, "", []string{"a", "b"}); err == nil || !strings.Contains(err.Error(), "alias *v") {
		t.Errorf("an anchor used elsewhere: %v", err)
	}
	if nd, err := d.DeleteAll(extensions, Map, "", []string{"b", "a"}); err != nil || strings.Contains(string(nd.Bytes()), "&v") {
		t.Errorf("an anchor whose alias went first: %v", err)
	}
	for _, names := range [][]string{nil, {"zz"}} {
		if nd, err := d.DeleteAll(extensions, Map, "", names); err != nil || nd != d {
			t.Errorf("DeleteAll of nothing there (%q): %v, same document: %v", names, err, nd == d)
		}
	}
}

// FuzzDeleteAll: on any document, DeleteAll of any entries in any order is
// a Delete of each, or fails where that fails.
func FuzzDeleteAll(f *testing.F) {
	for _, doc := range append(append(batchDocs(), deleteDocs...), formSeeds...) {
		for mode := uint8(0); mode < 6; mode++ {
			f.Add([]byte(doc), mode, uint64(mode)*7919+uint64(len(doc)))
		}
	}
	f.Fuzz(func(t *testing.T, doc []byte, mode uint8, seed uint64) {
		d, err := Parse(doc)
		if err != nil {
			return
		}
		path, kind := fuzzTarget(mode)
		ms, _, err := d.Entries(path, kind, "name")
		if err != nil {
			return
		}
		r := rand.New(rand.NewPCG(seed, seed>>32))
		var names []string
		for _, i := range r.Perm(len(ms)) {
			if r.IntN(3) > 0 {
				names = append(names, ms[i].Key)
			}
		}
		sameDeletion(t, d, path, kind, names)
	})
}
