package examples

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goccy/go-yaml"
)

// TestGitHubActionsRecipe checks that examples/ci/github-actions.yml builds
// repo, prints the --check --dry-run diff into the log and the job summary, and then
// fails the job with repo sync --check, in that order.
func TestGitHubActionsRecipe(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("ci", "github-actions.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var wf struct {
		Jobs map[string]struct {
			Steps []struct {
				Name            string `yaml:"name"`
				Uses            string `yaml:"uses"`
				Run             string `yaml:"run"`
				ContinueOnError bool   `yaml:"continue-on-error"`
			} `yaml:"steps"`
		} `yaml:"jobs"`
	}
	if err := yaml.Unmarshal(data, &wf); err != nil {
		t.Fatalf("github-actions.yml: %v", err)
	}
	if len(wf.Jobs) != 1 {
		t.Fatalf("want one job, got %d", len(wf.Jobs))
	}
	for id, job := range wf.Jobs {
		build, diff, check := -1, -1, -1
		for i, s := range job.Steps {
			switch {
			case strings.Contains(s.Run, "go install") && strings.Contains(s.Run, "/cmd/repo@"):
				build = i
			case strings.Contains(s.Run, "repo sync --check --dry-run"):
				diff = i
				for _, want := range []string{`>> "$GITHUB_STEP_SUMMARY"`, "```diff", "cat "} {
					if !strings.Contains(s.Run, want) {
						t.Errorf("job %s: step %q does not contain %q", id, s.Name, want)
					}
				}
			case strings.TrimSpace(s.Run) == "repo sync --check":
				check = i
				if s.ContinueOnError {
					t.Errorf("job %s: step %q must fail the job", id, s.Name)
				}
			}
		}
		if build < 0 || diff < 0 || check < 0 || !(build < diff && diff < check) {
			t.Errorf("job %s: want steps build repo, repo sync --dry-run, repo sync --check in order; got positions %d, %d, %d", id, build, diff, check)
		}
	}
}
