package plan

import (
	"bytes"
	"strings"

	udiff "github.com/aymanbagabas/go-udiff"
)

// diffContext is the number of unchanged lines around each hunk (udiff's
// and git's default).
const diffContext = udiff.DefaultContextLines

// windowMin is the size from which unifiedDiff diffs a window of the
// texts; below it, the whole texts.
var windowMin = 1 << 20 // a variable for the tests

// unifiedDiff is udiff.Unified of old and new. For large texts it diffs
// only the lines around the change: an edit changes a few entries of a
// file that may be a 100 MB ~/.claude.json, and diffing that whole took
// seconds and seven times its size in memory for a hunk of a few dozen
// lines. The common lines at both ends are left out but for a margin, the
// window is diffed, and its hunks are moved down by the lines left out
// before it. A margin too small to show a hunk's full context (a diff
// may place an edit anywhere in a run of repeated lines) is doubled until
// it is not, up to the whole texts. TestUnifiedDiffWindow holds the result
// to udiff.Unified of the whole texts.
func unifiedDiff(oldLabel, newLabel string, old, new []byte) string {
	return unifiedHunks(oldLabel, newLabel, old, new).String()
}

// unifiedHunks is unifiedDiff before it is rendered: its hunks, whose
// lines the redaction rewrites (redact.go).
func unifiedHunks(oldLabel, newLabel string, old, new []byte) udiff.UnifiedDiff {
	if len(old)+len(new) < windowMin {
		return whole(oldLabel, newLabel, old, new)
	}
	prefix := commonPrefix(old, new)
	limit := min(len(old), len(new)) - prefix // the suffix starts after the prefix in both
	suffix := commonSuffix(old[len(old)-limit:], new[len(new)-limit:])
	for margin := diffContext + 1; ; margin *= 2 {
		start := linesBefore(old, prefix, margin)
		end := linesAfter(old, len(old)-suffix, margin)
		newEnd := len(new) - (len(old) - end) // end is in the common suffix
		ow, nw := string(old[start:end]), string(new[start:newEnd])
		edits := udiff.Lines(ow, nw)
		if len(edits) > 0 && (start > 0 && strings.Count(ow[:edits[0].Start], "\n") < diffContext ||
			end < len(old) && strings.Count(ow[edits[len(edits)-1].End:], "\n") < diffContext) {
			continue // a hunk at the edge of the window: widen it
		}
		u, err := udiff.ToUnifiedDiff(oldLabel, newLabel, ow, edits, diffContext)
		if err != nil { // cannot happen: the edits come from udiff itself
			return whole(oldLabel, newLabel, old, new)
		}
		// The window starts at the same line of both texts: its hunks move
		// down by the lines left out before it.
		skipped := bytes.Count(old[:start], []byte{'\n'})
		for _, h := range u.Hunks {
			h.FromLine += skipped
			h.ToLine += skipped
		}
		return u
	}
}

// whole is udiff.Unified of the whole texts, as hunks.
func whole(oldLabel, newLabel string, old, new []byte) udiff.UnifiedDiff {
	u, err := udiff.ToUnifiedDiff(oldLabel, newLabel, string(old), udiff.Lines(string(old), string(new)), diffContext)
	if err != nil { // cannot happen: the edits come from udiff itself
		panic("udiff: " + err.Error())
	}
	return u
}

// linesBefore returns the start of the n-th line before the line holding
// b[i] (0 if there are fewer).
func linesBefore(b []byte, i, n int) int {
	start := bytes.LastIndexByte(b[:i], '\n') + 1
	for ; n > 0 && start > 0; n-- {
		start = bytes.LastIndexByte(b[:start-1], '\n') + 1
	}
	return start
}

// linesAfter returns the offset just past the n-th line break at or after
// b[i] (len(b) if there are fewer).
func linesAfter(b []byte, i, n int) int {
	for ; n > 0; n-- {
		j := bytes.IndexByte(b[i:], '\n')
		if j < 0 {
			return len(b)
		}
		i += j + 1
	}
	return i
}

// commonPrefix is the length of the longest common prefix of a and b,
// found a block at a time (bytes.Equal is vectorised).
func commonPrefix(a, b []byte) int {
	const block = 4096
	n := min(len(a), len(b))
	i := 0
	for i+block <= n && bytes.Equal(a[i:i+block], b[i:i+block]) {
		i += block
	}
	for i < n && a[i] == b[i] {
		i++
	}
	return i
}

// commonSuffix is the length of the longest common suffix of a and b.
func commonSuffix(a, b []byte) int {
	const block = 4096
	n := min(len(a), len(b))
	i := 0
	for i+block <= n && bytes.Equal(a[len(a)-i-block:len(a)-i], b[len(b)-i-block:len(b)-i]) {
		i += block
	}
	for i < n && a[len(a)-1-i] == b[len(b)-1-i] {
		i++
	}
	return i
}
