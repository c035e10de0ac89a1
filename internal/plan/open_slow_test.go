package plan

import (
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/repo-manager/repo/internal/editor"
	"github.com/repo-manager/repo/internal/fileio"
	"github.com/repo-manager/repo/internal/jsonedit"
)

// slowFormat parses as JSON, but its first parse takes longer than
// fileio.SettleFor: what parsing an 8 MB ~/.claude.json takes on a loaded
// machine, under the race detector.
type slowFormat struct {
	jsonedit.Format
	calls *atomic.Int32
}

func (f slowFormat) Parse(data []byte) (editor.Doc, error) {
	if f.calls.Add(1) == 1 {
		time.Sleep(fileio.SettleFor + 300*time.Millisecond)
	}
	return f.Format.Parse(data)
}

// A read that caught a tool's in-place save half way is read again when
// the file changed near the time of the read, however long the parse took
// to fail: a parse slower than SettleFor once gave a false "fix the file"
// on a loaded machine (TestCheckWhileToolRewritesInPlace under -race).
func TestSlowParseOfAHalfSavedFileReadsAgain(t *testing.T) {
	path := filepath.Join(t.TempDir(), "claude.json")
	full := []byte(`{"mcpServers": {"a": {"command": "x"}}, "numStartups": 3}`)
	// The tool has truncated the file and written half of it.
	if err := os.WriteFile(path, full[:20], 0o600); err != nil {
		t.Fatal(err)
	}
	// ... and writes the rest while repo parses what it read.
	done := make(chan struct{})
	go func() {
		defer close(done)
		time.Sleep(100 * time.Millisecond)
		if err := os.WriteFile(path, full, 0o600); err != nil {
			t.Error(err)
		}
	}()
	f := slowFormat{Format: jsonedit.Format{Dialect: jsonedit.Strict}, calls: new(atomic.Int32)}
	doc, snap, err := openDocument("~/.claude.json", path, f, 0, false, nil)
	<-done
	if err != nil {
		t.Fatalf("openDocument: %v", err)
	}
	if string(snap.data) != string(full) || string(doc.Bytes()) != string(full) {
		t.Fatalf("planned from %q, want the whole save", snap.data)
	}
	if n := f.calls.Load(); n != 2 {
		t.Fatalf("parsed %d times, want 2 (the half save, then the whole)", n)
	}
}
