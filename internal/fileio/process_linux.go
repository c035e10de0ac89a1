//go:build linux

package fileio

import (
	"bytes"
	"os"
	"strconv"
	"time"
)

// processStart is when the process with this id started, from
// /proc/<pid>/stat (its start in clock ticks after boot) and /proc/stat
// (the boot time, in whole seconds: hence startSlack). ok is false when
// either cannot be read.
func processStart(pid int) (start time.Time, ok bool) {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return time.Time{}, false
	}
	// The command name (field 2) is in parentheses and may hold spaces
	// and parentheses itself: the fields counted from 3 begin after the
	// last ')'. The start time is field 22.
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return time.Time{}, false
	}
	fields := bytes.Fields(stat[i+1:])
	if len(fields) < 20 {
		return time.Time{}, false
	}
	ticks, err := strconv.ParseUint(string(fields[19]), 10, 64)
	if err != nil {
		return time.Time{}, false
	}
	boot, ok := bootTime()
	if !ok {
		return time.Time{}, false
	}
	// USER_HZ: the unit of /proc's times, 100 on every Linux architecture.
	const userHZ = 100
	return boot.Add(time.Duration(ticks) * time.Second / userHZ), true
}

func bootTime() (time.Time, bool) {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return time.Time{}, false
	}
	for _, line := range bytes.Split(b, []byte("\n")) {
		if v, ok := bytes.CutPrefix(line, []byte("btime ")); ok {
			s, err := strconv.ParseInt(string(bytes.TrimSpace(v)), 10, 64)
			return time.Unix(s, 0), err == nil
		}
	}
	return time.Time{}, false
}
