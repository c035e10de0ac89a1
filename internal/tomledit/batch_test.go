package tomledit

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// Codex files as they are found: written by repo and then touched by Codex
// or by hand. Every one parses.
var batchDocs = []struct{ name, text string }{
	{"empty", ""},
	{"blank lines only", "\n\n"},
	{"codex app config", codexAppConfig},
	{"no final newline", "model = \"o3\"\n# last line"},
	{"CRLF", strings.ReplaceAll(codexAppConfig, "\n", "\r\n")},
	{"CRLF without a final newline", "model = \"o3\"\r\n\r\n[features]\r\nx = 1"},
	{"BOM", "\ufeffmodel = \"o3\"\n"},
	{"managed block between user tables",
		"# top\nmodel = \"o3\"\n\n[projects.\"/w\"]\ntrust_level = \"trusted\"\n\n" + start +
			"[mcp_servers.\"a\"]\ncommand = \"a\"\n\n[mcp_servers.\"a\".env]\nK = \"V\"\n\n" +
			"[mcp_servers.\"b\"]\ncommand = \"b\"\n\n" +
			"[mcp_servers.\"c\"]\nurl = \"https://c\"\n" + end +
			"\n# features follow\n[features]\nweb = true\n"},
	{"block without a final newline",
		"model = \"o3\"\n\n" + start + "[mcp_servers.\"a\"]\ncommand = \"a\"\n\n[mcp_servers.\"b\"]\ncommand = \"b\"\n" + MarkerEnd},
	{"approval tables Codex appended after the block",
		"model = \"o3\"\n\n" + start +
			"[mcp_servers.\"a\"]\ncommand = \"a\"\n\n[mcp_servers.\"b\"]\ncommand = \"b\"\n\n[mcp_servers.\"c\"]\ncommand = \"c\"\n" + end +
			"\n[mcp_servers.a.tools.search]\napproval_mode = \"approve\"\n\n[mcp_servers.c.tools.fetch]\napproval_mode = \"never\"\n"},
	{"markers removed and entries reordered by a client (toml_edit rewrite)",
		"model = \"o3\"\n\n[mcp_servers.c]\ncommand = \"c\"\n\n[mcp_servers.a]\ncommand = \"a\"\n\n[mcp_servers.a.env]\nK = \"V\"\n\n" +
			"[mcp_servers.user_srv]\ncommand = \"u\"\n\n[mcp_servers.b]\ncommand = \"b\"\n"},
	{"entries split around a user table, no final newline",
		"[mcp_servers.a]\ncommand = \"a\"\n\n[other]\nk = 1\n\n[mcp_servers.b]\ncommand = \"b\"\n\n[mcp_servers.a.env]\nK = \"v\"\n\n" +
			"# comment\n[mcp_servers.b.env]\nK = \"w\""},
	{"interleaved sections of two entries",
		"[mcp_servers.a]\ncommand = \"a\"\n# about b\n[mcp_servers.b]\ncommand = \"b\"\n\n[mcp_servers.a.env]\nK = \"1\"\n" +
			"[mcp_servers.b.env]\nK = \"2\"\n\n[mcp_servers.a.tools.x]\napproval_mode = \"approve\"\n"},
	{"comments inside and between entries",
		start + "[mcp_servers.\"a\"]\n# inside a\ncommand = \"a\"\n# between a and b\n\n[mcp_servers.\"b\"]\ncommand = \"b\"\n\n\n" +
			"[mcp_servers.\"c\"]\ncommand = \"c\"\n\n" + end},
	{"stray end marker", "model = \"o3\"\n\n[mcp_servers.a]\ncommand = \"a\"\n" + end},
	{"stray start marker", "model = \"o3\"\n\n" + start + "[mcp_servers.a]\ncommand = \"a\"\n"},
	{"emptied block", "model = \"o3\"\n\n" + start + "\n" + end},
	{"block before a user's entry",
		"a = 1\n\n" + start + "[mcp_servers.\"x\"]\ncommand = \"x\"\n" + end + "\n[mcp_servers.u]\ncommand = \"u\"\n\n[features]\nk = true\n"},
	{"dotted-key user entry", "mcp_servers.user.command = \"u\"\n\n[mcp_servers.a]\ncommand = \"a\"\n"},
	{"blank lines at the end, CRLF",
		"m = 1\r\n\r\n" + MarkerStart + "\r\n[mcp_servers.\"a\"]\r\ncommand = \"a\"\r\n\r\n[mcp_servers.\"b\"]\r\ncommand = \"b\"\r\n" + MarkerEnd + "\r\n\r\n\r\n"},
}

