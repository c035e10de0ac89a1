package jsonedit

import (
	"bytes"
	"testing"
)

// Insert of several members gives exactly the bytes of a Set of each in
// turn, in every layout: multi-line, trailing commas, inline, minified,
// empty, missing parents, CRLF, tabs.
func TestInsertEqualsSetEach(t *testing.T) {
	docs := []struct {
		d    Dialect
		text string
		path []string
	}{
		{Strict, "{\n  \"mcpServers\": {\n    \"a\": {\"command\": \"x\"}\n  }\n}\n", []string{"mcpServers"}},
		{JSONC, "// c\n{\n  \"servers\": {\n    \"a\": {},\n  },\n}\n", []string{"servers"}},
		{JSONC, "{\n\t\"context_servers\": {},\n}", []string{"context_servers"}},
		{Strict, `{"mcpServers":{"a":1}}`, []string{"mcpServers"}},
		{Strict, "{}\n", []string{"mcpServers"}},
		{Strict, "{\r\n  \"projects\": {\r\n    \"/x\": {}\r\n  }\r\n}\r\n", []string{"projects", "/root", "mcpServers"}},
		{Comments, "{\n  // mine\n  \"mcpServers\": {\n    \"a\": {} // a\n  }\n}", []string{"mcpServers"}},
		{Strict, `{"x": {"mcpServers": {}}}`, []string{"x", "mcpServers"}},
	}
	kvs := []KeyValue{
		{"b", []byte(`{"command":"node","args":["s.js","--root","/w"],"env":{"A":"1"}}`)},
		{"c.d", []byte(`{"command":"python3"}`)},
		{"42", []byte(`{"url":"https://h.invalid/mcp"}`)},
	}
	for _, c := range docs {
		d, err := Parse([]byte(c.text), c.d)
		if err != nil {
			t.Fatalf("%q: %v", c.text, err)
		}
		seq := d
		for _, kv := range kvs {
			if seq, err = seq.set(c.path, kv.Key, kv.Value); err != nil {
				t.Fatalf("%q: Set: %v", c.text, err)
			}
		}
		batch, err := d.Insert(c.path, kvs)
		if err != nil {
			t.Fatalf("%q: Insert: %v", c.text, err)
		}
		if !bytes.Equal(batch.Bytes(), seq.Bytes()) {
			t.Errorf("%q:\nInsert gave\n%s\nSet each gave\n%s", c.text, batch.Bytes(), seq.Bytes())
		}
	}
}

func TestInsertRefusesPresentOrRepeatedKeys(t *testing.T) {
	d, _ := Parse([]byte(`{"m": {"a": 1}}`), Strict)
	if _, err := d.Insert([]string{"m"}, []KeyValue{{"a", []byte("2")}}); err == nil {
		t.Error("inserted a key that is present")
	}
	if _, err := d.Insert([]string{"m"}, []KeyValue{{"b", []byte("2")}, {"b", []byte("3")}}); err == nil {
		t.Error("inserted a key twice")
	}
}

// Replace of several members gives exactly the bytes of a Set of each.
func TestReplaceEqualsSetEach(t *testing.T) {
	docs := []struct {
		d    Dialect
		text string
	}{
		{Strict, "{\n  \"m\": {\n    \"a\": {\"command\": \"x\"},\n    \"b\": 1,\n    \"c\": [1, 2]\n  }\n}\n"},
		{JSONC, "{\n\t\"m\": {\n\t\t\"a\": {}, // a\n\t\t\"b\": 1,\n\t\t\"c\": 2,\n\t},\n}"},
		{Strict, `{"m":{"a":1,"b":2,"c":3}}`},
	}
	kvs := []KeyValue{
		{"a", []byte(`{"command":"node","args":["s.js","--root","/w"],"env":{"A":"1"}}`)},
		{"c", []byte(`{"url":"https://h.invalid/mcp"}`)},
	}
	for _, c := range docs {
		d, err := Parse([]byte(c.text), c.d)
		if err != nil {
			t.Fatalf("%q: %v", c.text, err)
		}
		seq := d
		for _, kv := range kvs {
			if seq, err = seq.set([]string{"m"}, kv.Key, kv.Value); err != nil {
				t.Fatal(err)
			}
		}
		batch, err := d.Replace([]string{"m"}, kvs)
		if err != nil {
			t.Fatalf("%q: Replace: %v", c.text, err)
		}
		if !bytes.Equal(batch.Bytes(), seq.Bytes()) {
			t.Errorf("%q:\nReplace gave\n%s\nSet each gave\n%s", c.text, batch.Bytes(), seq.Bytes())
		}
	}
	d, _ := Parse([]byte(`{"m": {"a": 1}}`), Strict)
	if _, err := d.Replace([]string{"m"}, []KeyValue{{"z", []byte("1")}}); err == nil {
		t.Error("replaced a key that is not there")
	}
}
