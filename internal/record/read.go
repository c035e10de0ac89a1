package record

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tidwall/gjson"

	"github.com/repo-manager/repo/internal/regfile"
	"github.com/repo-manager/repo/internal/termtext"
)

// Read loads a record (display is its path as shown to people); a
// missing file is an empty record, and its bytes nil.
func Read(path, display string) (*Record, []byte, error) { return (*Cache)(nil).Read(path, display) }

// readBytes reads a record's bytes; a missing file is nil bytes and no
// error (see Read).
func readBytes(path, display string) ([]byte, error) {
	data, err := regfile.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		// A link to nothing is not a missing record: the record repo would
		// write could not replace it as planned, and each attempt would
		// look like another program's write.
		if fi, lerr := os.Lstat(path); lerr == nil && fi.Mode()&fs.ModeSymlink != 0 {
			dest, _ := os.Readlink(path)
			return nil, fmt.Errorf("%s: the ownership record is a symbolic link to %s, which does not exist; restore the file it points to (from version control) or remove the link, and run repo again", display, termtext.Safe(dest))
		}
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%s: cannot read the ownership record: %w", display, err)
	}
	return data, nil
}

// Parse reads the bytes of a record (display names it in an error).
func Parse(data []byte, display string) (*Record, error) {
	r, ok := parseFast(data)
	if !ok {
		r = new(Record)
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		if err := dec.Decode(r); err != nil {
			return nil, fmt.Errorf("%s: the ownership record is damaged (%v); restore it from version control, or delete it and run `repo sync --adopt` to claim the entries again", display, err)
		}
	}
	if r.Version < 1 || r.Version > LatestVersion {
		return nil, fmt.Errorf("%s: ownership record version %d is not supported (this repo reads versions 1 to %d)", display, r.Version, LatestVersion)
	}
	return r, nil
}

// parseFast reads a record in the form Bytes writes, which is what Read
// meets on every run, with gjson: decoding it with encoding/json took a
// tenth of a small sync. Anything else — an unknown, repeated or
// differently cased key, a null, another type, a number that is not a
// plain integer, invalid JSON — gives ok false, and Parse decodes the
// data with encoding/json, which then decides what the record holds or
// how it is damaged. So a record parseFast accepts reads as encoding/json
// reads it.
func parseFast(data []byte) (*Record, bool) {
	if !gjson.ValidBytes(data) {
		return nil, false
	}
	r := new(Record)
	ok := eachMember(gjson.ParseBytes(data), func(k string, v gjson.Result) (ok bool) {
		switch k {
		case "version":
			n, err := strconv.Atoi(v.Raw)
			r.Version = n
			return v.Type == gjson.Number && err == nil && strconv.Itoa(n) == v.Raw
		case "root":
			r.Root, ok = plainString(v)
			return ok
		case "id":
			// encoding/json leaves an empty one out: not the form Bytes writes.
			r.ID, ok = plainString(v)
			return ok && r.ID != ""
		case "targets":
			r.Targets = []*Entry{}
			return eachElement(v, func(t gjson.Result) bool {
				e, ok := parseEntry(t)
				r.Targets = append(r.Targets, e)
				return ok
			})
		}
		return false
	})
	return r, ok
}

func parseEntry(t gjson.Result) (*Entry, bool) {
	e := new(Entry)
	ok := eachMember(t, func(k string, v gjson.Result) (ok bool) {
		switch k {
		case "file":
			e.File, ok = plainString(v)
			return ok
		case "key":
			e.Key, ok = plainStrings(v)
			return ok
		case "created":
			e.Created, ok = parseCreated(v)
			return ok
		case "entries":
			e.Entries, ok = parseEntries(v)
			return ok
		}
		return false
	})
	return e, ok
}

// parseEntries reads an Entry.Entries. Not with eachMember: it looks for
// repeated keys the slow way, which is fine for three field names, not
// for every entry.
func parseEntries(v gjson.Result) (map[string]Owned, bool) {
	if !v.IsObject() {
		return nil, false
	}
	entries := map[string]Owned{}
	ok := true
	v.ForEach(func(k, o gjson.Result) bool {
		name, plain := plainString(k)
		_, repeated := entries[name]
		var owned Owned
		ok = plain && !repeated && eachMember(o, func(k string, v gjson.Result) (ok bool) {
			switch k {
			case "extension":
				owned.Extension, ok = plainString(v)
			case "digest":
				owned.Digest, ok = plainString(v)
			case "previous":
				// encoding/json leaves an empty one out: not the form Bytes writes.
				owned.Previous, ok = plainString(v)
				ok = ok && owned.Previous != ""
			case "defaults":
				owned.Defaults = map[string]string{}
				ok = eachMember(v, func(member string, d gjson.Result) bool {
					digest, plain := plainString(d)
					owned.Defaults[member] = digest
					return plain
				})
			}
			return ok
		})
		entries[name] = owned
		return ok
	})
	return entries, ok
}

// parseCreated reads an Entry.Created as encoding/json would.
func parseCreated(v gjson.Result) (*Created, bool) {
	c := new(Created)
	ok := eachMember(v, func(k string, v gjson.Result) (ok bool) {
		switch k {
		case "file":
			c.File = v.Type == gjson.True
			return v.Type == gjson.True || v.Type == gjson.False
		case "folders":
			n, err := strconv.Atoi(v.Raw)
			c.Folders = n
			return v.Type == gjson.Number && err == nil && strconv.Itoa(n) == v.Raw
		case "key":
			c.Key, ok = plainStrings(v)
			return ok
		}
		return false
	})
	return c, ok
}

// plainStrings reads an array of plainString.
func plainStrings(v gjson.Result) ([]string, bool) {
	out := []string{}
	ok := eachElement(v, func(seg gjson.Result) bool {
		s, ok := plainString(seg)
		out = append(out, s)
		return ok
	})
	return out, ok
}

// eachMember calls f with each member of object o, and reports whether o
// is an object whose keys need no unescaping and are not repeated, and
// every call returned true.
func eachMember(o gjson.Result, f func(key string, v gjson.Result) bool) bool {
	if !o.IsObject() {
		return false
	}
	ok := true
	var seen []string
	o.ForEach(func(k, v gjson.Result) bool {
		key, plain := plainString(k)
		if ok = plain && !slices.Contains(seen, key); ok {
			seen = append(seen, key)
			ok = f(key, v)
		}
		return ok
	})
	return ok
}

// eachElement calls f with each element of array a, and reports whether a
// is an array and every call returned true.
func eachElement(a gjson.Result, f func(v gjson.Result) bool) bool {
	if !a.IsArray() {
		return false
	}
	ok := true
	a.ForEach(func(_, v gjson.Result) bool {
		ok = f(v)
		return ok
	})
	return ok
}

// plainString is a string value whose text gjson and encoding/json read
// the same: valid UTF-8 without escapes (a record holds file names, server
// names and digests; others go to encoding/json).
func plainString(v gjson.Result) (string, bool) {
	if v.Type != gjson.String || strings.IndexByte(v.Raw, '\\') >= 0 || !utf8.ValidString(v.Str) {
		return "", false
	}
	return v.Str, true
}
