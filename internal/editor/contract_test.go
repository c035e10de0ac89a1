package editor_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/repo-manager/repo/internal/editor"
	"github.com/repo-manager/repo/internal/editor/editortest"
	"github.com/repo-manager/repo/internal/jsonedit"
	"github.com/repo-manager/repo/internal/tomledit"
	"github.com/repo-manager/repo/internal/yamledit"
)

var (
	strict   = jsonedit.Format{Dialect: jsonedit.Strict}
	comments = jsonedit.Format{Dialect: jsonedit.Comments}
	jsonc    = jsonedit.Format{Dialect: jsonedit.JSONC}
	toml     = tomledit.Format{}
	gooseMap = yamledit.Format{Kind: yamledit.Map}
	// Continue's drop-in file, with the skeleton its profile gives a new one.
	continueList = yamledit.Format{Kind: yamledit.List, NameField: "name",
		Skeleton: "name: MCP servers managed by repo\nversion: 0.0.1\nschema: v1\nmcpServers: []\n"}
)

// formats are the editors and the real-world-shaped files each edits
// (testdata, the shapes of the editors' own tests). "" is a file that
// does not exist yet.
var formats = []struct {
	name   string
	format editor.Format
	key    []string
	files  []string
}{
	{"json", strict, []string{"mcpServers"}, []string{"", "mcp.json"}},
	{"json-local", strict, []string{"projects", "/home/u/work/app", "mcpServers"}, []string{"", "claude.json"}},
	{"json-new-project", strict, []string{"projects", "/home/u/work/new", "mcpServers"}, []string{"claude.json"}},
	{"json-comments", comments, []string{"mcpServers"}, []string{"", "gemini-settings.json"}},
	{"jsonc", jsonc, []string{"servers"}, []string{"", "vscode-mcp.jsonc"}},
	{"jsonc-zed", jsonc, []string{"context_servers"}, []string{"zed-settings.jsonc"}},
	{"jsonc-opencode", jsonc, []string{"mcp"}, []string{"opencode.jsonc"}},
	{"toml", toml, []string{"mcp_servers"}, []string{"", "codex-config.toml", "codex-config.toml crlf"}},
	{"yaml-map", gooseMap, []string{"extensions"}, []string{"", "goose-written.yaml", "goose-hand.yaml", "goose-no-markers.yaml", "goose-hand.yaml crlf"}},
	{"yaml-list", continueList, []string{"mcpServers"}, []string{"", "continue-config.yaml", "continue-indented.yaml", "continue-dropin.yaml", "continue-markers-apart.yaml"}},
}

// file reads a testdata file; " crlf" after its name gives it CRLF line
// endings.
func file(t testing.TB, name string) []byte {
	if name == "" {
		return nil
	}
	base, crlf := strings.CutSuffix(name, " crlf")
	data, err := os.ReadFile(filepath.Join("testdata", base))
	if err != nil {
		t.Fatal(err)
	}
	if crlf {
		data = []byte(strings.ReplaceAll(string(data), "\n", "\r\n"))
	}
	return data
}

// TestContract holds every editor to the contract on every file.
func TestContract(t *testing.T) {
	for _, f := range formats {
		for _, name := range f.files {
			c := editortest.Case{Name: f.name + " " + name, Format: f.format, File: file(t, name), Key: f.key}
			t.Run(c.Name, func(t *testing.T) { editortest.Run(t, c) })
		}
	}
}

// FuzzContract runs the checks that hold on any file through every
// editor: format picks the editor (and its key), data is the file.
func FuzzContract(f *testing.F) {
	for i, fm := range formats {
		for _, name := range fm.files {
			f.Add(uint8(i), file(f, name))
		}
	}
	f.Fuzz(func(t *testing.T, format uint8, data []byte) {
		fm := formats[int(format)%len(formats)]
		editortest.Fuzz(t, editortest.Case{Name: fm.name, Format: fm.format, File: data, Key: fm.key})
	})
}
