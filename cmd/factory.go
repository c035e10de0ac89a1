package cmd

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"unicode/utf8"

	"github.com/repo-manager/repo/extensions"
	"github.com/repo-manager/repo/internal/termtext"
	"github.com/repo-manager/repo/toolprofiles"
	"github.com/repo-manager/repo/writers"
)

// IOStreams are where a command reads and writes: data and diffs on Out,
// progress, warnings and errors on ErrOut.
type IOStreams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer
}

// Factory is a command's only way to the outside world, so tests can give
// it a fake environment.
type Factory struct {
	IO     IOStreams
	Getenv func(string) string
	Getwd  func() (string, error)
	GOOS   string
	// ColorMode is --color: auto (the default), always or never; see color.go.
	ColorMode string
	// IsTerminal reports whether w is a terminal; nil means a real check.
	IsTerminal func(w io.Writer) bool
	// interrupts handles the signals that stop a run (interrupt.go): set
	// by Main, nil in tests that run commands in their own process.
	interrupts *interrupts
}

func newFactory() *Factory {
	return &Factory{
		IO:     IOStreams{In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr},
		Getenv: os.Getenv,
		Getwd:  os.Getwd,
		GOOS:   runtime.GOOS,
	}
}

// Home is the user's home folder: HOME, or USERPROFILE on Windows. A
// relative value is ignored, as for every folder variable (see
// toolprofiles.Env.DirVar): files under ~ would land in the working
// directory.
func (f *Factory) Home() string {
	if f.GOOS == "windows" {
		if h := f.Getenv("USERPROFILE"); toolprofiles.Absolute(h) {
			return h
		}
	}
	if h := f.Getenv("HOME"); toolprofiles.Absolute(h) {
		return h
	}
	return ""
}

// Root finds the workspace root: --root, else the nearest folder with
// .repository/ at or above the working directory.
//
// Outside Windows the root is its real path, every symlink resolved,
// because that is the path the tools see: they start in a folder through
// getcwd, which has no symlinks, and Claude Code keys a workspace's local
// servers by it (projects["<real path>"] in ~/.claude.json). So a
// workspace reached through a symlink (or macOS's /tmp, which is
// /private/tmp) is one key, one ownership record and one lock, whichever
// path a run came through. Paths are still shown relative to the root or
// as ~/….
func (f *Factory) Root(flag string) (string, error) {
	root, _, err := f.roots(flag)
	return root, err
}

// roots returns the root, and the path it was reached by when that
// differs: the form repo used before roots were resolved, under which an
// earlier version may have recorded and locked the workspace.
func (f *Factory) roots(flag string) (root, reached string, err error) {
	if flag != "" {
		abs, err := filepath.Abs(flag)
		if err != nil {
			return "", "", err
		}
		fi, err := os.Stat(filepath.Join(abs, extensions.RepoDir))
		switch {
		case err != nil && !extensions.NotThere(err):
			return "", "", fmt.Errorf("--root %s: %w", termtext.Safe(flag), unwrapPathError(err))
		case err != nil || !fi.IsDir():
			return "", "", usagef("--root %s: no %s folder there", termtext.Safe(flag), extensions.RepoDir)
		}
		reached = abs
	} else {
		wd, err := f.Getwd()
		if err != nil {
			return "", "", err
		}
		if reached, err = extensions.FindRoot(wd); err != nil {
			return "", "", err
		}
	}
	root = f.realPath(reached)
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

// realPath is p with its symlinks resolved, or p where that fails. On
// Windows p is kept as before: a working directory there is the path a
// folder was entered by, and resolving can turn a mapped or substituted
// drive into another form.
func (f *Factory) realPath(p string) string {
	if f.GOOS == "windows" {
		return p
	}
	if real, err := filepath.EvalSymlinks(p); err == nil {
		return real
	}
	return p
}

// Env is the path environment for a root.
func (f *Factory) Env(root string) writers.Env {
	return writers.Env{Root: root, Env: toolprofiles.Env{Home: f.Home(), GOOS: f.GOOS, Getenv: f.Getenv}}
}

// workspace is what most commands start from.
type workspace struct {
	root     string
	env      writers.Env
	profiles *toolprofiles.Set
	ws       *extensions.Workspace
}

func (f *Factory) load(rootFlag string) (*workspace, error) {
	root, reached, err := f.roots(rootFlag)
	if err != nil {
		return nil, err
	}
	env := f.Env(root)
	if reached != "" {
		env.Aliases = []string{reached}
	}
	profiles, err := toolprofiles.Load(root, env.Env)
	if err != nil {
		return nil, err
	}
	ws, err := extensions.Load(extensions.Options{Root: root, Home: f.Home(), GOOS: f.GOOS})
	if err != nil {
		return nil, err
	}
	return &workspace{root: root, env: env, profiles: profiles, ws: ws}, nil
}
