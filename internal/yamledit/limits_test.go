package yamledit

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/lexer"
)

// nested returns a document nesting depth collections in the given style,
// the deepest holding a scalar, under a key next to a Continue container.
func nested(style string, depth int) string {
	var b strings.Builder
	b.WriteString("mcpServers: []\nx:")
	switch style {
	case "flow-seq":
		b.WriteString(" " + strings.Repeat("[", depth) + "1" + strings.Repeat("]", depth) + "\n")
	case "flow-map":
		b.WriteString(" " + strings.Repeat("{a: ", depth) + "1" + strings.Repeat("}", depth) + "\n")
	case "flow-lines":
		b.WriteString("\n")
		for i := 0; i < depth; i++ {
			b.WriteString("  [\n")
		}
		b.WriteString("  1\n" + strings.Repeat("  ]\n", depth))
	case "dashes":
		b.WriteString("\n" + strings.Repeat("- ", depth) + "a\n")
	case "questions":
		b.WriteString("\n" + strings.Repeat("? ", depth) + "a\n")
	case "block-map":
		b.WriteString("\n")
		for i := 1; i <= depth; i++ {
			b.WriteString(strings.Repeat(" ", i) + "a:\n")
		}
	case "block-seq":
		b.WriteString("\n")
		for i := 0; i < depth; i++ {
			b.WriteString(strings.Repeat(" ", i) + "-\n")
		}
	case "flush":
		// Keys whose sequences are flush with them: two levels a column.
		b.WriteString("\n")
		for i := 0; i < depth/2; i++ {
			b.WriteString(strings.Repeat("  ", i) + "- a:\n")
		}
	}
	return b.String()
}

var nestedStyles = []string{"flow-seq", "flow-map", "flow-lines", "dashes", "questions", "block-map", "block-seq", "flush"}

// TestLimitsRefuseDeepNesting checks that a document nested deeper than
// maxNesting is refused before it is parsed, with its line and a message
// saying what to do, and that one just under the limit is read.
func TestLimitsRefuseDeepNesting(t *testing.T) {
	for _, style := range nestedStyles {
		t.Run(style, func(t *testing.T) {
			over := maxNesting + 2
			if style == "flush" {
				over = 2*maxNesting + 4 // two levels per counted column
			}
			_, err := Parse([]byte(nested(style, over)))
			var se *SyntaxError
			if !errors.As(err, &se) || !strings.Contains(se.Msg, "nested more than 1000 levels deep") || !strings.Contains(se.Msg, "flatten") {
				t.Fatalf("got %v, want the nesting refused", err)
			}
			if se.Line < 2 || se.Col < 1 {
				t.Fatalf("position %d:%d", se.Line, se.Col)
			}
			if _, err := Parse([]byte(nested(style, maxNesting/2))); err != nil && errors.As(err, &se) && strings.Contains(se.Msg, "nested more than") {
				t.Fatalf("half the limit refused: %v", err)
			}
		})
	}
}

