//go:build windows

package cmd

import (
	"os"

	"golang.org/x/sys/windows"
)

// enableANSI switches a Windows console to virtual-terminal processing, so
// that it shows ANSI colours instead of printing the escapes; a console that
// refuses (before Windows 10) gets no colour.
func enableANSI(f *os.File) bool {
	h := windows.Handle(f.Fd())
	var mode uint32
	if err := windows.GetConsoleMode(h, &mode); err != nil {
		return false
	}
	if mode&windows.ENABLE_VIRTUAL_TERMINAL_PROCESSING != 0 {
		return true
	}
	return windows.SetConsoleMode(h, mode|windows.ENABLE_VIRTUAL_TERMINAL_PROCESSING) == nil
}
