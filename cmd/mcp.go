package cmd

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/repo-manager/repo/extensions"
	"github.com/repo-manager/repo/internal/ordered"
	"github.com/repo-manager/repo/internal/setting"
	"github.com/repo-manager/repo/internal/shellquote"
	"github.com/repo-manager/repo/internal/termtext"
)

// MCPListOptions are the flags of repo mcp list.
type MCPListOptions struct {
	F       *Factory
	Root    string
	Output  string
	Quiet   bool
	Verbose bool
}

func newMCPCmd(f *Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "mcp",
		Short: "Inspect the extensions' MCP servers",
	}
	groupCommand(cmd)
	cmd.AddCommand(newMCPListCmd(f, nil), newMCPImportCmd(f, nil))
	return cmd
}

func newMCPListCmd(f *Factory, runF func(*MCPListOptions) error) *cobra.Command {
	opts := &MCPListOptions{F: f}
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List every extension's MCP servers, resolved for this machine",
		Args:  noArgs,
		RunE: func(*cobra.Command, []string) error {
			if err := checkOutput(opts.Output); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return mcpListRun(opts)
		},
	}
	addRootFlag(cmd, &opts.Root)
	addOutputFlag(cmd, &opts.Output)
	addVerbosityFlags(cmd, &opts.Quiet, &opts.Verbose,
		"no note on stderr when no extension declares a server",
		"also print each server's declaration (file:line), working directory and environment")
	return cmd
}

func mcpListRun(opts *MCPListOptions) error {
	f := opts.F
	root, err := f.Root(opts.Root)
	if err != nil {
		return err
	}
	ws, err := extensions.Load(extensions.Options{Root: root, Home: f.Home(), GOOS: f.GOOS})
	if err != nil {
		return err
	}
	if opts.Output == "json" {
		out := []any{}
		for _, s := range ws.Servers {
			out = append(out, serverJSON(s))
		}
		_, err := fmt.Fprintf(f.IO.Out, "%s\n", indentJSON(ordered.JSON(out)))
		return err
	}
	if len(ws.Servers) == 0 {
		if !opts.Quiet {
			fmt.Fprintln(f.IO.ErrOut, "no extension declares an MCP server")
		}
		return nil
	}
	// The SETTINGS column is there when some server has settings.
	withSettings := false
	for _, s := range ws.Servers {
		withSettings = withSettings || !s.Settings.IsZero()
	}
	tw := tabwriter.NewWriter(f.IO.Out, 0, 4, 2, ' ', 0)
	if withSettings {
		fmt.Fprintln(tw, "EXTENSION\tSERVER\tTRANSPORT\tSETTINGS\tCOMMAND / URL")
	} else {
		fmt.Fprintln(tw, "EXTENSION\tSERVER\tTRANSPORT\tCOMMAND / URL")
	}
	for _, s := range ws.Servers {
		what := termtext.Safe(s.URL)
		if !s.Remote() {
			what = shellquote.Join(append([]string{s.Command}, s.Args...))
		}
		if withSettings {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", termtext.Safe(s.Extension), termtext.Safe(s.Name), s.Transport, settingsText(s.Settings), what)
		} else {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", termtext.Safe(s.Extension), termtext.Safe(s.Name), s.Transport, what)
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if opts.Verbose {
		for _, s := range ws.Servers {
			fmt.Fprintf(f.IO.Out, "\n%s (%s:%d)\n", termtext.Safe(s.Name), termtext.Safe(s.Source), s.Line)
			if s.Cwd != "" {
				fmt.Fprintf(f.IO.Out, "  cwd: %s\n", termtext.Safe(s.Cwd))
			}
			for _, kv := range s.Env {
				fmt.Fprintf(f.IO.Out, "  env %s=%s\n", termtext.Safe(kv.Key), termtext.Safe(kv.Value))
			}
			for _, kv := range s.Headers {
				fmt.Fprintf(f.IO.Out, "  header %s: %s\n", termtext.Safe(kv.Key), termtext.Safe(kv.Value))
			}
		}
	}
	return nil
}

// settingsText is a server's settings in one cell, in the settings
// table's order: a boolean as its words ("off") or name=true, a tool list
// as name=a,b, a timeout as name=30s; "-" for none.
func settingsText(s extensions.Settings) string {
	var parts []string
	for _, r := range setting.Table {
		if !s.Given(r.Name) {
			continue
		}
		switch r.Kind {
		case setting.Bool:
			v := *s.Bool(r.Name)
			switch {
			case v && r.On != "":
				parts = append(parts, r.On)
			case !v && r.Off != "":
				parts = append(parts, r.Off)
			default:
				parts = append(parts, fmt.Sprintf("%s=%t", r.Name, v))
			}
		case setting.Tools:
			parts = append(parts, r.Name+"="+termtext.Safe(strings.Join(s.Tools(r.Name), ",")))
		case setting.Seconds:
			parts = append(parts, fmt.Sprintf("%s=%ds", r.Name, s.Seconds(r.Name)))
		}
	}
	if len(parts) == 0 {
		return "-"
	}
	return strings.Join(parts, " ")
}

// settingsJSON is a server's settings as the MCP file spells them, in the
// settings table's order, or nil for none (docs/schema/mcp-list.v1.json).
func settingsJSON(s extensions.Settings) ordered.Object {
	var o ordered.Object
	for _, r := range setting.Table {
		if !s.Given(r.Name) {
			continue
		}
		var v any
		switch r.Kind {
		case setting.Bool:
			v = *s.Bool(r.Name)
		case setting.Tools:
			v = s.Tools(r.Name)
		case setting.Seconds:
			v = s.Seconds(r.Name)
		}
		o = append(o, ordered.Member{Key: r.Name, Value: v})
	}
	return o
}

func serverJSON(s extensions.Server) ordered.Object {
	o := ordered.Object{
		{Key: "extension", Value: s.Extension},
		{Key: "name", Value: s.Name},
		{Key: "source", Value: fmt.Sprintf("%s:%d", s.Source, s.Line)},
		{Key: "transport", Value: s.Transport},
	}
	if s.Remote() {
		o = append(o, ordered.Member{Key: "url", Value: s.URL}, ordered.Member{Key: "headers", Value: kvObject(s.Headers)})
	} else {
		args := s.Args
		if args == nil {
			args = []string{}
		}
		o = append(o,
			ordered.Member{Key: "command", Value: s.Command},
			ordered.Member{Key: "args", Value: args},
			ordered.Member{Key: "env", Value: kvObject(s.Env)},
		)
		if s.Cwd != "" {
			o = append(o, ordered.Member{Key: "cwd", Value: s.Cwd})
		}
	}
	if settings := settingsJSON(s.Settings); settings != nil {
		o = append(o, ordered.Member{Key: "settings", Value: settings})
	}
	return o
}

func kvObject(kvs []extensions.KV) ordered.Object {
	o := ordered.Object{}
	for _, kv := range kvs {
		o = append(o, ordered.Member{Key: kv.Key, Value: kv.Value})
	}
	return o
}

// indentJSON pretty-prints compact JSON with two spaces, keeping key order.
func indentJSON(compact []byte) string {
	var b bytes.Buffer
	if err := json.Indent(&b, compact, "", "  "); err != nil {
		return string(compact)
	}
	return b.String()
}
