package examples

import (
	"archive/tar"
	"compress/gzip"
	"crypto/sha256"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/goccy/go-yaml"
)

// The GitHub Action (action.yml at the repository's root) is two scripts,
// action/install.sh and action/check.sh. These tests run them as the runner
// does: bash, with the GITHUB_* and RUNNER_* variables set, the inputs in
// the environment, and the files GitHub reads (the job summary, the step's
// outputs, the PATH additions) checked afterwards.

var (
	repoBinOnce sync.Once
	repoBinDir  string
	repoBinErr  error
)

// repoBinary builds repo once for the package's tests.
func repoBinary(t *testing.T) string {
	t.Helper()
	repoBinOnce.Do(func() {
		repoBinDir, repoBinErr = os.MkdirTemp("", "repo-examples-bin")
		if repoBinErr != nil {
			return
		}
		out, err := exec.Command("go", "build", "-o", filepath.Join(repoBinDir, exe("repo")), "github.com/repo-manager/repo/cmd/repo").CombinedOutput()
		if err != nil {
			repoBinErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if repoBinErr != nil {
		t.Fatal(repoBinErr)
	}
	return repoBinDir
}

func TestMain(m *testing.M) {
	code := m.Run()
	if repoBinDir != "" {
		os.RemoveAll(repoBinDir)
	}
	os.Exit(code)
}

func exe(name string) string {
	if runtime.GOOS == "windows" {
		return name + ".exe"
	}
	return name
}

// needBash skips where the runner's bash and the tools the scripts use are
// not at hand. On Windows the scripts run in Git's bash, whose paths this
// test does not translate.
func needBash(t *testing.T, tools ...string) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the action's scripts are tested on Linux and macOS")
	}
	for _, tool := range append([]string{"bash", "go"}, tools...) {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed", tool)
		}
	}
}

// runner is one job's environment: a checkout with a workspace in ws/.
type runner struct {
	t                         *testing.T
	checkout, summary, output string
	path, temp                string
	env                       []string
	stdout, stderr            string
	code                      int
	summaryText, outputText   string
	annotations               []string
}

func newRunner(t *testing.T) *runner {
	tmp := t.TempDir()
	r := &runner{t: t, checkout: filepath.Join(tmp, "checkout"), summary: filepath.Join(tmp, "summary.md"),
		output: filepath.Join(tmp, "output"), path: filepath.Join(tmp, "path"), temp: filepath.Join(tmp, "runner-temp")}
	for _, d := range []string{r.checkout, r.temp} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	home := filepath.Join(tmp, "home")
	// Go's caches stay where they are, not under the scratch HOME.
	var goEnv []string
	for _, name := range []string{"GOCACHE", "GOMODCACHE", "GOPATH"} {
		out, err := exec.Command("go", "env", name).Output()
		if err != nil {
			t.Fatalf("go env %s: %v", name, err)
		}
		goEnv = append(goEnv, name+"="+strings.TrimSpace(string(out)))
	}
	r.env = append(append(os.Environ(), goEnv...),
		"GITHUB_ACTIONS=true", "CI=true", "GITHUB_WORKSPACE="+r.checkout, "GITHUB_STEP_SUMMARY="+r.summary,
		"GITHUB_OUTPUT="+r.output, "GITHUB_PATH="+r.path, "RUNNER_TEMP="+r.temp,
		"GITHUB_ACTION_PATH="+actionPath(t), "RUNNER_OS="+runnerOS(), "RUNNER_ARCH="+runnerArch(),
		"HOME="+home, "XDG_STATE_HOME=", "XDG_CONFIG_HOME=", "NO_COLOR=")
	return r
}

