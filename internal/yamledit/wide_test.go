package yamledit

import (
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/goccy/go-yaml/ast"
)

// parseWith parses data with pieces of keys keys (0: in one piece).
func parseWith(data []byte, keys int) (*Doc, error) {
	saved := chunkKeys
	defer func() { chunkKeys = saved }()
	chunkKeys = keys
	if keys == 0 {
		chunkKeys = 1 << 30
	}
	return Parse(data)
}

// shape lists the nodes of a document with their kinds and positions, in
// document order.
func shape(d *Doc) []string {
	if d.nodes == nil {
		return nil
	}
	var out []string
	walk(d.nodes.Body, func(n ast.Node) {
		if isImplicitNull(n) {
			// Made up by the parser, at a place that depends on what
			// follows.
			out = append(out, "implicit null")
			return
		}
		line, col := nodePos(n)
		out = append(out, fmt.Sprintf("%s@%d:%d", n.Type(), line, col))
	})
	return out
}

// sameParse checks that two parses of one document agree: both fail, or
// both give the same tree, the same value and the same entries.
func sameParse(t *testing.T, data []byte, whole, cut *Doc, werr, cerr error) {
	t.Helper()
	if (werr == nil) != (cerr == nil) {
		t.Fatalf("in one piece: %v; in pieces: %v\n%q", werr, cerr, data)
	}
	if werr != nil {
		var se *SyntaxError
		if !errors.As(cerr, &se) && !errors.As(cerr, new(*ShapeError)) {
			t.Fatalf("in pieces: %T %v", cerr, cerr)
		}
		return
	}
	if ws, cs := shape(whole), shape(cut); !reflect.DeepEqual(ws, cs) {
		t.Fatalf("the trees differ:\nwhole %v\ncut   %v\n%q", ws, cs, data)
	}
	wv, wok := docValue(t, whole)
	cv, cok := docValue(t, cut)
	if wok != cok || !reflect.DeepEqual(wv, cv) {
		t.Fatalf("the values differ:\nwhole %v\ncut   %v", wv, cv)
	}
	for _, p := range [][]string{extensions, mcpServers, {"a"}, {"x", "servers"}} {
		for _, kind := range []Kind{Map, List} {
			wm, _, we := whole.Entries(p, kind, "name")
			cm, _, ce := cut.Entries(p, kind, "name")
			if fmt.Sprint(we) != fmt.Sprint(ce) || !reflect.DeepEqual(wm, cm) {
				t.Fatalf("Entries(%q, %v) differ:\nwhole %v %v\ncut   %v %v", p, kind, wm, we, cm, ce)
			}
		}
	}
}

// wideDoc is a Goose-shaped file with n extensions, and a mapping of n
// plain keys after it.
func wideDoc(n int) string {
	var b strings.Builder
	b.WriteString("GOOSE_PROVIDER: openai\nextensions:\n")
	for i := range n {
		fmt.Fprintf(&b, "  # about e%d\n  e%d:\n    name: e%d\n    cmd: /bin/e%d # the server\n    args:\n    - -v\n    envs: {K: \"%d\"}\n", i, i, i, i, i)
		if i%7 == 3 {
			fmt.Fprintf(&b, "    description: |\n      line one\n      line two\n")
		}
	}
	b.WriteString("flat:\n")
	for i := range n {
		fmt.Fprintf(&b, "  k%d: %d\n", i, i)
	}
	b.WriteString("GOOSE_MODEL: gpt-4o\n")
	return b.String()
}

func TestWideMappingsInPieces(t *testing.T) {
	for _, doc := range []string{
		wideDoc(7), wideDoc(40), gooseWritten, gooseHand, continueConfig, continueIndented,
		"a: 1\nb: 2\nc: 3\nd: 4\ne: 5\n",
		"- a: 1\n  b: 2\n  c: 3\n  d: 4\n- e: 1\n  f: 2\n  g: 3\n",
		"a:\n  b: 1\n  c:\n    d: 1\n    e: 2\n    f: 3\n    g: 4\n  h: 5\n  i: 6\n",
		"a: 1\nb: &x\n  c: 1\nd: *x\ne: !!str 5\nf: 6\n",
		"a: 1\n? b\n: 2\nc: 3\nd: 4\n",
		"a: 1\nb: |\n  t\nc: >-\n  u\nd: 4\ne: 5\n",
		"a: 1\nb: !!map\nc: 3\nd: 4\n",
		"a: 1\nb: &y\nc: 3\nd: 4\n",
		"a: 1\nb:\n- x\n- y\nc: 3\nd:\n  - z\ne: 5\n",
		"---\na: 1\nb: 2\nc: 3\n...\n",
		"# lead\na: 1 # one\n# two\nb: 2\n\n# three\n\nc: 3\nd: 4\n# end\n",
	} {
		whole, werr := parseWith([]byte(doc), 0)
		for _, keys := range []int{2, 3, 5} {
			before := parsedWhole.Load()
			cut, cerr := parseWith([]byte(doc), keys)
			sameParse(t, []byte(doc), whole, cut, werr, cerr)
			if parsedWhole.Load() != before {
				t.Errorf("%.50q: the pieces did not fit together", doc)
			}
		}
	}
}

