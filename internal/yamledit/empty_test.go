package yamledit

import (
	"bytes"
	"strings"
	"testing"

	"github.com/repo-manager/repo/internal/jsonvalue"
)

// A container repo created goes once its last entry has: Insert into a
// path whose end is missing, read the file again (a later run), Delete the
// entries, DeleteEmpty from the innermost container up to the one Insert
// created. The file is back to its bytes.
func TestDeleteEmptyUndoesCreatedContainers(t *testing.T) {
	cases := []struct {
		name string
		in   string
		path []string
		kind Kind
	}{
		{"goose config.yaml as Goose writes it, no extensions", strings.Replace(gooseWritten, "extensions:", "other:", 1), []string{"extensions"}, Map},
		{"goose config.yaml by hand", "# Goose configuration\nGOOSE_PROVIDER: anthropic   # provider\nGOOSE_MODEL: claude-sonnet-4\n\n# keep this comment at the end\n", []string{"extensions"}, Map},
		{"continue config.yaml without servers", "name: Local Config\nversion: 1.0.0\nschema: v1\n\nmodels:\n  - name: Claude\n    provider: anthropic\n", []string{"mcpServers"}, List},
		{"CRLF and a BOM", bomStr + crlf("name: x\nversion: 1\n"), []string{"mcpServers"}, List},
		{"nested, host exists", "x:\n  keep: 1\nb: 2\n", []string{"x", "servers"}, Map},
		{"nested, nothing there", "b: 2\n", []string{"x", "servers"}, List},
		{"empty file", "", []string{"extensions"}, Map},
		{"comments only", "# nothing yet\n", []string{"extensions"}, Map},
	}
	value := func(kind Kind, name string) []byte {
		if kind == List {
			return []byte(`{"command":"/w/.venv/bin/python","args":["-m","srv"],"env":{"K":"v"}}`)
		}
		return []byte(`{"cmd":"/w/.venv/bin/python","args":["-m","srv"],"envs":{"K":"v"},"type":"stdio"}`)
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d := mustParse(t, tc.in)
			depth, err := d.Depth(tc.path)
			if err != nil || depth >= len(tc.path) {
				t.Fatalf("Depth = %d, %v: the case must miss part of its path", depth, err)
			}
			es := []Entry{{"fetch", value(tc.kind, "fetch")}, {"vault", value(tc.kind, "vault")}}
			nd, err := d.Insert(tc.path, tc.kind, "name", es)
			if err != nil {
				t.Fatal(err)
			}
			nd = mustParse(t, string(nd.Bytes())) // a later run reads the file
			if got, _ := nd.Depth(tc.path); got != len(tc.path) {
				t.Fatalf("Depth after Insert = %d", got)
			}
			for _, e := range es {
				if nd, err = nd.Delete(tc.path, tc.kind, "name", e.Name); err != nil {
					t.Fatal(err)
				}
			}
			for i := len(tc.path); i > depth; i-- {
				var removed bool
				nd, removed, err = nd.DeleteEmpty(tc.path[:i])
				if err != nil || !removed {
					t.Fatalf("DeleteEmpty(%q) = %v, %v\n%s", tc.path[:i], removed, err, nd.Bytes())
				}
			}
			if got := string(nd.Bytes()); got != tc.in {
				t.Fatal(diff(got, tc.in))
			}
			if _, removed, err := nd.DeleteEmpty(tc.path[:depth]); err != nil || removed {
				t.Fatalf("DeleteEmpty of what was there: %v, %v", removed, err)
			}
		})
	}
}

