// Package cmd is repo's command line: one file per command, each with an
// options struct, and Main mapping errors to exit codes in one place.
package cmd

import (
	"errors"
	"os"
	"slices"

	"github.com/spf13/cobra"

	// Sizes the main goroutine's stack once, before the other packages'
	// initialisation and main (internal/stackgrow).
	_ "github.com/repo-manager/repo/internal/stackgrow"
	"github.com/repo-manager/repo/internal/termtext"
)

// Main runs repo with args and returns the process exit code. It handles
// the signals that stop a run that writes (interrupt.go); run, which tests
// call in their own process, does not.
func Main(args []string) int {
	f := newFactory()
	// Not from here, but from the moment a run may write
	// (Factory.catchSignals): a run that writes nothing — repo version,
	// --check, a pre-commit hook's — needs no handler, and the runtime's
	// signal thread and goroutines were a tenth of repo version's run
	// (bench/RESULTS.md, "Start-up"). Its own stderr, not the guard run
	// wraps it in: a signal ends the process without a flush.
	errOut := f.IO.ErrOut
	f.catch = func() *interrupts { return catchInterrupts(errOut, os.Exit) }
	return run(f, args)
}

func run(f *Factory, args []string) int {
	// Every message escapes the workspace's text where it prints it
	// (termtext.Safe); the guards are there for one that does not: nothing
	// a workspace chose reaches a terminal or a CI log as control.
	out, errOut := f.IO.Out, f.IO.ErrOut
	gOut := termtext.NewWriter(out, func() bool { return f.colorOn(out) })
	gErr := termtext.NewWriter(errOut, func() bool { return f.colorOn(errOut) })
	f.IO.Out, f.IO.ErrOut = gOut, gErr
	defer func() {
		gOut.Flush()
		gErr.Flush()
		f.IO.Out, f.IO.ErrOut = out, errOut
	}()
	root := newRootCmd(f, args)
	root.SetArgs(args)
	root.SetIn(f.IO.In)
	root.SetOut(f.IO.Out)
	root.SetErr(f.IO.ErrOut)
	c, err := root.ExecuteC()
	if c == nil {
		c = root
	}
	if ie := f.interrupts.interrupted(); ie != nil && (err == nil || errors.Is(err, errStale)) {
		// The run finished after a signal: what it did is reported; its
		// status says it was interrupted.
		err = ie
	}
	return exitCode(err, f.IO.ErrOut, c.CommandPath())
}

// commands are repo's commands, by name.
var commands = []struct {
	name  string
	build func(*Factory) *cobra.Command
}{
	{"sync", func(f *Factory) *cobra.Command { return newSyncCmd(f, nil) }},
	{"trust", func(f *Factory) *cobra.Command { return newTrustCmd(f, nil) }},
	{"forget", func(f *Factory) *cobra.Command { return newForgetCmd(f, nil) }},
	{"mcp", newMCPCmd},
	{"tools", newToolsCmd},
	{"doctor", func(f *Factory) *cobra.Command { return newDoctorCmd(f, nil) }},
	{"version", newVersionCmd},
}

// newRootCmd builds the command line that runs args. When the first
// argument names a command, only that command is built, and not cobra's
// completion command: building every command and their flags was a tenth
// of repo version's run, which a pre-commit hook pays on every commit
// (bench/run.sh, the startup cases). Anything else — help, completion, a
// flag first, a mistyped command that gets suggestions — builds them all.
func newRootCmd(f *Factory, args []string) *cobra.Command {
	root := &cobra.Command{
		Use:   "repo",
		Short: "Write extension MCP servers into every AI tool's config",
		Long: `repo reads the MCP servers that the workspace's extensions declare
(.repository/extensions/*/extension.toml → provides.mcp), resolves them for
this machine, and writes them into each AI tool's own config file, next to
the user's own servers, which it never touches.

Exit codes: 0 done or in sync, 1 out of date (--check), 2 error, 3 needs your
trust (repo trust): a server would reach a file outside the workspace, 130 or
143 interrupted (Ctrl-C, SIGTERM: nothing written, or all of it, as it says).`,
		SilenceErrors: true,
		SilenceUsage:  true,
	}
	groupCommand(root)
	root.SetVersionTemplate("{{.Version}}\n")
	// --version without cobra's -v shorthand: -v is --verbose on every command.
	root.Flags().Bool("version", false, "print repo's version (as repo version)")
	root.PersistentFlags().StringVar(&f.ColorMode, "color", colorAuto, "colour: auto (on a terminal, unless NO_COLOR is set), always or never")
	_ = root.RegisterFlagCompletionFunc("color", fixedValues(colorModes,
		"on a terminal, unless NO_COLOR is set (CLICOLOR_FORCE=1: always)", "also into pipes and files", "no colour"))
	root.PersistentPreRunE = func(*cobra.Command, []string) error {
		if !slices.Contains(colorModes, f.ColorMode) {
			return usagef("--color %q: use auto, always or never", f.ColorMode)
		}
		return nil
	}
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	for _, c := range commands {
		if len(args) > 0 && args[0] == c.name {
			root.AddCommand(c.build(f))
			// Not reachable when another command runs.
			root.CompletionOptions.DisableDefaultCmd = true
			return root
		}
	}
	// --version, the same line as repo version. Only here: cobra reads
	// Version only when the root itself runs, never when args[0] names a
	// command, and reading the build information was a tenth of every
	// other command's start (bench/startup.sh).
	root.Version = readBuild.Get().line()
	for _, c := range commands {
		root.AddCommand(c.build(f))
	}
	return root
}
