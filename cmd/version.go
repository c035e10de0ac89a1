package cmd

import (
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"

	"github.com/repo-manager/repo/internal/lazy"
	"github.com/repo-manager/repo/internal/ordered"
)

// Set by the build (see the Makefile and .goreleaser.yaml):
//
//	go build -ldflags "-X github.com/repo-manager/repo/cmd.version=v1.2.3 -X github.com/repo-manager/repo/cmd.commit=abc1234"
//
// Without them, the module version and VCS revision Go stamped into the
// binary are used (go install …@v1.2.3; go build in a git checkout), else
// "dev" and "unknown".
var (
	version string
	commit  string
)

// VersionOptions are the flags of repo version.
type VersionOptions struct {
	F       *Factory
	Output  string
	Quiet   bool
	Verbose bool
}

func newVersionCmd(f *Factory) *cobra.Command {
	opts := &VersionOptions{F: f}
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print repo's version, commit and Go version",
		Long: `Print repo's version, the commit it was built from and the Go version.

-q prints the version alone; -v adds the module, the build's platform and
the path of this executable (Google's repo tool is also called repo: this
tells which one the shell runs).`,
		Args: noArgs,
		RunE: func(*cobra.Command, []string) error {
			if err := checkOutput(opts.Output); err != nil {
				return err
			}
			return versionRun(opts)
		},
	}
	addOutputFlag(cmd, &opts.Output)
	addVerbosityFlags(cmd, &opts.Quiet, &opts.Verbose,
		"print the version alone", "also print the module, platform and executable path")
	return cmd
}

func versionRun(opts *VersionOptions) error {
	f := opts.F
	b := readBuild.Get()
	if opts.Output == "json" {
		_, err := fmt.Fprintf(f.IO.Out, "%s\n", indentJSON(ordered.JSON(ordered.Object{
			{Key: "version", Value: b.version}, {Key: "commit", Value: b.commit}, {Key: "go", Value: runtime.Version()},
		})))
		return err
	}
	if opts.Quiet {
		_, err := fmt.Fprintln(f.IO.Out, b.version)
		return err
	}
	fmt.Fprintln(f.IO.Out, b.line())
	if opts.Verbose {
		exe, err := os.Executable()
		if err != nil {
			exe = "(" + err.Error() + ")"
		}
		fmt.Fprintf(f.IO.Out, "module:     %s\n", b.module)
		if b.fullCommit != "" {
			fmt.Fprintf(f.IO.Out, "commit:     %s\n", b.fullCommit)
		}
		if b.commitTime != "" {
			fmt.Fprintf(f.IO.Out, "committed:  %s\n", b.commitTime)
		}
		fmt.Fprintf(f.IO.Out, "platform:   %s/%s, %s\n", runtime.GOOS, runtime.GOARCH, runtime.Version())
		fmt.Fprintf(f.IO.Out, "executable: %s\n", exe)
	}
	return nil
}

// build is what is known about how this binary was built.
type build struct {
	version, commit        string // as printed: "v1.2.3" or "dev", 12 hex digits (+"-dirty") or "unknown"
	module                 string
	fullCommit, commitTime string // from the VCS stamp, when there is one
}

func (b build) line() string {
	return fmt.Sprintf("repo %s (%s, %s)", b.version, b.commit, runtime.Version())
}

// readBuild returns the version and commit: the ldflags values, else what
// the Go toolchain recorded in the binary, else "dev" and "unknown". Read
// once: the root command's --version and repo version both print it.
var readBuild = lazy.Value[build]{New: func() build {
	b := build{version: version, commit: commit, module: "github.com/repo-manager/repo"}
	info, ok := debug.ReadBuildInfo()
	if ok {
		if info.Main.Path != "" {
			b.module = info.Main.Path
		}
		if b.version == "" && info.Main.Version != "" && info.Main.Version != "(devel)" {
			b.version = info.Main.Version
		}
		dirty := false
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				b.fullCommit = s.Value
			case "vcs.time":
				b.commitTime = s.Value
			case "vcs.modified":
				dirty = s.Value == "true"
			}
		}
		if b.commit == "" && b.fullCommit != "" {
			b.commit = shortCommit(b.fullCommit)
			if dirty {
				b.commit += "-dirty"
			}
		}
	}
	b.commit = shortCommit(b.commit)
	if b.version == "" {
		b.version = "dev"
	}
	if b.commit == "" {
		b.commit = "unknown"
	}
	return b
}}

// shortCommit cuts a full commit hash (GoReleaser passes one) to the 12
// characters `make build` uses; anything else is kept.
func shortCommit(c string) string {
	if len(c) > 12 && strings.Trim(c, "0123456789abcdef") == "" {
		return c[:12]
	}
	return c
}
