package yamledit

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/goccy/go-yaml/ast"

	"github.com/repo-manager/repo/internal/textedit"
)

// DeleteAll removes the entries names from the container at path with the
// bytes of a Delete of each in turn, in the order given, but in one edit,
// parsed and verified once: a Delete of each parses the whole file again
// every time, and removing a folder of extensions takes thousands of
// entries out of one file (1,000 from a Goose config took 41 s).
//
// Names that are not there are skipped; when none is (or the container is
// missing), DeleteAll returns d. A name given twice is an error; so is an
// entry Delete refuses to cut out.
func (d *Doc) DeleteAll(path []string, kind Kind, nameField string, names []string) (*Doc, error) {
	if err := checkArgs(path, kind, nameField, ""); err != nil {
		return nil, err
	}
	seen := make(map[string]bool, len(names))
	for _, n := range names {
		if seen[n] {
			return nil, &ValueError{Msg: fmt.Sprintf("DeleteAll: entry %q is given twice", n)}
		}
		seen[n] = true
	}
	if len(names) == 0 {
		return d, nil
	}
	l, err := d.locate(path)
	if err != nil {
		return nil, err
	}
	if l.depth < len(path) || isNull(l.val) {
		return d, nil
	}
	es, block, err := d.entries(l, path, kind, nameField)
	if err != nil {
		return nil, err
	}
	at := make(map[string]int, len(es))
	for i, e := range es {
		if !e.foreign {
			at[e.key] = i
		}
	}
	r := d.newRemoval(l, es)
	for i, name := range names {
		idx, ok := at[name]
		if !ok {
			continue
		}
		if err := d.checkCuttable(l, path, block, es[idx]); err != nil {
			return nil, err
		}
		if err := d.checkAnchors(es[idx], r.aliases, r.isGone); err != nil {
			return nil, err
		}
		r.remove(idx)
		if r.keepBreak > 0 && i+1 < len(names) {
			// The file now ends with a line break it did not have: go on
			// from the document itself (this happens once at most).
			nd, err := d.finishRemoval(r, path, kind, nameField)
			if err != nil {
				return nil, err
			}
			return nd.DeleteAll(path, kind, nameField, names[i+1:])
		}
	}
	if r.removed == 0 {
		return d, nil
	}
	return d.finishRemoval(r, path, kind, nameField)
}

// finishRemoval makes the edit a removal planned, the container's last
// entry included (see the rules at the top of edit.go), and verifies it.
func (d *Doc) finishRemoval(r *removal, path []string, kind Kind, nameField string) (*Doc, error) {
	ss := r.splices()
	origins := slices.Clone(d.origins)
	if r.left == 0 { // the container is left empty
		emptied, err := textedit.Apply(d.body, ss)
		if err != nil {
			return nil, fmt.Errorf("yamledit: internal error: %w", err)
		}
		restored := false
		for i := len(origins) - 1; i >= 0 && !restored; i-- {
			o := origins[i]
			if o.kind == kind && slices.Equal(o.path, path) && bytes.Equal(o.emptied, emptied) {
				// Give back the original: one splice replacing everything.
				ss = []textedit.Splice{{At: 0, Del: len(d.body), Ins: bytes.Clone(o.original)}}
				origins = slices.Delete(origins, i, i+1)
				restored = true
			}
		}
		if !restored {
			at, err := d.colonEnd(r.l.mv)
			if err != nil {
				return nil, err
			}
			empty := " {}"
			if kind == List {
				empty = " []"
			}
			ss = append(ss, textedit.Splice{At: at, Ins: []byte(empty)})
		}
	}
	var want []Member
	for i, e := range r.es {
		if !e.foreign && r.prev[i] != removedItem {
			want = append(want, Member{Key: e.key, Value: e.json})
		}
	}
	nd, err := d.verify(d, edit{ss: ss}, path, kind, nameField, want)
	if err != nil {
		return nil, err
	}
	nd.origins = origins
	return nd, nil
}

