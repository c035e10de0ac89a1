package jsonedit

import (
	"errors"
	"fmt"
	"slices"

	"github.com/repo-manager/repo/internal/textedit"
)

// DeleteAll removes the members keys from the object at path, with the
// bytes of a Delete of each in turn, in the order given, but in one edit
// parsed and verified once: removing a folder of extensions takes
// thousands of entries out of a file, and a Delete of each copies and
// checks the whole object every time. Keys that are not there are
// skipped; when none is, DeleteAll returns d. A key given twice is an
// error; so is what Delete refuses.
func (d *Doc) DeleteAll(path []string, keys []string) (*Doc, error) {
	seen := make(map[string]bool, len(keys))
	for _, k := range keys {
		if seen[k] {
			return nil, fmt.Errorf("jsonedit: DeleteAll: key %q given twice", k)
		}
		seen[k] = true
	}
	objs, err := d.walk(path)
	if err != nil {
		return nil, err
	}
	if len(objs) != len(path)+1 {
		return d, nil
	}
	o := objs[len(path)]
	at := o.indexes()
	var order []int
	for _, k := range keys {
		if i, ok := at[k]; ok {
			order = append(order, i)
		}
	}
	if len(order) == 0 {
		return d, nil
	}
	interior, left := d.withoutMembers(o, order)
	nd, _, _, err := d.derive([]textedit.Splice{{At: o.open + 1, Del: o.close - o.open - 1, Ins: interior}}, objs)
	if err != nil {
		return nil, err
	}
	after, err := nd.walk(path)
	if err != nil {
		return nil, fmt.Errorf("jsonedit: internal error: re-reading the edited document: %w", err)
	}
	if len(after) != len(path)+1 || !slices.EqualFunc(after[len(path)].members, left, func(m member, k string) bool { return m.key == k }) {
		return nil, errors.New("jsonedit: internal error: the object does not hold the members left after deleting")
	}
	return nd, nil
}

// withoutMembers returns the text between o's braces once the members at
// order are deleted in turn, and the keys of the members left. It keeps
// the text around each member as it stands after the deletions so far:
// gap[i] is what lies between the member before i that is left (or the
// '{') and member i, gap[n] what lies before the '}'. Deleting a member
// joins the gaps on either side (cutMember says what of them goes), so
// each deletion costs the two gaps, not the object.
func (d *Doc) withoutMembers(o object, order []int) ([]byte, []string) {
	n := len(o.members)
	gap := make([][]byte, n+1)
	prev, next := make([]int, n+1), make([]int, n+1)
	gone := make([]bool, n)
	lo := o.open + 1
	for i, m := range o.members {
		gap[i], lo = d.data[lo:m.keyStart], m.valEnd
		prev[i], next[i] = i-1, i+1
	}
	gap[n], prev[n] = d.data[lo:o.close], n-1
	left := n
	for _, i := range order {
		p, q := prev[i], next[i]
		before, after := gap[i], gap[q]
		c := cutMember(before, after, p < 0, q == n, left == 1)
		var joined []byte // a new slice: the gaps may be d.data's
		if !c.all {
			joined = make([]byte, 0, c.from+len(after)-c.to)
			if c.comma >= 0 {
				joined = append(append(joined, before[:c.comma]...), before[c.comma+1:c.from]...)
			} else {
				joined = append(joined, before[:c.from]...)
			}
			joined = append(joined, after[c.to:]...)
		}
		gap[q], prev[q] = joined, p
		if p >= 0 {
			next[p] = q
		}
		gone[i], left = true, left-1
	}
	size := len(gap[n])
	for i, m := range o.members {
		if !gone[i] {
			size += len(gap[i]) + m.valEnd - m.keyStart
		}
	}
	out := make([]byte, 0, size)
	keys := make([]string, 0, left)
	for i, m := range o.members {
		if !gone[i] {
			out = append(append(out, gap[i]...), d.data[m.keyStart:m.valEnd]...)
			keys = append(keys, m.key)
		}
	}
	return append(out, gap[n]...), keys
}