func TestDeleteEmptyFormatting(t *testing.T) {
	cases := []struct {
		name, in, want string
		path           []string
	}{
		{"first line", "extensions: {}\nGOOSE_MODEL: gpt-4o\n", "GOOSE_MODEL: gpt-4o\n", []string{"extensions"}},
		{"last line, no final newline", "GOOSE_MODEL: gpt-4o\nextensions: {}", "GOOSE_MODEL: gpt-4o", []string{"extensions"}},
		{"only line", "extensions: {}\n", "", []string{"extensions"}},
		{"null", "a: 1\nextensions:\nb: 2\n", "a: 1\nb: 2\n", []string{"extensions"}},
		{"explicit null", "a: 1\nextensions: ~\n", "a: 1\n", []string{"extensions"}},
		{"empty list", "a: 1\nmcpServers: []\n", "a: 1\n", []string{"mcpServers"}},
		{"comment lines around stay", "a: 1\n# before\nextensions: {}\n# after\nb: 2\n", "a: 1\n# before\n# after\nb: 2\n", []string{"extensions"}},
		{"last member of a nested mapping", "x:\n  servers: {}\ny: 1\n", "x: {}\ny: 1\n", []string{"x", "servers"}},
		{"CRLF", "a: 1\r\nextensions: {}\r\nb: 2\r\n", "a: 1\r\nb: 2\r\n", []string{"extensions"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d := mustParse(t, tc.in)
			nd, removed, err := d.DeleteEmpty(tc.path)
			if err != nil || !removed {
				t.Fatalf("%v %v", removed, err)
			}
			if got := string(nd.Bytes()); got != tc.want {
				t.Fatal(diff(got, tc.want))
			}
			checkRestIntact(t, d, nd, tc.path)
		})
	}
}

// What DeleteEmpty does not take: anything in the container, a comment on
// its line, a form it would have to rewrite.
func TestDeleteEmptyKeeps(t *testing.T) {
	cases := []struct {
		name, in string
		path     []string
	}{
		{"entries", gooseWritten, []string{"extensions"}},
		{"a comment on the line", "a: 1\nextensions: {} # mine\n", []string{"extensions"}},
		{"a comment after the key", "a: 1\nextensions: # none yet\n", []string{"extensions"}},
		{"a scalar", "extensions: none\n", []string{"extensions"}},
		{"an anchor", "extensions: &e {}\nb: *e\n", []string{"extensions"}},
		{"a tag", "extensions: !!map {}\n", []string{"extensions"}},
		{"an explicit key", "? extensions\n: {}\n", []string{"extensions"}},
		{"a flow mapping around it", "x: {servers: {}}\n", []string{"x", "servers"}},
		{"a value on the next line", "a: 1\nextensions:\n  {}\n", []string{"extensions"}},
		{"indented after something", "- a\n", []string{"extensions"}},
		{"missing", "a: 1\n", []string{"extensions"}},
		{"missing parent", "a: 1\n", []string{"x", "servers"}},
		{"the document", "", nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d, err := Parse([]byte(tc.in))
			if err != nil {
				return // not a mapping document: nothing to keep
			}
			nd, removed, err := d.DeleteEmpty(tc.path)
			if err != nil || removed || nd != d {
				t.Fatalf("DeleteEmpty = %v, %v\n%s", removed, err, nd.Bytes())
			}
		})
	}
	d := mustParse(t, "x: [1]\n")
	if _, _, err := d.DeleteEmpty([]string{"x", "servers"}); err == nil {
		t.Fatal("a list on the path: no error")
	}
}

