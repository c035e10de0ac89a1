package yamledit

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// batchEntries are values to write in one edit, in the shapes repo writes
// for Goose (Map) and Continue (List).
func batchEntries(kind Kind, names ...string) []Entry {
	es := make([]Entry, len(names))
	for i, n := range names {
		v := fmt.Sprintf(`{"type":"stdio","cmd":"/opt/%d/bin/srv","args":["--port","%d",""],"envs":{"K":"v %d"},"enabled":true}`, i, 8000+i, i)
		if kind == List {
			v = fmt.Sprintf(`{"type":"stdio","command":"/opt/%d/bin/srv","args":["-v"],"env":{"K":"%d"}}`, i, i)
		}
		es[i] = Entry{Name: n, Value: []byte(v)}
	}
	return es
}

// setEach is Insert or Replace done the slow way, one Set per entry.
func setEach(t testing.TB, d *Doc, path []string, kind Kind, es []Entry) (*Doc, error) {
	t.Helper()
	for _, e := range es {
		nd, err := d.set(path, kind, "name", e.Name, e.Value)
		if err != nil {
			return nil, err
		}
		d = nd
	}
	return d, nil
}

// batchDocs are the documents the batch edits are checked on: every
// golden input and the real-world shapes.
func batchDocs() []string {
	docs := []string{
		"", "a: 1\n", "mcpServers:\n", "extensions: {}", "mcpServers: []\n", "x:\n  servers:\n    - name: a\n",
		gooseWritten, gooseHand, gooseNoMarkers, continueConfig, continueIndented, continueMarkersApart,
		dropInSkeleton, dropInOne, crlf(continueConfig), bomStr + gooseHand,
		"mcpServers:\n  - uses: org/block\n  - name: a\n    command: x\n  - uses: org/other\n",
		"mcpServers:\n- name: a\n  d: |\n    text", "extensions:\n  a:\n    d: >\n      folded", "a: |\n  text",
	}
	for _, tc := range goldenCases {
		docs = append(docs, tc.in)
	}
	return docs
}

// TestInsertIsSetEachInTurn checks that Insert gives the bytes of a Set of
// each entry in turn, and that a Replace of all of them with new values
// reads back as a Set of each would.
func TestInsertIsSetEachInTurn(t *testing.T) {
	targets := []struct {
		path []string
		kind Kind
	}{{extensions, Map}, {mcpServers, List}, {[]string{"x", "servers"}, Map}, {[]string{"x", "servers"}, List}}
	checked := 0
	for _, doc := range batchDocs() {
		d, err := Parse([]byte(doc))
		if err != nil {
			continue
		}
		for _, tg := range targets {
			es := batchEntries(tg.kind, "n-1", "n-2", "weird: name", "n-4")
			slow, serr := setEach(t, d, tg.path, tg.kind, es)
			fast, ferr := d.Insert(tg.path, tg.kind, "name", es)
			if (serr == nil) != (ferr == nil) {
				t.Fatalf("%q %q: Set each: %v, Insert: %v", doc, tg.path, serr, ferr)
			}
			if serr != nil {
				if !isAcceptedError(ferr) {
					t.Fatalf("%q %q: Insert: %v", doc, tg.path, ferr)
				}
				continue
			}
			checked++
			if !bytes.Equal(slow.Bytes(), fast.Bytes()) {
				t.Fatalf("%q %q: Insert differs from a Set of each:\n%s", doc, tg.path, diff(string(fast.Bytes()), string(slow.Bytes())))
			}
			checkRestIntact(t, d, fast, tg.path)
			// Undoing entry by entry gives back the original.
			back := fast
			for i := len(es) - 1; i >= 0; i-- {
				if back, err = back.Delete(tg.path, tg.kind, "name", es[i].Name); err != nil {
					t.Fatalf("Delete: %v", err)
				}
			}
			if !bytes.Equal(back.Bytes(), d.Bytes()) {
				t.Fatalf("%q %q: deleting the inserted entries did not restore the original:\n%s", doc, tg.path, diff(string(back.Bytes()), doc))
			}

			// Replace every entry with another value.
			upd := batchEntries(tg.kind, "n-4", "n-2", "weird: name", "n-1")
			for i := range upd {
				upd[i].Value = bytes.Replace(upd[i].Value, []byte("stdio"), []byte("sse"), 1)
			}
			slowUpd, err := setEach(t, fast, tg.path, tg.kind, upd)
			if err != nil {
				t.Fatalf("Set each (update): %v", err)
			}
			fastUpd, err := fast.Replace(tg.path, tg.kind, "name", upd)
			if err != nil {
				t.Fatalf("%q %q: Replace: %v\n%s", doc, tg.path, err, fast.Bytes())
			}
			ws, _, _ := slowUpd.Entries(tg.path, tg.kind, "name")
			gs, _, _ := fastUpd.Entries(tg.path, tg.kind, "name")
			if len(ws) != len(gs) {
				t.Fatalf("Replace: %d entries, want %d", len(gs), len(ws))
			}
			for i := range ws {
				if ws[i].Key != gs[i].Key || !sameJSON(ws[i].Value, gs[i].Value) {
					t.Fatalf("Replace: entry %d is %s %s, want %s %s", i, gs[i].Key, gs[i].Value, ws[i].Key, ws[i].Value)
				}
			}
			checkRestIntact(t, fast, fastUpd, tg.path)
			again, err := fastUpd.Replace(tg.path, tg.kind, "name", upd)
			if err != nil || !bytes.Equal(again.Bytes(), fastUpd.Bytes()) {
				t.Fatalf("a second identical Replace changed the document (%v)", err)
			}
		}
	}
	if checked < 40 {
		t.Fatalf("only %d documents took the entries", checked)
	}
}

