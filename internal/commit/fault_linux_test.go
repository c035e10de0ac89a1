package commit

// A commit's faults that only Linux's renameat2 and extended attributes
// have, through the seam (see fault_test.go).

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/repo-manager/repo/extensions"
	"github.com/repo-manager/repo/internal/fsfault"
	"github.com/repo-manager/repo/toolprofiles"
)

// A tool that saves its file between repo's check of it and the swap —
// by a rename of its own (Claude Code, Codex) or in place into the file
// it had open (Gemini CLI) — has its save swapped out by repo's: repo
// finds it at the staged name, swaps it back, and stops with ErrChanged,
// so the run is planned again from the tool's save.
func TestToolSaveDuringTheSwapIsPutBack(t *testing.T) {
	saved := claudeJSON(3)
	for _, how := range []string{"by rename", "in place"} {
		env := testEnv(t)
		path := filepath.Join(env.Home, ".claude.json")
		write(t, path, claudeJSON(2))
		p, err := planScope(t, env, []extensions.Server{server}, toolprofiles.ScopeLocal, "claude")
		if err != nil {
			t.Fatal(err)
		}
		tool, err := os.OpenFile(path, os.O_RDWR, 0) // opened before the swap
		if err != nil {
			t.Fatal(err)
		}
		defer tool.Close()
		fsys := fsfault.New()
		if how == "by rename" { // after repo's check, before its swap
			fsys.Before(fsfault.Exchange, path, 1, func() {
				write(t, path+".tmp", saved)
				os.Rename(path+".tmp", path)
			})
		} else { // after the swap, before repo checks what it swapped out
			fsys.After(fsfault.Exchange, path, 1, func() {
				tool.Truncate(0)
				tool.WriteAt([]byte(saved), 0)
			})
		}
		applied, err := apply(p, Interrupt{}, fsys)
		if !errors.Is(err, ErrChanged) || !strings.Contains(err.Error(), "another program wrote it while repo was planning") {
			t.Fatalf("%s: err = %v, want ErrChanged", how, err)
		}
		if len(applied.Written) != 0 {
			t.Errorf("%s: %d files reported written", how, len(applied.Written))
		}
		if got := read(t, path); got != saved {
			t.Errorf("%s: the tool's save is lost:\n%s", how, got)
		}
		assertNoStaged(t, env.Home)
	}
}

// A file with an extended attribute that a new file cannot be given
// (EPERM: a security.* label this user may not set, a trusted.* one) is
// written in place, keeping its inode and so every attribute, with a
// warning; without the seam this needs another user's file or root.
func TestAttributeThatCannotBeCarriedWritesInPlace(t *testing.T) {
	env := testEnv(t)
	path := filepath.Join(env.Root, ".mcp.json")
	write(t, path, "{\"mcpServers\": {}}\n")
	setXattr(t, path, "user.origin", []byte("team"))
	inode, _ := os.Stat(path)
	p := planFor(t, env, []string{"claude"})
	fsys := fsfault.New().Fail(fsfault.Fsetxattr, path, 1, syscall.EPERM)
	applied, err := apply(p, Interrupt{}, fsys)
	if err != nil {
		t.Fatal(err)
	}
	want := ".mcp.json: written in place, not replaced atomically: its extended attributes cannot be given to a new file (user.origin: operation not permitted)"
	if strings.Join(applied.Warnings, "\n") != want {
		t.Errorf("warnings %q, want %q", applied.Warnings, want)
	}
	if now, _ := os.Stat(path); !os.SameFile(inode, now) || string(getXattr(t, path, "user.origin")) != "team" {
		t.Error("the file was replaced, or lost its attribute")
	}
	if !strings.Contains(read(t, path), `"s"`) {
		t.Error("repo's entry is not written")
	}
	assertNoStaged(t, env.Root)
}
