package examples

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

// TestDoctorOnAFreshMachine runs repo doctor on a fresh copy of the
// workspace, the way a new team member would on a machine with none of the
// AI tools (an empty home folder, no tool on PATH): before the venvs exist
// it fails for exactly those, and once the venvs are created (as demo.sh
// creates them) nothing fails, so it exits 0 — the approvals and trust of
// tools this machine does not have are not findings. --strict still exits
// 0: nothing is left to advise for tools that are not here.
func TestDoctorOnAFreshMachine(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("venv layout of POSIX")
	}
	if testing.Short() {
		t.Skip("creates three venvs (-short)")
	}
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not installed")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	repo := filepath.Join(repoBinary(t), exe("repo"))
	dir := t.TempDir()
	ws, home, bin := filepath.Join(dir, "ws"), filepath.Join(dir, "home"), filepath.Join(dir, "bin")
	if err := os.CopyFS(ws, os.DirFS("workspace")); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{home, bin} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// PATH holds node (two example servers run on it) and nothing else.
	if err := os.Symlink(node, filepath.Join(bin, "node")); err != nil {
		t.Fatal(err)
	}
	doctor := func(args ...string) (string, string, int) {
		t.Helper()
		c := exec.Command(repo, append([]string{"doctor"}, args...)...)
		c.Dir = ws
		c.Env = []string{"HOME=" + home, "PATH=" + bin, "NO_COLOR=1"}
		var stdout, stderr bytes.Buffer
		c.Stdout, c.Stderr = &stdout, &stderr
		err := c.Run()
		code := 0
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			code = exit.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return stdout.String(), stderr.String(), code
	}

	out, errOut, code := doctor()
	fails := regexp.MustCompile(`(?m)^fail .*$`).FindAllString(out, -1)
	if code != 1 || len(fails) != 3 {
		t.Fatalf("before the venvs: exit %d, %d failures, want 1 and 3 (the venvs):\n%s%s", code, len(fails), out, errOut)
	}
	for _, f := range fails {
		if !strings.Contains(f, "/.venv does not exist") {
			t.Errorf("a failure that is not a missing venv: %s", f)
		}
	}

	venvs := 0
	entries, err := os.ReadDir(filepath.Join(ws, ".repository", "extensions"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		name := e.Name()
		data, err := os.ReadFile(filepath.Join(ws, ".repository", "extensions", name, "extension.toml"))
		if err != nil {
			t.Fatal(err)
		}
		m, err := decodeManifest(data)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if m.Runtime == nil {
			continue
		}
		venv := filepath.Join(ws, ".repository", "extensions", name, m.Runtime.Python)
		if o, err := exec.Command(python, "-m", "venv", "--without-pip", venv).CombinedOutput(); err != nil {
			t.Fatalf("python3 -m venv %s: %v\n%s", venv, err, o)
		}
		venvs++
	}
	if venvs != 3 {
		t.Fatalf("created %d venvs, want 3", venvs)
	}
	for _, args := range [][]string{nil, {"--strict"}} {
		out, errOut, code = doctor(args...)
		if code != 0 {
			t.Errorf("repo doctor %v: exit %d, want 0:\n%s%s", args, code, out, errOut)
		}
		if regexp.MustCompile(`(?m)^(fail|advice|warn) `).MatchString(out) {
			t.Errorf("repo doctor %v: a finding that is not ok:\n%s", args, out)
		}
		if !strings.Contains(out, "ok   claude: Claude Code is not on this machine") {
			t.Errorf("repo doctor %v does not say Claude Code's approval was skipped:\n%s", args, out)
		}
	}
}
