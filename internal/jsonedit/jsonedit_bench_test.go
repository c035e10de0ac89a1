package jsonedit_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/repo-manager/repo/bench/workload"
	"github.com/repo-manager/repo/internal/jsonedit"
)

const benchRoot = "/home/dev/src/acme/bench-workspace"

// hostFiles are the documents the editor is benchmarked on: a user's
// .vscode/mcp.json (JSONC, comments and trailing commas) as generated, and
// synthetic ~/.claude.json files of 1, 10 and 100 MB (strict JSON).
func hostFiles(b *testing.B) []struct {
	name    string
	data    []byte
	dialect jsonedit.Dialect
	path    []string
} {
	tools, err := workload.ProjectTools("linux")
	if err != nil {
		b.Fatal(err)
	}
	var small []byte
	for _, t := range tools {
		if t.ID == "vscode" {
			if small, err = workload.UserConfig(t, true); err != nil {
				b.Fatal(err)
			}
		}
	}
	type hf = struct {
		name    string
		data    []byte
		dialect jsonedit.Dialect
		path    []string
	}
	out := []hf{{"small-jsonc", small, jsonedit.JSONC, []string{"servers"}}}
	for _, mb := range []int{1, 10, 100} {
		var buf bytes.Buffer
		if _, err := workload.WriteClaudeJSON(&buf, workload.ClaudeOptions{Size: int64(mb) << 20, Root: benchRoot, Seed: 1}); err != nil {
			b.Fatal(err)
		}
		out = append(out, hf{fmt.Sprintf("claude-%dMB", mb), buf.Bytes(), jsonedit.Strict, []string{"projects", benchRoot, "mcpServers"}})
	}
	return out
}

var entry = []byte(`{"type":"stdio","command":"/home/dev/src/acme/bench-workspace/.repository/extensions/vault-spec/.venv/bin/python","args":["/home/dev/src/acme/bench-workspace/.repository/extensions/vault-spec/lib/scripts/subagent.py","serve","--root","/home/dev/src/acme/bench-workspace"],"env":{"VAULTSPEC_MCP_ROOT_DIR":"/home/dev/src/acme/bench-workspace","TOKEN":"${VAULTSPEC_TOKEN}"}}`)

// BenchmarkJSONEdit measures Parse, Object (reading the server map), Set
// (insert one entry, which re-parses and verifies the result) and Bytes on
// small and large host files.
func BenchmarkJSONEdit(b *testing.B) {
	for _, h := range hostFiles(b) {
		b.Run("Parse/"+h.name, func(b *testing.B) {
			b.SetBytes(int64(len(h.data)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := jsonedit.Parse(h.data, h.dialect); err != nil {
					b.Fatal(err)
				}
			}
		})
		d, err := jsonedit.Parse(h.data, h.dialect)
		if err != nil {
			b.Fatal(err)
		}
		b.Run("Object/"+h.name, func(b *testing.B) {
			b.SetBytes(int64(len(h.data)))
			b.ReportAllocs()
			for b.Loop() {
				if _, found, err := d.Object(h.path); err != nil || !found {
					b.Fatal(err, found)
				}
			}
		})
		// Set: one new entry written into the file (an Insert); the name
		// is the one bench/RESULTS.md has.
		kvs := []jsonedit.KeyValue{{Key: "vs-subagent-mcp", Value: entry}}
		b.Run("Set/"+h.name, func(b *testing.B) {
			b.SetBytes(int64(len(h.data)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := d.Insert(h.path, kvs); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("Bytes/"+h.name, func(b *testing.B) {
			b.SetBytes(int64(len(h.data)))
			b.ReportAllocs()
			for b.Loop() {
				_ = d.Bytes()
			}
		})
	}
}
