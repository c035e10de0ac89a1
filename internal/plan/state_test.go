package plan

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/repo-manager/repo/internal/target"
	"github.com/repo-manager/repo/toolprofiles"
)

// TestStateDirIgnoresRelativeVars: XDG_STATE_HOME (and LOCALAPPDATA on
// Windows) decide where the per-user records and the locks live, but a
// relative value is ignored as if unset (XDG Base Directory spec): it
// would put them inside the workspace, in another place from each
// subfolder, so two runs from two folders would not share a lock.
func TestStateDirIgnoresRelativeVars(t *testing.T) {
	home := filepath.FromSlash("/h")
	for _, tt := range []struct {
		goos string
		vars map[string]string
		want string // slash form
	}{
		{"linux", nil, "/h/.local/state/repo"},
		{"linux", map[string]string{"XDG_STATE_HOME": "/s"}, "/s/repo"},
		{"linux", map[string]string{"XDG_STATE_HOME": "state"}, "/h/.local/state/repo"},
		{"linux", map[string]string{"XDG_STATE_HOME": "./state"}, "/h/.local/state/repo"},
		{"linux", map[string]string{"XDG_STATE_HOME": "../state"}, "/h/.local/state/repo"},
		{"linux", map[string]string{"XDG_STATE_HOME": "~/st"}, "/h/st/repo"},
		{"linux", map[string]string{"LOCALAPPDATA": "/l"}, "/h/.local/state/repo"},
		{"windows", map[string]string{"LOCALAPPDATA": "/l"}, "/l/repo"},
		{"windows", map[string]string{"LOCALAPPDATA": "AppData/Local"}, "/h/.local/state/repo"},
		{"windows", map[string]string{"XDG_STATE_HOME": "rel", "LOCALAPPDATA": "/l"}, "/l/repo"},
		{"windows", map[string]string{"XDG_STATE_HOME": "/s", "LOCALAPPDATA": "/l"}, "/s/repo"},
	} {
		env := target.Env{Root: filepath.FromSlash("/ws"), Env: toolprofiles.Env{Home: home, GOOS: tt.goos,
			Getenv: func(name string) string { return tt.vars[name] }}}
		want := filepath.FromSlash(tt.want)
		got, err := StateDir(env)
		if err != nil || got != want {
			t.Errorf("%s %v: StateDir = %q, %v; want %q", tt.goos, tt.vars, got, err, want)
			continue
		}
		rec, err := UserRecordPath(env)
		if err != nil || filepath.Dir(filepath.Dir(rec)) != want || filepath.Base(filepath.Dir(rec)) != "workspaces" {
			t.Errorf("%s %v: UserRecordPath = %q, %v; want it in %s/workspaces", tt.goos, tt.vars, rec, err, want)
		}
		lock, err := LockPath(env)
		if err != nil || filepath.Dir(filepath.Dir(lock)) != want || filepath.Base(filepath.Dir(lock)) != "locks" {
			t.Errorf("%s %v: LockPath = %q, %v; want it in %s/locks", tt.goos, tt.vars, lock, err, want)
		}
	}
}

func TestStateDirWithoutHome(t *testing.T) {
	env := target.Env{Root: filepath.FromSlash("/ws"), Env: toolprofiles.Env{GOOS: "linux",
		Getenv: func(name string) string { return map[string]string{"XDG_STATE_HOME": "rel"}[name] }}}
	if got, err := StateDir(env); err == nil || !strings.Contains(err.Error(), "set HOME to an absolute path") {
		t.Fatalf("StateDir = %q, %v; want an error asking for HOME", got, err)
	}
}
