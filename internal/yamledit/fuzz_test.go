package yamledit

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/repo-manager/repo/internal/jsonvalue"
)

// fuzzTarget picks the container a FuzzEdit run edits.
func fuzzTarget(mode uint8) ([]string, Kind) {
	kind := Kind(mode % 2)
	switch (mode / 2) % 3 {
	case 0:
		if kind == List {
			return []string{"mcpServers"}, kind
		}
		return []string{"extensions"}, kind
	case 1:
		if kind == List {
			return []string{"extensions"}, kind
		}
		return []string{"mcpServers"}, kind
	}
	return []string{"x", "servers"}, kind
}

func addEditSeeds(f *testing.F) {
	for _, tc := range goldenCases {
		mode := uint8(0)
		if tc.kind == List {
			mode = 1
		}
		if len(tc.path) > 1 {
			mode += 4
		}
		value := tc.value
		if value == "" {
			value = `{"command":"x"}`
		}
		f.Add([]byte(tc.in), tc.key, []byte(value), mode)
		f.Add([]byte(tc.in), "fresh", []byte(value), mode)
	}
	for i, k := range hostileNames {
		f.Add([]byte(continueConfig), k, []byte(`{"command":"x","args":["y"]}`), uint8(1+i%2*4))
		f.Add([]byte(gooseWritten), k, []byte(`{"cmd":"x","args":["y"],"envs":{}}`), uint8(i%2*4))
	}
	// Real-world shapes with one line removed or indented further.
	for _, fx := range []struct {
		doc  string
		mode uint8
	}{{gooseWritten, 0}, {gooseHand, 0}, {gooseNoMarkers, 0}, {continueConfig, 1}, {continueIndented, 1}, {continueMarkersApart, 1}, {dropInOne, 1}} {
		lines := strings.SplitAfter(fx.doc, "\n")
		for i := range lines {
			cut := strings.Join(slices.Delete(slices.Clone(lines), i, i+1), "")
			f.Add([]byte(cut), "fresh", []byte(`{"command":"x","args":["a"]}`), fx.mode)
			f.Add([]byte(cut), "repo-srv", []byte(`{"command":"x","env":{"K":"v"}}`), fx.mode)
			deeper := slices.Clone(lines)
			deeper[i] = "  " + deeper[i]
			f.Add([]byte(strings.Join(deeper, "")), "fresh", []byte(`{"cmd":"x"}`), fx.mode)
		}
	}
	for _, doc := range []string{
		"", "\n", "# c\n", "---\n", "a: 1\n...\n", "mcpServers:\n", "mcpServers: ~ # c\n", "extensions: {}",
		"mcpServers: [{name: a}]\n", "x:\n  servers:\n    - name: a\n", "x: {}\n", "x:\n", "  a: 1\n  b: 2\n",
		"mcpServers:\n  - name: a\n    s: |+\n      keep\n\n\nb: 1\n", "extensions:\n  a: &x {b: 1}\n  c: *x\n",
		"\ufeffa: 1\r\nmcpServers:\r\n- name: a\r\n", "{a: 1}", "mcpServers:\n- name: a\n  # c\n# d\n",
	} {
		for mode := uint8(0); mode < 6; mode++ {
			f.Add([]byte(doc), "k", []byte(`{"args":[1,{"a":"b"},[]],"e":{}}`), mode)
		}
	}
	for _, doc := range formSeeds {
		for mode := uint8(0); mode < 6; mode++ {
			f.Add([]byte(doc), "a", []byte(`{"command":"x","args":["y"]}`), mode)
			f.Add([]byte(doc), "fresh", []byte(`{"cmd":"x","envs":{"K":"v"}}`), mode)
		}
	}
}

