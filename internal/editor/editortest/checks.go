package editortest

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"

	"github.com/repo-manager/repo/internal/editor"
)

// add writes the new entries in one Write and checks it against a Write of
// each in turn; they must read back after the entries already there, and
// the bytes before the last two of those must not change (an editor may
// add a comma after the last one, or put new entries before it when
// nothing may follow it). It returns the result, nil when refused.
func (s *suite) add(doc editor.Doc) editor.Doc {
	s.t.Helper()
	before, ok := s.read(doc)
	if !ok {
		return nil
	}
	adds := entries("v1", names...)
	got := s.same("Write of new entries", doc, false,
		func() (editor.Doc, error) { return doc.Write(s.c.Key, nil, adds) },
		func() (editor.Doc, error) { return writeEach(doc, s.c.Key, nil, adds) })
	if got == nil {
		return nil
	}
	s.holds(got, append(slices.Clone(before), members(adds)...))
	if depth, err := got.Depth(s.c.Key); err != nil || depth != len(s.c.Key) {
		s.fail("Depth after a Write = %d, %v; want %d", depth, err, len(s.c.Key))
	}
	if n := len(before); n >= 2 {
		from := lineStart(doc.Bytes(), s.line(doc, before[n-2]))
		s.unchanged("Write of new entries", doc.Bytes(), got.Bytes(), from, len(doc.Bytes()), false)
	}
	return got
}

// restore deletes the added entries and the containers the Write created
// (as a plan does: DeleteEmpty from the server map up, while there is one
// to remove): the file must be back byte for byte; a new file, bare.
func (s *suite) restore(doc, added editor.Doc) {
	s.t.Helper()
	depth, err := doc.Depth(s.c.Key)
	if err != nil {
		s.fail("Depth: %v", err)
	}
	back := s.same("Delete of the added entries", added, false,
		func() (editor.Doc, error) { return added.Delete(s.c.Key, names) },
		func() (editor.Doc, error) { return deleteEach(added, s.c.Key, names) })
	for i := len(s.c.Key); i > depth; i-- {
		nd, removed, err := back.DeleteEmpty(s.c.Key[:i])
		if err != nil {
			s.fail("DeleteEmpty(%q): %v", s.c.Key[:i], err)
		}
		if !removed {
			break
		}
		back = nd
	}
	if !bytes.Equal(back.Bytes(), doc.Bytes()) {
		s.fail("Write then Delete did not give back the file:\n%q\nwant\n%q", back.Bytes(), doc.Bytes())
	}
	if s.c.File == nil && !back.Bare() {
		s.fail("a new file written and emptied again is not bare:\n%q", back.Bytes())
	}
	if again, err := back.Delete(s.c.Key, []string{"absent entry"}); err != nil || !bytes.Equal(again.Bytes(), back.Bytes()) {
		s.fail("Delete of an entry that is not there: %v", err)
	}
}

// update writes a new value for the middle new entry: only the lines from
// the one before its first line to the next entry's first line may change.
// Then new values for the others and one more new entry, in one Write,
// against a Write of each in turn.
func (s *suite) update(added editor.Doc) {
	s.t.Helper()
	ms, ok := s.read(added)
	if !ok {
		return
	}
	nd, err := added.Write(s.c.Key, entries("v2", names[1]), nil)
	if s.refused("Write of a new value", err) {
		return
	}
	want := slices.Clone(ms)
	want[len(want)-2].Value = entries("v2", names[1])[0].Value
	s.holds(nd, want)
	// (Entries on one line: only the bytes before that line are known to
	// be outside the entry.)
	b, first, next := added.Bytes(), s.line(added, ms[len(ms)-2]), s.line(added, ms[len(ms)-1])
	s.unchanged("Write of a new value", b, nd.Bytes(), lineStart(b, first-1), lineStart(b, next), next > first)

	updates, adds := entries("v3", names[0], names[2]), entries("v3", "repo-d")
	s.same("Write of new values and a new entry", added, false,
		func() (editor.Doc, error) { return added.Write(s.c.Key, updates, adds) },
		func() (editor.Doc, error) { return writeEach(added, s.c.Key, updates, adds) })
}

// again writes the entries a Write wrote, with the same values: no byte
// may change.
func (s *suite) again(added editor.Doc) {
	s.t.Helper()
	nd, err := added.Write(s.c.Key, entries("v1", names...), nil)
	if s.refused("second Write", err) {
		return
	}
	if !bytes.Equal(nd.Bytes(), added.Bytes()) {
		s.fail("a second Write of the same entries changed the file:\n%q\nwas\n%q", nd.Bytes(), added.Bytes())
	}
}

