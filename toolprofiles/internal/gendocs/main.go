//go:build repodev

// Command gendocs writes docs/supported-tools.md from the built-in tool
// profiles. It runs through go generate ./toolprofiles (make generate).
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/repo-manager/repo/toolprofiles"
	"github.com/repo-manager/repo/toolprofiles/internal/supportedtools"
)

func main() {
	out := flag.String("o", "", "output file")
	flag.Parse()
	if *out == "" || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: gendocs -o FILE")
		os.Exit(2)
	}
	set, err := toolprofiles.Builtin()
	if err != nil {
		fmt.Fprintln(os.Stderr, "gendocs:", err)
		os.Exit(1)
	}
	if err := os.WriteFile(*out, supportedtools.Render(set), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "gendocs:", err)
		os.Exit(1)
	}
}
