package fileio

import "syscall"

// changeTime is a file's change time, in nanoseconds.
func changeTime(st *syscall.Stat_t) int64 { return st.Ctimespec.Nano() }
