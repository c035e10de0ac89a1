package commit

import (
	"os"
	"testing"
	"time"

	"github.com/repo-manager/repo/internal/fileio"
)

// TestMain shortens the settling of recently changed empty or unparsable
// files (see settleFor): the tests write their files an instant before
// they plan, and most of them are about something else. The tests of
// settling itself set the real durations (withSettle).
func TestMain(m *testing.M) {
	fileio.SettleFor, fileio.SettleMax = 20*time.Millisecond, 2*time.Second
	os.Exit(m.Run())
}

// withSettle sets the settling durations for one test.
func withSettle(t *testing.T, settle, maxWait time.Duration) {
	oldFor, oldMax := fileio.SettleFor, fileio.SettleMax
	fileio.SettleFor, fileio.SettleMax = settle, maxWait
	t.Cleanup(func() { fileio.SettleFor, fileio.SettleMax = oldFor, oldMax })
}
