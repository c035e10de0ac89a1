package tomledit

import (
	"bytes"
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/pelletier/go-toml/v2"

	"github.com/repo-manager/repo/internal/jsonvalue"
)

var servers = []string{"mcp_servers"}

func addSeeds(f *testing.F, withValue bool) {
	docs := []string{"", "\n", "\ufeff", "# only a comment", "a = 1", "a = 1\n\n\n", "a = 1\r\n",
		"[mcp_servers]\n", "mcp_servers = {}\n", "mcp_servers.x.command = \"a\"\n",
		"[mcp_servers.x]\ncommand = \"a\"\n[other]\nk = 1\n[mcp_servers.x.env]\nK = \"v\"\n",
		"s = \"\"\"\n# >>> repo managed MCP servers: edit .repository/extensions instead; repo sync rewrites this block\n\"\"\"\n",
		"[[a]]\nb = 1\n[[a]]\n[a.c]\nd = 2020-01-01T00:00:00Z\ne = inf\nf = 0x1F\ng = 1_000.5e-3\n",
		"x = [1, # c\n 2]\ny = { a.b = 1, c = [ { d = 'e' } ] }\n",
	}
	docs = append(docs, realDocs()...)
	for _, doc := range docs {
		if !withValue {
			f.Add([]byte(doc))
			continue
		}
		for _, name := range []string{"x", "fresh", "user_srv", ""} {
			f.Add([]byte(doc), name, []byte(`{"command":"npx","args":["-y","pkg"],"env":{"K":"V"}}`))
		}
	}
	if withValue {
		for _, name := range hostileNames {
			f.Add([]byte(codexAppConfig), name, []byte(`{"command":"x","tools":{"s":{"approval_mode":"never"}},"n":[{"a":1},{"b":[2.5]}],"e":{},"f":1e3}`))
		}
	}
}

// FuzzParse: Parse never panics; the ordered tree it builds agrees with what
// go-toml decodes, and its expressions cover the document.
func FuzzParse(f *testing.F) {
	addSeeds(f, false)
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := Parse(data)
		if err != nil {
			if _, ok := err.(*SyntaxError); !ok {
				if _, ok := err.(*LayoutError); !ok {
					t.Fatalf("error of type %T: %v", err, err)
				}
			}
			return
		}
		if !bytes.Equal(d.Bytes(), data) {
			t.Fatal("Bytes differs from the input")
		}
		checkCoverage(t, d)
		var want map[string]any
		if err := toml.Unmarshal(data[d.bom:], &want); err != nil {
			t.Fatal(err)
		}
		got := d.root.appendJSON(nil)
		if !json.Valid(got) {
			t.Fatalf("tree is not valid JSON: %s", got)
		}
		v, _ := jsonvalue.Decode(got)
		if !sameAsTOML(v, want) {
			t.Fatalf("tree %s differs from go-toml's %#v", got, want)
		}
		d.Entries(servers)
		for _, k := range d.root.keys {
			d.Entries([]string{k})
		}
	})
}

// FuzzDecodeParts: decoding a document a server at a time (decodeParts,
// which Parse does by 128 servers in large tables) accepts only what
// go-toml accepts of the whole document, and gives the same data.
func FuzzDecodeParts(f *testing.F) {
	addSeeds(f, false)
	for _, doc := range []string{
		"[mcp_servers.a]\nx = 1\n[mcp_servers.b]\ny = 2\n",
		"mcp_servers.u.c = 1\n[mcp_servers.a]\nx = 1\n[mcp_servers.b.env]\nK = 1\n[mcp_servers]\nz = 3\n",
		"[mcp_servers.a]\nx = 1\n[mcp_servers.b]\ny = 2\n[[mcp_servers]]\n",
		"[mcp_servers.a]\nx = 1\n[mcp_servers.a]\ny = 2\n[mcp_servers.b]",
		"[mcp_servers]\na.x = 1\n[mcp_servers.a.y]\n[mcp_servers.b]\n[[mcp_servers.c]]\n[[mcp_servers.c]]\n",
	} {
		f.Add([]byte(doc))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := scanned(data)
		if err != nil {
			return
		}
		parts, ok := d.decodeParts(1)
		whole, err := validate(data[d.bom:])
		if !ok {
			return
		}
		if err != nil {
			t.Fatalf("the parts decode, but go-toml refuses the whole document: %v", err)
		}
		if !tomlEqual(parts, whole) {
			t.Fatalf("the parts decode to %v, the whole document to %v", parts, whole)
		}
	})
}

