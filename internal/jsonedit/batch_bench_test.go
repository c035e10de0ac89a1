package jsonedit

import (
	"testing"

	"github.com/repo-manager/repo/internal/editor/editortest"
)

// BenchmarkBatch times the edits of a sync of N servers (editortest.Bench)
// into a user's ~/.claude.json (strict JSON, the project's map of local
// servers) and .vscode/mcp.json (JSONC, comments and trailing commas).
func BenchmarkBatch(b *testing.B) {
	b.Run("claude", func(b *testing.B) {
		editortest.Bench(b, Format{Dialect: Strict}, []byte(claudeJSON), []string{"projects", "/home/u/work/app", "mcpServers"})
	})
	b.Run("vscode", func(b *testing.B) {
		editortest.Bench(b, Format{Dialect: JSONC}, []byte(vscodeMCP), []string{"servers"})
	})
}
