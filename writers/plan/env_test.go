package plan

import (
	"path/filepath"
	"testing"

	"github.com/repo-manager/repo/toolprofiles"
	"github.com/repo-manager/repo/writers/target"
)

func testEnv(t *testing.T) target.Env {
	t.Helper()
	root := t.TempDir()
	return target.Env{Root: root, Env: toolprofiles.Env{Home: filepath.Join(root, "home"), GOOS: "linux", Getenv: func(string) string { return "" }}}
}
