package cmd

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"

	"github.com/repo-manager/repo/internal/ordered"
)

// Set by the build (see the Makefile):
//
//	go build -ldflags "-X github.com/repo-manager/repo/cmd.version=v1.2.3 -X github.com/repo-manager/repo/cmd.commit=abc1234"
//
// Without them, the module version and VCS revision Go stamped into the
// binary are used (go install …@v1.2.3), else "dev" and "unknown".
var (
	version string
	commit  string
)

func newVersionCmd(f *Factory) *cobra.Command {
	output := "text"
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print repo's version, commit and Go version",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			v, c := buildVersion()
			switch output {
			case "json":
				_, err := fmt.Fprintf(f.IO.Out, "%s\n", indentJSON(ordered.JSON(ordered.Object{
					{Key: "version", Value: v}, {Key: "commit", Value: c}, {Key: "go", Value: runtime.Version()},
				})))
				return err
			case "text":
				_, err := fmt.Fprintf(f.IO.Out, "repo %s (%s, %s)\n", v, c, runtime.Version())
				return err
			}
			return usagef("--output %q: use text or json", output)
		},
	}
	cmd.Flags().StringVarP(&output, "output", "o", "text", "text or json")
	return cmd
}

// buildVersion returns the version and commit: the ldflags values, else
// what the Go toolchain recorded in the binary, else "dev" and "unknown".
func buildVersion() (string, string) {
	v, c := version, commit
	info, ok := debug.ReadBuildInfo()
	if ok && v == "" && info.Main.Version != "" && info.Main.Version != "(devel)" {
		v = info.Main.Version
	}
	if ok && c == "" {
		var rev string
		dirty := false
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				dirty = s.Value == "true"
			}
		}
		rev = shortCommit(rev)
		if rev != "" && dirty {
			rev += "-dirty"
		}
		c = rev
	}
	c = shortCommit(c)
	if v == "" {
		v = "dev"
	}
	if c == "" {
		c = "unknown"
	}
	return v, c
}

// shortCommit cuts a full commit hash (GoReleaser passes one) to the 12
// characters `make build` uses; anything else is kept.
func shortCommit(c string) string {
	if len(c) > 12 && strings.Trim(c, "0123456789abcdef") == "" {
		return c[:12]
	}
	return c
}