// batchValues gives each server a value of one of the shapes repo writes
// for Codex, different for each round.
func batchValue(name string, round int) []byte {
	switch (len(name) + round) % 4 {
	case 0:
		return []byte(fmt.Sprintf(`{"command":"npx","args":["-y","%s@%d"]}`, name, round))
	case 1:
		return []byte(fmt.Sprintf(`{"command":"python","args":["serve.py"],"env":{"ROOT":"/w/%d","K":"%s"}}`, round, name))
	case 2:
		return []byte(fmt.Sprintf(`{"url":"https://%d.example/mcp","http_headers":{"X-Client":"repo"},"bearer_token_env_var":"T"}`, round))
	}
	return []byte(fmt.Sprintf(`{"command":"node","args":["d.js"],"env_vars":["A"],"tools":{"search":{"approval_mode":"approve"}},"n":%d}`, round))
}

func entryNames(t *testing.T, d *Doc) []string {
	t.Helper()
	ms, _, err := d.Entries(servers)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, m := range ms {
		names = append(names, m.Key)
	}
	return names
}

// setEach and deleteEach are the entry-by-entry path.
func setEach(d *Doc, kvs []KeyValue) (*Doc, error) {
	for _, kv := range kvs {
		var err error
		if d, err = d.set(servers, kv.Name, kv.Value); err != nil {
			return nil, err
		}
	}
	return d, nil
}

func deleteEach(d *Doc, names []string) (*Doc, error) {
	for _, n := range names {
		var err error
		if d, err = d.Delete(servers, n); err != nil {
			return nil, err
		}
	}
	return d, nil
}

// TestBatchEqualsEach: Insert, Replace and DeleteAll give the bytes of a
// Set or Delete of each server in turn, in several orders.
func TestBatchEqualsEach(t *testing.T) {
	newNames := []string{"github", "fs.local", "zeta", "a b", "0042", "ünï"}
	for _, doc := range batchDocs {
		t.Run(doc.name, func(t *testing.T) {
			d, err := Parse([]byte(doc.text))
			if err != nil {
				t.Fatal(err)
			}
			present := entryNames(t, d)
			// Dotted-key entries cannot be edited: leave them out.
			editable := slices.DeleteFunc(slices.Clone(present), func(n string) bool {
				e, _ := d.lookupEntry(servers, n)
				return e.notTables
			})
			orders := map[string][]string{"file order": editable, "reversed": reversed(editable), "sorted": sorted(editable)}

			var adds []KeyValue
			for _, n := range newNames {
				adds = append(adds, KeyValue{n, batchValue(n, 0)})
			}
			ins := same(t, "Insert", func() (*Doc, error) { return d.Insert(servers, adds) }, func() (*Doc, error) { return setEach(d, adds) })
			if back := same(t, "DeleteAll of the inserted", func() (*Doc, error) { return ins.DeleteAll(servers, newNames) },
				func() (*Doc, error) { return deleteEach(ins, newNames) }); back != nil && len(d.strays) == 0 && (d.start < 0 || !d.blockEmpty()) &&
				!bytes.Equal(back.Bytes(), d.Bytes()) {
				t.Errorf("DeleteAll of the inserted servers did not restore the file:\n%q\n%q", d.Bytes(), back.Bytes())
			}

			for oname, order := range orders {
				for round := 1; round <= 2; round++ {
					var kvs []KeyValue
					for i, n := range order {
						if round == 2 && i%2 == 1 {
							continue // some keep their value: no-ops among the edits
						}
						kvs = append(kvs, KeyValue{n, batchValue(n, round)})
					}
					rep := same(t, fmt.Sprintf("Replace (%s, round %d)", oname, round),
						func() (*Doc, error) { return d.Replace(servers, kvs) }, func() (*Doc, error) { return setEach(d, kvs) })
					if rep == nil {
						continue
					}
					if again, err := rep.Replace(servers, kvs); err != nil || again != rep {
						t.Errorf("Replace with the same values again: %v, same document: %v", err, again == rep)
					}
				}
				same(t, "DeleteAll ("+oname+")", func() (*Doc, error) { return d.DeleteAll(servers, order) },
					func() (*Doc, error) { return deleteEach(d, order) })
				// Deleting what was just inserted along with the file's own.
				both := append(slices.Clone(order), newNames...)
				same(t, "DeleteAll after Insert ("+oname+")", func() (*Doc, error) { return ins.DeleteAll(servers, both) },
					func() (*Doc, error) { return deleteEach(ins, both) })
			}
		})
	}
}

