package cmd

import (
	"io"
	"os"
	"path/filepath"
	"runtime"

	"github.com/repo-manager/repo/extensions"
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
}

func newFactory() *Factory {
	return &Factory{
		IO:     IOStreams{In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr},
		Getenv: os.Getenv,
		Getwd:  os.Getwd,
		GOOS:   runtime.GOOS,
	}
}

// Home is the user's home folder: HOME, or USERPROFILE on Windows.
func (f *Factory) Home() string {
	if f.GOOS == "windows" {
		if h := f.Getenv("USERPROFILE"); h != "" {
			return h
		}
	}
	return f.Getenv("HOME")
}

// Root finds the workspace root: --root, else the nearest folder with
// .repository/ at or above the working directory.
func (f *Factory) Root(flag string) (string, error) {
	if flag != "" {
		abs, err := filepath.Abs(flag)
		if err != nil {
			return "", err
		}
		if fi, err := os.Stat(filepath.Join(abs, extensions.RepoDir)); err != nil || !fi.IsDir() {
			return "", usagef("--root %s: no %s folder there", flag, extensions.RepoDir)
		}
		return abs, nil
	}
	wd, err := f.Getwd()
	if err != nil {
		return "", err
	}
	return extensions.FindRoot(wd)
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
	root, err := f.Root(rootFlag)
	if err != nil {
		return nil, err
	}
	profiles, err := toolprofiles.Load(root)
	if err != nil {
		return nil, err
	}
	ws, err := extensions.Load(extensions.Options{Root: root, Home: f.Home(), GOOS: f.GOOS})
	if err != nil {
		return nil, err
	}
	return &workspace{root: root, env: f.Env(root), profiles: profiles, ws: ws}, nil
}
