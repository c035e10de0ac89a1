//go:build linux && repodev

package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"text/tabwriter"
	"time"
)

// Run is everything the report needs.
type Run struct {
	Start      time.Time
	Phases     []string // "install 4s", …
	Sandbox    Sandbox
	Toolbox    *Toolbox
	Workspace  *Workspace
	Clients    []Client
	Results    []*CheckResult
	Partial    string // why this is not a full run ("" for a full run)
	PythonInfo string
}

func (r *Run) passed() bool {
	for _, res := range r.Results {
		if !res.passed(r.Sandbox.isolated()) {
			return false
		}
	}
	return len(r.Results) > 0
}

// printTable writes the records as an aligned table, then the verdicts.
func printTable(w io.Writer, results []*CheckResult, isolated bool) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "CLIENT\tVERSION\tSCOPE\tSERVER\tSTATUS\tDETAIL")
	for _, res := range results {
		for _, rec := range res.Records {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", rec.Client, rec.Version, rec.Scope, rec.Server, rec.Status, oneLine(rec.Detail, 90))
		}
	}
	tw.Flush()
	fmt.Fprintln(w)
	for _, res := range results {
		v, d := res.Verdict()
		fmt.Fprintf(w, "%-26s %-22s %s\n", expectationName(res), v, oneLine(d, 160))
		for _, row := range res.settingRows(isolated) {
			fmt.Fprintf(w, "%-26s %-22s %s: %s\n", "", row.verdict, row.what, oneLine(row.detail, 140))
		}
	}
	for _, res := range results {
		for _, ch := range res.Changes {
			fmt.Fprintf(w, "client rewrote: %s; %s: %s\n", ch, ch.RepoCmd, ch.RepoCheck)
		}
	}
}

func expectationName(res *CheckResult) string {
	s := res.client.Name() + " · " + res.scope
	switch {
	case res.client.ID() == "codex" && res.scope == ScopeProject:
		s += " (trusted)"
	case res.untrusted:
		s += " (before repo trust)"
	}
	return s
}

