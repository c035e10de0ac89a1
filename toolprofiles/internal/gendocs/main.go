//go:build repodev

// Command gendocs writes docs/supported-tools.md from the built-in tool
// profiles, and the settings table between its markers in
// docs/extension-authors.md. It runs through go generate ./toolprofiles
// (make generate).
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
	authors := flag.String("authors", "", "the page whose settings table to rewrite")
	flag.Parse()
	if *out == "" || *authors == "" || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: gendocs -o FILE -authors FILE")
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
	page, err := os.ReadFile(*authors)
	if err != nil {
		fmt.Fprintln(os.Stderr, "gendocs:", err)
		os.Exit(1)
	}
	page, ok := supportedtools.ReplaceSettings(page, supportedtools.SettingsTable(set))
	if !ok {
		fmt.Fprintf(os.Stderr, "gendocs: %s: the settings table markers are missing or repeated\n", *authors)
		os.Exit(1)
	}
	if err := os.WriteFile(*authors, page, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "gendocs:", err)
		os.Exit(1)
	}
}