// FuzzDeleteEmpty checks, on arbitrary documents, that a container Insert
// created and Delete emptied (in a later run: the file read again) goes
// with DeleteEmpty, and then
//   - the result parses and means what the original meant;
//   - every line of the original is still there, in order;
//   - DeleteEmpty of what was there before removes nothing.
//
// And on the original itself DeleteEmpty removes only an empty or null
// member, and nothing else changes meaning. Nothing may panic.
func FuzzDeleteEmpty(f *testing.F) {
	addEditSeeds(f)
	f.Fuzz(func(t *testing.T, doc []byte, name string, value []byte, mode uint8) {
		d, err := Parse(doc)
		if err != nil {
			return
		}
		path, kind := fuzzTarget(mode)
		depth, err := d.Depth(path)
		if err != nil {
			return
		}
		if nd, removed, err := d.DeleteEmpty(path); err != nil && !isAcceptedError(err) {
			t.Fatalf("DeleteEmpty: %v", err)
		} else if removed {
			checkRestIntact(t, d, nd, path)
			if v, ok := docValue(t, d); ok {
				if c := valueAt(v, path); c != nil && !isEmptyValue(c) {
					t.Fatalf("removed %v", c)
				}
			}
		} else if err == nil && nd != d {
			t.Fatal("not removed, but a new Doc")
		}
		if depth == len(path) || name == "" {
			return
		}
		nd, err := d.Insert(path, kind, "name", []Entry{{name, value}})
		if err != nil {
			return // a value or a place Insert refuses (FuzzBatch checks which)
		}
		nd, err = Parse(nd.Bytes())
		if err != nil {
			t.Fatalf("Insert's result does not parse: %v", err)
		}
		if nd, err = nd.Delete(path, kind, "name", name); err != nil {
			t.Fatalf("Delete: %v\n%s", err, nd.Bytes())
		}
		for i := len(path); i > depth; i-- {
			var removed bool
			if nd, removed, err = nd.DeleteEmpty(path[:i]); err != nil || !removed {
				t.Fatalf("DeleteEmpty(%q) = %v, %v\n%s", path[:i], removed, err, nd.Bytes())
			}
		}
		if _, err := Parse(nd.Bytes()); err != nil {
			t.Fatalf("result does not parse: %v", err)
		}
		// A mapping the container was made in is left as {}, which a null
		// one (`x:`) was not; nothing else changes meaning.
		b, okB := docValue(t, d)
		a, okA := docValue(t, nd)
		if okB && depth > 0 && valueAt(b, path[:depth]) == nil {
			b = setAt(b, path[:depth], map[string]any{})
		}
		if okB && (!okA || !jsonvalue.EqualValues(b, a, jsonvalue.SameNumber)) {
			t.Fatalf("the document changed meaning:\nbefore %v\nafter  %v", b, a)
		}
		if !containsLinesInOrder(nd.Bytes(), doc, depth > 0) {
			t.Fatal(diff(string(nd.Bytes()), string(doc)))
		}
		if again, removed, err := nd.DeleteEmpty(path[:depth+1]); err != nil || removed || again != nd {
			t.Fatalf("a second DeleteEmpty: %v, %v", removed, err)
		}
	})
}

func valueAt(v any, path []string) any {
	for _, k := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}

func isEmptyValue(v any) bool {
	switch x := v.(type) {
	case map[string]any:
		return len(x) == 0
	case []any:
		return len(x) == 0
	}
	return false
}

// setAt is v with the value at path (whose parents are mappings) set.
func setAt(v any, path []string, to any) any {
	if len(path) == 0 {
		return to
	}
	m, ok := v.(map[string]any)
	if !ok {
		return v
	}
	cp := make(map[string]any, len(m))
	for k, e := range m {
		cp[k] = e
	}
	cp[path[0]] = setAt(m[path[0]], path[1:], to)
	return cp
}

// containsLinesInOrder reports whether every line of orig (line breaks
// aside) is a line of got, in order; with host, a line `key:` (null or
// empty) may have become `key: {}`.
func containsLinesInOrder(got, orig []byte, host bool) bool {
	g := strings.Split(strings.ReplaceAll(string(bytes.TrimPrefix(got, []byte(bomStr))), "\r\n", "\n"), "\n")
	for _, line := range strings.Split(strings.ReplaceAll(string(bytes.TrimPrefix(orig, []byte(bomStr))), "\r\n", "\n"), "\n") {
		i := 0
		for i < len(g) && g[i] != line && !(host && sameKeyLine(g[i], line)) {
			i++
		}
		if i == len(g) {
			return false
		}
		g = g[i+1:]
	}
	return true
}

// sameKeyLine: got is want's key with the value {} instead of nothing,
// null or {}.
func sameKeyLine(got, want string) bool {
	k, ok := strings.CutSuffix(got, ": {}")
	if !ok {
		return false
	}
	rest, ok := strings.CutPrefix(want, k+":")
	return ok && emptyValue(strings.TrimSpace(rest))
}
