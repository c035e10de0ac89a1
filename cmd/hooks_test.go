package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goccy/go-yaml"
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
	AlwaysRun     *bool  `yaml:"always_run"`
	// Verbose shows a hook's output when it passes; Stages are the git
	// hooks it runs in (none: every stage the config allows).
	Verbose bool     `yaml:"verbose"`
	Stages  []string `yaml:"stages"`
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

// TestPreCommitHooksFile checks the hooks' definitions. They run on every
// commit (always_run) and match no files: a commit that only deletes an
// extension has no file for pre-commit to match, and would skip a hook
// with a files filter (TestPreCommitDeletedExtension runs that commit).
// The commit hooks name no stage, whose name differs between pre-commit
// versions (docs/hooks.md); the keep-current hooks run after a checkout, a
// merge or a rewrite only, and show their lines when they pass.
func TestPreCommitHooksFile(t *testing.T) {
	hooks := readPreCommitHooks(t)
	want := map[string]string{"repo-sync-check": "repo sync --check", "repo-sync": "repo sync",
		"repo-sync-check-system": "repo sync --check", "repo-sync-system": "repo sync",
		"repo-sync-keep-current": "repo sync --hook", "repo-sync-keep-current-system": "repo sync --hook"}
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
		if h.AlwaysRun == nil || !*h.AlwaysRun || h.Files != "" {
			t.Errorf("hook %s: always_run %v, files %q; want always_run: true and no files filter", id, h.AlwaysRun, h.Files)
		}
		after := strings.Contains(id, "keep-current")
		if after != (strings.Join(h.Stages, ",") == "post-checkout,post-merge,post-rewrite") || after != h.Verbose || (!after && len(h.Stages) > 0) {
			t.Errorf("hook %s: stages %q, verbose %t; want post-checkout, post-merge, post-rewrite and verbose for a keep-current hook, neither for a commit hook", id, h.Stages, h.Verbose)
		}
	}
}
