package gittrack

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// countingGit puts a git first on PATH that counts its runs in a file and
// runs the real one, and returns how to read the count.
func countingGit(t *testing.T) (runs func() int) {
	t.Helper()
	real, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git is not installed")
	}
	bin := t.TempDir()
	log := filepath.Join(bin, "runs")
	script := "#!/bin/sh\necho run >> '" + log + "'\nexec '" + real + "' \"$@\"\n"
	if err := os.WriteFile(filepath.Join(bin, "git"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	return func() int {
		b, err := os.ReadFile(log)
		if errors.Is(err, os.ErrNotExist) {
			return 0
		}
		if err != nil {
			t.Fatal(err)
		}
		return strings.Count(string(b), "run\n")
	}
}

// askingGit makes the runs ask git rather than read the index file
// (fromIndex leaves a run with GIT_CONFIG_COUNT set to git, which reads no
// setting more for 0): the tests below count git's runs.
func askingGit(t *testing.T) {
	t.Setenv("GIT_CONFIG_COUNT", "0")
}

// TestSessionAnswersAsTracked: what a Session answers from one git run is
// what Tracked answers for each question on its own, for files, folders,
// names that are prefixes of others and paths outside the work tree; and
// the questions an Ask covered (the path itself or a folder above it) run
// git no more.
func TestSessionAnswersAsTracked(t *testing.T) {
	runs := countingGit(t)
	top := t.TempDir()
	askingGit(t)
	git(t, top, "init", "-q")
	for _, f := range []string{".repository/mcp-managed.json", ".agents/plugins/alpha/.mcp.json", ".cursor/mcp.json", "a[1].json", "docs/x.md"} {
		write(t, filepath.Join(top, f))
	}
	write(t, filepath.Join(top, ".vscode/mcp.json"))
	git(t, top, "add", "--", ":(literal).repository", ":(literal).agents", ":(literal).cursor", ":(literal)a[1].json", "docs")
	abs := func(rel string) string { return filepath.Join(top, filepath.FromSlash(rel)) }
	before := runs()

	s := NewSession()
	s.Ask(top, []string{abs(".repository/mcp-managed.json"), abs(".repository/mcp-managed.machine.json"), abs(".agents/plugins"),
		abs(".cursor/mcp.json"), abs(".vscode/mcp.json"), abs("a[1].json"), abs("a1.json"), abs(".repository/.clone")})
	s.Ask(top, []string{abs(".cursor/mcp.json"), abs(".agents/plugins/alpha/.mcp.json")}) // covered: no second run
	questions := [][]string{
		{abs(".cursor/mcp.json"), abs(".vscode/mcp.json")},
		{abs(".repository/mcp-managed.json"), abs(".repository/mcp-managed.machine.json"), abs(".repository/.clone")},
		{abs(".agents/plugins/alpha/.mcp.json"), abs(".agents/plugins/beta/.mcp.json"), abs(".agents/plugins/alpha")},
		{abs("a[1].json"), abs("a1.json"), filepath.Join(filepath.Dir(top), "elsewhere")},
	}
	var alone []map[string]bool
	for _, q := range questions {
		got, err := s.Tracked(top, q)
		if err != nil {
			t.Fatal(err)
		}
		alone = append(alone, got)
	}
	if n := runs() - before; n != 1 {
		t.Errorf("the session ran git %d times for questions its first Ask covered, want 1", n)
	}
	for i, q := range questions {
		want, err := Tracked(top, q)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range q {
			if alone[i][p] != want[p] {
				t.Errorf("Session.Tracked(%s) = %v, Tracked says %v", p, alone[i][p], want[p])
			}
		}
	}
	if !alone[0][abs(".cursor/mcp.json")] || alone[0][abs(".vscode/mcp.json")] || !alone[2][abs(".agents/plugins/alpha")] || alone[3][abs("a1.json")] {
		t.Errorf("answers %v: want .cursor/mcp.json and the alpha folder tracked, .vscode/mcp.json and a1.json not", alone)
	}

	// A question the Ask did not cover asks git itself.
	before = runs()
	got, err := s.Tracked(top, []string{abs("docs/x.md"), abs(".cursor/mcp.json")})
	if err != nil {
		t.Fatal(err)
	}
	if !got[abs("docs/x.md")] || !got[abs(".cursor/mcp.json")] {
		t.Errorf("uncovered question: %v, want both tracked", got)
	}
	if n := runs() - before; n != 1 {
		t.Errorf("an uncovered question ran git %d times, want 1", n)
	}

	// After Forget (a run that plans again), a question asks git afresh
	// and sees the index as it is now.
	git(t, top, "add", ".vscode/mcp.json")
	s.Forget()
	before = runs()
	got, err = s.Tracked(top, questions[0])
	if err != nil {
		t.Fatal(err)
	}
	if !got[abs(".vscode/mcp.json")] {
		t.Errorf("after Forget: %v, want .vscode/mcp.json tracked, as git now says", got)
	}
	if n := runs() - before; n != 1 {
		t.Errorf("a question after Forget ran git %d times, want 1", n)
	}
}

// TestSessionKeepsGitsFailureForTheQuestion: an Ask that git refuses says
// nothing itself; the question it covers gets the error Tracked gives.
func TestSessionKeepsGitsFailureForTheQuestion(t *testing.T) {
	runs := countingGit(t)
	dir := t.TempDir()
	write(t, filepath.Join(dir, ".git")) // not a repository: git refuses
	s := NewSession()
	s.Ask(dir, []string{filepath.Join(dir, "x")})
	_, err := s.Tracked(dir, []string{filepath.Join(dir, "x")})
	_, want := Tracked(dir, []string{filepath.Join(dir, "x")})
	if err == nil || want == nil || err.Error() != want.Error() {
		t.Fatalf("err = %v, want Tracked's %v", err, want)
	}
	if runs() != 2 {
		t.Errorf("git ran %d times, want 2 (the Ask, then Tracked alone)", runs())
	}
	// Nothing inside the work tree: no git at all, as Tracked.
	s.Ask(dir, []string{filepath.Join(filepath.Dir(dir), "out")})
	if runs() != 2 {
		t.Errorf("an Ask with no path inside the work tree ran git")
	}
}

// TestNilSession: without a Session, each question is Tracked's.
func TestNilSession(t *testing.T) {
	runs := countingGit(t)
	top := t.TempDir()
	askingGit(t)
	git(t, top, "init", "-q")
	write(t, filepath.Join(top, "a.json"))
	git(t, top, "add", "a.json")
	before := runs()
	var s *Session
	s.Ask(top, []string{filepath.Join(top, "a.json")})
	got, err := s.Tracked(top, []string{filepath.Join(top, "a.json")})
	if err != nil || !got[filepath.Join(top, "a.json")] {
		t.Fatalf("Tracked = %v, %v; want a.json tracked", got, err)
	}
	if n := runs() - before; n != 1 {
		t.Errorf("git ran %d times, want 1", n)
	}
}
