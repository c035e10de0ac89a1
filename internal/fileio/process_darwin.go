//go:build darwin

package fileio

import (
	"time"

	"golang.org/x/sys/unix"
)

// processStart is when the process with this id started (sysctl
// kern.proc.pid); ok is false when it cannot be told.
func processStart(pid int) (time.Time, bool) {
	k, err := unix.SysctlKinfoProc("kern.proc.pid", pid)
	if err != nil || k.Proc.P_pid != int32(pid) {
		return time.Time{}, false
	}
	tv := k.Proc.P_starttime
	return time.Unix(int64(tv.Sec), int64(tv.Usec)*1000), true
}