// same runs the batch and the entry-by-entry edit and compares them; it
// returns the result, nil after a failure.
func same(t *testing.T, what string, batch, each func() (*Doc, error)) *Doc {
	t.Helper()
	want, err := each()
	if err != nil {
		t.Errorf("%s, entry by entry: %v", what, err)
		return nil
	}
	got, err := batch()
	if err != nil {
		t.Errorf("%s: %v", what, err)
		return nil
	}
	if !bytes.Equal(got.Bytes(), want.Bytes()) {
		t.Errorf("%s: the batch gave\n%s\nentry by entry gave\n%s\n(%q\n%q)", what, got.Bytes(), want.Bytes(), got.Bytes(), want.Bytes())
		return nil
	}
	if _, err := Parse(got.Bytes()); err != nil {
		t.Errorf("%s: the result does not parse: %v", what, err)
	}
	return got
}

func reversed(s []string) []string {
	r := slices.Clone(s)
	slices.Reverse(r)
	return r
}

func sorted(s []string) []string {
	r := slices.Clone(s)
	slices.Sort(r)
	return r
}

// TestBatchRefusals: the batch edits refuse what Set and Delete refuse, with
// the same errors, and what makes no sense for a batch.
func TestBatchRefusals(t *testing.T) {
	d, err := Parse([]byte("a = 1\nmcp_servers.dotted.command = \"d\"\n\n[mcp_servers.x]\ncommand = \"x\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	v := []byte(`{"command":"c"}`)
	var le *LayoutError
	if _, err := d.Replace(servers, []KeyValue{{"x", v}, {"dotted", v}}); !errors.As(err, &le) || le.Line != 2 {
		t.Errorf("Replace of a dotted entry: %v", err)
	}
	if _, err := d.DeleteAll(servers, []string{"x", "dotted"}); !errors.As(err, &le) || le.Line != 2 {
		t.Errorf("DeleteAll of a dotted entry: %v", err)
	}
	tests := []struct {
		what string
		err  error
		msg  string
	}{
		{"Insert of a present server", second(d.Insert(servers, []KeyValue{{"new", v}, {"x", v}})), `server "x" is already in the file`},
		{"Replace of an absent server", second(d.Replace(servers, []KeyValue{{"x", v}, {"new", v}})), `server "new" is not in the file`},
		{"Insert of a name twice", second(d.Insert(servers, []KeyValue{{"n", v}, {"n", v}})), `server "n" is given twice`},
		{"DeleteAll of a name twice", second(d.DeleteAll(servers, []string{"x", "x"})), `server "x" is given twice`},
		{"Insert of null", second(d.Insert(servers, []KeyValue{{"n", v}, {"m", []byte(`{"a":null}`)}})), `server "m" > "a": null has no TOML form`},
		{"Insert of invalid JSON", second(d.Insert(servers, []KeyValue{{"n", []byte(`{`)}})), `the value of server "n" is not valid JSON`},
		{"Insert of a name that is not UTF-8", second(d.Insert(servers, []KeyValue{{"n\xff", v}})), "not valid UTF-8"},
		{"Insert under an inline table", second(mustParse(t, "mcp_servers = {}\n").Insert(servers, []KeyValue{{"n", v}})), "inline table"},
	}
	for _, tc := range tests {
		if tc.err == nil || !strings.Contains(tc.err.Error(), tc.msg) {
			t.Errorf("%s: got %v, want %q", tc.what, tc.err, tc.msg)
		}
	}
	// Nothing to do: the document itself comes back.
	if nd, err := d.DeleteAll(servers, []string{"absent"}); err != nil || nd != d {
		t.Errorf("DeleteAll of an absent server: %v, same document: %v", err, nd == d)
	}
	if nd, err := d.Replace(servers, []KeyValue{{"x", []byte(`{"command":"x"}`)}}); err != nil || nd != d {
		t.Errorf("Replace with the same value: %v, same document: %v", err, nd == d)
	}
	if nd, err := d.Insert(servers, nil); err != nil || nd != d {
		t.Errorf("Insert of nothing: %v, same document: %v", err, nd == d)
	}
}

func second(_ *Doc, err error) error { return err }

func mustParse(t *testing.T, s string) *Doc {
	t.Helper()
	d, err := Parse([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestDecodeParts: a document decoded a server at a time gives go-toml's
// data for the whole, and documents whose servers interfere with the rest
// are decoded whole.
func TestDecodeParts(t *testing.T) {
	tests := []struct {
		doc   string
		parts bool // decoded in parts
	}{
		{"[mcp_servers.a]\nx = 1\n[mcp_servers.b]\ny = 2\n", true},
		{"# c\nmodel = 1\n[mcp_servers.a]\nx = 1\n\n[other]\nk = 1\n[mcp_servers.b.env]\ny = 2\n[mcp_servers]\nz = 3\n[mcp_servers.a.t]\nq = 1", true},
		{"mcp_servers.u.c = 1\n[mcp_servers.a]\nx = 1\n[mcp_servers.b]\ny = 2\n[mcp_servers.c]\n", true},
		{"[mcp_servers.a]\nx = 1\n[mcp_servers.b]\ny = 2\n[[mcp_servers.c]]\n[[mcp_servers.c]]\n[mcp_servers.d]\n", true},
		// Only one server can be decoded apart: the others are dotted keys.
		{"[mcp_servers]\na.x = 1\nb.y = 2\n[mcp_servers.c]\n", false},
		// Not a table: decoded whole.
		{"mcp_servers = { a = { x = 1 }, b = {} }\n", false},
		{"[[mcp_servers]]\na = 1\n[[mcp_servers]]\nb = 1\n", false},
	}
	for _, tc := range tests {
		d, err := Parse([]byte(tc.doc))
		if err != nil {
			t.Fatalf("%q: %v", tc.doc, err)
		}
		parts, ok := d.decodeParts(1)
		if ok != tc.parts {
			t.Errorf("%q: decoded in parts: %v", tc.doc, ok)
		}
		whole, err := validate(d.data)
		if err != nil {
			t.Fatal(err)
		}
		if ok && !tomlEqual(parts, whole) {
			t.Errorf("%q: parts %v, whole %v", tc.doc, parts, whole)
		}
		if !tomlEqual(d.decoded, whole) {
			t.Errorf("%q: Parse decoded %v, go-toml %v", tc.doc, d.decoded, whole)
		}
	}
	// Documents go-toml refuses, although every part and the rest decode:
	// refused with go-toml's error and position.
	for _, doc := range []string{
		"[mcp_servers.a]\nx = 1\n[[mcp_servers]]\n",
		"mcp_servers = 1\n[mcp_servers.a]\nx = 1\n[mcp_servers.b]\n",
		"mcp_servers = {}\n[mcp_servers.a]\nx = 1\n[mcp_servers.b]\n",
		"[mcp_servers.a]\nx = 1\n[mcp_servers.b]\n[mcp_servers.a]\ny = 1\n",
		"[mcp_servers]\na = 1\n[mcp_servers.a]\n[mcp_servers.b]\n",
	} {
		_, werr := validate([]byte(doc))
		if werr == nil {
			t.Fatalf("%q: go-toml accepts it", doc)
		}
		d, err := scanned([]byte(doc))
		if err == nil {
			if _, ok := d.decodeParts(1); ok {
				t.Errorf("%q: decoded in parts", doc)
			}
		}
		if _, err := Parse([]byte(doc)); err == nil || err.Error() != werr.Error() {
			t.Errorf("%q: Parse: %v, want go-toml's %v", doc, err, werr)
		}
	}
	// A large table is decoded in parts by Parse, to go-toml's data.
	var b strings.Builder
	b.WriteString("model = \"o3\"\n\n[mcp_servers]\n")
	for i := range 3*chunkServers + 7 {
		fmt.Fprintf(&b, "[mcp_servers.\"s%d\"]\ncommand = \"c\"\n[mcp_servers.\"s%d\".env]\nK = %d\n", i, i, i)
	}
	b.WriteString("[features]\nx = true\n")
	d := mustParse(t, b.String())
	if _, ok := d.decodeParts(chunkServers); !ok {
		t.Fatal("a large table is not decoded in parts")
	}
	whole, err := validate(d.data)
	if err != nil || !tomlEqual(d.decoded, whole) {
		t.Fatalf("decoded in parts: %v, whole: %v", err, tomlEqual(d.decoded, whole))
	}
}
