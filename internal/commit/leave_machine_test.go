package commit

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/repo-manager/repo/extensions"
	"github.com/repo-manager/repo/internal/plan"
	"github.com/repo-manager/repo/toolprofiles"
)

// Tools that leave a workspace whose machine-specific files are
// git-ignored ([mcp] gitignore): their entries in those files are in the
// clone's own record (mcp-managed.machine.json), not the committed one,
// and go all the same — with the file repo created for them, and from
// the record that holds them.

// recordCreated is what a record says repo created for a target of file
// (nil: nothing, or no such target).
func recordCreated(t *testing.T, path, file string) *plan.Created {
	t.Helper()
	rec, _, err := plan.ReadRecord(path, path)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range rec.Targets {
		if e.File == file {
			return e.Created
		}
	}
	return nil
}

func TestLeavingToolsMachineRecord(t *testing.T) {
	for _, tc := range []struct {
		name string
		// gitignore: whether [mcp] gitignore is still on when the tool
		// leaves (off: both change in one commit).
		gitignore        bool
		staying, leaving []string
	}{
		{"gitignore on", true, []string{"vscode"}, []string{"claude"}},
		{"gitignore on, every tool leaves", true, nil, []string{"claude", "vscode"}},
		{"gitignore turned off as the tool leaves", false, []string{"vscode"}, []string{"claude"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := gitignoreEnv(t)
			servers := []extensions.Server{rootServer(env, "s")}
			applyWith(t, env, servers, "claude", "vscode")
			mcp := filepath.Join(env.Root, ".mcp.json")
			if got := recordFiles(t, plan.MachineRecordPath(env.Root)); !slices.Equal(got, []string{".mcp.json"}) {
				t.Fatalf("the clone's record: %q", got)
			}

			env.Gitignore = tc.gitignore
			var stay []extensions.Server
			if len(tc.staying) > 0 {
				stay = servers
			}
			p, _ := leaveScope(t, env, toolprofiles.ScopeProject, stay, tc.staying, tc.leaving)
			if exists(t, mcp) {
				t.Errorf(".mcp.json, which repo created for claude, is still there:\n%s", read(t, mcp))
			}
			if got := changesOf(p, ".mcp.json"); len(got) == 0 || got[0] != (plan.Change{Action: plan.ActionRemove, Entry: "s", Reason: plan.ReasonDeselected}) {
				t.Errorf(".mcp.json: changes %v", got)
			}
			if got := recordFiles(t, plan.MachineRecordPath(env.Root)); len(got) != 0 {
				t.Errorf("the clone's record still holds %q", got)
			}
			want := []string{".vscode/mcp.json"}
			if len(tc.staying) == 0 {
				want = nil
			}
			if got := recordFiles(t, plan.ProjectRecordPath(env.Root)); !slices.Equal(got, want) {
				t.Errorf("committed record: %q, want %q", got, want)
			}
			noop(t, env, toolprofiles.ScopeProject, stay, tc.staying, tc.leaving)
		})
	}
}

// Switching [mcp] gitignore moves a target between the committed record
// and the clone's with what repo created for it, so that the file repo
// created still goes with its last entry afterwards.
func TestMachineRecordTakeOverKeepsCreated(t *testing.T) {
	env := testEnv(t)
	env.Portable = true
	servers := []extensions.Server{rootServer(env, "s")}
	applyWith(t, env, servers, "claude", "vscode")
	want := recordCreated(t, plan.ProjectRecordPath(env.Root), ".mcp.json")
	if want == nil || !want.File {
		t.Fatalf("committed record: .mcp.json created %+v, want the file", want)
	}

	env.Gitignore = true
	applyWith(t, env, servers, "claude", "vscode")
	if got := recordCreated(t, plan.MachineRecordPath(env.Root), ".mcp.json"); !createdEqual(got, want) {
		t.Errorf("gitignore on: the clone's record says .mcp.json created %+v, want %+v", got, want)
	}
	settled(t, env, servers, "claude", "vscode")

	env.Gitignore = false
	applyWith(t, env, servers, "claude", "vscode")
	if got := recordCreated(t, plan.ProjectRecordPath(env.Root), ".mcp.json"); !createdEqual(got, want) {
		t.Errorf("gitignore off again: the committed record says .mcp.json created %+v, want %+v", got, want)
	}

	env.Gitignore = true
	applyWith(t, env, servers, "claude", "vscode")
	leaveScope(t, env, toolprofiles.ScopeProject, servers, []string{"vscode"}, []string{"claude"})
	if mcp := filepath.Join(env.Root, ".mcp.json"); exists(t, mcp) {
		t.Errorf(".mcp.json, which repo created, is still there after claude left:\n%s", read(t, mcp))
	}
}

func createdEqual(a, b *plan.Created) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.File == b.File && a.Folders == b.Folders && slices.Equal(a.Key, b.Key)
}
