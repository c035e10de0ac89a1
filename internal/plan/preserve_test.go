package plan

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/repo-manager/repo/internal/ordered"
)

// preservedByDecoding is how the preserved members of the current entry
// were read before gjson: decoded into a map. With no recorded offer and no
// fixed value, mergePreserved keeps every member the file holds, as it did.
func preservedByDecoding(want ordered.Object, cur []byte, preserve []string) ordered.Object {
	var curObj map[string]json.RawMessage
	if json.Unmarshal(cur, &curObj) != nil {
		return want
	}
	out := slices.Clone(want)
	for _, k := range preserve {
		if v, ok := curObj[k]; ok {
			out = out.Set(k, v)
		}
	}
	return out
}

func merged(want ordered.Object, cur string, preserve []string) ordered.Object {
	out, _, _ := mergePreserved(nil, want, readMembers([]byte(cur)), preserve, nil, nil)
	return out
}

func TestMergePreservedReadsAsDecoding(t *testing.T) {
	want := ordered.Object{{Key: "command", Value: "x"}, {Key: "enabled", Value: true}}
	preserve := []string{"enabled", "alwaysAllow", "a.b"}
	for _, cur := range []string{
		`{"command":"x","enabled":false,"alwaysAllow":["t1","t2"]}`,
		"{ \"alwaysAllow\" : [ \"t1\" ,\n {\"z\": 1} ] , \"enabled\":false }",
		`{"enabled":false,"enabled":true,"enabled":null}`,
		`{"\u0065nabled":false,"a.b":{"c":"d"},"a":{"b":1}}`,
		`{"enabled\u0000":false,"Enabled":false,"alwaysallow":[]}`,
		`{"command":"x"}`,
		`{}`,
		`null`,
		`[{"enabled":false}]`,
		`"enabled"`,
		`{"enabled":false`,
		`{"enabled":false} {"x":1}`,
		`{"enabled":fals}`,
		`{"enabled":"bad \xff byte","alwaysAllow":"\ud800"}`,
		"{\"enabled\":\"ctl \x01\"}",
		``,
	} {
		got, ref := merged(want, cur, preserve), preservedByDecoding(want, []byte(cur), preserve)
		if g, r := string(ordered.JSON(got)), string(ordered.JSON(ref)); g != r {
			t.Errorf("current entry %s:\n got  %s\n want %s", cur, g, r)
		}
	}
	if got := merged(want, `{"enabled":false}`, preserve); len(want) != 2 || want[1].Value != true || len(got) != 2 {
		t.Errorf("mergePreserved changed the wanted entry: %v, got %v", want, got)
	}
}

func FuzzMergePreserved(f *testing.F) {
	f.Add(`{"command":"x","enabled":false,"alwaysAllow":["t1"]}`)
	f.Add(`{"enabled":1,"enabled":2}`)
	f.Add(`[1, {"enabled":false}]`)
	f.Fuzz(func(t *testing.T, cur string) {
		want := ordered.Object{{Key: "command", Value: "x"}}
		preserve := []string{"enabled", "alwaysAllow"}
		got, ref := merged(want, cur, preserve), preservedByDecoding(want, []byte(cur), preserve)
		if g, r := string(ordered.JSON(got)), string(ordered.JSON(ref)); g != r {
			t.Errorf("current entry %q:\n got  %s\n want %s", cur, g, r)
		}
	})
}

// FuzzKeepUnwritten: whatever the file's entry holds, the entry repo
// writes keeps each of repo's members as wanted, and gains exactly the
// members no tool writes, each with the value decoding gives it (the
// last of repeated keys), so a user's member is never lost or altered.
func FuzzKeepUnwritten(f *testing.F) {
	for _, s := range []string{
		`{"command":"x","oauth":{"clientId":"c"},"alwaysLoad":true}`,
		`{"command":"y","a":1,"a":2,"url":"u"}`,
		`[1,2]`, `null`, `{"command":`, `{}`,
	} {
		f.Add(s)
	}
	written := []string{"command", "args", "url"}
	want := ordered.Object{{Key: "command", Value: "node"}, {Key: "args", Value: []string{"s.js"}}}
	f.Fuzz(func(t *testing.T, cur string) {
		out := keepUnwritten(want, readMembers([]byte(cur)), written)
		if !slices.Equal(ordered.JSON(out[:len(want)]), ordered.JSON(want)) {
			t.Fatalf("repo's members changed: %s", ordered.JSON(out))
		}
		var dec map[string]json.RawMessage
		if json.Unmarshal([]byte(cur), &dec) != nil {
			if len(out) != len(want) {
				t.Fatalf("kept members of an entry that is not an object: %s", ordered.JSON(out))
			}
			return
		}
		// Both sides through encoding/json, which spells keys alike (an
		// invalid UTF-8 byte as U+FFFD).
		var got map[string]json.RawMessage
		if err := json.Unmarshal(ordered.JSON(out), &got); err != nil {
			t.Fatalf("result is not JSON: %v", err)
		}
		n := 0
		for k, v := range dec {
			if slices.Contains(written, k) {
				continue
			}
			n++
			g, ok := got[k]
			if !ok {
				t.Fatalf("member %q of the file lost: %s", k, ordered.JSON(out))
			}
			if !sameJSON(g, v) {
				t.Fatalf("member %q: %s, want %s", k, g, v)
			}
		}
		if len(got) != len(want)+n {
			t.Fatalf("%d members, want %d: %s", len(got), len(want)+n, ordered.JSON(out))
		}
	})
}