// TestLimitsNotFooled checks that brackets, dashes and indentation inside
// scalars and comments are not taken for nesting, and that ordinary
// files pass.
func TestLimitsNotFooled(t *testing.T) {
	deep := strings.Repeat("[", 5000)
	for _, doc := range []string{
		"a: \"" + deep + "\"\n",
		"a: '" + deep + "'\n",
		"a: x" + deep + "\n",
		"a: 1 # " + deep + "\n",
		"# " + deep + "\n",
		"a: |\n  " + deep + "\n  " + strings.Repeat("- ", 3000) + "\nb: 1\n",
		"a: >-\n" + func() string {
			var b strings.Builder
			for i := 2; i < 3000; i++ {
				b.WriteString(strings.Repeat(" ", i) + "x\n")
			}
			return b.String()
		}() + "b: 1\n",
		"a: \"multi\n  line " + deep + "\n  end\"\nb: [\"" + deep + "\", '" + deep + "']\n",
		"a: [1, \"x ]]]] [[[[\", {b: '[[[['}] # [[[[\n" + "c: " + strings.Repeat("[", 900) + strings.Repeat("]", 900) + "\n",
		gooseWritten, gooseHand, continueConfig, continueIndented, dropInOne,
	} {
		if err := checkLimits([]byte(doc)); err != nil {
			t.Errorf("%.60q: %v", doc, err)
		}
	}
	for _, tc := range goldenCases {
		if err := checkLimits([]byte(tc.in)); err != nil {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
}

func TestLimitsSize(t *testing.T) {
	big := make([]byte, maxBytes+1)
	for i := range big {
		big[i] = '#'
	}
	_, err := Parse(big)
	var se *SyntaxError
	if !errors.As(err, &se) || se.Line != 1 || !strings.Contains(se.Msg, "up to 8 MiB") {
		t.Fatalf("got %v", err)
	}
}

// TestNestedRefusedCheaply is the file of issue 10 (100 KB of "[", which
// took 11 GB and 13 s): it is refused having allocated next to nothing.
func TestNestedRefusedCheaply(t *testing.T) {
	for _, style := range []string{"flow-seq", "dashes", "flow-map"} {
		doc := []byte(nested(style, 50_000))
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		_, err := Parse(doc)
		runtime.ReadMemStats(&after)
		if err == nil {
			t.Fatalf("%s: accepted", style)
		}
		// Parse copies the input (100 KB); the scan itself needs a stack
		// of at most maxNesting columns.
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 1<<20 {
			t.Errorf("%s: refusing a %d-byte file allocated %d bytes", style, len(doc), alloc)
		}
	}
}

// BenchmarkParseNested parses the 100 KB nested file of issue 10.
func BenchmarkParseNested(b *testing.B) {
	for _, style := range []string{"flow-seq", "dashes", "block-map"} {
		doc := []byte(nested(style, 50_000))
		if style == "block-map" {
			doc = []byte(nested(style, 440)) // 100 KB of indentation
		}
		b.Run(style, func(b *testing.B) {
			b.SetBytes(int64(len(doc)))
			b.ReportAllocs()
			for b.Loop() {
				_, _ = Parse(doc)
			}
		})
	}
}

// collectionDepth is how deeply goccy/go-yaml nests collections in n.
func collectionDepth(n ast.Node) int {
	if isNil(n) {
		return 0
	}
	switch x := n.(type) {
	case *ast.MappingNode:
		m := 0
		for _, v := range x.Values {
			m = max(m, collectionDepth(v.Key), collectionDepth(v.Value))
		}
		return 1 + m
	case *ast.MappingValueNode:
		return 1 + max(collectionDepth(x.Key), collectionDepth(x.Value))
	case *ast.SequenceNode:
		m := 0
		for _, v := range x.Values {
			m = max(m, collectionDepth(v))
		}
		return 1 + m
	case *ast.MappingKeyNode:
		return collectionDepth(x.Value)
	case *ast.AnchorNode:
		return collectionDepth(x.Value)
	case *ast.TagNode:
		return collectionDepth(x.Value)
	}
	return 0
}

// FuzzLimits checks the token count against the parser: with a limit of
// 6, a document scanTokens lets through nests at most twice as deep
// (plus one) in goccy/go-yaml's tree. The byte scan must not panic.
func FuzzLimits(f *testing.F) {
	for _, style := range nestedStyles {
		for _, depth := range []int{3, 6, 7, 13} {
			f.Add(nested(style, depth))
		}
	}
	for _, s := range []string{
		"a:\n- b:\n  - c:\n    - d:\n      - e:\n        - f:\n          - g: [[[x]]]\n",
		"- - - - - - - - a\n", "? - ? - ? - a\n: x\n", "a: !!seq [[[[[[[[1]]]]]]]]\n", "a: &x {b: [{c: [{d: 1}]}]}\n",
		"a: |\n  [[[[[[[[[\n", "a: \"[[[[[[[[\"\n", "--- [[[[[[[[1]]]]]]]]\n", "a:\n  - [\n    [\n      [[[[[1]]]]]]]\n",
		"a: 'it''s [[[[[[['\n", "a: \"\\\" [[[[[[[[\"\n", "- |2\n   - - - - - - - -\n", "k: >\n\n  a\n b: [[[[[[[[1]]]]]]]]\n",
	} {
		f.Add(s)
	}
	for _, tc := range goldenCases {
		f.Add(tc.in)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		const limit = 6
		_ = scanLimits([]byte(doc), limit) // must not panic
		src := strings.ReplaceAll(doc, "\r\n", "\n")
		if _, err := scanTokens(lexer.Tokenize(src), limit); err != nil {
			return
		}
		_, file, err := goccyParse(src)
		if err != nil {
			return
		}
		for _, d := range file.Docs {
			if got := collectionDepth(d.Body); got > 2*limit+1 {
				t.Fatalf("the scan let through a document nested %d deep (limit %d):\n%s", got, limit, doc)
			}
		}
	})
}

// TestLimitsTokensCatchWhatTheScanMisses checks nesting the byte scan
// takes for quoted text (a quote inside a multi-line plain scalar starts
// no quoted scalar): the token check refuses it.
func TestLimitsTokensCatchWhatTheScanMisses(t *testing.T) {
	for _, doc := range []string{
		"a: x\n  \"y\nb:\n" + strings.Repeat("- ", maxNesting+1) + "z\nc: \"\n",
		"a: [x \"y, " + strings.Repeat("[", maxNesting+1) + strings.Repeat("]", maxNesting+1) + ", \"]\n",
	} {
		if err := checkLimits([]byte(doc)); err != nil {
			t.Fatalf("the scan saw it already (%v): find another example", err)
		}
		_, err := Parse([]byte(doc))
		var se *SyntaxError
		if !errors.As(err, &se) || !strings.Contains(se.Msg, "nested more than") || se.Line < 1 {
			t.Fatalf("%.40q: got %v, want the nesting refused", doc, err)
		}
	}
}

// laughs is a "billion laughs" document: ten anchors, each a list of ten
// aliases of the one before, 10^10 values once expanded.
func laughs(indent string) string {
	var b strings.Builder
	b.WriteString(indent + "l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n")
	for i := 1; i < 10; i++ {
		fmt.Fprintf(&b, "%sl%d: &l%d [%s]\n", indent, i, i, strings.TrimSuffix(strings.Repeat(fmt.Sprintf("*l%d, ", i-1), 10), ", "))
	}
	return b.String()
}

// TestBillionLaughs checks that alias expansion is bounded: in an entry
// it is refused at the alias, cheaply; elsewhere in the file it is never
// expanded, and the file is edited.
func TestBillionLaughs(t *testing.T) {
	inEntry := "extensions:\n  bomb:\n" + laughs("    ")
	d := mustParse(t, inEntry)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, _, err := d.Entries(extensions, Map, "name")
	runtime.ReadMemStats(&after)
	var se *ShapeError
	if !errors.As(err, &se) || !strings.Contains(se.Msg, "billion laughs") || se.Line < 4 {
		t.Fatalf("got %v", err)
	}
	// The expansion stops after maxExpanded values of a few bytes each.
	t.Logf("expansion refused after %d bytes", after.TotalAlloc-before.TotalAlloc)
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > allocSlack*64<<20 {
		t.Errorf("refusing the expansion allocated %d bytes", alloc)
	}
	if _, err := d.set(extensions, Map, "name", "s", []byte(`{"cmd":"x"}`)); !errors.As(err, &se) {
		t.Fatalf("Set: %v", err)
	}

	elsewhere := "lols:\n" + laughs("  ") + "extensions:\n  a: {cmd: y}\n"
	d = mustParse(t, elsewhere)
	nd, err := d.Insert(extensions, Map, "name", batchEntries(Map, "s", "t"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(nd.Bytes()), elsewhere) {
		t.Fatalf("the user's lines changed:\n%s", nd.Bytes())
	}
}
