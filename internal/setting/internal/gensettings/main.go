//go:build repodev

// Command gensettings writes what is generated from the settings table
// (internal/setting/internal/render): the structs that hold settings, the
// docs' settings tables, the JSON schemas' settings. It runs through go
// generate ./internal/setting (make generate), and writes only the files
// that change.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/repo-manager/repo/internal/setting/internal/render"
)

func main() {
	root := flag.String("root", "", "the repository root")
	flag.Parse()
	if *root == "" || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: gensettings -root DIR")
		os.Exit(2)
	}
	if err := run(*root); err != nil {
		fmt.Fprintln(os.Stderr, "gensettings:", err)
		os.Exit(1)
	}
}

func run(root string) error {
	if err := render.Check(); err != nil {
		return err
	}
	for _, f := range render.Files() {
		path := filepath.Join(root, filepath.FromSlash(f.Path))
		old, err := os.ReadFile(path)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		out, err := f.Render(old)
		if err != nil {
			return fmt.Errorf("%s: %w", f.Path, err)
		}
		if bytes.Equal(out, old) {
			continue
		}
		if err := os.WriteFile(path, out, 0o644); err != nil {
			return err
		}
	}
	return nil
}