// checkCoverage checks that the expressions are ordered, whole lines, and
// that only whitespace lies between them.
func checkCoverage(t *testing.T, d *Doc) {
	t.Helper()
	prev := d.bom
	for _, e := range d.exprs {
		if e.start < prev || e.end < e.start {
			t.Fatalf("expression %+v overlaps the previous one (ends at %d)", e, prev)
		}
		if len(bytes.Trim(d.data[prev:e.start], " \t\r\n")) != 0 {
			t.Fatalf("bytes %q between expressions", d.data[prev:e.start])
		}
		if e.line != lineOf(d.data, e.start) {
			t.Fatalf("expression at %d: line %d, want %d", e.start, e.line, lineOf(d.data, e.start))
		}
		prev = e.end
	}
	if len(bytes.Trim(d.data[prev:], " \t\r\n")) != 0 {
		t.Fatalf("bytes %q after the last expression", d.data[prev:])
	}
}

// sameAsTOML compares our JSON (decoded with UseNumber) with go-toml's value.
func sameAsTOML(ours, theirs any) bool {
	switch y := theirs.(type) {
	case map[string]any:
		x, ok := ours.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range y {
			if w, ok := x[k]; !ok || !sameAsTOML(w, v) {
				return false
			}
		}
		return true
	case []any:
		x, ok := ours.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range y {
			if !sameAsTOML(x[i], y[i]) {
				return false
			}
		}
		return true
	case int64:
		n, ok := ours.(json.Number)
		i, err := strconv.ParseInt(string(n), 10, 64)
		return ok && err == nil && i == y
	case float64:
		if math.IsInf(y, 0) || math.IsNaN(y) {
			s, ok := ours.(string)
			return ok && (strings.HasSuffix(s, "inf") || strings.HasSuffix(s, "nan"))
		}
		n, ok := ours.(json.Number)
		g, err := strconv.ParseFloat(string(n), 64)
		return ok && err == nil && strings.ContainsAny(string(n), ".e") && g == y
	case string, bool:
		return ours == theirs
	case time.Time, toml.LocalDate, toml.LocalTime, toml.LocalDateTime:
		_, ok := ours.(string)
		return ok
	}
	return false
}

