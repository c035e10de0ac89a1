package record

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/repo-manager/repo/internal/ordered"
)

// Bytes renders the record deterministically: targets sorted, two-space
// indent, final newline, no timestamps — so a second sync rewrites nothing
// and a committed record diffs cleanly. The text is what encoding/json's
// Encoder gives with two-space indent and no HTML escaping (records written
// by earlier versions stay byte for byte), written directly: a sync renders
// its records on every run, and reflection made that a tenth of its time.
func (r *Record) Bytes() []byte {
	slices.SortFunc(r.Targets, func(a, b *Entry) int {
		if c := strings.Compare(a.File, b.File); c != 0 {
			return c
		}
		return slices.Compare(a.Key, b.Key)
	})
	if r.Targets == nil {
		r.Targets = []*Entry{}
	}
	b := make([]byte, 0, r.size())
	b = fmt.Appendf(b, "{\n  \"version\": %d,\n", r.Version)
	if r.Root != "" {
		b = append(b, `  "root": `...)
		b = ordered.AppendString(b, r.Root)
		b = append(b, ",\n"...)
	}
	if r.ID != "" {
		b = append(b, `  "id": `...)
		b = ordered.AppendString(b, r.ID)
		b = append(b, ",\n"...)
	}
	b = append(b, `  "targets": [`...)
	var names []string // one slice for the names of every target's entries
	for i, t := range r.Targets {
		if i > 0 {
			b = append(b, ',')
		}
		b, names = appendEntry(b, t, names)
	}
	if len(r.Targets) > 0 {
		b = append(b, "\n  "...)
	}
	return append(b, "]\n}\n"...)
}

// size is about the length of the record's text (a little more where
// strings are escaped): the text is allocated once, not grown.
func (r *Record) size() int {
	n := 64 + len(r.Root) + len(r.ID)
	for _, t := range r.Targets {
		n += 128 + len(t.File)
		for _, k := range t.Key {
			n += 16 + len(k)
		}
		if t.Created != nil {
			n += 96
			for _, k := range t.Created.Key {
				n += 16 + len(k)
			}
		}
		for name, o := range t.Entries {
			n += 112 + len(name) + len(o.Extension) + len(o.Digest)
			if o.Previous != "" {
				n += 28 + len(o.Previous)
			}
			if len(o.Defaults) > 0 {
				n += 32
				for k, v := range o.Defaults {
					n += 20 + len(k) + len(v)
				}
			}
		}
	}
	return n
}

// appendEntry appends one target of the record, as the indenting Encoder
// does in the list of targets; names is room for the sorted names of its
// entries, returned for the next target.
func appendEntry(b []byte, t *Entry, names []string) ([]byte, []string) {
	b = append(b, "\n    {\n      \"file\": "...)
	b = ordered.AppendString(b, t.File)
	b = append(b, ",\n      \"key\": "...)
	b = appendIndentedStrings(b, t.Key, "      ")
	if c := t.Created; c != nil {
		b = append(b, ",\n      \"created\": "...)
		b = appendCreated(b, c)
	}
	b = append(b, ",\n      \"entries\": "...)
	switch {
	case t.Entries == nil:
		b = append(b, "null"...)
	case len(t.Entries) == 0:
		b = append(b, "{}"...)
	default:
		b = append(b, '{')
		names = names[:0]
		for name := range t.Entries {
			names = append(names, name)
		}
		slices.Sort(names)
		for j, name := range names {
			if j > 0 {
				b = append(b, ',')
			}
			b = append(b, "\n        "...)
			b = ordered.AppendString(b, name)
			b = append(b, ": "...)
			b = appendOwned(b, t.Entries[name])
		}
		b = append(b, "\n      }"...)
	}
	return append(b, "\n    }"...), names
}

// appendOwned appends one entry's Owned, as the indenting Encoder does in
// a target's entries.
func appendOwned(b []byte, o Owned) []byte {
	b = append(b, "{\n          \"extension\": "...)
	b = ordered.AppendString(b, o.Extension)
	b = append(b, ",\n          \"digest\": "...)
	b = ordered.AppendString(b, o.Digest)
	if o.Previous != "" {
		b = append(b, ",\n          \"previous\": "...)
		b = ordered.AppendString(b, o.Previous)
	}
	if len(o.Defaults) > 0 {
		b = append(b, ",\n          \"defaults\": {"...)
		for k, member := range slices.Sorted(maps.Keys(o.Defaults)) {
			if k > 0 {
				b = append(b, ',')
			}
			b = append(b, "\n            "...)
			b = ordered.AppendString(b, member)
			b = append(b, ": "...)
			b = ordered.AppendString(b, o.Defaults[member])
		}
		b = append(b, "\n          }"...)
	}
	return append(b, "\n        }"...)
}

// appendCreated appends c as the indenting Encoder does inside a target.
func appendCreated(b []byte, c *Created) []byte {
	var members [][]byte
	if c.File {
		members = append(members, []byte(`"file": true`))
	}
	if c.Folders != 0 {
		members = append(members, strconv.AppendInt([]byte(`"folders": `), int64(c.Folders), 10))
	}
	if len(c.Key) > 0 {
		members = append(members, appendIndentedStrings([]byte(`"key": `), c.Key, "        "))
	}
	if len(members) == 0 {
		return append(b, "{}"...)
	}
	b = append(b, '{')
	for i, m := range members {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, "\n        "...)
		b = append(b, m...)
	}
	return append(b, "\n      }"...)
}

// appendIndentedStrings appends a string list as the indenting Encoder
// does at the given indent.
func appendIndentedStrings(b []byte, list []string, indent string) []byte {
	switch {
	case list == nil:
		return append(b, "null"...)
	case len(list) == 0:
		return append(b, "[]"...)
	}
	b = append(b, '[')
	for i, s := range list {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '\n')
		b = append(b, indent...)
		b = append(b, "  "...)
		b = ordered.AppendString(b, s)
	}
	b = append(b, '\n')
	b = append(b, indent...)
	return append(b, ']')
}