func TestBatchErrors(t *testing.T) {
	d := mustParse(t, "mcpServers:\n- name: a\n  command: x\n")
	var ve *ValueError
	for _, tc := range []struct {
		name string
		run  func() (*Doc, error)
		msg  string
	}{
		{"insert present", func() (*Doc, error) {
			return d.Insert(mcpServers, List, "name", batchEntries(List, "b", "a"))
		}, `entry "a" is already in "mcpServers"`},
		{"insert twice", func() (*Doc, error) {
			return d.Insert(mcpServers, List, "name", batchEntries(List, "b", "b"))
		}, `entry "b" is given twice`},
		{"replace missing entry", func() (*Doc, error) {
			return d.Replace(mcpServers, List, "name", batchEntries(List, "a", "b"))
		}, `"mcpServers" has no entry "b"`},
		{"replace missing container", func() (*Doc, error) {
			return d.Replace(extensions, Map, "name", batchEntries(Map, "a"))
		}, `"extensions" has no entries`},
		{"bad value", func() (*Doc, error) {
			return d.Insert(mcpServers, List, "name", []Entry{{Name: "b", Value: []byte(`[1]`)}})
		}, "not a JSON object"},
		{"bad value among others", func() (*Doc, error) {
			return d.Insert(mcpServers, List, "name", []Entry{{Name: "b", Value: []byte(`{}`)}, {Name: "c", Value: []byte(`{"t":1e999}`)}})
		}, `entry "c": the number 1e999 is out of range`},
	} {
		nd, err := tc.run()
		if !errors.As(err, &ve) || !strings.Contains(err.Error(), tc.msg) || nd != nil {
			t.Errorf("%s: got %v, want a *ValueError with %q", tc.name, err, tc.msg)
		}
	}
	if nd, err := d.Insert(mcpServers, List, "name", nil); err != nil || nd != d {
		t.Errorf("empty Insert: %v", err)
	}
	if nd, err := d.Replace(mcpServers, List, "name", nil); err != nil || nd != d {
		t.Errorf("empty Replace: %v", err)
	}
}

// TestForeignItems checks Continue's hub block references: list items
// without a name are no entries, and stay as they are.
func TestForeignItems(t *testing.T) {
	in := `mcpServers:
  - uses: anthropic/memory-mcp
  - name: mine
    command: x
  - uses: org/db
    with:
      DB: /tmp/x.db
`
	d := mustParse(t, in)
	ms, found, err := d.Entries(mcpServers, List, "name")
	if err != nil || !found || len(ms) != 1 || ms[0].Key != "mine" || ms[0].Line != 3 {
		t.Fatalf("Entries = %+v %v %v", ms, found, err)
	}
	nd, err := d.Insert(mcpServers, List, "name", batchEntries(List, "s"))
	if err != nil {
		t.Fatal(err)
	}
	want := in + `  # >>> repo managed: s
  - name: s
    type: stdio
    command: /opt/0/bin/srv
    args:
      - "-v"
    env:
      K: "0"
  # <<< repo managed: s
`
	if string(nd.Bytes()) != want {
		t.Fatal(diff(string(nd.Bytes()), want))
	}
	// Removing every entry leaves the references, and no "[]".
	nd, err = nd.Delete(mcpServers, List, "name", "s")
	if err == nil {
		nd, err = nd.Delete(mcpServers, List, "name", "mine")
	}
	if err != nil {
		t.Fatal(err)
	}
	want = "mcpServers:\n  - uses: anthropic/memory-mcp\n  - uses: org/db\n    with:\n      DB: /tmp/x.db\n"
	if string(nd.Bytes()) != want {
		t.Fatal(diff(string(nd.Bytes()), want))
	}
	if _, found, err := nd.Entries(mcpServers, List, "name"); found || err != nil {
		t.Fatalf("Entries after deleting all: %v %v", found, err)
	}
	// A reference holding what JSON cannot is not read at all.
	d = mustParse(t, "mcpServers:\n- uses: x\n  with: {n: .inf}\n")
	if _, err := d.set(mcpServers, List, "name", "s", []byte(`{"command":"x"}`)); err != nil {
		t.Fatal(err)
	}
}

