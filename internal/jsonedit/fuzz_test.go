package jsonedit

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"
	"unicode/utf8"
)

// fuzzPath picks the object path a FuzzEdit run edits.
func fuzzPath(mode uint8, key string) []string {
	switch (mode / 3) % 4 {
	case 0:
		return nil
	case 1:
		return []string{"mcpServers"}
	case 2:
		return []string{"projects", "/home/u/work/app", "mcpServers"}
	default:
		return []string{key, "mcpServers"}
	}
}

func addEditSeeds(f *testing.F) {
	for _, tc := range goldenCases {
		var mode uint8
		switch {
		case len(tc.path) == 0:
			mode = 0
		case len(tc.path) == 1 && tc.path[0] == "mcpServers":
			mode = 3
		default:
			mode = 6
		}
		value := tc.value
		if value == "" {
			value = `{"command":"x"}`
		}
		f.Add([]byte(tc.in), tc.key, []byte(value), mode+uint8(tc.dialect))
		f.Add([]byte(tc.in), "fresh", []byte(value), mode+uint8(tc.dialect))
	}
	for i, k := range hostileKeys {
		f.Add([]byte(mcpJSON), k, []byte(`{"command":"x","args":["y"]}`), uint8(i%12))
	}
	for _, doc := range []string{
		"{}", "{}\n", " {\n}\n", "{\"mcpServers\":{}}", "{\"a\":1,}", "{\"a\":1 // c\n}",
		"{\r\n  \"mcpServers\": {\r\n    \"a\": 1\r\n  }\r\n}\r\n", bomStr + "{\"a\":[]}",
		"{\n\t\"mcpServers\": {\n\t\t\"a\": 1\n\t}\n}", "{\"a\":1 /* one\n two */}",
		"{\"\":{\"\":{}}}", "{\"\\u0061\":1,\"b\":{\"\\\"\":2}}",
	} {
		for mode := uint8(0); mode < 12; mode++ {
			f.Add([]byte(doc), "k", []byte(`[1,{"a":"b"}]`), mode)
		}
	}
}

// FuzzEdit checks the editing invariants on arbitrary documents, keys and
// values. For a document that parses and a key that is absent:
//   - Set succeeds, the result parses under the same dialect and holds the
//     value, and nothing else changed semantically;
//   - a second identical Set returns identical bytes;
//   - Delete removes the key again and nothing else changes semantically;
//     when the object at path already existed, was non-empty, and is either
//     on one line or has a line break right before its closing brace
//     (restorable), Delete gives back exactly the original bytes.
//
// For a key that is present, Set replaces it with the same checks except
// the byte-exact restore. Nothing may panic.
func FuzzEdit(f *testing.F) {
	addEditSeeds(f)
	f.Fuzz(func(t *testing.T, doc []byte, key string, value []byte, mode uint8) {
		dialect := Dialect(mode % 3)
		d, err := Parse(doc, dialect)
		if err != nil {
			return
		}
		path := fuzzPath(mode, key)
		if !utf8.ValidString(key) {
			if _, err := d.set(path, key, value); err == nil {
				t.Fatal("Set accepted an invalid UTF-8 key")
			}
			return
		}
		_, found, err := d.Object(path)
		if err != nil {
			var te *TypeError
			var de *DuplicateKeyError
			if !errors.As(err, &te) && !errors.As(err, &de) {
				t.Fatalf("Object: unexpected error %T %v", err, err)
			}
			if _, err := d.set(path, key, value); err == nil {
				t.Fatal("Set succeeded where Object failed")
			}
			return
		}
		if !json.Valid(value) || !utf8.Valid(value) {
			if _, err := d.set(path, key, value); err == nil {
				t.Fatal("Set accepted an invalid value")
			}
			return
		}
		present := memberValue(t, d, path, key) != nil
		nd, err := d.set(path, key, value)
		if err != nil {
			t.Fatalf("Set: %v\ndoc: %q\nkey: %q\nvalue: %q", err, doc, key, value)
		}
		checkSetProperties(t, d, nd, path, key, value)

		back, err := nd.Delete(path, key)
		if err != nil {
			t.Fatalf("Delete: %v\n%s", err, nd.Bytes())
		}
		checkDeleteProperties(t, nd, back, path, key)
		if !present && found && restorable(t, d, path) && !bytes.Equal(back.Bytes(), d.Bytes()) {
			t.Fatalf("Set+Delete did not restore the original:\n%s", diff(string(back.Bytes()), string(doc)))
		}
	})
}

// FuzzParse checks that Parse never panics, that a parsed document reads
// back its bytes unchanged, and that errors carry a position.
func FuzzParse(f *testing.F) {
	for _, tc := range goldenCases {
		for d := uint8(0); d < 3; d++ {
			f.Add([]byte(tc.in), d)
			f.Add([]byte(tc.want), d)
		}
	}
	for _, s := range []string{"", " ", "{", "}", "{,}", "[,]", "/*", "{/*}*/}", "//", "{}//", "\xef\xbb\xbf", "{\"a\":\"\\\"//\"}", "{\"a\":1,,}", "nul", "{\"a\":[1,]}", "\xff{}"} {
		for d := uint8(0); d < 3; d++ {
			f.Add([]byte(s), d)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte, mode uint8) {
		dialect := Dialect(mode % 3)
		d, err := Parse(data, dialect)
		if err != nil {
			var se *SyntaxError
			var te *TypeError
			switch {
			case errors.As(err, &se):
				if se.Line < 1 || se.Col < 1 || se.Msg == "" {
					t.Fatalf("bad SyntaxError %+v", se)
				}
			case errors.As(err, &te):
				if te.Line < 1 || te.Col < 1 || len(te.Path) != 0 {
					t.Fatalf("bad TypeError %+v", te)
				}
			default:
				t.Fatalf("unexpected error type %T: %v", err, err)
			}
			return
		}
		if !bytes.Equal(d.Bytes(), data) {
			t.Fatal("Bytes() differs from the input")
		}
		if !json.Valid(d.clean) || len(d.clean) != len(data) {
			t.Fatal("clean copy is not same-length valid JSON")
		}
		ms, found, err := d.Object(nil)
		if err != nil {
			var de *DuplicateKeyError
			if !errors.As(err, &de) {
				t.Fatalf("Object(nil): %T %v", err, err)
			}
			return
		}
		if !found {
			t.Fatal("top-level object not found")
		}
		for _, m := range ms {
			if !json.Valid(m.Value) || m.Line < 1 {
				t.Fatalf("bad member %+v", m)
			}
		}
		// A looser dialect accepts everything a stricter one does.
		for looser := dialect + 1; looser <= JSONC; looser++ {
			if _, err := Parse(data, looser); err != nil {
				t.Fatalf("%v rejected what %v accepted: %v", looser, dialect, err)
			}
		}
	})
}
