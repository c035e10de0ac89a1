package record

import (
	"bytes"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/repo-manager/repo/internal/canon"
	"github.com/repo-manager/repo/internal/ordered"
)

// digestCases are entries with the digests repo has always given them:
// committed ownership records hold these values, so a change to how
// entries are canonicalised or hashed must not change any of them.
var digestCases = []struct {
	name string
	raw  string
	root string
	want string
}{
	{"stdio", `{"type":"stdio","command":"/ws/.venv/bin/python","args":["-m","srv","--root","/ws"],"env":{"B":"2","A":"${A}"}}`, "/ws", "sha256:8c10ee4d9a5333aa93c406c9c123b7ad"},
	{"reordered and reindented", "{\n  \"env\": {\"A\": \"${A}\", \"B\": \"2\"},\n  \"args\": [\"-m\", \"srv\", \"--root\", \"/ws\"],\n  \"command\": \"/ws/.venv/bin/python\", \"type\": \"stdio\"\n}", "/ws", "sha256:8c10ee4d9a5333aa93c406c9c123b7ad"},
	{"no root", `{"type":"stdio","command":"/ws/.venv/bin/python","args":["-m","srv","--root","/ws"],"env":{"B":"2","A":"${A}"}}`, "", "sha256:fcc38589136259e2cca73c011dc952c7"},
	{"remote", `{"url":"https://x.example/mcp?a=1&b=<2>","headers":{"Authorization":"Bearer ${T}"},"enabled":true,"timeout":300,"ratio":1.50}`, "/ws", "sha256:761ab8b5ff8447834d2853118670fb41"},
	{"escapes", `{"k\u00e9y":"caf\u00e9 \"q\" \\ \t \u2028 \u001f \/","args":["a\nb","\ud83d\ude00"],"nested":{"z":[1,{"b":null,"a":false}],"a":[]}}`, "/ws", "sha256:be15cca2c7704b7b290dc0bf20a2d8ef"},
	{"root with quote", `{"command":"/w \"s\"/bin/x","cwd":"/w \"s\""}`, `/w "s"`, "sha256:3851e4be27ef6b8935dd567c0cd30b7a"},
	{"root with HTML characters", `{"command":"/w&s<x>/bin","args":["/w&s<x>","/w\u0026s\u003cx\u003e/a","/w&s<x>"]}`, "/w&s<x>", "sha256:c2e919704c96db82168c22bbb953dfc2"},
	{"root repeated", `{"command":"/ws/ws/bin","cwd":"/ws"}`, "/ws", "sha256:0531fb496545dcf696b495870d210702"},
	{"non-ASCII root", `{"a":"/wsé/x","b":"/ws\u00e9"}`, "/wsé", "sha256:393855e6191c934d4f57dffa4a406303"},
	{"not an object", `"plain"`, "", "sha256:945603a8f587786b463c3f94fce115c0"},
	{"invalid", `{"a":`, "", "sha256:44136fa355b3678a1146ad16f7e8649e"},
}

func TestDigestValuesArePinned(t *testing.T) {
	for _, c := range digestCases {
		if got := NormalizedDigest([]byte(c.raw), c.root); got != c.want {
			t.Errorf("%s: NormalizedDigest = %s, want %s", c.name, got, c.want)
		}
	}
}

// canonicalValueCases are values of the ordered model with every kind of
// member and the strings whose JSON text needs escapes.
func canonicalValueCases() []ordered.Object {
	var ctl strings.Builder
	for c := rune(0); c < 0x20; c++ {
		ctl.WriteRune(c)
	}
	ctl.WriteString("\x7f")
	strs := []string{"", "plain /path/x-1", `q"uote`, `C:\Users\me`, ctl.String(), "ünï", "a&b<c>", "\u2028\u2029", "😀", "bad \xff byte", "\xc3", "<<root>>"}
	var out []ordered.Object
	for _, s := range strs {
		out = append(out, ordered.Object{
			{Key: "type", Value: "stdio"},
			{Key: s, Value: s},
			{Key: "args", Value: []string{s, "--root", "/ws", s}},
			{Key: "env", Value: ordered.Object{{Key: "Z", Value: s}, {Key: s + "k", Value: "/ws/x"}, {Key: "A", Value: nil}}},
			{Key: "set", Value: map[string]any{"n": int64(300), "i": 7, "f": 1.5, "big": 1e21, "t": true, "l": []any{s, int64(-1), 0.1, false, nil, []any{}}, s: map[string]any{}}},
		})
	}
	// Keys that are different strings but read back the same (each bad
	// byte becomes U+FFFD) keep their order.
	out = append(out, ordered.Object{{Key: "\xff", Value: "1"}, {Key: "\xfe", Value: "2"}, {Key: "\ufffd", Value: "3"}, {Key: "a", Value: ordered.Object{}}})
	return out
}