// TestAddBeforeLastItem checks files that end inside a block scalar
// without a final line break: a line break added after the scalar would
// change its value, so what is added goes before the item holding it. The
// same goes for an item ending in a tag, an anchor, a "-" or a block scalar
// header that waits for its node.
func TestAddBeforeLastItem(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		path     []string
		kind     Kind
		want     string
	}{
		{"list entry", "mcpServers:\n- name: a\n  d: >\n    folded", mcpServers, List,
			"mcpServers:\n# >>> repo managed: s\n- name: s\n  command: x\n# <<< repo managed: s\n- name: a\n  d: >\n    folded"},
		{"map entries", "extensions:\n  a:\n    cmd: y\n  b:\n    d: |+\n      keep", extensions, Map,
			"extensions:\n  a:\n    cmd: y\n  # >>> repo managed: s\n  s:\n    command: x\n  # <<< repo managed: s\n  b:\n    d: |+\n      keep"},
		{"missing container", "a: 1\nb: |\n  text", mcpServers, List,
			"a: 1\nmcpServers:\n  # >>> repo managed: s\n  - name: s\n    command: x\n  # <<< repo managed: s\nb: |\n  text"},
		{"missing container, one key", "b: |2\n   text", mcpServers, List,
			"mcpServers:\n  # >>> repo managed: s\n  - name: s\n    command: x\n  # <<< repo managed: s\nb: |2\n   text"},
		{"missing nested key", "x:\n  b: >\n    t", []string{"x", "servers"}, Map,
			"x:\n  servers:\n    # >>> repo managed: s\n    s:\n      command: x\n    # <<< repo managed: s\n  b: >\n    t"},
		{"strip chomping needs nothing", "mcpServers:\n- name: a\n  d: |-\n    t", mcpServers, List,
			"mcpServers:\n- name: a\n  d: |-\n    t\n# >>> repo managed: s\n- name: s\n  command: x\n# <<< repo managed: s"},
		{"final line break", "mcpServers:\n- name: a\n  d: |\n    t\n", mcpServers, List,
			"mcpServers:\n- name: a\n  d: |\n    t\n# >>> repo managed: s\n- name: s\n  command: x\n# <<< repo managed: s\n"},
		// A tag waiting for its node would take the new lines for it.
		{"tag at the end", "mcpServers:\n- name: a\n  x: !!str\n", mcpServers, List,
			"mcpServers:\n# >>> repo managed: s\n- name: s\n  command: x\n# <<< repo managed: s\n- name: a\n  x: !!str\n"},
		{"tag at the end, missing key", "a: 1\nb: !!str\n", mcpServers, List,
			"a: 1\nmcpServers:\n  # >>> repo managed: s\n  - name: s\n    command: x\n  # <<< repo managed: s\nb: !!str\n"},
		// Constructs goccy/go-yaml takes at the very end of a file only.
		{"bad block scalar header at the end", "a: |0", mcpServers, List,
			"mcpServers:\n  # >>> repo managed: s\n  - name: s\n    command: x\n  # <<< repo managed: s\na: |0"},
		{"tag without value at the end", "a:\n!", mcpServers, List,
			"mcpServers:\n  # >>> repo managed: s\n  - name: s\n    command: x\n  # <<< repo managed: s\na:\n!"},
		{"empty flush item at the end", "a:\n-", mcpServers, List,
			"mcpServers:\n# >>> repo managed: s\n- name: s\n  command: x\n# <<< repo managed: s\na:\n-"},
		{"empty block scalar at the end", "a:\n>", mcpServers, List,
			"mcpServers:\n  # >>> repo managed: s\n  - name: s\n    command: x\n  # <<< repo managed: s\na:\n>"},
		{"empty item in the last entry", "extensions:\n  a:\n  -\n", extensions, Map,
			"extensions:\n  # >>> repo managed: s\n  s:\n    command: x\n  # <<< repo managed: s\n  a:\n  -\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, nl := range []bool{false, true} {
				in, want := tc.in, tc.want
				if nl && !strings.Contains(in, "\n") {
					continue // no line break to copy
				}
				if nl {
					in, want = crlf(in), crlf(want)
				}
				d := mustParse(t, in)
				got, err := d.set(tc.path, tc.kind, "name", "s", []byte(`{"command":"x"}`))
				if err != nil {
					t.Fatal(err)
				}
				if string(got.Bytes()) != want {
					t.Fatal(diff(string(got.Bytes()), want))
				}
				checkSet(t, d, got, tc.path, tc.kind, "s", []byte(`{"command":"x"}`))
				back, err := got.Delete(tc.path, tc.kind, "name", "s")
				if err != nil || string(back.Bytes()) != in {
					t.Fatalf("Delete: %v\n%q", err, back.Bytes())
				}
			}
		})
	}
	// Deleting an entry that ends the file keeps the line break that ends
	// the block scalar before it.
	in := "extensions:\n  a:\n    d: |\n      t\n  # >>> repo managed: s\n  s:\n    command: x\n  # <<< repo managed: s"
	d := mustParse(t, in)
	got, err := d.Delete(extensions, Map, "name", "s")
	if err != nil {
		t.Fatal(err)
	}
	if want := "extensions:\n  a:\n    d: |\n      t\n"; string(got.Bytes()) != want {
		t.Fatal(diff(string(got.Bytes()), want))
	}
	checkRestIntact(t, d, got, extensions)
}