// writeMarkdown writes LAST_RUN.md.
func writeMarkdown(path string, run *Run) error {
	var b strings.Builder
	p := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	ws, tb := run.Workspace, run.Toolbox
	p("# Conformance: last run\n\n")
	p("Written by `make conformance` (`go run -tags repodev ./conformance`, see README.md \"Conformance\"); do not edit.\n")
	p("Each real client was asked, offline and with a private HOME, which MCP servers it loads from the\n")
	p("files `repo sync` wrote for a scratch copy of `examples/workspace`, and whether they start.\n\n")
	if run.Partial != "" {
		p("**Partial run**: %s.\n\n", run.Partial)
	}
	host, _ := os.Hostname()
	kernel, _ := os.ReadFile("/proc/sys/kernel/osrelease")
	p("- Date: %s\n", run.Start.UTC().Format("2006-01-02 15:04 MST"))
	p("- Machine: %s, %s/%s, Linux %s, %d CPUs\n", host, runtime.GOOS, runtime.GOARCH, strings.TrimSpace(string(kernel)), runtime.NumCPU())
	p("- repo: commit %s, built as `%s`\n", ws.Commit, ws.RepoVersion)
	p("- Toolchain: %s; Node %s (%s); %s\n", runtime.Version(), tb.NodeVersion, tb.NodeSource, run.PythonInfo)
	p("- Isolation: %s; cleaned environment; one private HOME per check\n", run.Sandbox.Mode)
	p("- Duration: %s\n\n", strings.Join(run.Phases, ", "))

	p("## Clients\n\n| client | npm package | version | `--version` |\n|---|---|---|---|\n")
	for _, c := range run.Clients {
		in := tb.Clients[c.ID()]
		if in == nil {
			continue
		}
		rep := in.Reports
		if in.Err != nil {
			rep = "not installed: " + oneLine(in.Err.Error(), 200)
		}
		p("| %s | `%s` | %s | %s |\n", c.Name(), in.Package, orDash(in.Version), md(rep))
	}

	p("\n## Expectations\n\n")
	p("The five servers of the example's extensions (%s) must be **connected**, local and user scope\n", strings.Join(expectedServers, ", "))
	p("once the user trusted them (`repo trust --all`). Before that (\"before repo trust\"), `repo sync` must\n")
	p("write nothing there (exit 3), and the client must start none of them from that scope.\n\n")
	p("| expectation | verdict | detail |\n|---|---|---|\n")
	for _, res := range run.Results {
		v, d := res.Verdict()
		p("| %s | **%s** | %s |\n", expectationName(res), v, md(d))
	}
	p("\n### Settings and remote servers\n\n")
	p("The harness adds an extension of its own, `conformance` (conformance/settings.go): `%s` is switched off\n", confOff)
	p("(`\"enabled\": false`) and must not be started; `%s` (`includeTools` alpha, beta of its tools alpha, beta,\n", confInclude)
	p("gamma; `autoApprove` alpha; `startupTimeout` %d, `toolTimeout` %d) and `%s` (`excludeTools` gamma) must\n", confStartup, confToolTimeout, confExclude)
	p("offer exactly alpha and beta, where the client reports tools offline; `%s` is an http server the\n", confRemote)
	p("harness runs on loopback inside each check's network namespace, which refuses any request without\n")
	p("`Authorization: Bearer <value of CONF_TOKEN>`: the MCP file says `Bearer ${CONF_TOKEN}`, the value is\n")
	p("only in the client's environment, so the server connects only if the client expanded the reference.\n")
	p("Rows that need a report a client cannot give offline are left out for that client.\n\n")
	p("| expectation | verdict | detail |\n|---|---|---|\n")
	for _, res := range run.Results {
		for _, row := range res.settingRows(run.Sandbox.isolated()) {
			p("| %s · %s | **%s** | %s |\n", expectationName(res), row.what, row.verdict, md(row.detail))
		}
	}

	p("\n## Clients that cannot report here\n\n")
	p("Tried, and not checked: each could not be made to say offline which servers it loads.\n\n")
	p("| client | package | why |\n|---|---|---|\n")
	for _, u := range notChecked {
		p("| %s | %s | %s |\n", u.name, u.pkg, md(u.why))
	}

	p("\n## Servers\n\n")
	p("`fetch` and `github` are the example user's own servers (`uvx`/`npx`, which need the network):\n")
	p("listed, never counted. Scope is the client's own attribution where it gives one (Claude `mcp get`,\n")
	p("Codex config layers, Copilot source), else the check's construction (empty HOME for project checks).\n\n")
	p("| client | version | scope | server | status | detail |\n|---|---|---|---|---|---|\n")
	for _, res := range run.Results {
		for _, rec := range res.Records {
			p("| %s | %s | %s | %s | %s | %s |\n", rec.Client, rec.Version, rec.Scope, rec.Server, rec.Status, md(rec.Detail))
		}
	}

	p("\n## Files the clients rewrote\n\n")
	p("Project files are restored after each client; a check's private HOME is left as the client wrote it.\n\n")
	n := 0
	for _, res := range run.Results {
		for _, ch := range res.Changes {
			n++
			where := "restored"
			if strings.HasPrefix(ch.Path, "~/") {
				where = "in the private HOME"
			}
			p("- **%s** (%s check) %s `%s` (%s)", ch.Client, ch.Scope, ch.Kind, ch.Path, where)
			if len(ch.Lines) > 0 {
				p(": `%s`", strings.ReplaceAll(strings.Join(ch.Lines, "`; `"), "|", "\\|"))
			}
			p(". `%s` on the rewritten file: %s.\n", ch.RepoCmd, md(ch.RepoCheck))
		}
	}
	if n == 0 {
		p("None.\n")
	}

	p("\n## repo sync\n\n")
	for _, s := range ws.Syncs {
		cmd := "repo " + strings.Join(s.Args, " ")
		if len(s.Args) > 0 && strings.HasSuffix(s.Args[0], ".sh") {
			cmd = strings.Join(s.Args, " ")
		}
		switch {
		case s.Code == 0 && s.Args[0] == "trust":
			p("- %s — `%s`: ok\n", s.Label, cmd)
		case s.Code == 0:
			p("- %s — `%s`: ok, wrote %d file(s)\n", s.Label, cmd, len(s.Wrote))
		case s.Untrusted && s.Code == 3:
			p("- %s — `%s`: exit 3 as expected, wrote %d file(s): %s\n", s.Label, cmd, len(s.Wrote), md(s.reason()))
		default:
			p("- %s — `%s`: **exit %d**: %s\n", s.Label, cmd, s.Code, md(s.reason()))
		}
	}

	notes := false
	for _, res := range run.Results {
		if len(res.Notes) == 0 {
			continue
		}
		if !notes {
			p("\n## Client diagnostics\n\n")
			notes = true
		}
		for _, note := range res.Notes {
			p("- %s %s: %s\n", res.client.ID(), scopeLabel(res), md(note))
		}
	}

	// For a failed check: the file repo wrote and what the client said.
	first := true
	for _, res := range run.Results {
		if res.passed(run.Sandbox.isolated()) || res.SyncErr != "" {
			continue
		}
		if first {
			p("\n## Failures in detail\n")
			first = false
		}
		v, _ := res.Verdict()
		p("\n### %s: %s\n\n", expectationName(res), v)
		if res.Err != nil {
			p("Harness: %s\n\n", md(res.Err.Error()))
		}
		files := ws.written(res.checkSpec)
		for _, rel := range res.client.Files(res.scope) {
			b, ok := files[rel]
			if !ok {
				continue
			}
			where := rel
			if res.scope != ScopeProject {
				where = "~/" + rel + " (private HOME)"
			}
			p("File repo wrote, `%s`:\n\n```%s\n%s\n```\n\n", where, fence(rel), strings.TrimRight(string(b), "\n"))
		}
		out := tail(res.Output, 40)
		if strings.TrimSpace(out) == "" {
			out = "(no output)"
		}
		p("Client output (last lines):\n\n```\n%s\n```\n", out)
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}

func fence(p string) string {
	switch filepath.Ext(p) {
	case ".json":
		return "json"
	case ".jsonc":
		return "jsonc"
	case ".toml":
		return "toml"
	case ".yaml", ".yml":
		return "yaml"
	}
	return ""
}

func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(clean(s), "\n"), "\n")
	if len(lines) > n {
		lines = append([]string{"…"}, lines[len(lines)-n:]...)
	}
	return strings.ReplaceAll(strings.Join(lines, "\n"), "```", "'''")
}

