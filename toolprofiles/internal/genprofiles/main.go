//go:build repodev

// Command genprofiles compiles the built-in tool profiles, profiles/*.toml,
// into Go values (builtin_gen.go), decoding them strictly as a workspace's
// own profiles are. It runs through go generate ./toolprofiles (make
// generate), in the toolprofiles folder.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/repo-manager/repo/toolprofiles"
	"github.com/repo-manager/repo/toolprofiles/internal/profilegen"
)

func main() {
	out := flag.String("o", "", "output file")
	flag.Parse()
	if *out == "" || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: genprofiles -o FILE")
		os.Exit(2)
	}
	if err := run(*out); err != nil {
		fmt.Fprintln(os.Stderr, "genprofiles:", err)
		os.Exit(1)
	}
}

func run(out string) error {
	set, err := toolprofiles.LoadFS(os.DirFS("profiles"), toolprofiles.BuiltinOrigin)
	if err != nil {
		return err
	}
	src, err := profilegen.Render(set)
	if err != nil {
		return err
	}
	return os.WriteFile(out, src, 0o644)
}
