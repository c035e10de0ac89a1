package cmd

import (
	"errors"
	"fmt"
	"io"
	"strings"
)

// Exit codes, in one place (DESIGN §6). CI tells drift (1) from breakage (2).
const (
	ExitOK    = 0 // done, or in sync
	ExitStale = 1 // --check found a config out of date
	ExitError = 2 // usage error or bad input; nothing was written
)

// errStale ends a --check run that found drift. Its lines were already
// printed, so Main prints nothing more.
var errStale = errors.New("out of date")

// usageError is a mistake in the command line.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }

func usagef(format string, args ...any) error { return usageError{fmt.Errorf(format, args...)} }

// exitCode maps an error from a command to the process status and prints
// it once, one line per joined error; a usage error ends with a hint at the
// help of the command that was run (command, as "repo sync").
func exitCode(err error, stderr io.Writer, command string) int {
	if err == nil {
		return ExitOK
	}
	if errors.Is(err, errStale) {
		return ExitStale
	}
	errs := []error{err}
	if joined, ok := err.(interface{ Unwrap() []error }); ok {
		errs = joined.Unwrap()
	}
	for _, e := range errs {
		fmt.Fprintf(stderr, "repo: %s\n", strings.TrimRight(e.Error(), "\n"))
	}
	var ue usageError
	if errors.As(err, &ue) {
		fmt.Fprintf(stderr, "run '%s --help' for usage\n", command)
	}
	return ExitError
}