// formSeeds are valid YAML forms that once failed with an internal error,
// or that an edit must keep: hub block references, files ending in a block
// scalar without a final line break, null and empty containers, comments
// in odd places, document markers, CRLF, tabs in values, quoted keys,
// flow-style entries and anchors.
var formSeeds = []string{
	"mcpServers:\n  - uses: org/block\n  - name: a\n    command: x\n",
	"mcpServers:\n- uses: org/block\n  with:\n    K: v\n- uses: org/other",
	"mcpServers:\n- name: a\n  d: >\n    folded", "mcpServers:\n- name: a\n  d: |+\n    keep",
	"mcpServers:\n- name: a\n  d: |-\n    strip", "extensions:\n  a:\n    d: |2\n       text",
	"a: |\n  text", "x:\n  b: >\n    t", "mcpServers:\r\n- name: a\r\n  d: |\r\n    t",
	"GOOSE_PROVIDER: openai\nextensions: {}\nGOOSE_MODEL: gpt-4o", "extensions:\nGOOSE: 1\n", "extensions: null\n",
	"mcpServers: null\n", "mcpServers: ~", "extensions: {  } # none yet\n", "mcpServers: []\n",
	"mcpServers: # the servers\n# first\n- name: a # mine\n  command: x\n  # trailing\n# after\n",
	"---\nmcpServers:\n- name: a\n...\n", "%YAML 1.2\n---\nextensions:\n  a: {cmd: x}\n",
	"mcpServers:\n- name: a\n  command: \"x\ty\"\n  args: [a\tb]\n", "extensions:\n  a:\n    cmd: x\t# tab\n",
	"\"mcpServers\":\n- name: a\n", "'extensions':\n  'a': {\"cmd\": x}\n",
	"mcpServers:\n- {name: a, command: x}\n- name: b\n", "extensions:\n  a: {cmd: x, args: [1, 2]}\n",
	"mcpServers:\n- &a\n  name: a\n  env: &e {K: v}\n- name: b\n  env: *e\n", "extensions:\n  a: &x {cmd: y}\n  b: *x\n",
	"mcpServers:\n  - name: a\n    x: &y\n", "extensions:\n  a:\n    t: !!str 5\n  b: !custom\n",
}