func actionPath(t *testing.T) string {
	p, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func runnerOS() string {
	return map[string]string{"linux": "Linux", "darwin": "macOS", "windows": "Windows"}[runtime.GOOS]
}

func runnerArch() string {
	return map[string]string{"amd64": "X64", "arm64": "ARM64"}[runtime.GOARCH]
}

// run runs an action script in dir with extra environment, and collects
// what GitHub would read.
func (r *runner) run(script, dir string, env ...string) {
	r.t.Helper()
	for _, f := range []string{r.summary, r.output} {
		os.Remove(f)
	}
	c := exec.Command("bash", filepath.Join(actionPath(r.t), "action", script))
	c.Dir = dir
	c.Env = append(append([]string{}, r.env...), env...)
	var stdout, stderr strings.Builder
	c.Stdout, c.Stderr = &stdout, &stderr
	err := c.Run()
	r.stdout, r.stderr, r.code = stdout.String(), stderr.String(), 0
	if ee, ok := err.(*exec.ExitError); ok {
		r.code = ee.ExitCode()
	} else if err != nil {
		r.t.Fatal(err)
	}
	read := func(p string) string {
		data, err := os.ReadFile(p)
		if err != nil && !os.IsNotExist(err) {
			r.t.Fatal(err)
		}
		return string(data)
	}
	r.summaryText, r.outputText = read(r.summary), read(r.output)
	// The annotations are the commands the runner would obey (runner_test.go),
	// in stdout and stderr: each stream on its own, as the runner reads them
	// apart and mixes their lines in whatever order they arrive.
	r.annotations = nil
	for _, out := range []string{r.stdout, r.stderr} {
		for _, c := range obeyed(out) {
			line := "::" + c.Name
			if c.Props != "" {
				line += " " + c.Props
			}
			r.annotations = append(r.annotations, line+"::"+c.Data)
		}
	}
}

func (r *runner) fail(format string, args ...any) {
	r.t.Helper()
	r.t.Errorf(format+"\nexit %d\nstdout:\n%s\nstderr:\n%s\nsummary:\n%s\noutput:\n%s",
		append(args, r.code, r.stdout, r.stderr, r.summaryText, r.outputText)...)
}

func write(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestActionCheck runs action/check.sh on a workspace in a subfolder of the
// checkout: in sync, stale, with the args input, with a broken extension,
// and with a diff that holds a Markdown fence.
func TestActionCheck(t *testing.T) {
	needBash(t, "jq")
	bin := repoBinary(t)
	r := newRunner(t)
	ws := filepath.Join(r.checkout, "ws")
	write(t, ws, map[string]string{
		".repository/config.toml":                   "[mcp]\ntools = [\"claude\", \"vscode\"]\n",
		".repository/extensions/ext/extension.toml": "name = \"ext\"\n[provides]\nmcp = \"mcp.json\"\n",
		".repository/extensions/ext/mcp.json":       `{"mcpServers": {"docs": {"command": "docs-server", "args": ["--root", "."]}}}`,
	})
	r.env = append(r.env, "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	sync := exec.Command(filepath.Join(bin, exe("repo")), "sync", "-q")
	sync.Dir = ws
	if out, err := sync.CombinedOutput(); err != nil {
		t.Fatalf("repo sync: %v\n%s", err, out)
	}

	// In sync: exit 0, no annotation, a one-line summary.
	r.run("check.sh", ws)
	if r.code != 0 || len(r.annotations) != 0 || !strings.Contains(r.summaryText, "### MCP configs are up to date (3 file(s), tools: claude, vscode)") ||
		r.outputText != "stale=false\n" {
		r.fail("in sync")
	}

	// Stale: exit 1, one annotation per stale file with its path from the
	// checkout, the diff in the summary, and nothing written.
	write(t, ws, map[string]string{".repository/extensions/ext/mcp.json": `{"mcpServers": {"docs": {"command": "docs-server", "args": ["--verbose"]}}}`})
	before, err := os.ReadFile(filepath.Join(ws, ".mcp.json"))
	if err != nil {
		t.Fatal(err)
	}
	r.run("check.sh", filepath.Join(ws, ".repository"))
	want := []string{
		`::error file=ws/.mcp.json,title=MCP config out of date::.mcp.json (project: claude) is out of date: stale entry "docs"; run 'repo sync' and commit the result`,
		`::error file=ws/.vscode/mcp.json,title=MCP config out of date::.vscode/mcp.json (project: vscode) is out of date: stale entry "docs"; run 'repo sync' and commit the result`,
		`::error file=ws/.repository/mcp-managed.json,title=MCP config out of date::.repository/mcp-managed.json (ownership record) is out of date: ownership record out of date; run 'repo sync' and commit the result`,
	}
	if r.code != 1 || strings.Join(r.annotations, "\n") != strings.Join(want, "\n") || r.outputText != "stale=true\n" {
		r.fail("stale: want exit 1, stale=true and the annotations\n%s", strings.Join(want, "\n"))
	}
	for _, s := range []string{"### MCP configs: `repo sync` would change 3 file(s)", "- `.vscode/mcp.json`", "```diff\ndiff --git a/.mcp.json b/.mcp.json\n",
		"+      \"args\": [\"--verbose\"]\n", "```\n\nRun `repo sync` and commit the result."} {
		if !strings.Contains(r.summaryText, s) {
			r.fail("stale: the summary lacks %q", s)
		}
	}
	if !strings.Contains(r.stdout, "diff --git a/.vscode/mcp.json b/.vscode/mcp.json") {
		r.fail("stale: the diff is not in the log")
	}
	if after, _ := os.ReadFile(filepath.Join(ws, ".mcp.json")); string(after) != string(before) {
		t.Error("check.sh changed .mcp.json")
	}

	// The args input narrows the check to the tools given.
	r.run("check.sh", ws, "INPUT_ARGS=--tool vscode")
	if r.code != 1 || len(r.annotations) != 2 || !strings.Contains(r.annotations[0], "file=ws/.vscode/mcp.json,") {
		r.fail("--tool vscode: want the VS Code file and the record only")
	}

	// A checkout whose machine-specific files are git-ignored ([mcp]
	// gitignore): it has none of them, and is up to date; a stale block
	// of the .gitignore is annotated on it.
	write(t, ws, map[string]string{
		".repository/config.toml":             "[mcp]\ntools = [\"claude\", \"vscode\"]\nportable = true\ngitignore = true\n",
		".repository/extensions/ext/mcp.json": `{"mcpServers": {"docs": {"command": "docs-server", "args": ["--root", "."]}}}`,
	})
	resync := func() {
		t.Helper()
		c := exec.Command(filepath.Join(bin, exe("repo")), "sync", "-q")
		c.Dir = ws
		if out, err := c.CombinedOutput(); err != nil {
			t.Fatalf("repo sync: %v\n%s", err, out)
		}
	}
	resync()
	for _, f := range []string{".mcp.json", ".repository/mcp-managed.machine.json"} {
		if err := os.Remove(filepath.Join(ws, f)); err != nil {
			t.Fatal(err)
		}
	}
	r.run("check.sh", ws)
	if r.code != 0 || len(r.annotations) != 0 || r.outputText != "stale=false\n" {
		r.fail("a checkout without its ignored files")
	}
	write(t, ws, map[string]string{".gitignore": "node_modules/\n"})
	r.run("check.sh", ws)
	want = []string{`::error file=ws/.gitignore,title=MCP config out of date::.gitignore (ignore block) is out of date: machine-specific file not ignored "/.mcp.json", machine-specific file not ignored "/.repository/mcp-managed.machine.json"; run 'repo sync' and commit the result`}
	if r.code != 1 || strings.Join(r.annotations, "\n") != strings.Join(want, "\n") || !strings.Contains(r.summaryText, "+/.mcp.json\n") {
		r.fail("a stale .gitignore block: want\n%s", strings.Join(want, "\n"))
	}
	write(t, ws, map[string]string{".repository/config.toml": "[mcp]\ntools = [\"claude\", \"vscode\"]\n"})
	if err := os.Remove(filepath.Join(ws, ".gitignore")); err != nil {
		t.Fatal(err)
	}
	resync()

	// A diff holding ``` gets a longer fence.
	write(t, ws, map[string]string{".repository/extensions/ext/mcp.json": "{\"mcpServers\": {\"docs\": {\"command\": \"docs-server\", \"args\": [\"```\"]}}}"})
	r.run("check.sh", ws)
	if r.code != 1 || !strings.Contains(r.summaryText, "\n````diff\n") || !strings.Contains(r.summaryText, "\n````\n") {
		r.fail("a diff with a fence in it")
	}

	// repo fails (exit 2): the error in the log, an annotation and the summary.
	write(t, ws, map[string]string{".repository/extensions/ext/mcp.json": `{"mcpServers": `})
	r.run("check.sh", ws)
	if r.code != 2 || len(r.annotations) != 1 || !strings.HasPrefix(r.annotations[0], "::error title=repo sync failed::repo: .repository/extensions/ext/mcp.json") ||
		!strings.Contains(r.summaryText, "`repo sync --check` failed") || !strings.Contains(r.stdout, "mcp.json") {
		r.fail("broken extension: want exit 2 and the error")
	}
}

// TestActionCheckTeamDefault runs action/check.sh on a fresh clone of a
// workspace in git with the default policy: the clone has none of the
// per-clone files (.mcp.json), and what it holds is up to date. A commit
// that holds a per-clone file is annotated with the command that untracks
// it.
func TestActionCheckTeamDefault(t *testing.T) {
	needBash(t, "jq", "git")
	bin := repoBinary(t)
	r := newRunner(t)
	r.env = append(r.env, "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"),
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t", "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
	origin := filepath.Join(r.temp, "origin")
	write(t, origin, map[string]string{
		".repository/config.toml":                   "[mcp]\ntools = [\"claude\", \"vscode\"]\n",
		".repository/extensions/ext/extension.toml": "name = \"ext\"\n[provides]\nmcp = \"mcp.json\"\n",
		".repository/extensions/ext/mcp.json":       `{"mcpServers": {"docs": {"command": "docs-server", "args": ["--root", "."]}}}`,
	})
	cmd := func(dir, name string, args ...string) {
		t.Helper()
		c := exec.Command(name, args...)
		c.Dir, c.Env = dir, r.env
		if out, err := c.CombinedOutput(); err != nil {
			t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
		}
	}
	cmd(origin, "git", "init", "-q")
	cmd(origin, filepath.Join(bin, exe("repo")), "sync", "-q")
	cmd(origin, "git", "add", "-A")
	cmd(origin, "git", "commit", "-q", "-m", "workspace")
	if err := os.Remove(r.checkout); err != nil {
		t.Fatal(err)
	}
	cmd(r.temp, "git", "clone", "-q", origin, r.checkout)
	if _, err := os.Stat(filepath.Join(r.checkout, ".mcp.json")); err == nil {
		t.Fatal("the clone has .mcp.json")
	}
	r.run("check.sh", r.checkout)
	if r.code != 0 || len(r.annotations) != 0 || r.outputText != "stale=false\n" || !strings.Contains(r.summaryText, "### MCP configs are up to date") {
		r.fail("a fresh clone of a workspace with per-clone files")
	}

	// A commit that holds this clone's .mcp.json after all.
	cmd(origin, "git", "add", "-f", ".mcp.json")
	cmd(origin, "git", "commit", "-q", "-m", "the author's .mcp.json")
	cmd(r.checkout, "git", "pull", "-q")
	r.run("check.sh", r.checkout)
	want := []string{`::error file=.mcp.json,title=MCP config out of date::.mcp.json (project: claude) is out of date: per-clone file git tracks; run 'git rm --cached -- .mcp.json' and commit (repo sync says more)`}
	if r.code != 1 || strings.Join(r.annotations, "\n") != strings.Join(want, "\n") || r.outputText != "stale=true\n" ||
		!strings.Contains(r.summaryText, "`.mcp.json` is this clone's own under the team policy, but the commit holds it: untrack it (`git rm --cached`) and commit.") {
		r.fail("a committed per-clone file: want\n%s", strings.Join(want, "\n"))
	}
}

// TestActionHostileWorkspace plays a pull request that wants the action's
// log to say what it did not: a committed config whose comment holds
// workflow commands (an ::error annotation that says all is well, a
// ::stop-commands:: that would hide the real ones, the old ##[…] syntax, a
// carriage return, an escape sequence), an argument holding ##[warning],
// and a workspace profile path with newlines. The runner, as modelled in
// runner_test.go, must obey exactly the check's own annotations, and the
// log and the job summary hold no control character.
func TestActionHostileWorkspace(t *testing.T) {
	needBash(t, "jq")
	bin := repoBinary(t)
	r := newRunner(t)
	ws := filepath.Join(r.checkout, "ws")
	// The diff shows the last three lines of the comment as context.
	attack := strings.Join([]string{
		"##[error]the old syntax",
		"::add-mask::x",
		"\x1b]0;title\x07 and a carriage return\r::error::after it",
		"::stop-commands::pwned",
		"::error title=repo::All MCP configs verified */",
	}, "\n")
	write(t, ws, map[string]string{
		".repository/config.toml":                   "[mcp]\ntools = [\"claude\", \"vscode\"]\n",
		".repository/extensions/ext/extension.toml": "name = \"ext\"\n[provides]\nmcp = \"mcp.json\"\n",
		".repository/extensions/ext/mcp.json":       `{"mcpServers": {"docs": {"command": "docs-server", "args": ["##[warning]in an argument", "\r\n::error::in an argument"]}}}`,
		".vscode/mcp.json":                          "{\n  \"servers\": {\n    /*\n" + attack + "\n  }\n}\n",
	})
	r.env = append(r.env, "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	clean := func(what, text string) {
		t.Helper()
		for i, line := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
			for _, c := range line {
				if c < 0x20 && c != '\t' || c == 0x7f || c >= 0x80 && c < 0xa0 {
					r.fail("%s: line %d holds %U: %q", what, i+1, c, line)
					return
				}
			}
		}
	}

	// Stale: the diff shows the comment's lines as context and the
	// argument; only the two stale files are annotated.
	r.run("check.sh", ws)
	want := []string{
		`::error file=ws/.mcp.json,title=MCP config out of date::.mcp.json (project: claude) is out of date: missing entry "docs"; run 'repo sync' and commit the result`,
		`::error file=ws/.vscode/mcp.json,title=MCP config out of date::.vscode/mcp.json (project: vscode) is out of date: missing entry "docs"; run 'repo sync' and commit the result`,
		`::error file=ws/.repository/mcp-managed.json,title=MCP config out of date::.repository/mcp-managed.json (ownership record) is out of date: ownership record out of date; run 'repo sync' and commit the result`,
	}
	if r.code != 1 || strings.Join(r.annotations, "\n") != strings.Join(want, "\n") {
		r.fail("a hostile comment and argument: the runner obeys\n%s\nwant\n%s", strings.Join(r.annotations, "\n"), strings.Join(want, "\n"))
	}
	for _, s := range []string{"\n ::error title=repo::All MCP configs verified */\n", "\n ::stop-commands::pwned\n", `\x1b]0;title\a and a carriage return\r::error::after it`, "##[warning]in an argument"} {
		if !strings.Contains(r.stdout, s) {
			r.fail("the log lacks %q: the attack did not reach it, and the test proves nothing", s)
		}
	}
	clean("log", r.stdout+r.stderr)
	clean("summary", r.summaryText)
	if !strings.Contains(r.summaryText, "- `.vscode/mcp.json`\n") {
		r.fail("the summary does not list .vscode/mcp.json in a code span")
	}

	// A workspace profile path with newlines would put the commands into
	// the diff's header; repo refuses it, and the error is all the runner
	// sees as a command.
	write(t, ws, map[string]string{
		".repository/config.toml": "[mcp]\ntools = [\"t\"]\n",
		".repository/toolprofiles/t.toml": "id = \"t\"\nname = \"T\"\nmcp = true\nevidence = \"docs\"\nsources = [\"a test\"]\n" +
			"[scopes.project]\nformat = \"json\"\nkey = [\"mcpServers\"]\n" +
			"paths = [\"x\\n::error title=repo::All MCP configs verified\\n::stop-commands::pwned\\n.json\"]\n",
	})
	r.run("check.sh", ws)
	if r.code != 2 || len(r.annotations) != 1 || !strings.HasPrefix(r.annotations[0], "::error title=repo sync failed::repo: .repository/toolprofiles/t.toml: line ") {
		r.fail("a profile path with newlines: the runner obeys\n%s", strings.Join(r.annotations, "\n"))
	}
	clean("log", r.stdout+r.stderr)
	clean("summary", r.summaryText)
}

// TestActionInstall runs action/install.sh against a release in a folder
// (REPO_DOWNLOAD_URL), as GoReleaser lays one out: the archive for this
// runner and checksums.txt. The action's ref picks the release; a bad
// checksum stops it; a ref that is no release builds the action's checkout
// with Go, and says so clearly when there is no Go.
func TestActionInstall(t *testing.T) {
	needBash(t, "curl", "tar")
	bin := repoBinary(t)
	if runnerOS() == "" || runnerArch() == "" {
		t.Skipf("no release for %s/%s", runtime.GOOS, runtime.GOARCH)
	}
	r := newRunner(t)
	releases := filepath.Join(t.TempDir(), "releases")
	archive := fmt.Sprintf("repo_1.2.3_%s_%s.tar.gz", runtime.GOOS, runtime.GOARCH)
	sum := writeRelease(t, filepath.Join(releases, "v1.2.3"), archive, filepath.Join(bin, "repo"))
	r.env = append(r.env, "REPO_DOWNLOAD_URL=file://"+filepath.ToSlash(releases))

	installed := filepath.Join(r.temp, "repo-action-bin")
	r.run("install.sh", r.checkout, "ACTION_REF=v1.2.3", "INPUT_VERSION=")
	if data, err := os.ReadFile(filepath.Join(installed, "repo")); r.code != 0 || err != nil || !strings.Contains(r.stdout, "repo ") {
		r.fail("install v1.2.3 (%v)", err)
	} else if fmt.Sprintf("%x", sha256.Sum256(data)) == "" {
		t.Fatal("unreachable")
	}
	if path, _ := os.ReadFile(r.path); string(path) != installed+"\n" {
		r.fail("GITHUB_PATH = %q, want %q", path, installed)
	}

	// The version input wins over the ref; a release that is not there fails.
	r.run("install.sh", r.checkout, "ACTION_REF=v1.2.3", "INPUT_VERSION=v9.9.9")
	if r.code == 0 {
		r.fail("a missing release installed")
	}

	// A checksum that does not match stops the install.
	sumFile := filepath.Join(releases, "v1.2.3", "checksums.txt")
	if err := os.WriteFile(sumFile, []byte(strings.Repeat("0", 64)+"  "+archive+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r.run("install.sh", r.checkout, "ACTION_REF=v1.2.3")
	if r.code != 2 || !strings.Contains(r.stdout, "::error title=repo: checksum mismatch::"+archive+" has sha256 "+sum) {
		r.fail("bad checksum")
	}

	// At a branch, the action builds its own checkout.
	os.RemoveAll(installed)
	r.run("install.sh", r.checkout, "ACTION_REF=main")
	if _, err := os.Stat(filepath.Join(installed, "repo")); r.code != 0 || err != nil || !strings.Contains(r.stdout, "building repo from") {
		r.fail("build from source (%v)", err)
	}
	// ... and without Go it says what to do.
	var path []string
	for _, dir := range filepath.SplitList(os.Getenv("PATH")) {
		if _, err := os.Stat(filepath.Join(dir, "go")); err != nil {
			path = append(path, dir)
		}
	}
	r.run("install.sh", r.checkout, "ACTION_REF=main", "PATH="+strings.Join(path, string(os.PathListSeparator)))
	if r.code != 2 || !strings.Contains(r.stdout, "Go is not installed: add actions/setup-go before it") {
		r.fail("no Go")
	}
}

// writeRelease writes dir/archive (a tar.gz holding repo, as GoReleaser's)
// and dir/checksums.txt, and returns the archive's sha256.
func writeRelease(t *testing.T, dir, archive, repo string) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(repo)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(filepath.Join(dir, archive))
	if err != nil {
		t.Fatal(err)
	}
	gz := gzip.NewWriter(f)
	tw := tar.NewWriter(gz)
	for name, body := range map[string][]byte{"repo": data, "LICENSE": []byte("Apache-2.0\n"), "README.md": []byte("# repo\n")} {
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o755, Size: int64(len(body))}); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write(body); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []interface{ Close() error }{tw, gz, f} {
		if err := c.Close(); err != nil {
			t.Fatal(err)
		}
	}
	content, err := os.ReadFile(filepath.Join(dir, archive))
	if err != nil {
		t.Fatal(err)
	}
	sum := fmt.Sprintf("%x", sha256.Sum256(content))
	if err := os.WriteFile(filepath.Join(dir, "checksums.txt"), []byte(sum+"  "+archive+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return sum
}

// TestActionDefinition checks action.yml's wiring: the inputs reach the
// scripts, the check step's output is the action's.
func TestActionDefinition(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var a struct {
		Inputs  map[string]struct{ Default *string } `yaml:"inputs"`
		Outputs map[string]struct{ Value string }    `yaml:"outputs"`
		Runs    struct {
			Using string `yaml:"using"`
			Steps []struct {
				ID               string            `yaml:"id"`
				Shell            string            `yaml:"shell"`
				Run              string            `yaml:"run"`
				Env              map[string]string `yaml:"env"`
				WorkingDirectory string            `yaml:"working-directory"`
			} `yaml:"steps"`
		} `yaml:"runs"`
	}
	if err := yaml.Unmarshal(data, &a); err != nil {
		t.Fatalf("action.yml: %v", err)
	}
	if a.Runs.Using != "composite" || len(a.Runs.Steps) != 2 {
		t.Fatalf("want a composite action with two steps, got %q with %d", a.Runs.Using, len(a.Runs.Steps))
	}
	install, check := a.Runs.Steps[0], a.Runs.Steps[1]
	if install.Run != `bash "$GITHUB_ACTION_PATH/action/install.sh"` || install.Env["INPUT_VERSION"] != "${{ inputs.version }}" ||
		install.Env["ACTION_REF"] != "${{ github.action_ref }}" || install.Shell != "bash" {
		t.Errorf("install step: %+v", install)
	}
	if check.Run != `bash "$GITHUB_ACTION_PATH/action/check.sh"` || check.Env["INPUT_ARGS"] != "${{ inputs.args }}" ||
		check.WorkingDirectory != "${{ inputs.working-directory }}" || check.ID != "check" || check.Shell != "bash" {
		t.Errorf("check step: %+v", check)
	}
	if a.Outputs["stale"].Value != "${{ steps.check.outputs.stale }}" {
		t.Errorf("output stale: %q", a.Outputs["stale"].Value)
	}
	for _, in := range []string{"version", "working-directory", "args"} {
		if a.Inputs[in].Default == nil {
			t.Errorf("input %s has no default", in)
		}
	}
}
