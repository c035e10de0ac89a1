package yamledit

import "slices"

// set is the one-entry edit the tests are written in: Insert or Replace,
// as the container holds the entry or not. The batch edits are held to
// the bytes of a set of each entry in turn.

// set inserts the entry name with value (a JSON object) into the container
// at path, or replaces it: it is Insert or Replace of one entry. For a List
// the item is written as `- <nameField>: <name>` followed by the members of
// value, in their order; value must not contain nameField itself. Missing
// or empty containers are created (see the rules above). set returns a new
// Doc; d is unchanged.
func (d *Doc) set(path []string, kind Kind, nameField, name string, value []byte) (*Doc, error) {
	es := []Entry{{Name: name, Value: value}}
	vals, err := checkEntries(path, kind, nameField, es)
	if err != nil {
		return nil, err
	}
	before, _, err := d.Entries(path, kind, nameField)
	if err != nil {
		return nil, err
	}
	if slices.ContainsFunc(before, func(m Member) bool { return m.Key == name }) {
		return d.replace(path, kind, nameField, es, vals)
	}
	return d.insert(path, kind, nameField, es, vals, before)
}
