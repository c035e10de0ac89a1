// Package workspace finds and loads what every run of repo starts from:
// the workspace root (its real path), the path environment of this
// machine, the tool profiles and the extensions' servers. It also names
// the folder variables a run ignored for holding a relative path
// (vars.go). It decides nothing about tools or files.
package workspace

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"unicode/utf8"

	"github.com/repo-manager/repo/extensions"
	"github.com/repo-manager/repo/internal/gittrack"
	"github.com/repo-manager/repo/internal/par"
	"github.com/repo-manager/repo/internal/target"
	"github.com/repo-manager/repo/internal/termtext"
	"github.com/repo-manager/repo/internal/usage"
	"github.com/repo-manager/repo/toolprofiles"
)

// Host is the process a run is in: its environment, working directory
// and operating system. The command line fills it from its factory, the
// library from the process.
type Host struct {
	Getenv func(string) string
	Getwd  func() (string, error)
	GOOS   string
}

// Home is the user's home folder: HOME, or USERPROFILE on Windows. A
// relative value is ignored, as for every folder variable (see
// toolprofiles.Env.DirVar): files under ~ would land in the working
// directory.
func (h Host) Home() string {
	if h.GOOS == "windows" {
		if home := h.Getenv("USERPROFILE"); toolprofiles.Absolute(home) {
			return home
		}
	}
	if home := h.Getenv("HOME"); toolprofiles.Absolute(home) {
		return home
	}
	return ""
}

// Env is the path environment for a root, with a new memo of what the
// file system says about paths (target.Paths): one per run.
func (h Host) Env(root string) target.Env {
	return target.Env{Root: root, Paths: target.NewPaths(), Git: gittrack.NewSession(), Env: toolprofiles.Env{Home: h.Home(), GOOS: h.GOOS, Getenv: h.Getenv}}
}

// Roots finds the workspace root: flag (--root, as given), else the
// nearest folder with .repository/ at or above the working directory. It
// returns the root, and the path it was reached by when that differs:
// the form repo used before roots were resolved, under which an earlier
// version may have recorded and locked the workspace.
//
// Outside Windows the root is its real path, every symlink resolved,
// because that is the path the tools see: they start in a folder through
// getcwd, which has no symlinks, and Claude Code keys a workspace's local
// servers by it (projects["<real path>"] in ~/.claude.json). So a
// workspace reached through a symlink (or macOS's /tmp, which is
// /private/tmp) is one key, one ownership record and one lock, whichever
// path a run came through. Paths are still shown relative to the root or
// as ~/….
func (h Host) Roots(flag string) (root, reached string, err error) {
	if flag != "" {
		abs, err := filepath.Abs(flag)
		if err != nil {
			return "", "", err
		}
		fi, err := os.Stat(filepath.Join(abs, extensions.RepoDir))
		switch {
		case err != nil && !extensions.NotThere(err):
			return "", "", fmt.Errorf("--root %s: %w", termtext.Safe(flag), UnwrapPathError(err))
		case err != nil || !fi.IsDir():
			return "", "", usage.Errorf("--root %s: no %s folder there", termtext.Safe(flag), extensions.RepoDir)
		}
		reached = abs
	} else {
		wd, err := h.Getwd()
		if err != nil {
			return "", "", err
		}
		if reached, err = extensions.FindRoot(wd); err != nil {
			return "", "", err
		}
	}
	root = h.RealPath(reached)
	if err := checkRootText(root); err != nil {
		return "", "", err
	}
	if root == reached {
		return root, "", nil
	}
	return root, reached, nil
}

// checkRootText refuses a root that is not UTF-8: the tools' config files
// are UTF-8 text, and a path written into them would be written with
// U+FFFD, a folder that does not exist.
func checkRootText(root string) error {
	if utf8.ValidString(root) {
		return nil
	}
	for i := 0; i < len(root); {
		r, size := utf8.DecodeRuneInString(root[i:])
		if r == utf8.RuneError && size == 1 {
			return fmt.Errorf("the workspace root %s is not UTF-8 (byte 0x%02x at offset %d): the tools' config files are UTF-8 text and cannot name it; rename the folder", termtext.Safe(root), root[i], i)
		}
		i += size
	}
	return nil
}

