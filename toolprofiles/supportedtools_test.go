package toolprofiles_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/repo-manager/repo/toolprofiles"
	"github.com/repo-manager/repo/toolprofiles/internal/supportedtools"
)

// TestSupportedToolsDoc fails when docs/supported-tools.md is not what the
// built-in profiles generate.
func TestSupportedToolsDoc(t *testing.T) {
	set, err := toolprofiles.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	want := supportedtools.Render(set)
	got, err := os.ReadFile(filepath.Join("..", filepath.FromSlash(supportedtools.File)))
	if err != nil {
		t.Fatalf("%v; run go generate ./toolprofiles", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s is out of date with the tool profiles: run go generate ./toolprofiles (or make generate)", supportedtools.File)
	}
}
