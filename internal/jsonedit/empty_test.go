package jsonedit

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

// A container repo created goes once its last entry has: Insert into a
// path whose end is missing, Delete the entries, DeleteEmpty from the
// innermost object up to the one Insert created. In an object that was
// already there, non-empty, the file is back to its bytes.
func TestDeleteEmptyUndoesCreatedContainers(t *testing.T) {
	const vscodeSettings = `// Place your settings in this file to overwrite the default settings
{
	"editor.fontSize": 14,
	// keep the minimap off
	"editor.minimap.enabled": false,
	"files.exclude": {
		"**/.git": true,
	},
}
`
	const geminiNoServers = "{\r\n  // Theme\r\n  \"theme\": \"GitHub\",\r\n  \"selectedAuthType\": \"oauth-personal\"\r\n}\r\n"
	const claudeOtherProject = `{
  "numStartups": 42,
  "projects": {
    "/home/u/work/other": {
      "allowedTools": [],
      "mcpServers": {}
    }
  },
  "userID": "abc"
}`
	const minified = `{"theme":"dark","mcp":{"inputs":[]}}`
	cases := []struct {
		name    string
		dialect Dialect
		in      string
		path    []string
	}{
		{"vscode settings.json, tabs, comments, trailing commas", JSONC, vscodeSettings, []string{"mcp", "servers"}},
		{"gemini settings.json, CRLF", Comments, geminiNoServers, []string{"mcpServers"}},
		{"~/.claude.json without this project", Strict, claudeOtherProject, []string{"projects", "/home/u/work/app", "mcpServers"}},
		{"~/.claude.json without projects", Strict, `{"numStartups": 1, "userID": "abc"}` + "\n", []string{"projects", "/home/u/work/app", "mcpServers"}},
		{"minified, container half there", Strict, minified, []string{"mcp", "servers"}},
		{"BOM", JSONC, bomStr + "{\n  \"a\": 1\n}\n", []string{"mcpServers"}},
	}
	entries := []KeyValue{
		{"fetch", []byte(`{"command":"uvx","args":["mcp-server-fetch"]}`)},
		{"vault", []byte(`{"command":"/w/.repository/extensions/v/.venv/bin/python","args":["s.py"],"env":{"A":"${A}"}}`)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d := mustParse(t, tc.in, tc.dialect)
			depth, err := d.Depth(tc.path)
			if err != nil || depth >= len(tc.path) {
				t.Fatalf("Depth = %d, %v: the case must miss part of its path", depth, err)
			}
			nd, err := d.Insert(tc.path, entries)
			if err != nil {
				t.Fatal(err)
			}
			if got, _ := nd.Depth(tc.path); got != len(tc.path) {
				t.Fatalf("Depth after Insert = %d", got)
			}
			for _, kv := range entries {
				if nd, err = nd.Delete(tc.path, kv.Key); err != nil {
					t.Fatal(err)
				}
			}
			for i := len(tc.path); i > depth; i-- {
				var removed bool
				nd, removed, err = nd.DeleteEmpty(tc.path[:i])
				if err != nil || !removed {
					t.Fatalf("DeleteEmpty(%q) = %v, %v\n%s", tc.path[:i], removed, err, nd.Bytes())
				}
				checkDerived(t, nd)
			}
			if got := string(nd.Bytes()); got != tc.in {
				t.Fatal(diff(got, tc.in))
			}
			// Nothing more to remove: what was there before is not empty.
			if _, removed, err := nd.DeleteEmpty(tc.path[:depth]); err != nil || removed {
				t.Fatalf("DeleteEmpty of the object that was there: %v, %v", removed, err)
			}
		})
	}
}

// A new file's object goes down to the {} repo started the file with.
func TestDeleteEmptyOfNewDocument(t *testing.T) {
	d := New(Strict)
	nd, err := d.Insert([]string{"mcpServers"}, []KeyValue{{"s", []byte(`{"command":"x"}`)}})
	if err != nil {
		t.Fatal(err)
	}
	if nd, err = nd.Delete([]string{"mcpServers"}, "s"); err != nil {
		t.Fatal(err)
	}
	nd, removed, err := nd.DeleteEmpty([]string{"mcpServers"})
	if err != nil || !removed {
		t.Fatalf("%v %v", removed, err)
	}
	if got := string(nd.Bytes()); got != "{}\n" {
		t.Fatalf("got %q", got)
	}
}

func TestDeleteEmptyKeeps(t *testing.T) {
	cases := []struct {
		name    string
		dialect Dialect
		in      string
		path    []string
	}{
		{"members", Strict, `{"mcpServers": {"mine": {"command": "x"}}}`, []string{"mcpServers"}},
		{"a comment inside", JSONC, "{\n  \"mcpServers\": {\n    // my servers go here\n  }\n}\n", []string{"mcpServers"}},
		{"a block comment inside", JSONC, `{"mcpServers": {/* none yet */}}`, []string{"mcpServers"}},
		{"missing", Strict, `{"a": {}}`, []string{"mcpServers"}},
		{"missing parent", Strict, `{"a": {}}`, []string{"b", "a"}},
		{"the top-level object", Strict, `{}`, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d := mustParse(t, tc.in, tc.dialect)
			nd, removed, err := d.DeleteEmpty(tc.path)
			if err != nil || removed || nd != d {
				t.Fatalf("DeleteEmpty = %v, %v\n%s", removed, err, nd.Bytes())
			}
		})
	}
	d := mustParse(t, `{"mcpServers": []}`, Strict)
	if _, _, err := d.DeleteEmpty([]string{"mcpServers"}); err == nil {
		t.Fatal("an array on the path: no error")
	}
}

