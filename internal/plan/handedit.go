package plan

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/repo-manager/repo/internal/canon"
	"github.com/repo-manager/repo/internal/lazy"
	"github.com/repo-manager/repo/internal/ordered"
	"github.com/repo-manager/repo/internal/record"
	"github.com/repo-manager/repo/internal/target"
	"github.com/repo-manager/repo/internal/termtext"
)

// Hand edits survive. A managed entry the user edited keeps the edit in
// every field the extension did not change since repo last wrote the
// entry: a three-way merge of the entry in the file with the one the
// extension asks for now, against the base — the entry as repo last wrote
// it. The record's digest is the base's: what the extension last asked
// for, not what the file holds; an entry that differs from it holds the
// user's edits. Its text is either what the extension asks for now (when
// that still has the recorded digest: the extension did not change, and
// the edit is kept as it is), or kept in the user's state folder
// (bases.go), never in the workspace.
//
//   - A field the user changed and the extension did not: the user's.
//   - A field the extension changed and the user did not: the extension's.
//   - A field both changed alike: as it is.
//   - A field both changed otherwise is a conflict: the run stops (exit 2)
//     and shows both values, unless the sync says which to take for that
//     entry (Options.Ours: the user's; Options.Theirs: the extension's).
//
// Fields are the entry's members and, inside members that are objects on
// all sides (env, headers), theirs; a list (args) is one value. Members a
// tool or its user owns (a profile's preserve) are merged as before
// (preserve.go). Without the base (a clone that never synced this entry,
// once the extension changed it) the managed entry is put back, with a
// warning, as before.

// KeptEdit is a managed entry whose hand edits a sync keeps.
type KeptEdit struct {
	File   string       `json:"path"` // as shown to people
	Scope  target.Scope `json:"scope"`
	Tools  []string     `json:"tools"`
	Entry  string       `json:"entry"`
	Fields []string     `json:"fields"` // the fields edited by hand, as field paths (env.DEBUG)
}

// FieldConflict is a field that the user and the extension both changed,
// each to another value. Values are JSON; nil: no such member.
type FieldConflict struct {
	Field  string
	Yours  []byte
	Theirs []byte
	Base   []byte
}

// EditConflictError is a managed entry whose hand edits collide with the
// extension's changes.
type EditConflictError struct {
	File      string
	Line      int
	Scope     target.Scope
	Entry     string
	Extension string
	Conflicts []FieldConflict
}