// md makes s safe inside a markdown table cell.
func md(s string) string {
	return strings.NewReplacer("|", "\\|", "\n", " ").Replace(s)
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

// notChecked lists the clients (with a profile in the catalog) that the harness does not check,
// and why: what was tried, or that there is nothing to install from npm.
var notChecked = []struct{ name, pkg, why string }{
	{"Crush", "`@charmland/crush` 0.96.1", "its npm install script downloads the binary from GitHub releases, which this machine cannot reach; the Go module proxy refuses github.com/charmbracelet/crush (403), and Debian has no crush package"},
	{"Devin CLI / Devin Desktop", "—", "not on npm (installed by Cognition's script or app)"},
	{"Kimi Code CLI", "—", "not on npm (installed by Moonshot's script or uv; kimi-code on npm is an unrelated wrapper)"},
	{"Atlassian Rovo Dev CLI", "—", "not on npm (part of Atlassian's acli)"},
	{"Tabnine agent CLI", "—", "not on npm (installed by Tabnine into ~/.local/bin)"},
	{"Goose CLI", "—", "a Rust binary from GitHub releases (block/goose, aaif-goose/goose), not on npm or Debian; goose-cli on npm and github.com/pressly/goose on the Go proxy are unrelated database-migration tools (tried 2026-11-26)"},
	{"Cursor CLI (cursor-agent)", "—", "installed by Cursor's own script from cursor.com, not on npm or Debian (the npm packages named after it are third-party ACP adapters, which need the CLI itself; tried 2026-11-26)"},
	{"Zed", "—", "an editor distributed by zed.dev, not on npm or Debian; the @zed-industries packages on npm are ACP agent adapters, not Zed (tried 2026-11-26)"},
	{"Warp, Windsurf/Devin Desktop, Claude Desktop, JetBrains Air, Abacus.AI Desktop, Trae, LM Studio, Antigravity", "—", "desktop apps or CLIs distributed outside npm"},
}
