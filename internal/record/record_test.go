package record

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// decodeRecord is how Read decodes a record that readFast
// does not take.
func decodeRecord(data []byte) (*Record, error) {
	var r Record
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	err := dec.Decode(&r)
	return &r, err
}

// encodeRecord is how Bytes rendered a record before it wrote the text
// itself.
func encodeRecord(r *Record) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(r); err != nil {
		panic(err)
	}
	return b.Bytes()
}

func sampleRecords() []*Record {
	owned := map[string]Owned{
		"srv-a":     {Extension: "ext-a", Digest: "sha256:fedcba9876543210fedcba9876543210"},
		"ünï & <x>": {Extension: `q"uote\\`, Digest: "\u2028 bad \xff"},
	}
	plain := map[string]Owned{
		"srv-b": {Extension: "ext-b", Digest: "sha256:0123456789abcdef0123456789abcdef"},
		"srv-a": {Extension: "ext-a", Digest: "sha256:fedcba9876543210fedcba9876543210"},
	}
	interrupted := map[string]Owned{ // a sync's intent (Owned.Previous)
		"srv-a": {Extension: "ext-a", Digest: "sha256:fedcba9876543210fedcba9876543210", Previous: "sha256:0123456789abcdef0123456789abcdef"},
		"srv-b": {Extension: "ext-b", Digest: "sha256:0123456789abcdef0123456789abcdef"},
	}
	withDefaults := map[string]Owned{ // an author's settings in preserved members
		"srv-a": {Extension: "ext-a", Digest: "sha256:fedcba9876543210fedcba9876543210",
			Defaults: map[string]string{"enabled": "sha256:0123456789abcdef0123456789abcdef", "alwaysAllow": "", "a\"b": "x"}},
		"srv-b": {Extension: "ext-b", Digest: "sha256:0123456789abcdef0123456789abcdef", Previous: "sha256:fedcba9876543210fedcba9876543210",
			Defaults: map[string]string{"timeout": "sha256:00000000000000000000000000000000"}},
		"srv-c": {Extension: "ext-c", Digest: "sha256:0123456789abcdef0123456789abcdef", Defaults: map[string]string{}},
	}
	return []*Record{
		{Version: 1, Targets: []*Entry{
			{File: ".mcp.json", Key: []string{"mcpServers"}, Entries: interrupted},
		}},
		{Version: 2, Targets: []*Entry{
			{File: ".roo/mcp.json", Key: []string{"mcpServers"}, Entries: withDefaults},
		}},
		{Version: 1, Targets: []*Entry{
			{File: ".mcp.json", Key: []string{"mcpServers"}, Entries: plain},
			{File: "a.json", Key: []string{}, Entries: map[string]Owned{}},
			{File: "a.json", Key: []string{"a", "b"}, Entries: map[string]Owned{"x": {}}},
		}},
		{Version: 1},
		{Version: 1, Targets: []*Entry{}},
		{Version: 1, Root: "/home/me/ws", Targets: []*Entry{
			{File: "/home/me/.claude.json", Key: []string{"projects", "/home/me/ws", "mcpServers"}, Entries: owned},
		}},
		{Version: 1, Root: `C:\Users\me\ws`, Targets: []*Entry{
			{File: "C:/Users/me/.claude.json", Key: []string{"mcpServers"}, Entries: map[string]Owned{"x": {}}},
		}},
		{Version: 2, Targets: []*Entry{
			{File: ".mcp.json", Key: []string{"mcpServers"}, Entries: owned},
			{File: ".cursor/mcp.json", Key: nil, Entries: nil},
			{File: "a.json", Key: []string{}, Entries: map[string]Owned{}},
		}},
		{Version: 3, Targets: []*Entry{ // what repo created (Created)
			{File: ".amazonq/mcp.json", Key: []string{"mcpServers"}, Created: &Created{File: true, Folders: 1, Key: []string{"mcpServers"}}, Entries: plain},
			{File: ".vscode/settings.json", Key: []string{"mcp", "servers"}, Created: &Created{Key: []string{"mcp"}}, Entries: withDefaults},
			{File: ".codex/config.toml", Key: []string{"mcp_servers"}, Created: &Created{File: true}, Entries: plain},
			{File: "a.json", Key: []string{"a"}, Created: &Created{}, Entries: plain},
			{File: "b.json", Key: []string{"b"}, Created: &Created{Folders: 2, Key: []string{}}, Entries: plain},
		}},
		{Version: 3, Root: "/home/me/ws", Targets: []*Entry{
			{File: "/home/me/.claude.json", Key: []string{"projects", "/home/me/ws", "mcpServers"},
				Created: &Created{Key: []string{"projects", "/home/me/ws"}}, Entries: owned},
		}},
	}
}

