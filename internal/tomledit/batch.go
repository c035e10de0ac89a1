package tomledit

import (
	"encoding/json"
	"fmt"
	"sort"
	"unicode/utf8"
)

// Edits of many servers at once. An edit of one server parses, decodes and
// verifies its whole result, so writing N servers one at a time costs N² (a
// first sync of 2,000 servers took a minute). Insert, Replace and DeleteAll
// make the edits of all the servers in one pass, then parse and verify the
// result once. Their bytes are those of writing (set, in set_test.go) or
// deleting (Delete) each server in turn, in the order given: the one-server
// edits remain the definition, and the tests hold the two to each other.

// KeyValue is one server to write: its name, and its value as a JSON object.
type KeyValue struct {
	Name  string
	Value []byte
}

// Insert adds servers that the table does not hold yet, in order, to the
// managed block (creating it when missing). A server that is there already,
// or a name given twice, is an error; so is anything set refuses.
func (d *Doc) Insert(table []string, kvs []KeyValue) (*Doc, error) {
	if len(kvs) == 0 {
		return d, nil
	}
	es, rendered, err := d.prepare("Insert", table, kvs)
	if err != nil {
		return nil, err
	}
	var block []byte
	for i, kv := range kvs {
		if es[kv.Name].node != nil {
			return nil, fmt.Errorf("tomledit: Insert: server %s is already in the file", quoteForMessage(kv.Name))
		}
		// Each server goes after the last one, with a blank line between.
		if i > 0 {
			block = append(block, d.nl...)
		}
		block = append(block, rendered[i]...)
	}
	out, err := d.addToBlock(block)
	if err != nil {
		return nil, err
	}
	return d.finishWrite("Insert", out, table, kvs)
}

// Replace writes new values of servers that the table holds, each where set
// would: over the entry's first run of tables, removing its others. A server
// that is not there, or a name given twice, is an error; so is anything set
// refuses. Servers that already have their value are left as they are; when
// all have, Replace returns d.
func (d *Doc) Replace(table []string, kvs []KeyValue) (*Doc, error) {
	if len(kvs) == 0 {
		return d, nil
	}
	es, rendered, err := d.prepare("Replace", table, kvs)
	if err != nil {
		return nil, err
	}
	var r *draft
	for i, kv := range kvs {
		e := es[kv.Name]
		if e.node == nil {
			return nil, fmt.Errorf("tomledit: Replace: server %s is not in the file", quoteForMessage(kv.Name))
		}
		if jsonEqual(e.node.appendJSON(nil), kv.Value) {
			continue
		}
		if r == nil {
			r = newDraft(d)
		}
		r.replace(e, rendered[i])
	}
	if r == nil {
		return d, nil
	}
	return d.finishWrite("Replace", r.bytes(), table, kvs)
}

// DeleteAll removes servers as a Delete of each in turn would, the managed
// block included once it is left empty. Names that are absent are skipped;
// when none is there, DeleteAll returns d. A name given twice is an error.
func (d *Doc) DeleteAll(table []string, names []string) (*Doc, error) {
	if err := checkNames("DeleteAll", names); err != nil {
		return nil, err
	}
	es, err := d.lookupEntries(table, names)
	if err != nil {
		return nil, err
	}
	var r *draft
	var gone []string
	for _, name := range names {
		e := es[name]
		if e.node == nil {
			continue
		}
		if e.notTables || len(e.groups) == 0 {
			return nil, e.editError(table, name)
		}
		if r == nil {
			r = newDraft(d)
		}
		r.delete(e)
		r.removeEmptyBlock()
		gone = append(gone, name)
	}
	if r == nil {
		return d, nil
	}
	nd, err := parse(r.bytes())
	if err != nil {
		return nil, fmt.Errorf("tomledit: DeleteAll produced an invalid document (%w); nothing was changed", err)
	}
	after, err := nd.lookupEntries(table, gone)
	if err != nil {
		return nil, fmt.Errorf("tomledit: DeleteAll: re-reading the result: %w", err)
	}
	for _, name := range gone {
		if after[name].node != nil {
			return nil, fmt.Errorf("tomledit: DeleteAll: server %s is still in the result", quoteForMessage(name))
		}
	}
	if err := nd.verifyRest(d, table, gone, fmt.Sprintf("DeleteAll of %d servers", len(gone))); err != nil {
		return nil, err
	}
	return nd, nil
}