// TestEntryDigestMatchesRendered: fingerprinting an entry directly gives
// what rendering it and fingerprinting the text gives.
func TestEntryDigestMatchesRendered(t *testing.T) {
	for i, v := range canonicalValueCases() {
		rendered := ordered.JSON(v)
		got, ok := canon.Value(v)
		if want := canon.JSON(rendered); !ok || string(got) != string(want) {
			t.Errorf("case %d (%s): canonical value\n got  %q (ok %v)\n want %q", i, rendered, got, ok, want)
		}
		for _, root := range []string{"", "/ws"} {
			if got, want := EntryDigest(v, root), NormalizedDigest(rendered, root); got != want {
				t.Errorf("case %d (%s), root %q: EntryDigest %s, NormalizedDigest %s", i, rendered, root, got, want)
			}
		}
	}
}

// TestEntryDigestOfRawMember: a member holding raw JSON text is digested
// from the rendered entry, as before.
func TestEntryDigestOfRawMember(t *testing.T) {
	v := ordered.Object{{Key: "command", Value: "x"}, {Key: "alwaysAllow", Value: json.RawMessage(`[ "b", {"z":1,"a":2} ]`)}}
	if got, want := EntryDigest(v, ""), Digest(ordered.JSON(v)); got != want {
		t.Errorf("EntryDigest %s, Digest %s", got, want)
	}
}

// TestDigestsRemember: a run's memo gives every digest the plain
// functions give, apart for each root (the root is spelled <<root>>, so
// one text has a digest per root), from many goroutines at once; and a
// text it has hashed is not hashed again (hashing allocates, a lookup
// does not).
func TestDigestsRemember(t *testing.T) {
	d := NewDigests()
	roots := []string{"", "/ws", "/other"}
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i, v := range canonicalValueCases() {
				for _, root := range roots {
					if got, want := d.Entry(v, root), EntryDigest(v, root); got != want {
						t.Errorf("case %d, root %q: Digests.Entry %s, EntryDigest %s", i, root, got, want)
					}
				}
			}
		}()
	}
	wg.Wait()
	c := canon.JSON([]byte(`{"args":["--root","/ws"],"command":"/ws/bin/x"}`))
	sums := map[string]bool{}
	for _, root := range roots {
		got, want := d.Canonical(c, root), CanonicalDigest(c, root)
		if got != want {
			t.Errorf("root %q: Digests.Canonical %s, CanonicalDigest %s", root, got, want)
		}
		sums[got] = true
	}
	if len(sums) != 2 { // "" and /other leave the text as it is; /ws is <<root>>
		t.Errorf("the roots gave %d digests, want 2: %v", len(sums), sums)
	}
	if n := testing.AllocsPerRun(100, func() { d.Canonical(c, "/ws") }); n != 0 {
		t.Errorf("a remembered text: %v allocations, want 0 (hashed again)", n)
	}
	// A base is its entry's text with the root spelled <<root>>: checking
	// it against its digest finds the one the entry gave, unhashed.
	base := bytes.ReplaceAll(c, []byte(canon.Text("/ws")), []byte("<<root>>"))
	texts := len(d.byText)
	if got, want := d.Canonical(base, ""), CanonicalDigest(c, "/ws"); got != want {
		t.Errorf("the base: Digests.Canonical %s, the entry's digest %s", got, want)
	}
	if len(d.byText) != texts {
		t.Errorf("the base was hashed again: %d texts remembered, want %d", len(d.byText), texts)
	}
	var none *Digests
	if got, want := none.Canonical(c, "/ws"), CanonicalDigest(c, "/ws"); got != want {
		t.Errorf("nil Digests: %s, want %s", got, want)
	}
}

func FuzzEntryDigest(f *testing.F) {
	f.Add("a", "b")
	f.Add("\xff", "\u2028")
	f.Add(`C:\x`, "\x00\"")
	f.Fuzz(func(t *testing.T, a, b string) {
		v := ordered.Object{{Key: a, Value: b}, {Key: "args", Value: []string{a, b}}, {Key: "m", Value: map[string]any{a: b, b: []any{a, int64(len(b))}}}}
		want := NormalizedDigest(ordered.JSON(v), a)
		if got := EntryDigest(v, a); got != want {
			t.Errorf("%q: EntryDigest %s, NormalizedDigest %s", ordered.JSON(v), got, want)
		}
		// One memo for every input the fuzzer tries: a text remembered
		// under another root, or another text, must never answer.
		if got := fuzzDigests.Entry(v, a); got != want {
			t.Errorf("%q, root %q: Digests.Entry %s, NormalizedDigest %s", ordered.JSON(v), a, got, want)
		}
	})
}

// fuzzDigests is FuzzEntryDigest's memo, shared by its inputs.
var fuzzDigests = NewDigests()

// A tool that reformats its file (key order, indentation) has not edited
// our entry: the digest is over the canonical value.
func TestDigestIgnoresFormatting(t *testing.T) {
	a := Digest([]byte(`{"command":"x","args":["a"]}`))
	b := Digest([]byte("{\n  \"args\": [ \"a\" ],\n  \"command\": \"x\"\n}"))
	if a != b {
		t.Fatalf("%s != %s", a, b)
	}
	if a == Digest([]byte(`{"command":"y","args":["a"]}`)) {
		t.Fatal("different values, same digest")
	}
}