// deletions deletes sets of the entries, the file's own included, in
// several orders, in one Delete and one at a time.
func (s *suite) deletions(d editor.Doc) {
	s.t.Helper()
	ms, ok := s.read(d)
	if !ok || len(ms) == 0 {
		return
	}
	all := make([]string, len(ms))
	for i, m := range ms {
		all[i] = m.Key
	}
	rev := slices.Clone(all)
	slices.Reverse(rev)
	var odd []string
	for i := 1; i < len(all); i += 2 {
		odd = append(odd, all[i])
	}
	sets := [][]string{all, rev, odd}
	if len(all) > 1 {
		sets = append(sets, []string{all[len(all)-1], all[0]})
	}
	for _, set := range sets {
		got := s.same("Delete", d, true,
			func() (editor.Doc, error) { return d.Delete(s.c.Key, set) },
			func() (editor.Doc, error) { return deleteEach(d, s.c.Key, set) })
		if got != nil {
			s.holds(got, slices.DeleteFunc(slices.Clone(ms), func(m editor.Member) bool { return slices.Contains(set, m.Key) }))
		}
	}
}

// same runs a batch edit and an edit of each entry in turn: they must give
// the same bytes, or both be refused (in Run, neither may be). outdo: the
// batch may succeed where an edit of each is refused on the way (a Delete
// of each checks what every step leaves; see yamledit.DeleteAll); the
// caller checks what it leaves.
func (s *suite) same(what string, d editor.Doc, outdo bool, batch, each func() (editor.Doc, error)) editor.Doc {
	s.t.Helper()
	want, werr := each()
	got, err := batch()
	switch {
	case werr != nil && err != nil:
		s.refused(what, err)
		return nil
	case werr != nil && (!outdo || s.strict):
		s.fail("%s: one edit succeeded where an edit of each failed (%v)\n%q", what, werr, d.Bytes())
	case werr != nil:
		return got
	case err != nil:
		s.fail("%s: one edit failed (%v) where an edit of each succeeded\n%q", what, err, d.Bytes())
	case !bytes.Equal(got.Bytes(), want.Bytes()):
		s.fail("%s: one edit gave\n%q\nan edit of each gave\n%q\nfrom\n%q", what, got.Bytes(), want.Bytes(), d.Bytes())
	}
	return got
}

// holds checks that d's map holds want, in order, values compared as JSON.
func (s *suite) holds(d editor.Doc, want []editor.Member) {
	s.t.Helper()
	got, ok := s.read(d)
	if !ok {
		s.fail("Entries after an edit failed")
	}
	same := slices.EqualFunc(got, want, func(a, b editor.Member) bool { return a.Key == b.Key && sameJSON(a.Value, b.Value) })
	if !same {
		s.fail("the map holds\n%s\nwant\n%s\nin\n%q", keys(got), keys(want), d.Bytes())
	}
}

// unchanged checks that an edit from before to after kept before[:from]
// and, when suffix, before[to:] (at the end of after).
func (s *suite) unchanged(what string, before, after []byte, from, to int, suffix bool) {
	s.t.Helper()
	if !bytes.HasPrefix(after, before[:from]) {
		s.fail("%s changed bytes before the entries it edits:\n%q\nwas\n%q", what, after, before)
	}
	if suffix && (len(after) < from+len(before)-to || !bytes.HasSuffix(after, before[to:])) {
		s.fail("%s changed bytes after the entries it edits:\n%q\nwas\n%q", what, after, before)
	}
}

func writeEach(d editor.Doc, key []string, updates, adds []editor.Entry) (editor.Doc, error) {
	var err error
	for _, u := range updates {
		if d, err = d.Write(key, []editor.Entry{u}, nil); err != nil {
			return nil, err
		}
	}
	for _, a := range adds {
		if d, err = d.Write(key, nil, []editor.Entry{a}); err != nil {
			return nil, err
		}
	}
	return d, nil
}

func deleteEach(d editor.Doc, key, names []string) (editor.Doc, error) {
	var err error
	for _, n := range names {
		if d, err = d.Delete(key, []string{n}); err != nil {
			return nil, err
		}
	}
	return d, nil
}

func members(es []editor.Entry) []editor.Member {
	ms := make([]editor.Member, len(es))
	for i, e := range es {
		ms[i] = editor.Member{Key: e.Name, Value: e.Value}
	}
	return ms
}

func keys(ms []editor.Member) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.Key + " " + string(m.Value)
	}
	return out
}

// lineStart is the offset of the start of 1-based line l of b (0 for a
// line before the first, len(b) for one after the last).
func lineStart(b []byte, l int) int {
	off := 0
	for ; l > 1; l-- {
		i := bytes.IndexByte(b[off:], '\n')
		if i < 0 {
			return len(b)
		}
		off += i + 1
	}
	return off
}

func sameJSON(a, b []byte) bool {
	var x, y any
	da, db := json.NewDecoder(bytes.NewReader(a)), json.NewDecoder(bytes.NewReader(b))
	da.UseNumber()
	db.UseNumber()
	return da.Decode(&x) == nil && db.Decode(&y) == nil && reflect.DeepEqual(x, y)
}