// TestWideMappingEdits checks the edits on a file whose mappings are read
// in pieces: the container, other wide mappings and comments between the
// pieces.
func TestWideMappingEdits(t *testing.T) {
	doc := wideDoc(30)
	for _, keys := range []int{2, 7} {
		d, err := parseWith([]byte(doc), keys)
		if err != nil {
			t.Fatal(err)
		}
		saved := chunkKeys
		chunkKeys = keys
		nd, err := d.Insert(extensions, Map, "name", batchEntries(Map, "s1", "s2", "e3x"))
		if err == nil {
			nd, err = nd.Delete(extensions, Map, "name", "e17")
		}
		if err == nil {
			nd, err = nd.Replace(extensions, Map, "name", batchEntries(Map, "s2", "e3"))
		}
		chunkKeys = saved
		if err != nil {
			t.Fatal(err)
		}
		whole, err := parseWith(nd.Bytes(), 0)
		if err != nil {
			t.Fatal(err)
		}
		cut, err := parseWith(nd.Bytes(), keys)
		sameParse(t, nd.Bytes(), whole, cut, nil, err)
		ms, _, _ := whole.Entries(extensions, Map, "name")
		if len(ms) != 30+3-1 {
			t.Fatalf("%d entries", len(ms))
		}
	}
}

// TestWideUncut checks a wide mapping that cannot be cut: read in one
// piece up to maxWholeKeys keys, refused beyond.
func TestWideUncut(t *testing.T) {
	var b strings.Builder
	b.WriteString("m:\n")
	for i := range maxWholeKeys + 1 {
		fmt.Fprintf(&b, "  ? k%d\n  : %d\n", i, i)
	}
	_, err := Parse([]byte(b.String()))
	var se *SyntaxError
	if !errors.As(err, &se) || se.Line != 2 || se.Col != 3 || !strings.Contains(se.Msg, "4097 keys") {
		t.Fatalf("got %v", err)
	}
	if _, err := parseWith([]byte("m:\n  ? a\n  : 1\n  ? b\n  : 2\n  ? c\n  : 3\n"), 2); err != nil {
		t.Fatal(err)
	}
}

// BenchmarkParseWide parses Goose files of 1,000 to 100,000 extensions,
// and a mapping of 100,000 one-line keys (1 MB).
func BenchmarkParseWide(b *testing.B) {
	flat := func(n int) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "k%d: v\n", i)
		}
		return b.String()
	}
	for _, c := range []struct {
		name string
		doc  string
	}{
		{"goose-1000", wideDoc(1000)}, {"goose-10000", wideDoc(10000)}, {"flat-100000", flat(100_000)},
	} {
		data := []byte(c.doc)
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Parse(data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// FuzzWideParse checks that parsing in pieces of two keys reads every
// document as one parse does.
func FuzzWideParse(f *testing.F) {
	for _, s := range []string{
		wideDoc(5), gooseWritten, gooseHand, gooseNoMarkers, continueConfig, continueIndented, continueMarkersApart,
		"a: 1\nb: 2\nc: 3\n", "a: 1\nb: |\n  x\nc: 3\nd: 4\n", "a: 1\nb: &x 2\nc: *x\nd: 4\n", "a: 1\n? b\n: 2\nc: 3\n",
		"x:\n  a: 1\n  b:\n    c: 1\n    d: 2\n    e: 3\n  f: 4\n", "- a: 1\n  b: 2\n  c: 3\n", "a: 1\nb: -\nc: 3\nd: 4\n",
		"a: 1\nb: !t\nc: 3\nd: 4\n", "a: 1\nb:\n- x\nc: 3\n", "a: [1,\n  2]\nb: {c: 1,\n d: 2}\ne: 3\n", "a: 1\nb: 'x\n  y'\nc: 3\nd: 4\n",
	} {
		f.Add(s)
	}
	for _, tc := range goldenCases {
		f.Add(tc.in)
		f.Add(tc.want)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		data := []byte(doc)
		whole, werr := parseWith(data, 0)
		cut, cerr := parseWith(data, 2)
		sameParse(t, data, whole, cut, werr, cerr)
	})
}

// TestWideParsedCheaply checks the cost of a mapping of 20,000 keys: in
// one piece goccy/go-yaml allocated 1.6 GB for it (and 38 GB for 100,000).
func TestWideParsedCheaply(t *testing.T) {
	var b strings.Builder
	for i := range 20_000 {
		fmt.Fprintf(&b, "k%d: v\n", i)
	}
	data := []byte(b.String())
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	d, err := Parse(data)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if d.root == nil || len(d.root.Values) != 20_000 {
		t.Fatal("not all keys read")
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 200<<20 {
		t.Errorf("parsing %d bytes allocated %d bytes", len(data), alloc)
	}
}
