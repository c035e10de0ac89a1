package yamledit

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/repo-manager/repo/internal/jsonvalue"
)

func crlf(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }

const bomStr = "\uFEFF"

func mustParse(t testing.TB, s string) *Doc {
	t.Helper()
	d, err := Parse([]byte(s))
	if err != nil {
		t.Fatalf("Parse: %v\n%s", err, s)
	}
	return d
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
	return fmt.Sprintf("(no line difference; check line endings)\n got: %q\nwant: %q", got, want)
}

// entryValue returns the value of the entry name, or nil.
func entryValue(t testing.TB, d *Doc, path []string, kind Kind, name string) []byte {
	t.Helper()
	ms, _, err := d.Entries(path, kind, "name")
	if err != nil {
		t.Fatalf("Entries(%q): %v\n%s", path, err, d.Bytes())
	}
	for _, m := range ms {
		if m.Key == name {
			return m.Value
		}
	}
	return nil
}

// docValue converts the whole document to a Go value (nil for an empty
// document); ok is false when some part of it has no JSON form.
func docValue(t testing.TB, d *Doc) (any, bool) {
	t.Helper()
	if d.root == nil {
		return map[string]any{}, true
	}
	js, err := d.newConverter().toJSON(d.root)
	if err != nil {
		return nil, false
	}
	dec := json.NewDecoder(bytes.NewReader(js))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("decoding the converted document: %v\n%s", err, js)
	}
	return v, true
}

// withoutContainer removes path from a converted document, together with
// the mappings along it that are left empty or were null.
func withoutContainer(v any, path []string) any {
	m, ok := v.(map[string]any)
	if !ok || len(path) == 0 {
		return v
	}
	cp := make(map[string]any, len(m))
	for k, e := range m {
		cp[k] = e
	}
	if len(path) == 1 {
		delete(cp, path[0])
		return cp
	}
	child, exists := cp[path[0]]
	if !exists {
		return cp
	}
	if child == nil {
		delete(cp, path[0])
		return cp
	}
	sub := withoutContainer(child, path[1:])
	if sm, ok := sub.(map[string]any); ok && len(sm) == 0 {
		delete(cp, path[0])
	} else {
		cp[path[0]] = sub
	}
	return cp
}

// checkRestIntact checks that nothing but the container at path changed
// meaning between two documents.
func checkRestIntact(t testing.TB, before, after *Doc, path []string) {
	t.Helper()
	b, ok := docValue(t, before)
	if !ok {
		return
	}
	a, ok := docValue(t, after)
	if !ok {
		t.Fatalf("the edited document no longer converts to JSON:\n%s", after.Bytes())
	}
	if !jsonvalue.EqualValues(withoutContainer(b, path), withoutContainer(a, path), jsonvalue.SameNumber) {
		t.Fatalf("the edit changed the document outside %q:\nbefore %v\nafter  %v\n%s", path, withoutContainer(b, path), withoutContainer(a, path), after.Bytes())
	}
}

// checkSet checks what must hold after any successful Set.
func checkSet(t testing.TB, before, after *Doc, path []string, kind Kind, name string, value []byte) {
	t.Helper()
	if _, err := Parse(after.Bytes()); err != nil {
		t.Fatalf("result does not parse: %v\n%s", err, after.Bytes())
	}
	got := entryValue(t, after, path, kind, name)
	if got == nil || !sameJSON(got, value) {
		t.Fatalf("entry %q = %s, want %s\n%s", name, got, value, after.Bytes())
	}
	again, err := after.set(path, kind, "name", name, value)
	if err != nil {
		t.Fatalf("second Set: %v\n%s", err, after.Bytes())
	}
	if !bytes.Equal(again.Bytes(), after.Bytes()) {
		t.Fatalf("second identical Set changed the bytes:\n%s", diff(string(again.Bytes()), string(after.Bytes())))
	}
	checkRestIntact(t, before, after, path)
}

// isAcceptedError reports the errors an edit may legitimately return.
func isAcceptedError(err error) bool {
	var se *ShapeError
	var ve *ValueError
	return errors.As(err, &se) || errors.As(err, &ve)
}
