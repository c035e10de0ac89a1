package record

import "github.com/repo-manager/repo/internal/stdjson"

// readFast reads a record as encoding/json does, for the records Bytes
// writes, with stdjson.Reader: one pass, no tree. It takes the known
// fields only, each once, spelt as Bytes spells it; strings only as
// stdjson.AppendStringNoHTML writes them (Reader.Str), integers only in their
// plain form, any layout. Anything else — an unknown, repeated or
// differently cased key, a null, another type, invalid JSON, text after
// the record — gives ok false, and Parse decodes the data with
// encoding/json, which then decides what the record holds or how it is
// damaged. So a record readFast accepts reads as encoding/json reads it
// (TestParseRecordAsEncodingJSON, FuzzParseRecord). It replaced a reader
// built on gjson that took a quarter of a millisecond for the example
// workspace's two records (BenchmarkParseRecord).
func readFast(data []byte) (*Record, bool) {
	r := stdjson.NewReaderNoHTML(data) // Bytes writes < > & as they are
	rec := new(Record)
	var seen fields
	ok := members(r, func(k string) bool {
		if !seen.first(k, "version", "root", "id", "targets") {
			return false
		}
		switch k {
		case "version":
			var ok bool
			rec.Version, ok = integer(r)
			return ok
		case "root":
			var ok bool
			rec.Root, ok = str(r)
			return ok
		case "id":
			// encoding/json leaves an empty one out: not the form Bytes writes.
			var ok bool
			rec.ID, ok = str(r)
			return ok && rec.ID != ""
		default: // "targets"
			rec.Targets = []*Entry{}
			return elements(r, func() bool {
				e, ok := readEntry(r)
				rec.Targets = append(rec.Targets, e)
				return ok
			})
		}
	})
	return rec, ok && r.AtEnd()
}

func readEntry(r *stdjson.Reader) (*Entry, bool) {
	e := new(Entry)
	var seen fields
	ok := members(r, func(k string) bool {
		if !seen.first(k, "file", "key", "created", "entries") {
			return false
		}
		var ok bool
		switch k {
		case "file":
			e.File, ok = str(r)
		case "key":
			e.Key, ok = strs(r)
		case "created":
			e.Created, ok = readCreated(r)
		default: // "entries"
			e.Entries, ok = readEntries(r)
		}
		return ok
	})
	return e, ok
}

func readEntries(r *stdjson.Reader) (map[string]Owned, bool) {
	entries := map[string]Owned{}
	ok := members(r, func(name string) bool {
		if _, repeated := entries[name]; repeated {
			return false
		}
		var owned Owned
		var seen fields
		ok := members(r, func(k string) bool {
			if !seen.first(k, "extension", "digest", "previous", "defaults") {
				return false
			}
			var ok bool
			switch k {
			case "extension":
				owned.Extension, ok = str(r)
			case "digest":
				owned.Digest, ok = str(r)
			case "previous":
				// encoding/json leaves an empty one out: not the form Bytes writes.
				owned.Previous, ok = str(r)
				ok = ok && owned.Previous != ""
			default: // "defaults"
				owned.Defaults = map[string]string{}
				ok = members(r, func(member string) bool {
					if _, repeated := owned.Defaults[member]; repeated {
						return false
					}
					digest, ok := str(r)
					owned.Defaults[member] = digest
					return ok
				})
			}
			return ok
		})
		entries[name] = owned
		return ok
	})
	return entries, ok
}

func readCreated(r *stdjson.Reader) (*Created, bool) {
	c := new(Created)
	var seen fields
	ok := members(r, func(k string) bool {
		if !seen.first(k, "file", "folders", "key") {
			return false
		}
		var ok bool
		switch k {
		case "file":
			r.Space()
			c.File, ok = r.Bool()
		case "folders":
			c.Folders, ok = integer(r)
		default: // "key"
			c.Key, ok = strs(r)
		}
		return ok
	})
	return c, ok
}

// fields are the field names an object has had so far.
type fields uint8

// first reports whether k is one of names and the object's first k.
func (f *fields) first(k string, names ...string) bool {
	for i, n := range names {
		if k == n {
			bit := fields(1) << i
			if *f&bit != 0 {
				return false
			}
			*f |= bit
			return true
		}
	}
	return false
}

// members reads an object, calling member with each key with the reader
// at its value, which member reads.
func members(r *stdjson.Reader, member func(key string) bool) bool {
	if !r.Token('{') {
		return false
	}
	if r.Token('}') {
		return true
	}
	for {
		k, ok := str(r)
		if !ok || !r.Token(':') || !member(k) {
			return false
		}
		if r.Token('}') {
			return true
		}
		if !r.Token(',') {
			return false
		}
	}
}

// elements reads an array, calling element with the reader at each
// element, which element reads.
func elements(r *stdjson.Reader, element func() bool) bool {
	if !r.Token('[') {
		return false
	}
	if r.Token(']') {
		return true
	}
	for {
		if !element() {
			return false
		}
		if r.Token(']') {
			return true
		}
		if !r.Token(',') {
			return false
		}
	}
}

// str reads a string, after any white space.
func str(r *stdjson.Reader) (string, bool) {
	r.Space()
	return r.Str()
}

// strs reads an array of strings.
func strs(r *stdjson.Reader) ([]string, bool) {
	out := []string{}
	ok := elements(r, func() bool {
		s, ok := str(r)
		out = append(out, s)
		return ok
	})
	return out, ok
}

// integer reads a non-negative integer in its plain form, after any white
// space.
func integer(r *stdjson.Reader) (int, bool) {
	r.Space()
	return r.Int()
}
