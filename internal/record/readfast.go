package record

import "github.com/repo-manager/repo/internal/stdjson"

// readFast reads a record as encoding/json does, for the records Bytes
// writes, with stdjson.Reader: one pass, no tree. It takes the known
// fields only, each once, spelt as Bytes spells it; a map's names in
// order, as Bytes writes them; strings only as stdjson.AppendStringNoHTML
// writes them (Reader.Str), integers only in their plain form; any
// layout. Anything else — an unknown, repeated or differently cased key,
// a null, another type, invalid JSON, text after the record — gives ok
// false, and Parse decodes the data with
// encoding/json, which then decides what the record holds or how it is
// damaged. So a record readFast accepts reads as encoding/json reads it
// (TestParseRecordAsEncodingJSON, FuzzParseRecord). It replaced a reader
// built on gjson that took a quarter of a millisecond for the example
// workspace's two records (BenchmarkParseRecord).
func readFast(data []byte) (*Record, bool) {
	r := stdjson.NewReaderNoHTML(data) // Bytes writes < > & as they are
	rec := new(Record)
	ok := r.Object(func(k string) (ok bool) {
		switch k {
		case "version":
			rec.Version, ok = r.Int()
		case "root":
			rec.Root, ok = r.Str()
		case "id":
			// encoding/json leaves an empty one out: not the form Bytes writes.
			rec.ID, ok = r.Str()
			ok = ok && rec.ID != ""
		case "targets":
			rec.Targets = []*Entry{}
			ok = r.Array(func() bool {
				e, ok := readEntry(r)
				rec.Targets = append(rec.Targets, e)
				return ok
			})
		}
		return ok
	})
	return rec, ok && r.AtEnd()
}

func readEntry(r *stdjson.Reader) (*Entry, bool) {
	e := new(Entry)
	ok := r.Object(func(k string) (ok bool) {
		switch k {
		case "file":
			e.File, ok = r.Str()
		case "key":
			e.Key, ok = r.Strings()
		case "created":
			e.Created, ok = readCreated(r)
		case "entries":
			e.Entries, ok = readEntries(r)
		}
		return ok
	})
	return e, ok
}

// readEntries reads an Entry.Entries, its names in order as Bytes writes
// them (a map: sorted), each once.
func readEntries(r *stdjson.Reader) (map[string]Owned, bool) {
	entries := map[string]Owned{}
	ok := r.SortedObject(func(name string) bool {
		var owned Owned
		ok := r.Object(func(k string) (ok bool) {
			switch k {
			case "extension":
				owned.Extension, ok = r.Str()
			case "digest":
				owned.Digest, ok = r.Str()
			case "previous":
				// encoding/json leaves an empty one out: not the form Bytes writes.
				owned.Previous, ok = r.Str()
				ok = ok && owned.Previous != ""
			case "defaults":
				owned.Defaults, ok = r.StringMap()
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
	ok := r.Object(func(k string) (ok bool) {
		switch k {
		case "file":
			c.File, ok = r.Bool()
		case "folders":
			c.Folders, ok = r.Int()
		case "key":
			c.Key, ok = r.Strings()
		}
		return ok
	})
	return c, ok
}