// checkNames refuses invalid UTF-8 and a name given twice.
func checkNames(op string, names []string) error {
	seen := make(map[string]bool, len(names))
	for _, n := range names {
		if !utf8.ValidString(n) {
			return fmt.Errorf("tomledit: server name %q is not valid UTF-8", n)
		}
		if seen[n] {
			return fmt.Errorf("tomledit: %s: server %s is given twice", op, quoteForMessage(n))
		}
		seen[n] = true
	}
	return nil
}

// prepare checks what set checks of every server to write, in order, and
// renders them; it looks the servers up in one pass.
func (d *Doc) prepare(op string, table []string, kvs []KeyValue) (map[string]*entry, [][]byte, error) {
	names := make([]string, len(kvs))
	for i, kv := range kvs {
		names[i] = kv.Name
	}
	if err := checkNames(op, names); err != nil {
		return nil, nil, err
	}
	es, err := d.lookupEntries(table, names)
	if err != nil {
		return nil, nil, err
	}
	rendered := make([][]byte, len(kvs))
	for i, kv := range kvs {
		if !json.Valid(kv.Value) {
			return nil, nil, fmt.Errorf("tomledit: %s: the value of server %s is not valid JSON", op, quoteForMessage(kv.Name))
		}
		if !utf8.Valid(kv.Value) {
			return nil, nil, fmt.Errorf("tomledit: %s: the value of server %s is not valid UTF-8", op, quoteForMessage(kv.Name))
		}
		if e := es[kv.Name]; e.node != nil && (e.notTables || len(e.groups) == 0) {
			return nil, nil, e.editError(table, kv.Name)
		}
		if rendered[i], err = renderEntry(table, kv.Name, kv.Value, d.nl); err != nil {
			return nil, nil, err
		}
	}
	return es, rendered, nil
}

// finishWrite parses the result of Insert or Replace on d and checks it as
// set does: every server reads back as its value and is editable, and
// nothing else in the document changed.
func (d *Doc) finishWrite(op string, out []byte, table []string, kvs []KeyValue) (*Doc, error) {
	nd, err := parse(out)
	if err != nil {
		return nil, fmt.Errorf("tomledit: %s produced an invalid document (%w); nothing was changed", op, err)
	}
	names := make([]string, len(kvs))
	for i, kv := range kvs {
		names[i] = kv.Name
	}
	es, err := nd.lookupEntries(table, names)
	if err != nil {
		return nil, fmt.Errorf("tomledit: %s: re-reading the result: %w", op, err)
	}
	for _, kv := range kvs {
		e := es[kv.Name]
		switch {
		case e.node == nil:
			return nil, fmt.Errorf("tomledit: %s: server %s is missing from the result", op, quoteForMessage(kv.Name))
		case e.notTables:
			return nil, fmt.Errorf("tomledit: %s: server %s is not a table in the result", op, quoteForMessage(kv.Name))
		}
		if got := e.node.appendJSON(nil); !jsonEqual(got, kv.Value) {
			return nil, fmt.Errorf("tomledit: %s: server %s reads back as %s, want %s", op, quoteForMessage(kv.Name), got, kv.Value)
		}
	}
	if err := nd.verifyRest(d, table, names, fmt.Sprintf("%s of %d servers", op, len(kvs))); err != nil {
		return nil, err
	}
	return nd, nil
}

// A draft is the document as a list of units: each expression (its whole
// lines), and each blank line between expressions. Replace and DeleteAll
// edit it one server at a time, exactly as set and Delete edit the document
// the previous server's edit left (the same runs of tables, the same blank
// line taken with a deleted run, the same final newline), but in place:
// removing a unit unlinks it, rewriting an entry gives its first unit new
// bytes, and the bytes are written out once at the end.
type draft struct {
	d     *Doc
	units []unit
	first int   // the first live unit, -1 when none is left
	expr  []int // index in units of each expression of d.exprs

	// tables finds the next live table header or marker: what ends an
	// entry's run of sections. content finds the next live unit that is not
	// a blank line.
	tables, content skipList

	markers    []int // units of the marker comments
	blockDirty bool  // a marker was removed: the block must be found again
	blockStart int   // units of the markers of a well-formed block, -1 if none
	blockEnd   int
}