// FuzzEdit checks the editing invariants. For a document that parses, has a
// readable server table and no server name:
//   - Set succeeds whenever the value can be rendered; the result parses, its
//     entries are the old ones plus the new one with the value;
//   - a second identical Set is a no-op (same bytes);
//   - a Set with another value replaces the entry in place;
//   - Delete gives back exactly the original bytes (unless the document held
//     a malformed or empty managed block, which Set repairs);
//   - the batch edits of one server (Insert or Replace, DeleteAll) give the
//     bytes of Set and Delete, and fail where they fail.
//
// Nothing may panic.
func FuzzEdit(f *testing.F) {
	addSeeds(f, true)
	f.Fuzz(func(t *testing.T, doc []byte, name string, value []byte) {
		d, err := Parse(doc)
		if err != nil {
			return
		}
		before, _, err := d.Entries(servers)
		if err != nil {
			if _, err := d.set(servers, name, value); err == nil {
				t.Fatal("Set succeeded on a document whose server table cannot be read")
			}
			return
		}
		present := false
		for _, m := range before {
			present = present || m.Key == name
		}
		nd, err := d.set(servers, name, value)
		batch := d.Insert
		if present {
			batch = d.Replace
		}
		bd, berr := batch(servers, []KeyValue{{name, value}})
		if (err == nil) != (berr == nil) {
			t.Fatalf("Set: %v, but the batch edit of the same server: %v", err, berr)
		}
		if err != nil {
			_, rerr := renderEntry(servers, name, value, "\n")
			if !present && rerr == nil && json.Valid(value) && utf8.Valid(value) && utf8.ValidString(name) {
				t.Fatalf("Set failed on a renderable value: %v", err)
			}
			return
		}
		if !bytes.Equal(bd.Bytes(), nd.Bytes()) {
			t.Fatalf("the batch edit of one server differs from Set:\n%q\n%q", bd.Bytes(), nd.Bytes())
		}
		if _, err := Parse(nd.Bytes()); err != nil {
			t.Fatalf("result does not parse: %v\n%s", err, nd.Bytes())
		}
		var m map[string]any
		if err := toml.Unmarshal(nd.data[nd.bom:], &m); err != nil {
			t.Fatalf("go-toml rejects the result: %v", err)
		}
		after, _, err := nd.Entries(servers)
		if err != nil {
			t.Fatal(err)
		}
		checkEntries(t, before, after, name, value)
		again, err := nd.set(servers, name, value)
		if err != nil || !bytes.Equal(again.Bytes(), nd.Bytes()) {
			t.Fatalf("second Set: %v\n%s\n---\n%s", err, nd.Bytes(), again.Bytes())
		}
		if present {
			return
		}
		other := []byte(`{"command":"other","env":{"Z":"1"}}`)
		od, err := nd.set(servers, name, other)
		if err != nil {
			t.Fatalf("replacing: %v", err)
		}
		oe, _, _ := od.Entries(servers)
		checkEntries(t, before, oe, name, other)

		back, err := nd.Delete(servers, name)
		if err != nil {
			t.Fatalf("Delete: %v\n%s", err, nd.Bytes())
		}
		if bback, err := nd.DeleteAll(servers, []string{name}); err != nil || !bytes.Equal(bback.Bytes(), back.Bytes()) {
			t.Fatalf("DeleteAll of one server differs from Delete (%v):\n%q\n%q", err, bback.Bytes(), back.Bytes())
		}
		exact := len(d.strays) == 0 && (d.start < 0 || !d.blockEmpty())
		if exact && !bytes.Equal(back.Bytes(), doc) {
			t.Fatalf("Delete did not restore the original:\n%q\n%q\n%q", doc, nd.Bytes(), back.Bytes())
		}
		final, _, err := back.Entries(servers)
		if err != nil {
			t.Fatal(err)
		}
		checkEntries(t, before, final, "", nil)
		if back2, err := od.Delete(servers, name); err != nil {
			t.Fatalf("Delete after replace: %v", err)
		} else if exact && !bytes.Equal(back2.Bytes(), doc) {
			t.Fatalf("Delete after replace did not restore the original:\n%q\n%q\n%q", doc, od.Bytes(), back2.Bytes())
		}
	})
}

// checkEntries checks that after holds the members of before unchanged, plus
// name with value when value is not nil.
func checkEntries(t *testing.T, before, after []Member, name string, value []byte) {
	t.Helper()
	got := map[string][]byte{}
	for _, m := range after {
		got[m.Key] = m.Value
	}
	n := 0
	for _, m := range before {
		if value != nil && m.Key == name {
			continue
		}
		n++
		if !bytes.Equal(got[m.Key], m.Value) {
			t.Fatalf("entry %q changed: %s -> %s", m.Key, m.Value, got[m.Key])
		}
	}
	if value != nil {
		n++
		if !jsonEqual(got[name], value) {
			t.Fatalf("entry %q reads %s, want %s", name, got[name], value)
		}
	}
	if len(after) != n {
		t.Fatalf("%d entries, want %d", len(after), n)
	}
}

