package cmd

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/repo-manager/repo/internal/usage"
)

// Exit codes, in one place (repo --help states them). CI tells drift (1)
// from breakage (2), and both from a run that waits for the user (3).
const (
	ExitOK    = 0 // done, or in sync
	ExitStale = 1 // --check found a config out of date
	ExitError = 2 // usage error or bad input; nothing was written
	// ExitUntrusted: a server the user has not trusted would have been
	// written outside the workspace (repo sync at local or user scope), or
	// repo trust left servers untrusted; nothing was written.
	ExitUntrusted = 3
	// ExitSignal plus the signal's number: a signal stopped the run
	// (130 Ctrl-C, 143 SIGTERM; see interrupt.go), and the error says
	// whether it wrote nothing or everything.
	ExitSignal = 128
)

// errUntrustedShown ends a run that needs the user's trust and has said
// so already (repo trust without a terminal, --output json).
var errUntrustedShown = errors.New("not trusted")

// errStale ends a --check run that found drift. Its lines were already
// printed, so Main prints nothing more.
var errStale = errors.New("out of date")

// usageError is a mistake in the command line. What the command line
// asks of the library that cannot be (an unknown tool id) is a
// usage.Error, and ends the same way.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }

func (e usageError) Unwrap() error { return e.err }

func usagef(format string, args ...any) error { return usageError{fmt.Errorf(format, args...)} }

// exitCode maps an error from a command to the process status and prints
// it once, one line per joined error; a usage error ends with a hint at the
// help of the command that was run (command, as "repo sync").
func exitCode(err error, stderr io.Writer, command string) int {
	if err == nil {
		return ExitOK
	}
	err = fromCobra(err)
	if errors.Is(err, errStale) {
		return ExitStale
	}
	if errors.Is(err, errUntrustedShown) {
		return ExitUntrusted
	}
	var ie errInterrupted
	if errors.As(err, &ie) {
		fmt.Fprintf(stderr, "repo: %s\n", ie.Error())
		return ie.code()
	}
	errs := []error{err}
	if joined, ok := err.(interface{ Unwrap() []error }); ok {
		errs = joined.Unwrap()
	}
	for _, e := range errs {
		fmt.Fprintf(stderr, "repo: %s\n", strings.TrimRight(e.Error(), "\n"))
	}
	var ue usageError
	if errors.As(err, &ue) || errors.Is(err, usage.ErrUsage) {
		fmt.Fprintf(stderr, "run '%s --help' for usage\n", command)
	}
	var te *untrustedError
	if errors.As(err, &te) {
		return ExitUntrusted
	}
	return ExitError
}

// fromCobra turns the errors cobra makes itself for a command line into
// repo's usage errors, worded as repo words them. Cobra checks the flags
// marked with MarkFlagsMutuallyExclusive before a command runs, and says
// "if any flags in the group [quiet verbose] are set none of the others
// can be; [quiet verbose] were all set", the group's flags in the order
// they were marked: repo says "--quiet and --verbose exclude each other".
func fromCobra(err error) error {
	rest, ok := strings.CutPrefix(err.Error(), "if any flags in the group [")
	if !ok {
		return err
	}
	group, rest, ok := strings.Cut(rest, "] are set none of the others can be; [")
	if !ok || !strings.HasSuffix(rest, "] were all set") {
		return err
	}
	flags := strings.Fields(group)
	for i, f := range flags {
		flags[i] = "--" + f
	}
	return usagef("%s exclude each other", andList(flags))
}
