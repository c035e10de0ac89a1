//go:build !windows

package regfile

import "syscall"

// openFlags: O_NONBLOCK so that opening a FIFO or a terminal that slipped
// past the type check returns at once (it has no effect on a regular
// file's reads); O_NOCTTY so that a terminal never becomes ours.
const openFlags = syscall.O_NONBLOCK | syscall.O_NOCTTY
