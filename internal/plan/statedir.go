package plan

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"path/filepath"

	"github.com/repo-manager/repo/internal/target"
)

// UserRecordPath is where the record of one workspace's local- and
// user-scope entries lives: outside the workspace, since those files are
// the user's, one record per workspace so that two workspaces writing to
// the same ~/.claude.json never claim each other's entries.
func UserRecordPath(env target.Env) (string, error) {
	sum := sha256.Sum256([]byte(env.Root))
	name := hex.EncodeToString(sum[:8]) + ".json"
	base, err := StateDir(env)
	if err != nil {
		return "", err
	}
	return filepath.Join(base, "workspaces", name), nil
}

// StateVars are the directory variables StateDir reads on goos, in order.
func StateVars(goos string) []string {
	if goos == "windows" {
		return []string{"XDG_STATE_HOME", "LOCALAPPDATA"}
	}
	return []string{"XDG_STATE_HOME"}
}

// StateDir is repo's per-user state folder, which holds the records of
// per-user entries and the workspace locks: $XDG_STATE_HOME/repo (on
// Windows else %LOCALAPPDATA%\repo), else ~/.local/state/repo. A relative
// value of either variable is ignored, as the XDG Base Directory spec says
// (see toolprofiles.Env.DirVar): it would put the state inside the
// workspace, in another place from each subfolder.
func StateDir(env target.Env) (string, error) {
	for _, name := range StateVars(env.GOOS) {
		if base, _ := env.DirVar(name); base != "" {
			return filepath.Join(base, "repo"), nil
		}
	}
	if env.Home == "" {
		return "", errors.New("the home directory is not known (set HOME to an absolute path): repo keeps its record of per-user entries there")
	}
	return filepath.Join(env.Home, ".local", "state", "repo"), nil
}

// FileLockPath is the lock of a per-user file (a local- or user-scope
// target, shared by every workspace on the machine), keyed by its real
// path: in the per-user state folder, next to the workspace locks.
func FileLockPath(env target.Env, real string) (string, error) {
	dir, err := StateDir(env)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256([]byte(real))
	return filepath.Join(dir, "locks", "file-"+hex.EncodeToString(sum[:8])+".lock"), nil
}

// LockPath is the lock file of a workspace: in the per-user state folder,
// so that no file appears in the repository.
func LockPath(env target.Env) (string, error) {
	dir, err := StateDir(env)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256([]byte(env.Root))
	return filepath.Join(dir, "locks", hex.EncodeToString(sum[:8])+".lock"), nil
}
