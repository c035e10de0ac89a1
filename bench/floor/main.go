//go:build repodev

// Command floor replays the file system work of a repo run and nothing
// else: the path lookups it made (stat, lstat, access) and a read of every
// file it opened, one at a time, parsing nothing. Beside the hello-world
// and repo version, it says how much of a no-op check's time the file
// system alone takes on this machine, before any of repo's own work
// (bench/RESULTS.md, the thirteenth round). bench/startup.sh FLOOR=1 makes
// the list from strace of a check and times this beside it.
//
// The list has a line per call, "stat PATH", "lstat PATH", "access PATH"
// or "read PATH", in the order of the run:
//
//	go build -tags repodev -o /tmp/floor ./bench/floor
//	/tmp/floor calls.txt
package main

import (
	"fmt"
	"os"
	"strings"

	"golang.org/x/sys/unix"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: floor CALLS")
		os.Exit(2)
	}
	calls, err := os.ReadFile(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	var st unix.Stat_t
	found := 0
	for line := range strings.Lines(string(calls)) {
		op, path, _ := strings.Cut(strings.TrimSuffix(line, "\n"), " ")
		var err error
		switch op {
		case "stat":
			err = unix.Stat(path, &st)
		case "lstat":
			err = unix.Lstat(path, &st)
		case "access":
			err = unix.Access(path, unix.W_OK)
		case "read":
			_, err = os.ReadFile(path)
		default:
			fmt.Fprintf(os.Stderr, "floor: unknown call %q\n", line)
			os.Exit(2)
		}
		if err == nil {
			found++
		}
	}
	if found == 0 {
		fmt.Fprintln(os.Stderr, "floor: no call succeeded")
		os.Exit(1)
	}
}
