//go:build repodev

// Command hello is the yardstick of repo's start-up (bench/run.sh, the
// startup cases): a Go hello-world, built as repo is, whose run is what
// any Go process pays before its own work.
package main

import "fmt"

func main() {
	fmt.Println("hello, world")
}