// removedItem marks, in removal.prev, an item that has been removed.
const removedItem = -2

// removal is a DeleteAll in progress: which lines of d the entries removed
// so far took, and which items of the container are left. Each Delete
// rule looks at the lines next to an entry and at its neighbours as they
// stand after the deletions before it; removal answers those questions
// (the line above or below, the previous item's last line, a marker
// comment, the end of the file) without making the document of each step,
// so that removing N entries costs the file once, not N times.
type removal struct {
	d  *Doc
	l  loc
	es []entry
	n  int // lines of d

	gone []bool // gone[x]: line x is cut
	// up and down find the nearest line not cut above or below a line
	// (union-find with path halving; 0 and n+1 stand for none).
	up, down []int
	// keepBreak is a cut line whose line break before it stays: a file
	// without a final line break ends inside a block scalar once it is cut
	// (see cutLines), and now ends with that line break. It is the last
	// cut of a removal (DeleteAll goes on from the document).
	keepBreak int

	prev, next    []int // the items left before and after each item (-1, len(es): none)
	left, removed int

	markers   map[string][]int // marker comment lines of the container, by text
	aliasList []*ast.AliasNode // the document's aliases, read when first needed
	aliasRead bool
}

func (d *Doc) newRemoval(l loc, es []entry) *removal {
	n := len(d.lines)
	r := &removal{d: d, l: l, es: es, n: n, gone: make([]bool, n+2), up: make([]int, n+2), down: make([]int, n+2),
		prev: make([]int, len(es)), next: make([]int, len(es)), left: len(es), markers: map[string][]int{}}
	for x := range r.up {
		r.up[x], r.down[x] = x, x
	}
	for i := range es {
		r.prev[i], r.next[i] = i-1, i+1
	}
	kl, _ := nodePos(l.mv.Key)
	for x := max(kl+1, 1); x <= l.bound && x <= n; x++ {
		if !d.comment[x] {
			continue
		}
		if t := string(bytes.TrimSpace(d.lineText(x))); strings.HasPrefix(t, openPrefix) || strings.HasPrefix(t, closePrefix) {
			r.markers[t] = append(r.markers[t], x)
		}
	}
	return r
}

func find(p []int, x int) int {
	for p[x] != x {
		p[x] = p[p[x]]
		x = p[x]
	}
	return x
}

// above and below are the nearest lines not cut before and after line x
// (0 and n+1 when there is none): what a Delete would see as line x-1 and
// x+1 of the document the cuts so far leave.
func (r *removal) above(x int) int { return find(r.up, x-1) }
func (r *removal) below(x int) int { return find(r.down, x+1) }

func (r *removal) isGone(x int) bool { return x >= 1 && x <= r.n && r.gone[x] }

func (r *removal) aliases() []*ast.AliasNode {
	if !r.aliasRead {
		r.aliasList, r.aliasRead = r.d.aliasNodes(), true
	}
	return r.aliasList
}

// markerLines is Doc.markerLines on the lines not cut.
func (r *removal) markerLines(from, to int, text string) []int {
	var out []int
	for _, x := range r.markers[text] {
		if x >= from && x <= to && !r.gone[x] {
			out = append(out, x)
		}
	}
	return out
}