type unit struct {
	start, end int    // in d.data
	ins        []byte // the unit's bytes instead of data[start:end] (an entry written over it)
	cut        int    // bytes removed from the end: its line break, once it became the last line
	prev, next int    // live neighbours, -1 at either end
	dead       bool
	blank      bool // a line holding only spaces and tabs
	table      bool // a table header or a marker comment
}

// bytes returns what the unit holds now.
func (u *unit) bytes(data []byte) []byte {
	b := data[u.start:u.end]
	if u.ins != nil {
		b = u.ins
	}
	return b[:len(b)-u.cut]
}

func newDraft(d *Doc) *draft {
	r := &draft{d: d, first: -1, expr: make([]int, len(d.exprs)), blockStart: -1, blockEnd: -1}
	blanks := func(from, to int) { // the whitespace lines in [from, to)
		for from < to {
			e := to
			for i := from; i < to; i++ {
				if d.data[i] == '\n' {
					e = i + 1
					break
				}
			}
			r.units = append(r.units, unit{start: from, end: e, blank: true})
			from = e
		}
	}
	at := d.bom
	for i, x := range d.exprs {
		blanks(at, x.start)
		r.expr[i] = len(r.units)
		r.units = append(r.units, unit{start: x.start, end: x.end,
			table: x.kind == kTable || x.kind == kArrayTable || x.marker != notMarker})
		if x.marker != notMarker {
			r.markers = append(r.markers, r.expr[i])
		}
		at = x.end
	}
	blanks(at, len(d.data))
	n := len(r.units)
	for i := range r.units {
		r.units[i].prev, r.units[i].next = i-1, i+1
	}
	if n > 0 {
		r.first = 0
		r.units[n-1].next = -1
	}
	r.tables = newSkipList(n, func(i int) bool { return r.units[i].table })
	r.content = newSkipList(n, func(i int) bool { return !r.units[i].blank })
	if d.start >= 0 {
		r.blockStart, r.blockEnd = r.expr[d.start], r.expr[d.end]
	}
	return r
}

// terminated reports whether unit i ends with a line break.
func (r *draft) terminated(i int) bool {
	b := r.units[i].bytes(r.d.data)
	return len(b) > 0 && b[len(b)-1] == '\n'
}

func (r *draft) remove(i int) {
	u := &r.units[i]
	u.dead = true
	if u.prev >= 0 {
		r.units[u.prev].next = u.next
	} else {
		r.first = u.next
	}
	if u.next >= 0 {
		r.units[u.next].prev = u.prev
	}
	r.tables.remove(i)
	r.content.remove(i)
	if u.table && r.isMarker(i) {
		r.blockDirty = true
	}
}

func (r *draft) isMarker(i int) bool {
	j := sort.SearchInts(r.markers, i)
	return j < len(r.markers) && r.markers[j] == i
}

// removeRun removes the live units from a to b (both live, a first).
func (r *draft) removeRun(a, b int) {
	for {
		next := r.units[a].next
		r.remove(a)
		if a == b {
			return
		}
		a = next
	}
}

// cutNewline removes the line break at the end of unit i (see Doc.deletion);
// a unit left with no bytes goes.
func (r *draft) cutNewline(i int) {
	u := &r.units[i]
	b := u.bytes(r.d.data)
	switch {
	case len(b) >= 2 && b[len(b)-2] == '\r' && b[len(b)-1] == '\n':
		u.cut += 2
	case len(b) >= 1 && b[len(b)-1] == '\n':
		u.cut++
	}
	if len(u.bytes(r.d.data)) == 0 {
		r.remove(i)
	}
}

// runs returns the entry's runs of consecutive sections in the draft as it
// is now, as units [first, last]: sections belong to one run when no live
// table header or marker of anything else lies between them, which is how
// lookupEntries groups them in the document the draft stands for.
func (r *draft) runs(e *entry) [][2]int {
	var out [][2]int
	for k, h := range e.sections {
		u := r.expr[h]
		last := r.sectionEnd(h)
		if k > 0 && r.tables.next(r.expr[e.sections[k-1]]+1) >= u {
			out[len(out)-1][1] = last
			continue
		}
		out = append(out, [2]int{u, last})
	}
	return out
}

// sectionEnd returns the unit that ends the section of header h: the unit
// ending at its secEnd.
func (r *draft) sectionEnd(h int) int {
	end := r.d.exprs[h].secEnd
	i := r.expr[h]
	j := sort.Search(len(r.units)-i, func(k int) bool { return r.units[i+k].end >= end })
	return i + j
}

