package cmd

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/goccy/go-yaml"

	"github.com/repo-manager/repo/toolprofiles"
)

// preCommitHook is one entry of .pre-commit-hooks.yaml.
type preCommitHook struct {
	ID            string `yaml:"id"`
	Name          string `yaml:"name"`
	Description   string `yaml:"description"`
	Entry         string `yaml:"entry"`
	Language      string `yaml:"language"`
	PassFilenames *bool  `yaml:"pass_filenames"`
	Files         string `yaml:"files"`
}

func readPreCommitHooks(t *testing.T) map[string]preCommitHook {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", ".pre-commit-hooks.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var hooks []preCommitHook
	if err := yaml.UnmarshalWithOptions(data, &hooks, yaml.DisallowUnknownField()); err != nil {
		t.Fatalf(".pre-commit-hooks.yaml: %v", err)
	}
	out := map[string]preCommitHook{}
	for _, h := range hooks {
		out[h.ID] = h
	}
	return out
}

// TestPreCommitHooksFile checks the hooks' definitions, and that their
// files filter matches the project file of every built-in tool profile and
// everything under .repository/: a profile added without extending the
// filter would let a stale config through the hook.
func TestPreCommitHooksFile(t *testing.T) {
	hooks := readPreCommitHooks(t)
	want := map[string]string{"repo-sync-check": "repo sync --check", "repo-sync": "repo sync",
		"repo-sync-check-system": "repo sync --check", "repo-sync-system": "repo sync"}
	profiles, err := toolprofiles.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	for id := range hooks {
		if _, ok := want[id]; !ok {
			t.Errorf("hook %s in .pre-commit-hooks.yaml is not checked here", id)
		}
	}
	for id, entry := range want {
		h, ok := hooks[id]
		if !ok {
			t.Errorf("hook %s is missing", id)
			continue
		}
		// The -system hooks run the repo on PATH; the others build it with Go.
		lang := "golang"
		if strings.HasSuffix(id, "-system") {
			lang = "system"
		}
		if h.Entry != entry || h.Language != lang || h.PassFilenames == nil || *h.PassFilenames {
			t.Errorf("hook %s: entry %q, language %q, pass_filenames %v; want %q, %s, false", id, h.Entry, h.Language, h.PassFilenames, entry, lang)
		}
		// pre-commit matches files with Python's re.search; this filter uses
		// nothing RE2 reads differently.
		files, err := regexp.Compile(h.Files)
		if err != nil {
			t.Fatalf("hook %s: files: %v", id, err)
		}
		for _, p := range profiles.All() {
			t.Run(id+"/"+p.ID, func(t *testing.T) {
				tg := p.Scopes.Project
				if tg == nil {
					return
				}
				for _, paths := range [][]string{tg.Paths, tg.PathsLinux, tg.PathsDarwin, tg.PathsWindows} {
					for _, path := range paths {
						if !files.MatchString(path) {
							t.Errorf("%s's project file %s is not matched by the files filter of hook %s in .pre-commit-hooks.yaml; add it", p.ID, path, id)
						}
					}
				}
			})
		}
		for _, path := range []string{".repository/config.toml", ".repository/mcp-managed.json", ".repository/extensions/x/mcp.json",
			".repository/extensions/x/extension.toml", ".repository/toolprofiles/x.toml"} {
			if !files.MatchString(path) {
				t.Errorf("hook %s: %s is not matched", id, path)
			}
		}
		for _, path := range []string{"README.md", "src/main.go", "docs/opencode.json.md", "x.mcp.json"} {
			if files.MatchString(path) {
				t.Errorf("hook %s: %s should not be matched", id, path)
			}
		}
	}
}
