//go:build repodev

// Command wake measures how late a goroutine starts when it is started
// beside a busy caller, as par starts its workers (bench/RESULTS.md, the
// eighth round). Each run is a new process, as a repo run is: with -warm
// it first runs one phase on two goroutines, so that the second thread
// exists and has gone back to sleep before the measured start, which is
// the case of every par phase after a run's first. It prints the delay in
// microseconds; run it a few hundred times and look at the distribution:
//
//	go build -tags repodev -o /tmp/wake ./bench/wake
//	for i in $(seq 300); do /tmp/wake -warm; done | sort -n | awk '{a[NR]=$1} END {print a[int(NR/2)], a[int(NR*.9)]}'
package main

import (
	"flag"
	"fmt"
	"os"
	"time"
)

// work keeps the caller busy for d, with system calls, as a run's steps are.
func work(d time.Duration) {
	for t := time.Now(); time.Since(t) < d; {
		os.Lstat(os.Args[0])
	}
}

func main() {
	warm := flag.Bool("warm", false, "run one two-goroutine phase first")
	flag.Parse()
	if *warm {
		done := make(chan struct{})
		go func() { work(200 * time.Microsecond); close(done) }()
		work(200 * time.Microsecond)
		<-done
	}
	work(300 * time.Microsecond)
	start := time.Now()
	began := make(chan time.Duration, 1)
	go func() { began <- time.Since(start) }()
	work(1500 * time.Microsecond)
	fmt.Println((<-began).Microseconds())
}