// The member goes by the rules of Delete: its comma, the previous
// member's comma, the lines it has to itself.
func TestDeleteEmptyFormatting(t *testing.T) {
	cases := []struct {
		name, in, want string
		dialect        Dialect
		path           []string
	}{
		{"last member: the comma before goes", "{\n  \"a\": 1,\n  \"mcp\": {}\n}\n", "{\n  \"a\": 1\n}\n", Strict, []string{"mcp"}},
		{"first member", "{\n  \"mcp\": {},\n  \"a\": 1\n}\n", "{\n  \"a\": 1\n}\n", Strict, []string{"mcp"}},
		{"trailing comma kept", "{\n  \"a\": 1,\n  \"mcp\": {},\n}\n", "{\n  \"a\": 1,\n}\n", JSONC, []string{"mcp"}},
		{"inline", `{"a": 1, "mcp": {}, "b": 2}`, `{"a": 1, "b": 2}`, Strict, []string{"mcp"}},
		{"nested, CRLF", "{\r\n  \"p\": {\r\n    \"x\": true,\r\n    \"mcp\": {\r\n    }\r\n  }\r\n}\r\n", "{\r\n  \"p\": {\r\n    \"x\": true\r\n  }\r\n}\r\n", Strict, []string{"p", "mcp"}},
		{"only member", "{\n  \"mcp\": {}\n}\n", "{}\n", Strict, []string{"mcp"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d := mustParse(t, tc.in, tc.dialect)
			nd, removed, err := d.DeleteEmpty(tc.path)
			if err != nil || !removed {
				t.Fatalf("%v %v", removed, err)
			}
			if got := string(nd.Bytes()); got != tc.want {
				t.Fatal(diff(got, tc.want))
			}
			checkDeleteProperties(t, d, nd, tc.path[:len(tc.path)-1], tc.path[len(tc.path)-1])
		})
	}
}

// FuzzDeleteEmpty checks, on arbitrary documents: a container Insert
// created, emptied by Delete, goes with DeleteEmpty, and then
//   - the result parses under the dialect and reads as the original;
//   - where the object the container was made in existed, was non-empty
//     and is restorable (see restorable), the bytes are the original's;
//   - DeleteEmpty again removes nothing more of what was there.
//
// And DeleteEmpty on the original itself removes only an empty object, and
// nothing else changes. Nothing may panic.
func FuzzDeleteEmpty(f *testing.F) {
	addEditSeeds(f)
	f.Fuzz(func(t *testing.T, doc []byte, key string, value []byte, mode uint8) {
		dialect := Dialect(mode % 3)
		d, err := Parse(doc, dialect)
		if err != nil {
			return
		}
		path := fuzzPath(mode, key)
		depth, err := d.Depth(path)
		if err != nil {
			return
		}
		// The original as it is.
		if nd, removed, err := d.DeleteEmpty(path); err == nil && removed {
			checkDeleteProperties(t, d, nd, path[:len(path)-1], path[len(path)-1])
			if v := memberValue(t, d, path[:len(path)-1], path[len(path)-1]); !bytes.Equal(v, []byte("{}")) {
				t.Fatalf("removed %s", v)
			}
		} else if err == nil && nd != d {
			t.Fatal("not removed, but a new Doc")
		}
		if depth == len(path) || !validValue(value) || !strings.HasPrefix(strings.TrimSpace(string(value)), "{") {
			return
		}
		if !validKey(key) {
			return
		}
		nd, err := d.Insert(path, []KeyValue{{"entry", value}})
		if err != nil {
			t.Fatalf("Insert: %v", err)
		}
		if nd, err = nd.Delete(path, "entry"); err != nil {
			t.Fatalf("Delete: %v", err)
		}
		for i := len(path); i > depth; i-- {
			var removed bool
			if nd, removed, err = nd.DeleteEmpty(path[:i]); err != nil || !removed {
				t.Fatalf("DeleteEmpty(%q) = %v, %v\n%s", path[:i], removed, err, nd.Bytes())
			}
		}
		checkDerived(t, nd)
		if !reflect.DeepEqual(decodeTop(t, nd), decodeTop(t, d)) {
			t.Fatalf("not the original:\n%s\n%s", nd.Bytes(), doc)
		}
		if depth > 0 && restorable(t, d, path[:depth]) && !bytes.Equal(nd.Bytes(), doc) {
			t.Fatal(diff(string(nd.Bytes()), string(doc)))
		}
		if again, removed, err := nd.DeleteEmpty(path[:depth+1]); err != nil || removed || again != nd {
			t.Fatalf("a second DeleteEmpty: %v, %v", removed, err)
		}
	})
}

func validKey(k string) bool {
	return checkKeys(nil, k) == nil
}