// replace is what set does to an existing entry: the first run is rewritten
// (without a final newline when it ends the file without one), the others
// are deleted.
func (r *draft) replace(e *entry, rendered []byte) {
	rs := r.runs(e)
	a, b := rs[0][0], rs[0][1]
	if !r.terminated(b) {
		rendered = trimNL(rendered)
	}
	if b != a {
		r.removeRun(r.units[a].next, b)
	}
	u := &r.units[a]
	u.ins, u.cut = rendered, 0
	for _, run := range rs[1:] {
		r.deleteRun(run[0], run[1])
	}
}

// delete is what Delete does to an entry: every run is deleted.
func (r *draft) delete(e *entry) {
	for _, run := range r.runs(e) {
		r.deleteRun(run[0], run[1])
	}
}

// deleteRun removes the units a to b as Doc.deletion does: with the blank
// line before them, else the one after them; when they end the file
// without a final newline, the line before them loses its line break.
//
// An entry's runs are separated by a table header or a marker, so the
// lines deleteRun looks at for one run are never those of another: deleting
// them one after the other is deleting them at once, as set and Delete do.
func (r *draft) deleteRun(a, b int) {
	if p := r.units[a].prev; p >= 0 && r.units[p].blank {
		a = p
	} else if n := r.units[b].next; n >= 0 && r.units[n].blank && r.terminated(n) {
		b = n
	}
	if r.units[b].next < 0 && !r.terminated(b) {
		if p := r.units[a].prev; p >= 0 {
			r.cutNewline(p)
		}
	}
	r.removeRun(a, b)
}

// removeEmptyBlock is what Delete does after deleting an entry: a
// well-formed managed block with nothing but blank lines left in it goes,
// as Doc.removeBlock takes it out.
func (r *draft) removeEmptyBlock() {
	if r.blockDirty {
		r.findBlock()
	}
	s, e := r.blockStart, r.blockEnd
	if s < 0 || r.content.next(s+1) != e {
		return
	}
	if p := r.units[s].prev; p >= 0 && r.units[p].blank && r.units[p].prev >= 0 {
		if b := r.units[p].bytes(r.d.data); string(b) == "\n" || string(b) == "\r\n" {
			if !r.terminated(e) {
				r.cutNewline(r.units[p].prev)
			}
			s = p
		}
	}
	r.removeRun(s, e)
	r.findBlock()
}

// findBlock finds the block again from the markers left, as findBlock does
// on a parsed document.
func (r *draft) findBlock() {
	r.blockDirty = false
	r.blockStart, r.blockEnd = -1, -1
	var starts, ends []int
	for _, i := range r.markers {
		if r.units[i].dead {
			continue
		}
		if r.d.exprs[r.exprOf(i)].marker == startMarker {
			starts = append(starts, i)
		} else {
			ends = append(ends, i)
		}
	}
	if len(starts) == 1 && len(ends) == 1 && starts[0] < ends[0] {
		r.blockStart, r.blockEnd = starts[0], ends[0]
	}
}

// exprOf returns the expression of unit i, which is one.
func (r *draft) exprOf(i int) int {
	return sort.SearchInts(r.expr, i)
}

// bytes writes the draft out.
func (r *draft) bytes() []byte {
	n := r.d.bom
	for i := r.first; i >= 0; i = r.units[i].next {
		n += len(r.units[i].bytes(r.d.data))
	}
	out := make([]byte, 0, n)
	out = append(out, r.d.data[:r.d.bom]...)
	for i := r.first; i >= 0; i = r.units[i].next {
		out = append(out, r.units[i].bytes(r.d.data)...)
	}
	return out
}

// skipList finds the first index at or after i that is still in a set
// that only loses members: a union-find where a removed index points past
// itself.
type skipList []int32

func newSkipList(n int, in func(i int) bool) skipList {
	s := make(skipList, n+1)
	for i := range n {
		if in(i) {
			s[i] = int32(i)
		} else {
			s[i] = int32(i + 1)
		}
	}
	s[n] = int32(n)
	return s
}

// next returns the first member at or after i, or len-1 when there is none.
func (s skipList) next(i int) int {
	for int(s[i]) != i {
		s[i] = s[s[i]]
		i = int(s[i])
	}
	return i
}

func (s skipList) remove(i int) { s[i] = int32(i + 1) }
