package examples

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/goccy/go-yaml"
)

// TestGitHubActionsRecipe checks that examples/ci/github-actions.yml checks
// out the repository and then runs the repo action at a release tag (the
// action itself is tested in action_test.go), and that docs/ci.md shows
// the same workflow.
func TestGitHubActionsRecipe(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("ci", "github-actions.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var wf struct {
		On   map[string]any `yaml:"on"`
		Jobs map[string]struct {
			RunsOn string `yaml:"runs-on"`
			Steps  []struct {
				Uses string         `yaml:"uses"`
				With map[string]any `yaml:"with"`
			} `yaml:"steps"`
		} `yaml:"jobs"`
	}
	if err := yaml.Unmarshal(data, &wf); err != nil {
		t.Fatalf("github-actions.yml: %v", err)
	}
	if _, ok := wf.On["pull_request"]; !ok || len(wf.Jobs) != 1 {
		t.Fatalf("want one job on pull requests, got %v and %d jobs", wf.On, len(wf.Jobs))
	}
	for id, job := range wf.Jobs {
		if len(job.Steps) != 2 || !strings.HasPrefix(job.Steps[0].Uses, "actions/checkout@") ||
			!regexp.MustCompile(`^repo-manager/repo@v\d+\.\d+\.\d+$`).MatchString(job.Steps[1].Uses) {
			t.Errorf("job %s: want actions/checkout then repo-manager/repo@<release tag>, got %+v", id, job.Steps)
		}
	}
	doc, err := os.ReadFile(filepath.Join("..", "docs", "ci.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(doc), "      - uses: actions/checkout@v4\n      - uses: repo-manager/repo@v0.1.0\n") {
		t.Error("docs/ci.md does not show the recipe's steps")
	}
}

// yamlBlock returns the ```yaml block of a Markdown file whose text
// contains marker.
func yamlBlock(t *testing.T, file, marker string) string {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range regexp.MustCompile("(?s)```yaml\n(.*?)```").FindAllStringSubmatch(string(data), -1) {
		if strings.Contains(m[1], marker) {
			return m[1]
		}
	}
	t.Fatalf("%s has no yaml block with %q", file, marker)
	return ""
}

// TestGitLabCISnippet runs the GitLab job of docs/ci.md as GitLab's runner
// does: before_script and script in one bash with `set -eo pipefail`, the
// job's variables and CI_PROJECT_DIR, against a release in a folder laid out
// as GoReleaser publishes it, in a fresh clone of a workspace with the
// default policy (no per-clone .mcp.json in it). A workspace in sync passes;
// a stale one fails with exit 1 and the diff in the artifact; a broken one
// fails with 2.
func TestGitLabCISnippet(t *testing.T) {
	var doc struct {
		Job struct {
			Image        string            `yaml:"image"`
			Variables    map[string]string `yaml:"variables"`
			BeforeScript []string          `yaml:"before_script"`
			Script       []string          `yaml:"script"`
			Artifacts    struct {
				When     string   `yaml:"when"`
				ExposeAs string   `yaml:"expose_as"`
				Paths    []string `yaml:"paths"`
			} `yaml:"artifacts"`
			Rules []map[string]string `yaml:"rules"`
		} `yaml:"mcp-configs"`
	}
	block := yamlBlock(t, filepath.Join("..", "docs", "ci.md"), "mcp-configs:\n  image:")
	if err := yaml.UnmarshalWithOptions([]byte(block), &doc, yaml.DisallowUnknownField()); err != nil {
		t.Fatalf("docs/ci.md: the GitLab job: %v", err)
	}
	job := doc.Job
	if job.Artifacts.When != "on_failure" || len(job.Artifacts.Paths) != 1 || job.Artifacts.Paths[0] != "mcp-sync.diff" || len(job.Rules) == 0 {
		t.Errorf("artifacts %+v, rules %v: want mcp-sync.diff on failure, and rules", job.Artifacts, job.Rules)
	}
	needBash(t, "curl", "tar", "sha256sum")
	if runtime.GOOS != "linux" {
		t.Skip("the job runs on Linux")
	}
	bin := repoBinary(t)
	tmp := t.TempDir()
	version := job.Variables["REPO_VERSION"]
	releases := filepath.Join(tmp, "releases")
	writeRelease(t, filepath.Join(releases, version), fmt.Sprintf("repo_%s_linux_%s.tar.gz", strings.TrimPrefix(version, "v"), runtime.GOARCH), filepath.Join(bin, "repo"))
	origin, ws := filepath.Join(tmp, "origin"), filepath.Join(tmp, "project")
	write(t, origin, map[string]string{
		".repository/config.toml":                   "[mcp]\ntools = [\"claude\", \"vscode\"]\n",
		".repository/extensions/ext/extension.toml": "name = \"ext\"\n[provides]\nmcp = \"mcp.json\"\n",
		".repository/extensions/ext/mcp.json":       `{"mcpServers": {"docs": {"command": "docs-server"}}}`,
	})
	gitEnv := append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t",
		"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "HOME="+filepath.Join(tmp, "home"))
	for _, args := range [][]string{{"git", "init", "-q"}, {filepath.Join(bin, "repo"), "sync", "-q"}, {"git", "add", "-A"},
		{"git", "commit", "-q", "-m", "workspace"}, {"git", "clone", "-q", origin, ws}} {
		c := exec.Command(args[0], args[1:]...)
		c.Dir, c.Env = origin, gitEnv
		if out, err := c.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	if _, err := os.Stat(filepath.Join(ws, ".mcp.json")); err == nil {
		t.Fatal("the clone has .mcp.json")
	}
	// No repo on PATH: the job installs its own.
	var path []string
	for _, dir := range filepath.SplitList(os.Getenv("PATH")) {
		if _, err := os.Stat(filepath.Join(dir, "repo")); err != nil {
			path = append(path, dir)
		}
	}
	runJob := func() (int, string) {
		t.Helper()
		script := "set -eo pipefail\n" + strings.Join(job.BeforeScript, "\n") + "\n" + strings.Join(job.Script, "\n") + "\n"
		c := exec.Command("bash", "-c", script)
		c.Dir = ws
		c.Env = append(os.Environ(), "CI=true", "GITLAB_CI=true", "CI_PROJECT_DIR="+ws, "TMPDIR="+filepath.Join(tmp, "runner-tmp"),
			"HOME="+filepath.Join(tmp, "home"), "PATH="+strings.Join(path, string(os.PathListSeparator)))
		for k, v := range job.Variables {
			c.Env = append(c.Env, k+"="+v)
		}
		c.Env = append(c.Env, "REPO_RELEASES=file://"+filepath.ToSlash(releases))
		if err := os.MkdirAll(filepath.Join(tmp, "runner-tmp"), 0o755); err != nil {
			t.Fatal(err)
		}
		out, err := c.CombinedOutput()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return code, string(out)
	}
	artifact := func() string {
		data, _ := os.ReadFile(filepath.Join(ws, "mcp-sync.diff"))
		return string(data)
	}

	code, out := runJob()
	if code != 0 || !strings.Contains(out, "repo ") || artifact() != "" {
		t.Errorf("in sync: exit %d, artifact %q:\n%s", code, artifact(), out)
	}
	write(t, ws, map[string]string{".repository/extensions/ext/mcp.json": `{"mcpServers": {"docs": {"command": "docs-server", "args": ["-v"]}}}`})
	code, out = runJob()
	if code != 1 || !strings.Contains(artifact(), "diff --git a/.vscode/mcp.json b/.vscode/mcp.json") || strings.Contains(artifact(), "a/.mcp.json") ||
		!strings.Contains(out, "out of date: .vscode/mcp.json (project: vscode): stale entry \"docs\"") || strings.Contains(out, "out of date: .mcp.json") ||
		!strings.Contains(out, "+      \"args\": [\"-v\"]") || !strings.Contains(out, "run 'repo sync' and commit the result") {
		t.Errorf("stale: exit %d, artifact %q:\n%s", code, artifact(), out)
	}
	write(t, ws, map[string]string{".repository/extensions/ext/mcp.json": `{"mcpServers": `})
	if code, out = runJob(); code != 2 || !strings.Contains(out, "repo: .repository/extensions/ext/mcp.json") {
		t.Errorf("broken extension: exit %d:\n%s", code, out)
	}
	// A release whose checksum does not match stops the job before repo runs.
	sums := filepath.Join(releases, version, "checksums.txt")
	data, err := os.ReadFile(sums)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(sums, []byte(strings.Repeat("0", 64)+string(data[64:])), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out = runJob(); code == 0 || !strings.Contains(out, "FAILED") {
		t.Errorf("bad checksum: exit %d:\n%s", code, out)
	}
}

// TestDocsYAML parses every ```yaml block of the README and docs/: a
// snippet users copy must be valid YAML.
func TestDocsYAML(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, filepath.Join("..", "README.md"))
	blocks := 0
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range regexp.MustCompile("(?s)```yaml\n(.*?)```").FindAllStringSubmatch(string(data), -1) {
			blocks++
			var v any
			if err := yaml.Unmarshal([]byte(m[1]), &v); err != nil {
				t.Errorf("%s: a yaml block is not valid YAML: %v\n%s", file, err, m[1])
			}
		}
	}
	if blocks < 8 {
		t.Errorf("found %d yaml blocks; the docs have more", blocks)
	}
}

// TestLefthookSnippets runs the commands of docs/hooks.md's lefthook
// configurations as lefthook does (sh -c): the check fails on a stale
// workspace and passes on a synced one; the fixing one syncs and still
// fails the commit, then passes.
func TestLefthookSnippets(t *testing.T) {
	needBash(t, "sh")
	var runs, after []string
	data, err := os.ReadFile(filepath.Join("..", "docs", "hooks.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range regexp.MustCompile("(?s)```yaml\n(# lefthook.yml\n.*?)```").FindAllStringSubmatch(string(data), -1) {
		type hook struct {
			Commands map[string]struct {
				Glob string `yaml:"glob"`
				Run  string `yaml:"run"`
			} `yaml:"commands"`
		}
		var cfg struct {
			PreCommit    hook `yaml:"pre-commit"`
			PostCheckout hook `yaml:"post-checkout"`
			PostMerge    hook `yaml:"post-merge"`
			PostRewrite  hook `yaml:"post-rewrite"`
		}
		if err := yaml.UnmarshalWithOptions([]byte(m[1]), &cfg, yaml.DisallowUnknownField()); err != nil {
			t.Fatalf("docs/hooks.md: lefthook.yml: %v", err)
		}
		for _, c := range cfg.PreCommit.Commands {
			runs = append(runs, c.Run)
		}
		for _, h := range []hook{cfg.PostCheckout, cfg.PostMerge, cfg.PostRewrite} {
			for _, c := range h.Commands {
				after = append(after, c.Run)
			}
		}
	}
	if len(after) != 3 || slices.ContainsFunc(after, func(r string) bool { return r != "repo sync --hook" }) {
		t.Fatalf("want repo sync --hook after a checkout, merge and rewrite, got %q", after)
	}
	if len(runs) != 2 {
		t.Fatalf("want the check and the fixing lefthook configurations, got %q", runs)
	}
	check, fix := runs[0], runs[1]
	bin := repoBinary(t)
	ws := t.TempDir()
	write(t, ws, map[string]string{
		".repository/config.toml":                   "[mcp]\ntools = [\"claude\"]\n",
		".repository/extensions/ext/extension.toml": "name = \"ext\"\n[provides]\nmcp = \"mcp.json\"\n",
		".repository/extensions/ext/mcp.json":       `{"mcpServers": {"docs": {"command": "docs-server"}}}`,
	})
	sh := func(command string) (int, string) {
		c := exec.Command("sh", "-c", command)
		c.Dir = ws
		c.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "HOME="+t.TempDir(), "NO_COLOR=1")
		out, err := c.CombinedOutput()
		if ee, ok := err.(*exec.ExitError); ok {
			return ee.ExitCode(), string(out)
		} else if err != nil {
			t.Fatal(err)
		}
		return 0, string(out)
	}
	if code, out := sh(check); code != 1 || !strings.Contains(out, "out of date: .mcp.json") {
		t.Errorf("%s on a stale workspace: exit %d\n%s", check, code, out)
	}
	if code, out := sh(fix); code != 1 || !strings.Contains(out, "MCP configs updated: review, stage and commit again") {
		t.Errorf("%s on a stale workspace: exit %d\n%s", fix, code, out)
	}
	for _, c := range append([]string{check, fix}, after[0]) {
		if code, out := sh(c); code != 0 || out != "" {
			t.Errorf("%s on a synced workspace: exit %d, output %q; want 0 and nothing", c, code, out)
		}
	}
}
