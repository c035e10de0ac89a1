package examples

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestDemo runs examples/demo.sh (make demo) on a scratch copy of the
// workspace: by default it prints at most a screenful, the diff summarised
// per file; DEMO_VERBOSE=1 prints the diff whole. Both end in sync.
func TestDemo(t *testing.T) {
	needBash(t, "python3", "awk")
	if testing.Short() {
		t.Skip("creates three venvs (-short)")
	}
	repo := filepath.Join(repoBinary(t), exe("repo"))
	run := func(verbose string) string {
		t.Helper()
		c := exec.Command("bash", "demo.sh", repo)
		c.Env = append(os.Environ(), "DEMO_DIR="+t.TempDir(), "DEMO_VERBOSE="+verbose, "NO_COLOR=1",
			"HOME="+t.TempDir(), "XDG_STATE_HOME=", "XDG_CONFIG_HOME=")
		out, err := c.CombinedOutput()
		if err != nil {
			t.Fatalf("demo.sh (DEMO_VERBOSE=%s): %v\n%s", verbose, err, out)
		}
		return string(out)
	}
	out := run("0")
	if n := strings.Count(out, "\n"); n > 23 {
		t.Errorf("demo.sh printed %d lines, more than a screenful (make demo adds one):\n%s", n, out)
	}
	for _, re := range []string{`(?m)^\d+ files would change, \+\d+ -\d+ lines:$`, `(?m)^ +\.mcp\.json \+\d+ -\d+  `, `(?m)^in sync$`} {
		if !regexp.MustCompile(re).MatchString(out) {
			t.Errorf("demo.sh: no match for %s:\n%s", re, out)
		}
	}
	if strings.Contains(out, "diff --git") {
		t.Errorf("demo.sh printed the diff without DEMO_VERBOSE:\n%s", out)
	}
	out = run("1")
	for _, s := range []string{"diff --git a/.mcp.json b/.mcp.json", "wrote .mcp.json (project: claude, copilot)", "in sync"} {
		if !strings.Contains(out, s) {
			t.Errorf("demo.sh with DEMO_VERBOSE=1 does not print %q", s)
		}
	}
}