// RealPath is p with its symlinks resolved, or p where that fails. On
// Windows p is kept as before: a working directory there is the path a
// folder was entered by, and resolving can turn a mapped or substituted
// drive into another form.
func (h Host) RealPath(p string) string {
	if h.GOOS == "windows" {
		return p
	}
	if real, err := filepath.EvalSymlinks(p); err == nil {
		return real
	}
	return p
}

// UnwrapPathError is the cause of a *fs.PathError, whose path the message
// around it names already; other errors as they are.
func UnwrapPathError(err error) error {
	var perr *fs.PathError
	if errors.As(err, &perr) {
		return perr.Err
	}
	return err
}

// Workspace is what most runs start from.
type Workspace struct {
	Root     string
	Env      target.Env
	Profiles *toolprofiles.Set
	WS       *extensions.Workspace

	config *configOnce // Config's answer, once Load has made the memo
}

// configOnce remembers the workspace config one run read.
type configOnce struct {
	once sync.Once
	cfg  extensions.Config
	err  error
}

// Config is the workspace's [mcp] config (extensions.LoadConfig), read
// once per run: the tool selection and the team policy both ask for it,
// and reading it costs two strict TOML passes. A Workspace a host built
// itself, without Load, reads it each time.
func (w *Workspace) Config() (extensions.Config, error) {
	if w.config == nil {
		return extensions.LoadConfig(w.Root)
	}
	w.config.once.Do(func() { w.config.cfg, w.config.err = extensions.LoadConfig(w.Root) })
	return w.config.cfg, w.config.err
}

// Load finds the workspace (Roots) and loads its profiles (built-in, the
// user's, the workspace's) and its extensions.
func Load(h Host, rootFlag string) (*Workspace, error) { return LoadWith(h, rootFlag, nil, nil) }

// LoadWith is Load with the profiles or the extensions a host built
// itself, where not nil.
func LoadWith(h Host, rootFlag string, profiles *toolprofiles.Set, ws *extensions.Workspace) (*Workspace, error) {
	root, reached, err := h.Roots(rootFlag)
	if err != nil {
		return nil, err
	}
	env := h.Env(root)
	if reached != "" {
		env.Aliases = []string{reached}
	}
	// The profiles and the extensions are read at once, on two cores: a
	// no-op check spends a tenth of its time reading the two. The
	// profiles' error, when both fail, is the one reported, as when they
	// were read one after the other.
	var profErr, extErr error
	loadProfiles := func() {
		if profiles == nil {
			profiles, profErr = toolprofiles.Load(root, env.Env)
		}
	}
	home := h.Home()
	loadExtensions := func() {
		if ws == nil {
			ws, extErr = extensions.Load(extensions.Options{Root: root, Home: home, GOOS: h.GOOS})
		}
	}
	par.Both(loadExtensions, loadProfiles)
	if profErr != nil {
		return nil, profErr
	}
	if extErr != nil {
		return nil, extErr
	}
	return &Workspace{Root: root, Env: env, Profiles: profiles, WS: ws, config: &configOnce{}}, nil
}

// Server is the workspace's server of that name, or nil.
func (w *Workspace) Server(name string) *extensions.Server {
	for i := range w.WS.Servers {
		if w.WS.Servers[i].Name == name {
			return &w.WS.Servers[i]
		}
	}
	return nil
}

// Extension is the workspace's extension of that name, or nil.
func (w *Workspace) Extension(name string) *extensions.Extension {
	for i := range w.WS.Extensions {
		if w.WS.Extensions[i].Name == name {
			return &w.WS.Extensions[i]
		}
	}
	return nil
}
