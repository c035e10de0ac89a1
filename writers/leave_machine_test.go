package writers

import (
	"slices"
	"testing"

	"github.com/repo-manager/repo/extensions"
)

// recordCreated is what a record says repo created for a target of file
// (nil: nothing, or no such target).
func recordCreated(t *testing.T, path, file string) *Created {
	t.Helper()
	rec, _, err := ReadRecord(path, path)
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

// Switching [mcp] gitignore moves a target between the committed record
// and the clone's with what repo created for it, so that the file repo
// created still goes with its last entry afterwards.
func TestMachineRecordTakeOverKeepsCreated(t *testing.T) {
	env := testEnv(t)
	env.Portable = true
	servers := []extensions.Server{rootServer(env, "s")}
	applyWith(t, env, servers, "claude", "vscode")
	want := recordCreated(t, ProjectRecordPath(env.Root), ".mcp.json")
	if want == nil || !want.File {
		t.Fatalf("committed record: .mcp.json created %+v, want the file", want)
	}

	env.Gitignore = true
	applyWith(t, env, servers, "claude", "vscode")
	if got := recordCreated(t, MachineRecordPath(env.Root), ".mcp.json"); !createdEqual(got, want) {
		t.Errorf("gitignore on: the clone's record says .mcp.json created %+v, want %+v", got, want)
	}
	settled(t, env, servers, "claude", "vscode")

	env.Gitignore = false
	applyWith(t, env, servers, "claude", "vscode")
	if got := recordCreated(t, ProjectRecordPath(env.Root), ".mcp.json"); !createdEqual(got, want) {
		t.Errorf("gitignore off again: the committed record says .mcp.json created %+v, want %+v", got, want)
	}

}

func createdEqual(a, b *Created) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.File == b.File && a.Folders == b.Folders && slices.Equal(a.Key, b.Key)
}