// remove cuts item idx out by Delete's rules (see entrySpan and cutLines)
// as they apply to the document the cuts so far leave.
func (r *removal) remove(idx int) {
	// An entry's last line is the one entries found: what lies between it
	// and the next entry left is blank or comments. (A "|+" scalar at its
	// end would take the blank lines a removed neighbour leaves, and change:
	// a Delete of each fails there, and DeleteAll's check of what is left
	// would too, unless that entry goes as well.)
	d, l, e := r.d, r.l, r.es[idx]
	a, b := e.line, e.end
	prevEnd, _ := nodePos(l.mv.Key)
	if p := r.prev[idx]; p >= 0 {
		prevEnd = r.es[p].end
	}
	nextStart := l.bound + 1
	if q := r.next[idx]; q < len(r.es) {
		nextStart = r.es[q].line
	}
	opens := r.markerLines(prevEnd+1, a-1, openMarker(e.key))
	if n := len(opens); n > 0 && opens[n-1] == r.above(a) {
		a, opens = opens[n-1], opens[:n-1]
	}
	closes := r.markerLines(b+1, nextStart-1, closeMarker(e.key))
	if len(closes) > 0 && closes[0] == r.below(b) {
		b, closes = closes[0], closes[1:]
	}
	// An entry set off by blank lines on both sides takes one of them
	// along, so that deleting it does not leave a double gap.
	if pa, nb := r.above(a), r.below(b); pa > prevEnd && d.isBlank(pa) && r.isRow(nb) && d.isBlank(nb) {
		b = nb
	}
	cuts := [][2]int{{a, b}}
	for _, x := range append(opens, closes...) {
		cuts = append(cuts, [2]int{x, x})
	}
	// Whether a cut keeps the line break before it is decided on the
	// document before this entry's cuts, as Delete decides it.
	kept := 0
	for _, c := range cuts {
		if !r.endsWithBreak() && r.below(c[1]) > r.n && r.inScalar(r.above(c[0])) {
			kept = c[0]
		}
	}
	for _, c := range cuts {
		r.cut(c[0], c[1])
	}
	r.keepBreak = kept
	p, q := r.prev[idx], r.next[idx]
	if p >= 0 {
		r.next[p] = q
	}
	if q < len(r.es) {
		r.prev[q] = p
	}
	r.prev[idx] = removedItem
	r.left, r.removed = r.left-1, r.removed+1
}

// endsWithBreak reports whether the document the cuts leave ends with a
// line break: its last line is then empty (a cut that leaves a blank line
// last gives a file without a final line break one).
func (r *removal) endsWithBreak() bool {
	last := r.above(r.n + 1)
	return last > 1 && r.d.lineStart(last) == r.d.lineEnd(last)
}

// isRow is "x <= d.lastRow" in the document the cuts leave: a line with
// content, not the empty one after a final line break.
func (r *removal) isRow(x int) bool {
	return x <= r.d.lastRow && !(x == r.above(r.n+1) && r.endsWithBreak())
}

// cut cuts the lines a..b that are not cut yet.
func (r *removal) cut(a, b int) {
	x := a
	if r.gone[x] {
		x = r.below(x)
	}
	for x <= b && x <= r.n {
		next := r.below(x)
		r.gone[x], r.up[x], r.down[x] = true, x-1, x+1
		x = next
	}
}

// inScalar is Doc.inScalar[x] of the document the cuts so far leave. A
// line that is not blank is what it was. A blank line is in a block
// scalar's body when the nearest line above it that is not blank is in
// that body or is its header: the scalar runs to the next token, and the
// lines between are blank (a cut line held the token that ended it
// before).
func (r *removal) inScalar(x int) bool {
	d := r.d
	if x < 1 || x > r.n {
		return false
	}
	if !d.isBlank(x) {
		return d.inScalar[x]
	}
	z := x
	for z > 0 && d.isBlank(z) {
		z = r.above(z)
	}
	return z > 0 && (d.inScalar[z] || d.keepHead[z])
}

// splices are the cuts as edits of d's bytes: a cut line goes with the
// line break before it (deleteLines), but for keepBreak's.
func (r *removal) splices() []textedit.Splice {
	d := r.d
	var ss []textedit.Splice
	for x := 1; x <= r.n; x++ {
		if !r.gone[x] {
			continue
		}
		from := d.lineEnd(x - 1)
		if x == r.keepBreak {
			from = d.lineStart(x)
		}
		to := d.lineEnd(x)
		if n := len(ss); n > 0 && ss[n-1].At+ss[n-1].Del == from {
			ss[n-1].Del = to - ss[n-1].At
			continue
		}
		ss = append(ss, textedit.Splice{At: from, Del: to - from})
	}
	return ss
}