// TestRecordBytesAsEncodingJSON: records are written byte for byte as
// encoding/json wrote them, so a sync leaves existing records unchanged.
func TestRecordBytesAsEncodingJSON(t *testing.T) {
	for i, r := range sampleRecords() {
		got := r.Bytes() // sorts r.Targets, as the reference then sees them
		if want := encodeRecord(r); !bytes.Equal(got, want) {
			t.Errorf("record %d:\n got  %s\n want %s", i, got, want)
		}
	}
}

// TestParseRecordAsEncodingJSON: a record readFast takes reads as
// encoding/json reads it, and it takes what Bytes writes for what Put
// stores (else every sync would decode its records the slow way).
func TestParseRecordAsEncodingJSON(t *testing.T) {
	var inputs []string
	for _, r := range sampleRecords() {
		data := r.Bytes()
		if _, ok := readFast(data); !ok && !strings.Contains(string(data), `\ufffd`) && !strings.Contains(string(data), "null") {
			t.Errorf("readFast refused what Bytes wrote:\n%s", data)
		}
		inputs = append(inputs, string(data))
	}
	inputs = append(inputs,
		`{"version":1,"targets":[{"file":"f","key":["k"],"entries":{"s":{"extension":"e","digest":"d"}}}]}`,
		`{"Version":1,"targets":[]}`,
		`{"version":1,"version":1,"targets":[]}`,
		`{"version":1,"targets":[{"file":"f","entries":{"s":{"extension":"e"},"s":{"digest":"d"}}}]}`,
		`{"version":1,"targets":[{"file":"f","entries":{"s":{"extension":"e","extension":"f"}}}]}`,
		`{"version":1,"targets":[{"file":"f","key":null,"entries":null}]}`,
		`{"version":1,"targets":null}`,
		`{"version":1,"targets":[null]}`,
		`{"version":1,"root":null}`,
		`{"version":1.0}`, `{"version":1e0}`, `{"version":-0}`, `{"version":99999999999999999999}`, `{"version":"1"}`,
		`{"version":1,"extra":true}`,
		`{"version":1,"targets":[{"file":"f","other":1}]}`,
		`{"version":1,"targets":[{"file":"f","entries":{"s":{"extension":"e","other":1}}}]}`,
		`{"version":2,"targets":[{"file":"f","entries":{"s":{"extension":"e","defaults":{"enabled":"d","x":""}}}}]}`,
		`{"version":2,"targets":[{"file":"f","entries":{"s":{"extension":"e","defaults":{"enabled":"d","enabled":"e"}}}}]}`,
		`{"version":2,"targets":[{"file":"f","entries":{"s":{"extension":"e","defaults":{"enabled":1}}}}]}`,
		`{"version":2,"targets":[{"file":"f","entries":{"s":{"extension":"e","defaults":null}}}]}`,
		`{"version":2,"targets":[{"file":"f","entries":{"s":{"extension":"e","defaults":{}}}}]}`,
		`{"version":2,"targets":[{"file":"f","entries":{"s":{"defaults":{"a\u0062":"d"}}}}]}`,
		`{"version":1,"targets":[{"file":"a\u00e9\/b","key":["\ud800"]}]}`,
		`{"version":3,"targets":[{"file":"f","key":["k"],"created":{"file":true,"folders":2,"key":["k"]},"entries":{}}]}`,
		`{"version":3,"targets":[{"file":"f","created":{"file":false,"folders":0,"key":[]}}]}`,
		`{"version":3,"targets":[{"file":"f","created":{}}]}`,
		`{"version":3,"targets":[{"file":"f","created":null}]}`,
		`{"version":3,"targets":[{"file":"f","created":{"file":1}}]}`,
		`{"version":3,"targets":[{"file":"f","created":{"file":true,"file":false}}]}`,
		`{"version":3,"targets":[{"file":"f","created":{"folders":-1}}]}`,
		`{"version":3,"targets":[{"file":"f","created":{"folders":1.5}}]}`,
		`{"version":3,"targets":[{"file":"f","created":{"key":null}}]}`,
		`{"version":3,"targets":[{"file":"f","created":{"key":["a",1]}}]}`,
		`{"version":3,"targets":[{"file":"f","created":{"other":true}}]}`,
		`{"version":3,"targets":[{"file":"f","created":[]}]}`,
		"{\"version\":1,\"root\":\"bad \xff\"}",
		`{"version":1} trailing`, `{"version":1}`+"\n\n", `  {"version":1}`, `[]`, `null`, `{"version":1`, ``,
	)
	for _, in := range inputs {
		fast, ok := readFast([]byte(in))
		if !ok {
			continue
		}
		ref, err := decodeRecord([]byte(in))
		if err != nil {
			t.Errorf("readFast took %s, encoding/json refuses it: %v", in, err)
		} else if !reflect.DeepEqual(fast, ref) {
			t.Errorf("%s:\n readFast  %+v\n encoding/json %+v", in, fast, ref)
		}
	}
}

