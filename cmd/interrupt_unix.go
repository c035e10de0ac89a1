//go:build !windows

package cmd

import (
	"os"
	"syscall"
)

// caughtSignals: Ctrl-C, a stop request, and the terminal closing.
var caughtSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}
