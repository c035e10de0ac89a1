//go:build windows

package cmd

import (
	"os"
	"syscall"
)

// caughtSignals: Go delivers the console's Ctrl-C and Ctrl-Break events
// as os.Interrupt, and its close, logoff and shutdown events as SIGTERM
// (holding the process until the handler is done, within the seconds
// Windows gives it).
var caughtSignals = []os.Signal{os.Interrupt, syscall.SIGTERM}
