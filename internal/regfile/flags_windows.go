//go:build windows

package regfile

// openFlags: Windows has no FIFOs or devices in the file system's paths.
const openFlags = 0
