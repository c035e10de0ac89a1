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

// TestAuthorsSettingsTable fails when the settings table of
// docs/extension-authors.md is not what the built-in profiles generate.
func TestAuthorsSettingsTable(t *testing.T) {
	set, err := toolprofiles.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(filepath.Join("..", filepath.FromSlash(supportedtools.AuthorsFile)))
	if err != nil {
		t.Fatal(err)
	}
	want, ok := supportedtools.ReplaceSettings(page, supportedtools.SettingsTable(set))
	if !ok {
		t.Fatalf("%s: the settings table markers are missing or repeated", supportedtools.AuthorsFile)
	}
	if !bytes.Equal(page, want) {
		t.Errorf("the settings table of %s is out of date with the tool profiles: run go generate ./toolprofiles (or make generate)", supportedtools.AuthorsFile)
	}
}