// FuzzBatch holds Insert, Replace and DeleteAll to the entry-by-entry edits
// on any document: every server the document holds is replaced (some with
// the value they have) and deleted, in an order the fuzzer picks, and the
// servers named in names are inserted and deleted again. The batch edit
// fails exactly when the edits one by one fail, and otherwise gives their
// bytes; its result parses; replacing again with the same values returns
// the same document; deleting what was inserted gives back the original
// bytes (unless the document held a malformed or empty managed block).
func FuzzBatch(f *testing.F) {
	for _, doc := range append(realDocs(), func() []string {
		var ds []string
		for _, d := range batchDocs {
			ds = append(ds, d.text)
		}
		return ds
	}()...) {
		for order := range uint8(5) {
			f.Add([]byte(doc), "github,fs.local,a b,0042", order)
		}
	}
	f.Fuzz(func(t *testing.T, doc []byte, names string, order uint8) {
		d, err := Parse(doc)
		if err != nil {
			return
		}
		ms, _, err := d.Entries(servers)
		if err != nil {
			if _, err := d.Insert(servers, []KeyValue{{"x", []byte(`{}`)}}); err == nil {
				t.Fatal("Insert succeeded on a document whose server table cannot be read")
			}
			return
		}
		present := map[string][]byte{}
		var editable []string
		for _, m := range ms {
			present[m.Key] = m.Value
			if e, err := d.lookupEntry(servers, m.Key); err == nil && !e.notTables && len(e.groups) > 0 {
				editable = append(editable, m.Key)
			}
		}
		switch order % 5 {
		case 1:
			slices.Reverse(editable)
		case 2:
			slices.Sort(editable)
		case 3:
			if len(editable) > 0 {
				k := int(order/5) % len(editable)
				editable = append(editable[k:], editable[:k]...)
			}
		case 4: // every other one, then the rest
			var a, b []string
			for i, n := range editable {
				if i%2 == 0 {
					a = append(a, n)
				} else {
					b = append(b, n)
				}
			}
			editable = append(a, b...)
		}

		var kvs []KeyValue
		for i, n := range editable {
			v := batchValue(n, 1+int(order)%2)
			if i%3 == 2 {
				v = present[n] // the value it has: a no-op among the edits
			}
			kvs = append(kvs, KeyValue{n, v})
		}
		if rep := sameOrBothFail(t, "Replace", func() (*Doc, error) { return d.Replace(servers, kvs) },
			func() (*Doc, error) { return setEach(d, kvs) }); rep != nil {
			if again, err := rep.Replace(servers, kvs); err != nil || again != rep {
				t.Fatalf("Replace again: %v, same document: %v", err, again == rep)
			}
		}
		sameOrBothFail(t, "DeleteAll", func() (*Doc, error) { return d.DeleteAll(servers, editable) },
			func() (*Doc, error) { return deleteEach(d, editable) })

		var adds []KeyValue
		var added []string
		for _, n := range strings.Split(names, ",") {
			if _, ok := present[n]; ok || !utf8.ValidString(n) || slices.Contains(added, n) || len(added) == 6 {
				continue
			}
			adds = append(adds, KeyValue{n, batchValue(n, int(order))})
			added = append(added, n)
		}
		ins := sameOrBothFail(t, "Insert", func() (*Doc, error) { return d.Insert(servers, adds) },
			func() (*Doc, error) { return setEach(d, adds) })
		if ins == nil {
			return
		}
		back := sameOrBothFail(t, "DeleteAll of the inserted", func() (*Doc, error) { return ins.DeleteAll(servers, added) },
			func() (*Doc, error) { return deleteEach(ins, added) })
		exact := len(d.strays) == 0 && (d.start < 0 || !d.blockEmpty())
		if back == nil || exact && !bytes.Equal(back.Bytes(), doc) {
			t.Fatalf("deleting the inserted servers did not restore the original:\n%q\n%q", doc, ins.Bytes())
		}
		all := append(slices.Clone(added), editable...)
		sameOrBothFail(t, "DeleteAll of all", func() (*Doc, error) { return ins.DeleteAll(servers, all) },
			func() (*Doc, error) { return deleteEach(ins, all) })
	})
}

// sameOrBothFail runs a batch edit and the same edits one by one: both fail,
// or both give the same bytes, which parse. It returns the result, nil when
// both failed.
func sameOrBothFail(t *testing.T, what string, batch, each func() (*Doc, error)) *Doc {
	t.Helper()
	want, werr := each()
	got, gerr := batch()
	if (werr == nil) != (gerr == nil) {
		t.Fatalf("%s: the batch edit: %v; one by one: %v", what, gerr, werr)
	}
	if werr != nil {
		return nil
	}
	if !bytes.Equal(got.Bytes(), want.Bytes()) {
		t.Fatalf("%s: the batch edit gave\n%q\none by one gave\n%q", what, got.Bytes(), want.Bytes())
	}
	if _, err := Parse(got.Bytes()); err != nil {
		t.Fatalf("%s: the result does not parse: %v", what, err)
	}
	return got
}
