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
			if _, err := d.Set(path, kind, "name", name, value); err == nil {
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
			if _, err := d.Set(path, kind, "name", name, value); err == nil {
				t.Fatal("Set succeeded where Entries failed")
			}
			return
		}
		present := entryValue(t, d, path, kind, name) != nil
		nd, err := d.Set(path, kind, "name", name, value)
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
