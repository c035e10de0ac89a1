//go:build !windows

package cmd

import "os"

// enableANSI: every terminal outside Windows takes ANSI escapes.
func enableANSI(*os.File) bool { return true }
