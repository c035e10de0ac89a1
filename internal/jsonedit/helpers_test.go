package jsonedit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

func crlf(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }

const bomStr = "\uFEFF"

func mustParse(t testing.TB, s string, d Dialect) *Doc {
	t.Helper()
	doc, err := Parse([]byte(s), d)
	if err != nil {
		t.Fatalf("Parse: %v\n%s", err, s)
	}
	return doc
}

// diff shows the first differing line of two documents.
func diff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < len(g) || i < len(w); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl || i >= len(g) || i >= len(w) {
			return fmt.Sprintf("first difference at line %d:\n got: %q\nwant: %q\n--- got ---\n%s\n--- want ---\n%s", i+1, gl, wl, got, want)
		}
	}
	return "(no line difference; check line endings)"
}

// memberValue returns the value of key in the object at path, or nil.
func memberValue(t testing.TB, d *Doc, path []string, key string) []byte {
	t.Helper()
	ms, found, err := d.Object(path)
	if err != nil {
		t.Fatalf("Object(%q): %v", path, err)
	}
	if !found {
		return nil
	}
	for _, m := range ms {
		if m.Key == key {
			return m.Value
		}
	}
	return nil
}

// decodeTop decodes a document's clean copy into a map (test-only: fine for
// small documents).
func decodeTop(t testing.TB, d *Doc) map[string]any {
	t.Helper()
	var v map[string]any
	dec := json.NewDecoder(bytes.NewReader(d.clean))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("decode: %v", err)
	}
	return v
}

// withoutMember returns a deep copy of top with path+key removed.
func withoutMember(top map[string]any, path []string, key string) map[string]any {
	cp := deepCopy(top).(map[string]any)
	o := cp
	for _, p := range path {
		next, ok := o[p].(map[string]any)
		if !ok {
			return cp
		}
		o = next
	}
	delete(o, key)
	return cp
}

func deepCopy(v any) any {
	switch x := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = deepCopy(e)
		}
		return m
	case []any:
		s := make([]any, len(x))
		for i, e := range x {
			s[i] = deepCopy(e)
		}
		return s
	}
	return v
}

// pruneEmptyPath removes objects along path that are empty, from the deepest
// up; used to compare a document after a Set that created parents. A null
// along path is removed too: walk counts it as missing, and Set writes the
// object in its place.
func pruneEmptyPath(top map[string]any, path []string) {
	if len(path) == 0 {
		return
	}
	if v, ok := top[path[0]]; ok && v == nil {
		delete(top, path[0])
		return
	}
	child, ok := top[path[0]].(map[string]any)
	if !ok {
		return
	}
	pruneEmptyPath(child, path[1:])
	if len(child) == 0 {
		delete(top, path[0])
	}
}

// checkSetProperties checks what must hold after any successful Set.
func checkSetProperties(t testing.TB, before, after *Doc, path []string, key string, value []byte) {
	t.Helper()
	checkDerived(t, after)
	got := memberValue(t, after, path, key)
	if got == nil || !sameJSON(got, value) {
		t.Fatalf("Object(%q)[%q] = %s, want %s", path, key, got, value)
	}
	again, err := after.set(path, key, value)
	if err != nil {
		t.Fatalf("second Set: %v", err)
	}
	if !bytes.Equal(again.Bytes(), after.Bytes()) {
		t.Fatalf("second identical Set changed the bytes:\n%s", diff(string(again.Bytes()), string(after.Bytes())))
	}
	// Nothing else changed semantically.
	b := withoutMember(decodeTop(t, before), path, key)
	a := withoutMember(decodeTop(t, after), path, key)
	pruneEmptyPath(a, path)
	pruneEmptyPath(b, path)
	if !reflect.DeepEqual(a, b) {
		t.Fatalf("Set changed other members:\nbefore %v\nafter  %v", b, a)
	}
}

// checkDeleteProperties checks what must hold after any successful Delete.
func checkDeleteProperties(t testing.TB, before, after *Doc, path []string, key string) {
	t.Helper()
	checkDerived(t, after)
	if got := memberValue(t, after, path, key); got != nil {
		t.Fatalf("member %q still there after Delete", key)
	}
	b := withoutMember(decodeTop(t, before), path, key)
	a := decodeTop(t, after)
	if !reflect.DeepEqual(a, b) {
		t.Fatalf("Delete changed other members:\nbefore %v\nafter  %v", b, a)
	}
	if strings.Contains(string(after.Bytes()), "\n\n") && !strings.Contains(string(before.Bytes()), "\n\n") {
		t.Fatalf("Delete left a blank line:\n%s", after.Bytes())
	}
}

// restorable reports whether Delete after inserting a new member into the
// object at path is guaranteed to give back the original bytes: the object
// existed, was non-empty, and is either on one line or has a line break in
// the whitespace just before its closing brace.
func restorable(t testing.TB, d *Doc, path []string) bool {
	t.Helper()
	objs, err := d.walk(path)
	if err != nil || len(objs) != len(path)+1 {
		return false
	}
	o := objs[len(path)]
	if len(o.members) == 0 {
		return false
	}
	if d.sameLine(o.open, o.close) {
		return true
	}
	q := o.close
	for q > o.open+1 && isWS(d.data[q-1]) {
		q--
	}
	return bytes.IndexByte(d.data[q:o.close], '\n') >= 0
}

// checkDerived checks an edited document against a fresh parse of its
// bytes: derive checks only the edited object again and carries the clean
// copy and the index over, and must end where a parse from scratch ends.
func checkDerived(t testing.TB, d *Doc) {
	t.Helper()
	fresh, err := Parse(d.Bytes(), d.dialect)
	if err != nil {
		t.Fatalf("result does not parse: %v\n%s", err, d.Bytes())
	}
	if !bytes.Equal(fresh.clean, d.clean) {
		t.Fatalf("clean copy differs from a fresh parse's:\n%q\n%q", d.clean, fresh.clean)
	}
	if fresh.root != d.root || fresh.bom != d.bom {
		t.Fatalf("root/BOM %d/%d, a fresh parse says %d/%d", d.root, d.bom, fresh.root, fresh.bom)
	}
	// The index may miss a container (one that grew past indexMin in the
	// edit), but what it holds must be right, in document order.
	for i, s := range d.idx {
		if s.open >= len(d.clean) || (d.clean[s.open] != '{' && d.clean[s.open] != '[') || valueEnd(d.clean, s.open) != s.close+1 {
			t.Fatalf("index entry %v is wrong (fresh index %v)", s, fresh.idx)
		}
		if i > 0 && d.idx[i-1].open >= s.open {
			t.Fatalf("index out of order: %v", d.idx)
		}
	}
}