// FuzzBatch checks Insert and Replace on arbitrary documents, with
// mappings read in pieces of three keys. For a document that parses and a
// container that reads, with names split from names at commas:
//   - Insert of the absent names gives the bytes of a Set of each in turn,
//     or fails with a *ShapeError or *ValueError (as the Sets do);
//   - the result parses, holds every value, nothing outside the container
//     changed meaning, and every line outside the rewritten entries is
//     the same;
//   - a second run (Replace of every name with the same value) changes
//     nothing, and deleting the inserted names gives back the original.
func FuzzBatch(f *testing.F) {
	for _, doc := range append(batchDocs(), formSeeds...) {
		for mode := uint8(0); mode < 6; mode++ {
			f.Add([]byte(doc), "a,new,b", mode)
		}
	}
	f.Add([]byte(wideDoc(4)), "e1,e9,fresh", uint8(0))
	f.Fuzz(func(t *testing.T, doc []byte, names string, mode uint8) {
		saved := chunkKeys
		chunkKeys = 3
		defer func() { chunkKeys = saved }()
		d, err := Parse(doc)
		if err != nil {
			return
		}
		path, kind := fuzzTarget(mode)
		var uniq []string
		for _, n := range strings.Split(names, ",") {
			if utf8.ValidString(n) && !slices.Contains(uniq, n) && len(uniq) < 6 {
				uniq = append(uniq, n)
			}
		}
		if len(uniq) == 0 {
			return
		}
		es := batchEntries(kind, uniq...)
		before, _, err := d.Entries(path, kind, "name")
		if err != nil {
			if _, err := d.Insert(path, kind, "name", es); err == nil {
				t.Fatal("Insert succeeded where Entries failed")
			}
			return
		}
		var adds, upds []Entry
		for _, e := range es {
			if slices.ContainsFunc(before, func(m Member) bool { return m.Key == e.Name }) {
				upds = append(upds, e)
			} else {
				adds = append(adds, e)
			}
		}
		nd, err := d.Replace(path, kind, "name", upds)
		if err != nil {
			if !isAcceptedError(err) {
				t.Fatalf("Replace: %v", err)
			}
			return
		}
		checkOutsideLines(t, d, nd, path, kind, upds)
		mid := nd
		nd, err = nd.Insert(path, kind, "name", adds)
		slow, serr := setEach(t, mid, path, kind, adds)
		if (err == nil) != (serr == nil) {
			t.Fatalf("Insert: %v; a Set of each: %v", err, serr)
		}
		if err != nil {
			if !isAcceptedError(err) {
				t.Fatalf("Insert: %v\n%q", err, doc)
			}
			return
		}
		if !bytes.Equal(slow.Bytes(), nd.Bytes()) {
			t.Fatalf("Insert differs from a Set of each:\n%s", diff(string(nd.Bytes()), string(slow.Bytes())))
		}
		again, err := Parse(nd.Bytes())
		if err != nil {
			t.Fatalf("the result does not parse: %v\n%s", err, nd.Bytes())
		}
		for _, e := range es {
			if got := entryValue(t, again, path, kind, e.Name); got == nil || !sameJSON(got, e.Value) {
				t.Fatalf("entry %q = %s, want %s", e.Name, got, e.Value)
			}
		}
		checkRestIntact(t, d, again, path)
		// The second run: every entry is there with its value.
		second, err := again.Replace(path, kind, "name", es)
		if err != nil || !bytes.Equal(second.Bytes(), nd.Bytes()) {
			t.Fatalf("a second run changed the file (%v):\n%s", err, diff(string(second.Bytes()), string(nd.Bytes())))
		}
		back := nd
		for i := len(adds) - 1; i >= 0; i-- {
			if back, err = back.Delete(path, kind, "name", adds[i].Name); err != nil {
				t.Fatalf("Delete: %v", err)
			}
		}
		if !bytes.Equal(back.Bytes(), mid.Bytes()) {
			t.Fatalf("deleting the inserted entries did not restore the file:\n%s", diff(string(back.Bytes()), string(mid.Bytes())))
		}
	})
}

// checkOutsideLines checks that Replace of es changed no line of the
// document outside the lines of those entries (and their markers).
func checkOutsideLines(t *testing.T, before, after *Doc, path []string, kind Kind, es []Entry) {
	t.Helper()
	outside := func(d *Doc) []string {
		l, err := d.locate(path)
		if err != nil {
			t.Fatal(err)
		}
		drop := map[int]bool{}
		if l.depth == len(path) && !isNull(l.val) {
			items, _, err := d.entries(l, path, kind, "name")
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range es {
				idx := findEntry(items, e.Name)
				if idx < 0 {
					continue
				}
				a, b, extra := d.entrySpan(l, items, idx)
				for x := a; x <= b; x++ {
					drop[x] = true
				}
				for _, x := range extra {
					drop[x] = true
				}
			}
		}
		var out []string
		for x := 1; x <= len(d.lines); x++ {
			if !drop[x] {
				out = append(out, string(d.lineText(x)))
			}
		}
		return out
	}
	if b, a := outside(before), outside(after); !slices.Equal(b, a) {
		t.Fatalf("Replace changed lines outside the entries:\nbefore %q\nafter  %q", b, a)
	}
}

