package trust

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// decodeStoreJSON is how Open reads a file decodeStore does not take.
func decodeStoreJSON(data []byte) (storeFile, error) {
	var f storeFile
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	err := dec.Decode(&f)
	return f, err
}

// fill gives every member of v (a struct, and what it holds) a value that
// is not its zero and that the encoder writes; n makes the values of two
// calls differ.
func fill(v reflect.Value, n int) {
	switch v.Kind() {
	case reflect.String:
		v.SetString(fmt.Sprintf("%s-%d <&> \"é\"\n", v.Type().Name(), n))
	case reflect.Int:
		v.SetInt(int64(1000 + n))
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem(), n)
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		fill(v.Index(0), n)
		fill(v.Index(1), n+1)
	case reflect.Map:
		v.Set(reflect.MakeMap(v.Type()))
		for i := range 2 {
			e := reflect.New(v.Type().Elem()).Elem()
			fill(e, n+i)
			v.SetMapIndex(reflect.ValueOf(fmt.Sprintf("key-%d-%d", n, i)), e)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			fill(v.Field(i), n+i)
		}
	}
}

// fullStore is a store whose every member, down to the definitions'
// OAuth and profiles, holds a value.
func fullStore(root string) *Store {
	s := &Store{root: root, Trusted: map[string]Entry{}, Synced: map[string]string{}, Approved: map[string]map[string]string{}}
	for i := range 3 {
		var e Entry
		fill(reflect.ValueOf(&e).Elem(), 10*i)
		s.Trusted[fmt.Sprintf("server-%d", i)] = e
	}
	fill(reflect.ValueOf(&s.Synced).Elem(), 1)
	fill(reflect.ValueOf(&s.Approved).Elem(), 2)
	return s
}

// checkSameAsJSON: what decodeStore takes, encoding/json reads the same.
func checkStoreAsJSON(t testing.TB, data []byte) bool {
	t.Helper()
	got, ok := decodeStore(data)
	if !ok {
		return false
	}
	want, err := decodeStoreJSON(data)
	if err != nil {
		t.Fatalf("decodeStore takes it, encoding/json refuses it (%v):\n%s", err, data)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("decodeStore reads\n%#v\nencoding/json\n%#v\nfrom\n%s", got, want, data)
	}
	return true
}

// A member added to the store's types (or renamed) that decodeStore does
// not know would send every store to encoding/json again: this fails
// first.
func TestStoreReaderKnowsEveryMember(t *testing.T) {
	s := fullStore("/home/u/ws")
	data := s.Bytes()
	for _, member := range []string{`"oauth"`, `"profiles"`, `"callback_port"`, `"headers_helper"`, `"approved"`, `"synced"`, `"auto_approve"`} {
		if !bytes.Contains(data, []byte(member)) {
			t.Fatalf("the full store lacks %s:\n%s", member, data)
		}
	}
	if !checkStoreAsJSON(t, data) {
		t.Fatalf("decodeStore refuses a store Bytes wrote:\n%s", data)
	}
}

// Stores as Bytes writes them, with the members empty, null or left out
// where the encoder does so.
func storeSeeds() [][]byte {
	var out [][]byte
	empty := &Store{root: "/ws", Trusted: map[string]Entry{}, Synced: map[string]string{}, Approved: map[string]map[string]string{}}
	out = append(out, empty.Bytes(), fullStore("/ws").Bytes())
	plain := &Store{root: "/ws", Trusted: map[string]Entry{"a": {Digest: "sha256:1", Definition: Definition{Extension: "e", Transport: "stdio", Command: "node", Settings: Settings{Enabled: true}}}}}
	out = append(out, plain.Bytes())
	lists := &Store{root: "/ws", Trusted: map[string]Entry{"b": {Definition: Definition{Args: []string{}, Settings: Settings{IncludeTools: []string{}}, Env: []Pair{}}}}}
	return append(out, lists.Bytes())
}

func TestDecodeStoreReadsWhatIsWritten(t *testing.T) {
	for _, data := range storeSeeds() {
		if !checkStoreAsJSON(t, data) {
			t.Errorf("decodeStore refuses a store Bytes wrote:\n%s", data)
		}
	}
}

// Text Bytes does not write goes to encoding/json, which reads some of it
// (a member spelt in capitals, a member twice, text after the store) and
// refuses the rest with the message it always gave.
func TestDecodeStoreRefusesOtherText(t *testing.T) {
	good := string(fullStore("/ws").Bytes())
	for name, text := range map[string]string{
		"capitals":           strings.Replace(good, `"digest"`, `"Digest"`, 1),
		"member twice":       strings.Replace(good, `"root": "/ws",`, `"root": "/ws", "root": "/other",`, 1),
		"unknown member":     strings.Replace(good, `"cwd"`, `"cwd2"`, 1),
		"text after":         good + "{}",
		"map out of order":   strings.Replace(strings.Replace(good, `"server-0"`, `"server-9"`, 1), `"server-2"`, `"server-0"`, 1),
		"null trusted":       `{"version": 1, "root": "/ws", "trusted": null}`,
		"null args":          `{"version": 1, "root": "/ws", "trusted": {"a": {"digest": "d", "definition": {"args": null}}}}`,
		"null oauth":         `{"version": 1, "root": "/ws", "trusted": {"a": {"definition": {"oauth": null}}}}`,
		"float port":         `{"version": 1, "root": "/ws", "trusted": {"a": {"definition": {"oauth": {"callback_port": 80.0}}}}}`,
		"string version":     `{"version": "1", "root": "/ws", "trusted": {}}`,
		"escaped slash":      `{"version": 1, "root": "\/ws", "trusted": {}}`,
		"not an object":      `[]`,
		"trailing comma":     `{"version": 1, "root": "/ws", "trusted": {},}`,
		"unclosed":           `{"version": 1, "root": "/ws", "trusted": {}`,
		"replacement escape": `{"version": 1, "root": "\ufffd", "trusted": {}}`,
	} {
		if _, ok := decodeStore([]byte(text)); ok {
			t.Errorf("%s: taken by decodeStore:\n%s", name, text)
		}
	}
}

func FuzzStoreDecode(f *testing.F) {
	for _, s := range storeSeeds() {
		f.Add(s)
	}
	f.Add([]byte(`{"version":1,"root":"/ws","trusted":{"a":{"digest":"d","definition":{"include_tools":null,"profiles":[]}}},"synced":{},"approved":{"t":{}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		checkStoreAsJSON(t, data)
	})
}