func (e *EditConflictError) Error() string {
	loc := e.File
	if e.Line > 0 {
		loc = fmt.Sprintf("%s:%d", e.File, e.Line)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s: entry %q was edited by hand, and extension %s changed the same field since repo last wrote it:", loc, termtext.Safe(e.Entry), termtext.Safe(e.Extension))
	show := func(v []byte) string {
		if v == nil {
			return "(none)"
		}
		return termtext.Safe(string(canon.JSON(v)))
	}
	for _, c := range e.Conflicts {
		fmt.Fprintf(&b, "\n  %s: yours %s, the extension's %s (repo wrote %s)", termtext.Safe(c.Field), show(c.Yours), show(c.Theirs), show(c.Base))
	}
	cmd := "repo sync"
	if e.Scope != "" && e.Scope != target.ScopeProject {
		cmd += " --scope " + string(e.Scope)
	}
	name := shellWord(e.Entry)
	fmt.Fprintf(&b, "\nkeep yours with '%s --ours %s', or take the extension's with '%s --theirs %s'; your other edits of the entry stay either way", cmd, name, cmd, name)
	return b.String()
}

// keepHandEdit plans server d's entry, which the user edited since repo
// wrote it (cur, whose record is rec): the merge above, when the base is
// known. done is false when it is not (the caller puts the managed entry
// back, as before).
func (tp *targetPlan) keepHandEdit(doc Document, d target.Desired, want ordered.Object, cur Member, rec record.Owned) (done bool, err error) {
	t, env := tp.t, tp.env
	wantBare := want.Without(t.Preserve...)
	var base string // the base's text, the root spelled <<root>>
	if tp.next[d.Name].Digest == rec.Digest {
		base = string(normalizedText(wantBare, env.Root))
	} else if text, ok := tp.bases.get(tp.section, rec.Digest); ok {
		base = text
	} else {
		return false, nil
	}
	file := withoutMembers(cur.Value, t.Preserve) // as the user wrote it: their order stays
	baseAt := bestRoot(env, base, file)
	mode := mergeAsk
	switch {
	case slices.Contains(tp.opts.Ours, d.Name):
		mode = mergeOurs
	case slices.Contains(tp.opts.Theirs, d.Name):
		mode = mergeTheirs
	}
	m := &merger{mode: mode}
	merged, ok := m.objects(baseAt, file, ordered.JSON(wantBare), "")
	if !ok {
		return false, nil // not objects: nothing to merge field by field
	}
	if len(m.conflicts) > 0 {
		return true, &EditConflictError{File: t.Display, Line: lineOf(doc, t, cur), Scope: t.Scope, Entry: d.Name, Extension: d.Extension, Conflicts: m.conflicts}
	}
	for _, p := range t.Preserve {
		if v, ok := want.Get(p); ok {
			merged = merged.Set(p, v)
		}
	}
	if len(m.kept) > 0 {
		tp.out.kept = append(tp.out.kept, KeptEdit{File: t.Display, Scope: t.Scope, Tools: slices.Clone(t.Tools), Entry: d.Name, Fields: m.kept})
	}
	if sameJSON(cur.Value, ordered.JSON(merged)) {
		return true, nil // the file holds the merge already: nothing to write
	}
	tp.replacing(d.Name, tp.next[d.Name], cur.Value)
	tp.change(ActionUpdate, d.Name, ReasonMerged)
	tp.set(d.Name, merged)
	return true, nil
}

// ReasonMerged is why an entry edited by hand is updated: the extension's
// changes are merged in, the user's edits kept.
const ReasonMerged Reason = "extension's change merged into a hand-edited entry"

// bestRoot is base (its root spelled <<root>>) at the root the entry in
// the file was written at: this root, one of its aliases (a workspace
// moved, or reached through a link), or the one its paths name; the one
// that leaves the fewest members different from the file. So a path repo
// wrote at the old root is not taken for the user's edit.
func bestRoot(env target.Env, base string, file []byte) []byte {
	roots := append([]string{env.Root}, env.Aliases...)
	if r := entryRoot(file); r != "" && !slices.Contains(roots, r) {
		roots = append(roots, r)
	}
	var best []byte
	fewest := -1
	for _, r := range roots {
		at := []byte(strings.ReplaceAll(base, "<<root>>", canon.Text(r)))
		if n := differentMembers(at, file); fewest < 0 || n < fewest {
			best, fewest = at, n
		}
	}
	return best
}

// entryRoot is the workspace root an entry's paths name (the part of a
// path before /.repository/extensions/), or "".
func entryRoot(raw []byte) string {
	c := string(raw)
	marker := canon.Text(string(filepath.Separator) + ".repository" + string(filepath.Separator) + "extensions" + string(filepath.Separator))
	i := strings.Index(c, marker)
	if i <= 0 {
		return ""
	}
	start := strings.LastIndexByte(c[:i], '"') + 1
	var root string
	if json.Unmarshal([]byte(`"`+c[start:i]+`"`), &root) != nil || !filepath.IsAbs(root) {
		return ""
	}
	return root
}

// differentMembers is how many members of two objects differ.
func differentMembers(a, b []byte) int {
	ka, ma, _ := objectMembers(a)
	kb, mb, _ := objectMembers(b)
	n := 0
	for _, k := range ka {
		if v, ok := mb[k]; !ok || !sameJSON(ma[k], v) {
			n++
		}
	}
	for _, k := range kb {
		if _, ok := ma[k]; !ok {
			n++
		}
	}
	return n
}

// normalizedText is the text record.EntryDigest hashes: v's canonical
// JSON with the root spelled <<root>>.
func normalizedText(v ordered.Object, root string) []byte {
	c, ok := canon.Value(v)
	if !ok {
		c = canon.JSON(ordered.JSON(v))
	}
	if root == "" {
		return c
	}
	return record.AppendNormalized(nil, c, root)
}

// mergeMode is what a merge does with a conflict.
type mergeMode int

const (
	mergeAsk    mergeMode = iota // report it
	mergeOurs                    // take the file's value (the user's)
	mergeTheirs                  // take the extension's
)

// merger is one three-way merge of an entry.
type merger struct {
	mode      mergeMode
	kept      []string // the fields whose hand edit is kept
	conflicts []FieldConflict
}

// objects merges three JSON objects (base: as repo wrote it; file: as the
// file holds it; want: as the extension asks now) field by field. The
// result lists want's members in want's order, then the members only the
// file has, in its order. ok is false when file or want is not an object.
func (m *merger) objects(base, file, want []byte, path string) (ordered.Object, bool) {
	kb, mb, okb := objectMembers(base)
	kf, mf, okf := objectMembers(file)
	kw, mw, okw := objectMembers(want)
	if !okf || !okw {
		return nil, false
	}
	if !okb {
		kb, mb = nil, map[string][]byte{}
	}
	var out ordered.Object
	keys := slices.Clone(kw)
	for _, k := range kf {
		if _, ok := mw[k]; !ok {
			keys = append(keys, k)
		}
	}
	for _, k := range kb {
		if !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	for _, k := range keys {
		b, inB := mb[k]
		f, inF := mf[k]
		w, inW := mw[k]
		field := fieldPath(path, k)
		same := func(x []byte, inX bool, y []byte, inY bool) bool {
			return inX == inY && (!inX || sameJSON(x, y))
		}
		var v []byte
		var in bool
		switch {
		case same(f, inF, b, inB): // the user did not change it
			v, in = w, inW
		case same(w, inW, b, inB): // the extension did not: the user's
			v, in = f, inF
			m.kept = append(m.kept, changedFields(b, inB, f, inF, field)...)
		case same(f, inF, w, inW): // both changed it alike
			v, in = f, inF
		case inF && inW && isObject(f) && isObject(w) && (!inB || isObject(b)):
			if !inB {
				b = []byte("{}")
			}
			sub, _ := m.objects(b, f, w, field)
			out = append(out, ordered.Member{Key: k, Value: sub})
			continue
		default:
			switch m.mode {
			case mergeOurs:
				v, in = f, inF
				m.kept = append(m.kept, field)
			case mergeTheirs:
				v, in = w, inW
			default:
				c := FieldConflict{Field: field}
				if inF {
					c.Yours = f
				}
				if inW {
					c.Theirs = w
				}
				if inB {
					c.Base = b
				}
				m.conflicts = append(m.conflicts, c)
				continue
			}
		}
		if in {
			out = append(out, ordered.Member{Key: k, Value: json.RawMessage(compact(v))})
		}
	}
	return out, true
}

// objectMembers lists the members of a JSON object in order, the last of
// repeated ones (as decoding takes them); ok is false for anything but an
// object.
func objectMembers(raw []byte) (keys []string, values map[string][]byte, ok bool) {
	if !gjson.ValidBytes(raw) {
		return nil, nil, false
	}
	r := gjson.ParseBytes(raw)
	if !r.IsObject() {
		return nil, nil, false
	}
	values = map[string][]byte{}
	r.ForEach(func(k, v gjson.Result) bool {
		name := k.String()
		if _, seen := values[name]; !seen {
			keys = append(keys, name)
		}
		values[name] = []byte(v.Raw)
		return true
	})
	return keys, values, true
}

func isObject(raw []byte) bool {
	return gjson.ValidBytes(raw) && gjson.ParseBytes(raw).IsObject()
}

// plainKey is a member name a field path shows as it is.
var plainKey = lazy.Regexp{Expr: `^[A-Za-z_][A-Za-z0-9_-]*$`}

// fieldPath is the path of member k of the field at path: env.DEBUG, or
// headers["X-A.b"] for a name that is not plain.
func fieldPath(path, k string) string {
	if !plainKey.Get().MatchString(k) {
		b, _ := json.Marshal(k)
		return path + "[" + string(b) + "]"
	}
	if path == "" {
		return k
	}
	return path + "." + k
}

// compact is raw without its insignificant whitespace, its members in
// their order (a value the user wrote stays as they wrote it).
func compact(raw []byte) []byte {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return canon.JSON(raw)
	}
	return b.Bytes()
}

// changedFields are the fields where after differs from before (inside
// objects on both sides, each member's; else the field itself).
func changedFields(before []byte, inBefore bool, after []byte, inAfter bool, path string) []string {
	kb, mb, okb := objectMembers(before)
	ka, ma, oka := objectMembers(after)
	if !inBefore || !inAfter || !okb || !oka {
		return []string{path}
	}
	var out []string
	for _, k := range ka {
		b, in := mb[k]
		if !in || !sameJSON(b, ma[k]) {
			out = append(out, changedFields(b, in, ma[k], true, fieldPath(path, k))...)
		}
	}
	for _, k := range kb {
		if _, in := ma[k]; !in {
			out = append(out, fieldPath(path, k))
		}
	}
	return out
}

// withoutMembers is the JSON object raw, compact, without the members
// named in keys, the others in their order; raw itself when it is not an
// object.
func withoutMembers(raw []byte, keys []string) []byte {
	names, values, ok := objectMembers(raw)
	if !ok {
		return raw
	}
	var out ordered.Object
	for _, k := range names {
		if !slices.Contains(keys, k) {
			out = append(out, ordered.Member{Key: k, Value: json.RawMessage(compact(values[k]))})
		}
	}
	return ordered.JSON(out)
}