// FuzzEdit checks the editing invariants on arbitrary documents, names and
// values. For a document that parses and a container that reads:
//   - Set either succeeds or returns a *ShapeError (a layout it does not
//     edit) or a *ValueError (a value it cannot write);
//   - after Set the result parses, holds the value, nothing outside the
//     container changed meaning, and a second identical Set is a no-op;
//   - when the name was absent, Delete gives back exactly the original
//     bytes (lines removed from a pre-existing block container, or the
//     container Set made undone).
//
// Nothing may panic.
func FuzzEdit(f *testing.F) {
	addEditSeeds(f)
	f.Fuzz(func(t *testing.T, doc []byte, name string, value []byte, mode uint8) {
		d, err := Parse(doc)
		if err != nil {
			return
		}
		path, kind := fuzzTarget(mode)
		if !utf8.ValidString(name) {
			if _, err := d.set(path, kind, "name", name, value); err == nil {
				t.Fatal("Set accepted an invalid UTF-8 name")
			}
			return
		}
		_, _, err = d.Entries(path, kind, "name")
		if err != nil {
			var se *ShapeError
			if !errors.As(err, &se) {
				t.Fatalf("Entries: unexpected error %T %v", err, err)
			}
			if _, err := d.set(path, kind, "name", name, value); err == nil {
				t.Fatal("Set succeeded where Entries failed")
			}
			return
		}
		present := entryValue(t, d, path, kind, name) != nil
		nd, err := d.set(path, kind, "name", name, value)
		if err != nil {
			if !isAcceptedError(err) {
				t.Fatalf("Set: %v\ndoc: %q\nname: %q\nvalue: %q", err, doc, name, value)
			}
			return
		}
		checkSet(t, d, nd, path, kind, name, value)
		back, err := nd.Delete(path, kind, "name", name)
		if err != nil {
			t.Fatalf("Delete: %v\n%s", err, nd.Bytes())
		}
		if entryValue(t, back, path, kind, name) != nil {
			t.Fatalf("entry still there after Delete:\n%s", back.Bytes())
		}
		checkRestIntact(t, nd, back, path)
		if !present && !bytes.Equal(back.Bytes(), d.Bytes()) {
			t.Fatalf("Set+Delete did not restore the original:\n%s", diff(string(back.Bytes()), string(doc)))
		}
	})
}

// FuzzParse checks that Parse never panics, that a parsed document gives
// back its bytes unchanged, that errors carry a position, and that reading
// containers never panics and fails only with a *ShapeError.
func FuzzParse(f *testing.F) {
	for _, tc := range goldenCases {
		f.Add([]byte(tc.in))
		f.Add([]byte(tc.want))
	}
	for _, s := range []string{"", " ", "\r", "a: 1\r", "---\n---\n", "a: *x", "a: &x [*x]", "\xef\xbb\xbf", "\xff", "- a", "a", "%YAML 1.2\n---\n", "? a\n: b\n", "a: !!str 1\n", "a: .inf"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := Parse(data)
		if err != nil {
			var se *SyntaxError
			var sh *ShapeError
			switch {
			case errors.As(err, &se):
				if se.Line < 1 || se.Col < 1 || se.Msg == "" {
					t.Fatalf("bad SyntaxError %+v", se)
				}
			case errors.As(err, &sh):
				if sh.Line < 1 || sh.Col < 1 || sh.Msg == "" {
					t.Fatalf("bad ShapeError %+v", sh)
				}
			default:
				t.Fatalf("unexpected error type %T: %v", err, err)
			}
			return
		}
		if !bytes.Equal(d.Bytes(), data) {
			t.Fatal("Bytes() differs from the input")
		}
		for _, p := range [][]string{{"mcpServers"}, {"extensions"}, {"a"}, {"a", "b"}} {
			for _, kind := range []Kind{Map, List} {
				ms, found, err := d.Entries(p, kind, "name")
				if err != nil {
					var sh *ShapeError
					if !errors.As(err, &sh) || sh.Line < 1 || sh.Col < 1 {
						t.Fatalf("Entries(%q, %v): %T %v", p, kind, err, err)
					}
					continue
				}
				if found != (len(ms) > 0) {
					t.Fatalf("found=%v with %d members", found, len(ms))
				}
				for _, m := range ms {
					if _, err := jsonvalue.Decode(m.Value); err != nil || m.Line < 1 {
						t.Fatalf("bad member %+v", m)
					}
				}
			}
		}
	})
}