func FuzzParseRecord(f *testing.F) {
	for _, r := range sampleRecords() {
		f.Add(r.Bytes())
	}
	f.Add([]byte(`{"version":1,"targets":[{"file":"f","entries":{"s":{"extension":"e"},"s":{}}}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		fast, ok := readFast(data)
		if !ok {
			return
		}
		ref, err := decodeRecord(data)
		if err != nil {
			t.Fatalf("readFast took %q, encoding/json refuses it: %v", data, err)
		}
		if !reflect.DeepEqual(fast, ref) {
			t.Fatalf("%q:\n readFast  %+v\n encoding/json %+v", data, fast, ref)
		}
		if again := fast.Bytes(); !bytes.Equal(again, encodeRecord(fast)) {
			t.Fatalf("Bytes of %q differs from encoding/json", data)
		}
	})
}

// A record is written in the lowest version that holds it: one that says
// what repo created is version 3, which earlier releases refuse rather
// than drop the field and lose what it says.
func TestRecordVersionOfCreated(t *testing.T) {
	owned := map[string]Owned{"s": {Extension: "e", Digest: "d"}}
	r := &Record{Targets: []*Entry{{File: "f", Key: []string{"k"}, Entries: owned}}}
	if v := r.MinVersion(); v != 1 {
		t.Fatalf("a record without Created: version %d, want 1", v)
	}
	r.SetCreated("f", []string{"k"}, &Created{})
	if r.Targets[0].Created != nil || r.MinVersion() != 1 {
		t.Fatalf("a Created that says nothing was stored: %+v", r.Targets[0].Created)
	}
	r.SetCreated("f", []string{"k"}, &Created{File: true})
	if v := r.MinVersion(); v != 3 {
		t.Fatalf("a record with Created: version %d, want 3", v)
	}
	c := r.Clone()
	c.Targets[0].Created.File = false
	if !r.Targets[0].Created.File {
		t.Fatal("clone shares Created")
	}
	r.Put("f", []string{"k"}, map[string]Owned{"t": {}})
	if r.Targets[0].Created == nil {
		t.Fatal("Put of new entries dropped Created")
	}
	r.Version = r.MinVersion()
	back, _, err := Read(writeTemp(t, r.Bytes()), "record")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, r) {
		t.Fatalf("read back %+v, want %+v", back.Targets[0], r.Targets[0])
	}
	if _, _, err := Read(writeTemp(t, []byte(`{"version": 5, "targets": []}`)), "record"); err == nil || !strings.Contains(err.Error(), "versions 1 to 4") {
		t.Fatalf("version 5: %v", err)
	}
	// The clone's identity (a per-user record's ID) needs version 4, and
	// reads back.
	r.ID = "0123456789abcdef0123456789abcdef"
	if v := r.MinVersion(); v != 4 {
		t.Fatalf("a record with an ID: version %d, want 4", v)
	}
	r.Version = r.MinVersion()
	if got, want := r.Bytes(), encodeRecord(r); !bytes.Equal(got, want) {
		t.Errorf("Bytes\n%s\nencoding/json\n%s", got, want)
	}
	back, _, err = Read(writeTemp(t, r.Bytes()), "record")
	if err != nil || back.ID != r.ID {
		t.Fatalf("read back %+v: %v", back, err)
	}
}

func writeTemp(t *testing.T, data []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "record.json")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
