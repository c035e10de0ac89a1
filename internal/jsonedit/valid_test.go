package jsonedit

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/tidwall/pretty"

	"github.com/repo-manager/repo/internal/textedit"
)

// reference is what validate must agree with.
func reference(b []byte) bool { return json.Valid(b) && utf8.Valid(b) }

var validateCases = []string{
	``, ` `, `{}`, `[]`, `""`, `0`, `-0`, `1`, `-1`, `12.5e+3`, `1E-2`, `true`, `false`, `null`,
	`01`, `-`, `1.`, `.5`, `1e`, `1e+`, `+1`, `0x10`, `1.5.5`, `--1`, `1ee2`, `NaN`, `Infinity`,
	`tru`, `truex`, `nul`, `nullx`, `fals`, `True`, `"`, `"\"`, `"\\"`, `"\/"`, `"\b\f\n\r\t"`,
	`"\u00e9"`, `"\u00E9"`, `"\u00g9"`, `"\u00"`, `"\x"`, `"\'"`, "\"\t\"", "\"\x7f\"", "\"\x1f\"",
	`"é"`, "\"\xff\"", "\"\xc3\"", "\"\xed\xa0\x80\"", "\"\xef\xbf\xbd\"", "\"\xf0\x9f\x98\x80\"",
	"\xc3\xa9", `{"a":1}`, `{"a":1,}`, `{"a" 1}`, `{"a":}`, `{a:1}`, `{"a":1 "b":2}`, `{,}`, `[,]`,
	`[1,]`, `[1 2]`, `[1,,2]`, `[`, `]`, `{`, `}`, `[}`, `{]`, `{"a":[}`, `[{]}`, `{"a":{"b":[1,{"c":null}]}}`,
	" \t\r\n{ \"a\" : [ 1 , 2 ] } \n", `{} {}`, `{}x`, `{}/`, "{}\x00", "\xef\xbb\xbf{}", `{"a":1}}`,
	`{"a":"` + strings.Repeat("x", 1000) + `"}`, `[` + strings.Repeat(`"abcdefgh",`, 300) + `1]`,
	`"` + strings.Repeat("é", 30) + `"`, `"abcdefg\"hijklmn"`, `"abcdefghijklmno\`, `"abcdefghijklm` + "\x01" + `"`,
	strings.Repeat("[", maxDepth) + strings.Repeat("]", maxDepth),
	strings.Repeat("[", maxDepth+1) + strings.Repeat("]", maxDepth+1),
	strings.Repeat(`{"a":`, maxDepth) + "1" + strings.Repeat("}", maxDepth),
	strings.Repeat(`{"a":`, maxDepth+1) + "1" + strings.Repeat("}", maxDepth+1),
}

func TestValidateAgreesWithEncodingJSON(t *testing.T) {
	for _, c := range validateCases {
		_, got := validate([]byte(c))
		if want := reference([]byte(c)); got != want {
			t.Errorf("validate(%.60q) = %v, json.Valid && utf8.Valid = %v", c, got, want)
		}
	}
	// Every prefix of valid documents: truncation is the commonest damage.
	for _, doc := range []string{mcpJSON, `{"a":[1,-2.5e+3,true,false,null,"\u00e9\n",{"b":{}}]}`} {
		for i := range len(doc) {
			_, got := validate([]byte(doc[:i]))
			if want := reference([]byte(doc[:i])); got != want {
				t.Errorf("validate(prefix %d of %.40q) = %v, want %v", i, doc, got, want)
			}
		}
	}
}

// TestValidateMutations flips, drops and inserts bytes of real-shaped
// documents at every offset.
func TestValidateMutations(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	docs := [][]byte{[]byte(mcpJSON), claudeShaped(200), []byte(`{"k":"` + strings.Repeat(`ab\"\\é\u00e9`, 20) + `"}`)}
	alphabet := []byte("{}[],:\"\\ \t\n0123456789-+.eEtrufalsn/u\x00\x1f\x7f\xc3\xa9\xff")
	for _, doc := range docs {
		for n := 0; n < max(400, 3000*len(mcpJSON)/len(doc)); n++ {
			b := mutate(r, doc, alphabet, 1)
			if _, got := validate(b); got != reference(b) {
				t.Fatalf("validate disagrees with json.Valid && utf8.Valid (%v) on %q", got, b)
			}
		}
	}
}

// mutate returns a copy of doc with n bytes replaced, dropped or inserted
// (from alphabet) at random offsets.
func mutate(r *rand.Rand, doc, alphabet []byte, n int) []byte {
	b := bytes.Clone(doc)
	for range n {
		at := r.IntN(len(b))
		switch r.IntN(3) {
		case 0:
			b[at] = alphabet[r.IntN(len(alphabet))]
		case 1:
			b = append(b[:at], b[at+1:]...)
		default:
			b = slices.Insert(b, at, alphabet[r.IntN(len(alphabet))])
		}
	}
	return b
}

// TestValidateIndex checks the index against the scanner: every large
// container is in it, with its matching close, and nothing small is.
func TestValidateIndex(t *testing.T) {
	doc := claudeShaped(300)
	idx, ok := validate(doc)
	if !ok {
		t.Fatal("the generated document is not valid")
	}
	var want spans
	for i := 0; i < len(doc); i++ {
		switch doc[i] {
		case '"':
			i = stringEnd(doc, i) - 1
		case '{', '[':
			if end := valueEnd(doc, i); end-i >= indexMin {
				want = append(want, span{i, end - 1})
			}
		}
	}
	if len(idx) != len(want) {
		t.Fatalf("index has %d containers, want %d", len(idx), len(want))
	}
	for i := range want {
		if idx[i] != want[i] {
			t.Fatalf("index[%d] = %v, want %v", i, idx[i], want[i])
		}
	}
	if len(want) < 10 {
		t.Fatalf("only %d large containers: the test document is too small to test the index", len(want))
	}
}

func FuzzValidate(f *testing.F) {
	for _, c := range validateCases[:len(validateCases)-4] {
		f.Add([]byte(c))
	}
	f.Add([]byte(mcpJSON))
	f.Fuzz(func(t *testing.T, b []byte) {
		idx, got := validate(b)
		if want := reference(b); got != want {
			t.Fatalf("validate = %v, json.Valid && utf8.Valid = %v", got, want)
		}
		if !got {
			return
		}
		var want bytes.Buffer
		if json.Compact(&want, b) != nil || !bytes.Equal(compact(b), want.Bytes()) {
			t.Fatalf("compact differs from json.Compact")
		}
		for _, s := range idx {
			if end := valueEnd(b, s.open); end != s.close+1 {
				t.Fatalf("index says the container at %d ends at %d, the scanner says %d", s.open, s.close+1, end)
			}
		}
	})
}

// claudeShaped is a ~/.claude.json-shaped document with n projects of
// varied sizes (bigClaudeJSON repeats one small project).
func claudeShaped(n int) []byte {
	var b strings.Builder
	b.WriteString("{\n  \"numStartups\": 12,\n  \"projects\": {\n")
	for i := range n {
		if i > 0 {
			b.WriteString(",\n")
		}
		b.WriteString(`    "/home/u/p` + strings.Repeat("x", i%7) + string(rune('a'+i%26)) + `` + itoa(i) + `": {` + "\n")
		b.WriteString(`      "allowedTools": [],` + "\n" + `      "history": [` + "\n")
		for h := range i % 9 {
			if h > 0 {
				b.WriteString(",\n")
			}
			b.WriteString(`        {"display": "fix the \"parser\" in café ` + strings.Repeat("lorem ipsum ", h*7) + `", "pastedContents": {}}`)
		}
		b.WriteString("\n      ],\n      \"mcpServers\": {\"s\": {\"command\": \"x\", \"args\": [\"-y\", 1.5e3, true, null]}}\n    }")
	}
	b.WriteString("\n  }\n}\n")
	return []byte(b.String())
}

func itoa(i int) string {
	s := ""
	for {
		s = string(rune('0'+i%10)) + s
		if i /= 10; i == 0 {
			return s
		}
	}
}

func BenchmarkValidate(b *testing.B) {
	doc := claudeShaped(3000)
	b.SetBytes(int64(len(doc)))
	b.Run("validate", func(b *testing.B) {
		for b.Loop() {
			if _, ok := validate(doc); !ok {
				b.Fatal("invalid")
			}
		}
	})
	b.Run("json.Valid+utf8.Valid", func(b *testing.B) {
		for b.Loop() {
			if !reference(doc) {
				b.Fatal("invalid")
			}
		}
	})
}

// TestDeriveChecksTheEditedObject feeds derive splices that break the
// document: inside the edited object (checked alone) and outside it
// (checked whole). Both must be refused, in every dialect.
func TestDeriveChecksTheEditedObject(t *testing.T) {
	const doc = "{\n  \"a\": {\"x\": 1},\n  \"mcpServers\": {\n    \"s\": {\"command\": \"x\"}\n  }\n}\n"
	for _, dialect := range []Dialect{Strict, Comments, JSONC} {
		d := mustParse(t, doc, dialect)
		objs, err := d.walk([]string{"mcpServers"})
		if err != nil || len(objs) != 2 {
			t.Fatalf("walk: %v", err)
		}
		o := objs[1]
		inside := o.open + 1
		for _, bad := range []string{`"t": `, `,`, `}`, `"t": 1,,`, "\"\x01\": 1,", "\"\xff\": 1,", `/*`} {
			if _, _, _, err := d.derive([]textedit.Splice{{At: inside, Ins: []byte(bad)}}, objs); err == nil {
				t.Errorf("%v: derive accepted %q inside the object", dialect, bad)
			}
		}
		if _, _, _, err := d.derive([]textedit.Splice{{At: 1, Ins: []byte(`"t" 1,`)}}, objs); err == nil {
			t.Errorf("%v: derive accepted a broken textedit.Splice outside the object", dialect)
		}
		// A valid splice outside the object falls back to a full parse.
		nd, region, depth, err := d.derive([]textedit.Splice{{At: 1, Ins: []byte(`"t": 1,`)}}, objs)
		if err != nil || depth != 0 || len(region) != len(nd.clean) {
			t.Fatalf("%v: valid textedit.Splice outside the object: depth %d, %v", dialect, depth, err)
		}
		checkDerived(t, nd)
		// A valid one inside is checked on the object alone.
		nd, region, depth, err = d.derive([]textedit.Splice{{At: inside, Ins: []byte(`"t": [1, 2],`)}}, objs)
		if err != nil || depth != 1 || region[0] != '{' || string(nd.clean[o.open:o.open+len(region)]) != string(region) {
			t.Fatalf("%v: valid textedit.Splice inside the object: depth %d, %v", dialect, depth, err)
		}
		checkDerived(t, nd)
	}
	// A trailing comma is fine in JSONC, refused in the other two.
	for dialect, ok := range map[Dialect]bool{Strict: false, Comments: false, JSONC: true} {
		d := mustParse(t, doc, dialect)
		objs, _ := d.walk([]string{"mcpServers"})
		_, _, _, err := d.derive([]textedit.Splice{{At: objs[1].close, Ins: []byte(",")}}, objs)
		if (err == nil) != ok {
			t.Errorf("%v: a trailing comma in the edited object: err = %v", dialect, err)
		}
	}
}

// checkHalves holds validateHalves to the one-pass check: a yes must be
// the one-pass yes, with the same index.
func checkHalves(t testing.TB, b []byte, mid int) bool {
	t.Helper()
	idx, ok := validateHalves(b, mid)
	want, valid := validateOnePass(b)
	if ok && !valid {
		t.Fatalf("validateHalves(mid %d) accepted what the one-pass check rejects: %q", mid, b)
	}
	if ok && !slices.Equal(idx, want) {
		t.Fatalf("validateHalves(mid %d) index %v, one pass %v", mid, idx, want)
	}
	return ok
}

// TestValidateHalves splits claude-shaped documents everywhere: wherever
// a line starting with a key follows, the halves must fit and agree with
// the one-pass check, index included (also with every container
// indexed, so that containers open across the split are in it).
func TestValidateHalves(t *testing.T) {
	defer func(n int) { indexMin = n }(indexMin)
	for _, n := range []int{512, 1} {
		indexMin = n
		for _, doc := range [][]byte{claudeShaped(40), []byte(mcpJSON), bigClaudeJSON(20000)} {
			split := 0
			for mid := 0; mid <= len(doc); mid += 1 + len(doc)/2000 {
				ok := checkHalves(t, doc, mid)
				if s := splitPoint(doc, mid); s >= 0 && !ok {
					t.Fatalf("a valid document split at %d (a key line) did not fit: %q|%q", s, doc[max(0, s-40):s], doc[s:min(len(doc), s+40)])
				} else if ok {
					split++
				}
			}
			if split == 0 {
				t.Fatalf("no split of a %d-byte document fitted", len(doc))
			}
		}
	}
}

// TestValidateHalvesMutations damages documents and splits them at random.
func TestValidateHalvesMutations(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	doc := claudeShaped(60)
	alphabet := []byte("{}[],:\"\\ \n0123456789-etrufalsn\x01\xff")
	for n := 0; n < 4000; n++ {
		b := mutate(r, doc, alphabet, 1+r.IntN(2))
		checkHalves(t, b, r.IntN(len(b)+1))
	}
}

func FuzzValidateHalves(f *testing.F) {
	f.Add([]byte(mcpJSON), uint32(10))
	f.Add([]byte("{\n\"a\": [\n1],\n\"b\": {\"c\":\n{}}\n}"), uint32(3))
	f.Add([]byte("{\n\"a\": 1}\n, \"b\": 2"), uint32(2))
	f.Add([]byte("[{\n\"a\": 1}\n, \"b\"]"), uint32(2))
	f.Add([]byte("{\"x\": [{\n\"a\": 1}\n, {\n\"b\": 2}]}"), uint32(4))
	f.Fuzz(func(t *testing.T, b []byte, mid uint32) {
		checkHalves(t, b, int(mid%uint32(len(b)+1)))
	})
}

// TestCompactMatchesEncodingJSON: compact is json.Compact on valid JSON.
func TestCompactMatchesEncodingJSON(t *testing.T) {
	docs := append([]string{mcpJSON, string(claudeShaped(30)), " [ 1 , \"a \\\" b\" ,\t{ \"k\" :\r\n null } ] "}, validateCases...)
	for _, d := range docs {
		if !reference([]byte(d)) {
			continue
		}
		var want bytes.Buffer
		if err := json.Compact(&want, []byte(d)); err != nil {
			t.Fatal(err)
		}
		if got := compact([]byte(d)); !bytes.Equal(got, want.Bytes()) {
			t.Fatalf("compact(%.60q) = %.60q, json.Compact gives %.60q", d, got, want.Bytes())
		}
	}
}

// renderMemberByLines is renderMember as it was first written, splitting
// and joining the pretty-printer's lines: the reference for the one-pass
// version.
func renderMemberByLines(rawKey, value []byte, indent, unit string, nl []byte) ([]byte, error) {
	wrapped := append(append(append(append([]byte{'{'}, rawKey...), ':'), value...), '}')
	out := pretty.PrettyOptions(wrapped, &pretty.Options{Width: prettyWidth + len(unit), Prefix: indent, Indent: unit})
	lines := bytes.Split(bytes.TrimSuffix(out, []byte("\n")), []byte("\n"))
	if len(lines) < 3 {
		return nil, errors.New("unexpected")
	}
	lines = lines[1 : len(lines)-1]
	inner := indent + unit
	for i, l := range lines {
		if !bytes.HasPrefix(l, []byte(inner)) {
			return nil, errors.New("unexpected")
		}
		if i == 0 {
			lines[i] = l[len(inner):]
		} else {
			lines[i] = append(l[:len(indent):len(indent)], l[len(inner):]...)
		}
	}
	return bytes.Join(lines, nl), nil
}

func TestRenderMemberMatchesByLines(t *testing.T) {
	values := []string{`1`, `"x"`, `[]`, `{}`, `[1,2,3]`, `{"command":"npx","args":["-y","@scope/server@1.2.3","--root","/home/u/p"],"env":{"A":"1","B":"${B}"}}`,
		`{"a":{"b":{"c":[{"d":null}]}}}`, `["` + strings.Repeat("long ", 30) + `"]`}
	for _, v := range values {
		for _, indent := range []string{"", "  ", "\t", "        "} {
			for _, unit := range []string{"  ", "\t", "    "} {
				for _, nl := range []string{"\n", "\r\n"} {
					want, errWant := renderMemberByLines([]byte(`"k"`), []byte(v), indent, unit, []byte(nl))
					got, err := renderMember([]byte(`"k"`), []byte(v), indent, unit, []byte(nl))
					if (err == nil) != (errWant == nil) || !bytes.Equal(got, want) {
						t.Fatalf("renderMember(%s, %q, %q, %q) = %q, %v; by lines %q, %v", v, indent, unit, nl, got, err, want, errWant)
					}
				}
			}
		}
	}
}

// TestMembersAndMemberLine: Members is Object without lines, and
// MemberLine gives each member the line Object gives it.
func TestMembersAndMemberLine(t *testing.T) {
	for _, tc := range goldenCases {
		d, err := Parse([]byte(tc.in), tc.dialect)
		if err != nil {
			continue
		}
		numbered, found, err := d.Object(tc.path)
		if err != nil || !found {
			continue
		}
		plain, _, _ := d.Members(tc.path)
		for i, m := range numbered {
			if plain[i].Key != m.Key || !bytes.Equal(plain[i].Value, m.Value) || plain[i].Line != 0 {
				t.Fatalf("%s: Members[%d] = %+v, Object says %+v", tc.name, i, plain[i], m)
			}
			if got := d.MemberLine(tc.path, m.Key); got != m.Line {
				t.Fatalf("%s: MemberLine(%q) = %d, Object says %d", tc.name, m.Key, got, m.Line)
			}
		}
	}
	if d := mustParse(t, mcpJSON, JSONC); d.MemberLine([]string{"mcpServers"}, "absent") != 0 || d.MemberLine([]string{"absent"}, "x") != 0 {
		t.Fatal("MemberLine of a missing member is not 0")
	}
}

// FuzzCompactEqual: compactEqual is comparing the two compacted texts,
// for any bytes (an unterminated string, an escaped quote, whitespace
// inside strings and out).
func FuzzCompactEqual(f *testing.F) {
	f.Add([]byte(`{"a": [1, 2]}`), []byte("{\"a\":[1,2]}"))
	f.Add([]byte(`"a b"`), []byte(`"a" "b"`))
	f.Add([]byte(`{"k": "x\" y"}`), []byte(`{"k":"x\" y"}`))
	f.Add([]byte(`"unterminated `), []byte(`"unterminated`))
	f.Add([]byte(" \t\r\n"), []byte(""))
	f.Fuzz(func(t *testing.T, a, b []byte) {
		if got, want := compactEqual(a, b), bytes.Equal(compact(a), compact(b)); got != want {
			t.Fatalf("compactEqual(%q, %q) = %v, the compacted texts: %v", a, b, got, want)
		}
		if !compactEqual(a, a) {
			t.Fatalf("compactEqual(%q, itself) = false", a)
		}
	})
}

// FuzzRenderMember: renderMember, which re-indents pretty's lines in
// place, gives the bytes of the by-lines reference for any value, indent,
// unit and line break, the empty unit and \r\n (no room in place) too.
func FuzzRenderMember(f *testing.F) {
	f.Add([]byte(`{"command":"npx","args":["-y","@scope/server@1.2.3"],"env":{"A":"1"}}`), "  ", "  ", true)
	f.Add([]byte(`[1,[2,[3]]]`), "\t", "\t", false)
	f.Add([]byte(`{"a":{"b":{}}}`), "        ", "", true)
	f.Fuzz(func(t *testing.T, value []byte, indent, unit string, crlf bool) {
		if !json.Valid(value) || strings.Trim(indent+unit, " \t") != "" {
			return
		}
		nl := []byte("\n")
		if crlf {
			nl = []byte("\r\n")
		}
		want, errWant := renderMemberByLines([]byte(`"k"`), value, indent, unit, nl)
		got, err := renderMember([]byte(`"k"`), value, indent, unit, nl)
		if (err == nil) != (errWant == nil) || !bytes.Equal(got, want) {
			t.Fatalf("renderMember(%s, %q, %q, %q) = %q, %v; by lines %q, %v", value, indent, unit, nl, got, err, want, errWant)
		}
	})
}
