package plan

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	udiff "github.com/aymanbagabas/go-udiff"
)

// TestUnifiedDiffWindow holds the windowed diff to udiff.Unified of the
// whole texts: random line edits (inserted, deleted, changed lines, at the
// start, the end and in between, several at a time; few distinct lines, so
// that a diff has many ways to place an edit) of texts with and without a
// final newline, and of empty texts. windowMin is lowered so that every
// text is diffed through a window.
func TestUnifiedDiffWindow(t *testing.T) {
	defer func(n int) { windowMin = n }(windowMin)
	windowMin = 0
	r := rand.New(rand.NewPCG(5, 6))
	line := func() string { return fmt.Sprintf("  \"k%d\": %d,\n", r.IntN(5), r.IntN(3)) }
	for n := 0; n < 20000; n++ {
		var lines []string
		for range r.IntN(40) {
			lines = append(lines, line())
		}
		old := strings.Join(lines, "")
		for range 1 + r.IntN(3) {
			at := 0
			if len(lines) > 0 {
				at = r.IntN(len(lines) + 1)
			}
			switch op := r.IntN(3); {
			case op == 0 || len(lines) == 0 || at == len(lines):
				lines = append(lines[:at], append([]string{line()}, lines[at:]...)...)
			case op == 1:
				lines = append(lines[:at], lines[at+1:]...)
			default:
				lines[at] = line()
			}
		}
		new := strings.Join(lines, "")
		if r.IntN(4) == 0 && len(old) > 0 {
			old = old[:len(old)-1] // no final newline
		}
		if r.IntN(4) == 0 && len(new) > 0 {
			new = new[:len(new)-1]
		}
		want := udiff.Unified("a/f", "b/f", old, new)
		if got := unifiedDiff("a/f", "b/f", []byte(old), []byte(new)); got != want {
			t.Fatalf("windowed diff differs from udiff.Unified\nold:\n%s\nnew:\n%s\ngot:\n%s\nwant:\n%s", old, new, got, want)
		}
	}
}

// TestUnifiedDiffLarge: an entry added in the middle of a large file is a
// hunk with line numbers counted from the file's start.
func TestUnifiedDiffLarge(t *testing.T) {
	var b strings.Builder
	for i := range 200000 {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	old := b.String()
	at := strings.Index(old, "line 123456\n")
	new := old[:at] + "added\n" + old[at:]
	got := unifiedDiff("a/f", "b/f", []byte(old), []byte(new))
	want := "--- a/f\n+++ b/f\n@@ -123454,6 +123454,7 @@\n line 123453\n line 123454\n line 123455\n+added\n line 123456\n line 123457\n line 123458\n"
	if got != want {
		t.Fatalf("got:\n%s\nwant:\n%s", got, want)
	}
	if !bytes.Equal([]byte(got), []byte(udiff.Unified("a/f", "b/f", old, new))) {
		t.Fatal("differs from udiff.Unified of the whole texts")
	}
}
