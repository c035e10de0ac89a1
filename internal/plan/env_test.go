package plan

import (
	"path/filepath"
	"testing"

	"github.com/repo-manager/repo/internal/target"
	"github.com/repo-manager/repo/toolprofiles"
)

func testEnv(t *testing.T) target.Env {
	t.Helper()
	root := t.TempDir()
	return target.Env{Root: root, Env: toolprofiles.Env{Home: filepath.Join(root, "home"), GOOS: "linux", Getenv: func(string) string { return "" }}}
}
