package cmd

import (
	"io"
	"os"
	"runtime"

	"github.com/repo-manager/repo/internal/target"
	wsp "github.com/repo-manager/repo/internal/workspace"
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
	// by catchSignals, nil in a run that writes nothing and in tests that
	// run commands in their own process; catch makes it (set by Main).
	interrupts *interrupts
	catch      func() *interrupts
}

// catchSignals starts the signal handling of interrupt.go, once, if Main
// asked for it. Every run that may write calls it before it takes the
// workspace lock or stages a file: runContext and the runner's Interrupt
// for a run that writes, lockWorkspace for the other commands that write.
// Once started it lasts until the process exits: a signal between the end
// of the run and the exit would otherwise end it by the signal, as if
// nothing had been written. A run that writes nothing is ended by a signal
// as any program is (128 + its number, as the shell reports it): there is
// nothing to put back.
func (f *Factory) catchSignals() {
	if f.interrupts == nil && f.catch != nil {
		f.interrupts = f.catch()
	}
}

func newFactory() *Factory {
	return &Factory{
		IO:     IOStreams{In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr},
		Getenv: os.Getenv,
		Getwd:  os.Getwd,
		GOOS:   runtime.GOOS,
	}
}

// host is the process as the library sees it: this factory's
// environment, working directory and operating system.
func (f *Factory) host() wsp.Host {
	return wsp.Host{Getenv: f.Getenv, Getwd: f.Getwd, GOOS: f.GOOS}
}

// Home is the user's home folder (workspace.Host.Home).
func (f *Factory) Home() string { return f.host().Home() }

// Root finds the workspace root: --root, else the nearest folder with
// .repository/ at or above the working directory; its real path (see
// workspace.Host.Roots).
func (f *Factory) Root(flag string) (string, error) {
	root, _, err := f.roots(flag)
	return root, err
}

// roots returns the root, and the path it was reached by when that
// differs (workspace.Host.Roots).
func (f *Factory) roots(flag string) (root, reached string, err error) {
	return f.host().Roots(flag)
}

// Env is the path environment for a root.
func (f *Factory) Env(root string) target.Env { return f.host().Env(root) }

// workspace is what most commands start from.
type workspace = wsp.Workspace

func (f *Factory) load(rootFlag string) (*workspace, error) {
	return wsp.Load(f.host(), rootFlag)
}
