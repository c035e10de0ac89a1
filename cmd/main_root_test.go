package cmd

import (
	"bytes"
	"slices"
	"strconv"
	"testing"

	"github.com/spf13/cobra"
)

// A run builds the command its first argument names and no other; help,
// completion, a flag first or a mistyped command get them all.
func TestOnlyTheCommandThatRunsIsBuilt(t *testing.T) {
	var all []string
	for _, c := range commands {
		all = append(all, c.name)
	}
	slices.Sort(all)
	names := func(root *cobra.Command) []string {
		var out []string
		for _, c := range root.Commands() {
			out = append(out, c.Name())
		}
		return out
	}
	f := &Factory{IO: IOStreams{Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}}, Getenv: func(string) string { return "" }}
	for _, name := range all {
		if got := names(newRootCmd(f, []string{name, "--help"})); !slices.Equal(got, []string{name}) {
			t.Errorf("repo %s --help builds %v, want only %s", name, got, name)
		}
	}
	for _, args := range [][]string{nil, {"help", "sync"}, {"completion", "bash"}, {"__complete", "sync", ""}, {"--color", "never", "sync"}, {"syncc"}} {
		if got := names(newRootCmd(f, args)); !slices.Equal(got, all) {
			t.Errorf("repo %q builds %v, want every command %v", args, got, all)
		}
	}
}

// What a command prints and returns is the same whether it is built alone
// or among all the others: its help, its usage errors, its output.
func TestOneCommandRunsAsAmongAll(t *testing.T) {
	execute := func(root *cobra.Command, args []string) string {
		var out, errOut bytes.Buffer
		root.SetArgs(args)
		root.SetOut(&out)
		root.SetErr(&errOut)
		c, err := root.ExecuteC()
		if c == nil {
			c = root
		}
		code := exitCode(err, &errOut, c.CommandPath())
		return "stdout:\n" + out.String() + "stderr:\n" + errOut.String() + "exit " + strconv.Itoa(code)
	}
	for _, args := range [][]string{
		{"sync", "--help"}, {"trust", "--help"}, {"forget", "--help"}, {"mcp", "--help"}, {"mcp", "list", "--help"},
		{"mcp", "import", "--help"}, {"tools", "--help"}, {"doctor", "--help"}, {"version", "--help"},
		{"version"}, {"version", "-o", "json"}, {"version", "-q"}, {"version", "extra"}, {"version", "-o", "yaml"},
		{"version", "--color", "bogus"}, {"sync", "--bogus"}, {"sync", "extra"}, {"sync", "-q", "-v"},
		{"mcp"}, {"mcp", "bogus"}, {"forget", "--tool", "cursor", "--all"}, {"doctor", "-q", "-v"},
	} {
		newF := func() *Factory {
			return &Factory{IO: IOStreams{Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}}, Getenv: func(string) string { return "" }}
		}
		alone, among := execute(newRootCmd(newF(), args), args), execute(newRootCmd(newF(), nil), args)
		if alone != among {
			t.Errorf("repo %q built alone:\n%s\namong all:\n%s", args, alone, among)
		}
	}
}

// BenchmarkRootCmd is what repo version costs inside the process: the
// command line built and run, for the command alone (what a run builds)
// and among all the others (what every run built before).
func BenchmarkRootCmd(b *testing.B) {
	args := []string{"version", "-q"}
	for _, bc := range []struct {
		name  string
		build []string
	}{{"alone", args}, {"all", nil}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				var out bytes.Buffer
				f := &Factory{IO: IOStreams{Out: &out, ErrOut: &out}, Getenv: func(string) string { return "" }}
				root := newRootCmd(f, bc.build)
				root.SetArgs(args)
				root.SetOut(&out)
				root.SetErr(&out)
				if _, err := root.ExecuteC(); err != nil || out.Len() == 0 {
					b.Fatalf("repo version -q: %v, %q", err, out.String())
				}
			}
		})
	}
}
