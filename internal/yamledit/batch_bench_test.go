package yamledit

import (
	"testing"

	"github.com/repo-manager/repo/internal/editor/editortest"
)

// BenchmarkBatch times the edits of a sync of N servers (editortest.Bench)
// into Goose's config as Goose writes it (a map of extensions) and
// Continue's config (a list of servers).
func BenchmarkBatch(b *testing.B) {
	b.Run("goose", func(b *testing.B) {
		editortest.Bench(b, Format{Kind: Map}, []byte(gooseWritten), extensions)
	})
	b.Run("continue", func(b *testing.B) {
		editortest.Bench(b, Format{Kind: List, NameField: "name"}, []byte(continueConfig), mcpServers)
	})
}
