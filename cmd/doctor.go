package cmd

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/repo-manager/repo/extensions"
	"github.com/repo-manager/repo/internal/gittrack"
	"github.com/repo-manager/repo/internal/plan"
	toolsel "github.com/repo-manager/repo/internal/selection"
	"github.com/repo-manager/repo/internal/serverpaths"
	"github.com/repo-manager/repo/internal/shellquote"
	"github.com/repo-manager/repo/internal/target"
	"github.com/repo-manager/repo/internal/teampolicy"
	"github.com/repo-manager/repo/internal/termtext"
	"github.com/repo-manager/repo/internal/trust"
	"github.com/repo-manager/repo/internal/trustgate"
	"github.com/repo-manager/repo/toolprofiles"
	"github.com/repo-manager/repo/toolprofiles/gates"
)

// DoctorOptions are the flags of repo doctor.
type DoctorOptions struct {
	F      *Factory
	Root   string
	Tools  []string
	Scope  string
	Output string
	Exec   bool
	// Strict exits 1 on advice and warnings too, not only on failures.
	Strict bool
	// Quiet prints only the findings that need attention; Verbose adds
	// the tool selection.
	Quiet, Verbose bool
}

func newDoctorCmd(f *Factory, runF func(*DoctorOptions) error) *cobra.Command {
	opts := &DoctorOptions{F: f}
	cmd := &cobra.Command{
		Use:   "doctor",
		Short: "Check that every tool can actually start the extensions' MCP servers",
		Long: `Check what a written config cannot guarantee: that each server's command
exists (a venv's pyvenv.cfg names an existing Python, its python leads to an
executable file; a bare name is on PATH), that the scripts and workspace
paths its arguments name exist, that every tool the server is written to
accepts its name, that no MCP file git tracks holds a literal credential
(project scope: every tool's project file, each entry, field by field),
and what you must still do before each selected
tool starts project servers (Claude Code, Qwen and Amp approval, Codex,
Gemini and Copilot folder trust, Zed's trust-all setting, and the steps repo
cannot check: Zed worktree trust, Cursor CLI approval, Warp's and Trae's
switches, Kimi and Tabnine trust), with the exact command or setting. Those
steps are checked only for tools this machine has (their own folder in your
home folder, or their executable on PATH; see repo tools): the others are
named once, as not installed. OpenCode starts project servers without an
approval. Where a tool's file depends on its installation (Claude Desktop's
MSIX package on Windows), it says which file and why. Folder variables repo
ignored for holding a relative path are reported too. For the project scope
it says which team policy is in force and why (repo sync --help), and names
each file the policy makes per-clone that git still tracks (with the git rm
--cached that untracks it) and each settings file git tracks, into which
repo writes no servers (with where they can go instead).

doctor runs nothing the workspace ships, so it is safe in a fresh clone of
someone else's repository. --exec also runs each venv python with an empty
program (python -c ''), which finds what reading cannot (a missing shared
library), for the servers you trusted (repo trust) only; a venv that git
tracks fails and is never run (a real venv is made on each machine).

The advice is per server and bound to what you approve: approve each server
by name after reading it (Claude Code's enabledMcpjsonServers, amp mcp
approve NAME, qwen mcp approve NAME), never every server at once; a blanket
approval in place is advice too. Where a tool binds an approval to the name
(Claude Code), doctor says when the server changed after you approved it.

Tools are selected as for repo sync. One line per finding on stdout:
  <level> <server, tool or variable>: <what> — <fix>
Levels: fail, a server cannot start (a missing venv, command or script, a
name a tool rejects) or a committed MCP file holds a literal credential
(named by file, line, entry and field, never its value); advice, a step in a tool (approve, trust, switch on);
warn, something doctor cannot check; ok, nothing to do.
Exit codes: 0 nothing fails (advice and warnings are shown), 1 something
fails (with --strict: or any advice or warning), 2 error.`,
		Example: `  $ repo doctor
  $ repo doctor --tool claude,codex
  $ repo doctor --exec             # also run each venv python
  $ repo doctor --strict           # exit 1 on advice and warnings too (CI)
  $ repo doctor --output json`,
		Args: noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if err := checkScope(opts.Scope); err != nil {
				return err
			}
			if err := checkOutput(opts.Output); err != nil {
				return err
			}
			if err := checkToolFlag(c, opts.Tools); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return doctorRun(opts)
		},
	}
	addToolFlag(cmd, f, &opts.Tools, "tool id to check (repeatable or comma-separated; see repo tools)")
	addScopeFlag(cmd, &opts.Scope)
	addRootFlag(cmd, &opts.Root)
	addOutputFlag(cmd, &opts.Output)
	addVerbosityFlags(cmd, &opts.Quiet, &opts.Verbose, "print only the findings that need attention", "also print which tools were selected, and why")
	cmd.Flags().BoolVar(&opts.Exec, "exec", false, "also run the venv python (python -c '') of each server you trusted (repo trust): this executes files the workspace ships")
	cmd.Flags().BoolVar(&opts.Strict, "strict", false, "exit 1 on advice and warnings too, not only on failures")
	return cmd
}

// Finding levels. Only fail makes doctor exit 1 (and, with --strict,
// advice and warn too).
type level string

const (
	levelOK     level = "ok"
	levelAdvice level = "advice" // a step in a tool: until the user takes it, that tool does not start the server
	levelWarn   level = "warn"   // something doctor cannot check, which may keep the server from starting
	levelFail   level = "fail"   // the server cannot start
)

// finding is one result of repo doctor. Server or Tool (or both) say what
// it is about; Fix is the exact command or setting, empty when ok.
type finding struct {
	Level   level  `json:"level"`
	Server  string `json:"server"`
	Tool    string `json:"tool"`
	Check   string `json:"check"` // environment, command, venv, script, name, approval, trust, toggle, file, installed
	Message string `json:"message"`
	Fix     string `json:"fix"`
	// Variable is the environment variable of an environment finding.
	Variable string `json:"variable,omitempty"`
	// Path is the project file of a tracked finding.
	Path string `json:"path,omitempty"`
}

// doctorReport is the --output json document of repo doctor (version 1).
type doctorReport struct {
	Version  int       `json:"version"`
	Root     string    `json:"root"`
	Scope    string    `json:"scope"`
	Exec     bool      `json:"exec"` // venv pythons were run (--exec)
	Tools    []string  `json:"tools"`
	Findings []finding `json:"findings"`
}

// pythonTimeout bounds the venv python's empty run under --exec (-c with
// an empty program): a python that hangs is broken.
const pythonTimeout = 5 * time.Second

func doctorRun(opts *DoctorOptions) error {
	f := opts.F
	w, err := f.load(opts.Root)
	if err != nil {
		return err
	}
	sel, err := selectTools(w, opts.Tools, opts.Scope)
	if err != nil {
		return err
	}
	pol, err := loadPolicy(w, nil, nil)
	if err != nil {
		return err
	}
	targets, _, err := target.Build(w.WS.Servers, sel.Profiles, target.Scope(opts.Scope), w.Env)
	if err != nil {
		return err
	}
	d := &doctor{f: f, w: w, exec: opts.Exec, defs: trustgate.Definitions(w)}
	if err := d.trackedVenvs(); err != nil {
		return err
	}
	rep := doctorReport{Version: 1, Root: w.Root, Scope: opts.Scope, Exec: opts.Exec, Tools: []string{}, Findings: []finding{}}
	for _, p := range sel.Profiles {
		rep.Tools = append(rep.Tools, p.ID)
	}
	fds, err := d.findings(opts, pol, sel, targets)
	if err != nil {
		return err
	}
	rep.Findings = append(rep.Findings, fds...)

	count := map[level]int{}
	secrets := 0 // the failures that are literal credentials in committed files
	for _, fd := range rep.Findings {
		count[fd.Level]++
		if fd.Level == levelFail && fd.Check == "secret" {
			secrets++
		}
	}
	if opts.Output == "json" {
		if err := writeJSON(f, rep); err != nil {
			return err
		}
	} else {
		printDoctor(f, opts, w, sel, rep.Findings, doctorSummary(count, secrets, opts.Strict))
	}
	if count[levelFail] > 0 || (opts.Strict && count[levelAdvice]+count[levelWarn] > 0) {
		return errStale // exit 1, nothing more to print
	}
	return nil
}

// findings runs every check of repo doctor, in the order they are
// printed: the environment, the team policy, each server, the committed
// files' credentials, then each selected tool's file and steps.
func (d *doctor) findings(opts *DoctorOptions, pol policy, sel *selection, targets []*target.Target) ([]finding, error) {
	var out []finding
	for _, v := range d.f.host().IgnoredVars(d.w.Env, sel.Profiles, opts.Scope, gates.Files(sel.Profiles, opts.Scope)) {
		out = append(out, finding{Level: levelWarn, Check: "environment", Variable: v.Name,
			Message: v.Message() + "; " + v.Consequence(),
			Fix:     v.Fix()})
	}
	if opts.Scope == toolprofiles.ScopeProject && len(d.w.WS.Servers) > 0 {
		fds, err := d.policy(pol, sel, targets, opts.Root)
		if err != nil {
			return nil, err
		}
		out = append(out, fds...)
	}
	for _, s := range d.w.WS.Servers {
		out = append(out, d.command(s))
		out = append(out, d.scripts(s)...)
		out = append(out, d.names(s, targets)...)
	}
	if opts.Scope == toolprofiles.ScopeProject {
		out = append(out, d.committedSecrets()...)
	}
	for _, p := range sel.Profiles {
		names := writtenFor(p.ID, targets)
		if fd, ok := d.file(p, opts.Scope, names); ok {
			out = append(out, fd)
		}
		out = append(out, d.toolSteps(p, opts.Scope, names, entriesFor(p.ID, targets))...)
	}
	return out, nil
}

// printDoctor prints the text form of the findings: one line each on
// stdout (with --quiet, only those that need attention), then on stderr
// why there may be none, and the summary line.
func printDoctor(f *Factory, opts *DoctorOptions, w *workspace, sel *selection, findings []finding, summary string) {
	if opts.Verbose {
		fmt.Fprintln(f.IO.ErrOut, sel.Describe())
		for _, n := range sel.Notes {
			fmt.Fprintf(f.IO.ErrOut, "%s %s\n", f.paint(f.IO.ErrOut, yellow, "warning:"), n)
		}
	}
	for _, fd := range findings {
		if opts.Quiet && fd.Level == levelOK {
			continue
		}
		fmt.Fprintln(f.IO.Out, fd.line(func(code, s string) string { return f.paint(f.IO.Out, code, s) }))
	}
	switch {
	case len(w.WS.Servers) == 0:
		fmt.Fprintln(f.IO.ErrOut, "no extension declares an MCP server")
	case len(sel.Profiles) == 0:
		fmt.Fprintln(f.IO.ErrOut, "repo: "+strings.Replace(sel.None(), "no tools to write", "no tools selected", 1))
	}
	if summary != "" && !opts.Quiet {
		fmt.Fprintln(f.IO.ErrOut, summary)
	}
}

// doctorSummary is the closing line on stderr: how many findings fail
// (secrets of them for a literal credential in a committed file), and how
// many are advice or warnings, which fail only with --strict.
func doctorSummary(count map[level]int, secrets int, strict bool) string {
	why := "a server cannot start"
	switch secrets {
	case 0:
	case count[levelFail]:
		why = "a committed file holds a literal credential"
	default:
		why = "a server cannot start, and a committed file holds a literal credential"
	}
	var rest []string
	if n := count[levelAdvice]; n > 0 {
		rest = append(rest, fmt.Sprintf("%d advice", n))
	}
	if n := count[levelWarn]; n > 0 {
		rest = append(rest, fmt.Sprintf("%d warning(s)", n))
	}
	switch {
	case count[levelFail] > 0 && len(rest) > 0:
		return fmt.Sprintf("%d failure(s): %s; and %s", count[levelFail], why, strings.Join(rest, ", "))
	case count[levelFail] > 0:
		return fmt.Sprintf("%d failure(s): %s", count[levelFail], why)
	case len(rest) > 0 && strict:
		return fmt.Sprintf("nothing fails, but %s (--strict)", strings.Join(rest, ", "))
	case len(rest) > 0:
		return fmt.Sprintf("nothing fails; %s", strings.Join(rest, ", "))
	}
	return ""
}

// line is the text form of a finding, its level painted green, yellow or
// red when colour is on.
func (fd finding) line(paint func(code, s string) string) string {
	who := fd.Server
	if who == "" {
		who = fd.Tool
	}
	if who == "" {
		who = fd.Variable
	}
	if who == "" {
		who = fd.Path
	}
	if who == "" {
		who = fd.Check
	}
	color := map[level]string{levelOK: green, levelAdvice: cyan, levelWarn: yellow, levelFail: red}[fd.Level]
	label := paint(color, string(fd.Level)) + strings.Repeat(" ", max(0, 4-len(fd.Level)))
	s := fmt.Sprintf("%s %s: %s", label, termtext.Safe(who), fd.Message)
	if fd.Fix != "" {
		s += " — " + fd.Fix
	}
	return s
}

type doctor struct {
	f    *Factory
	w    *workspace
	exec bool // run each venv python (--exec)
	// tracked are the extensions' venvs that git tracks, by path.
	tracked map[string]bool
	defs    map[string]trust.Definition
	// store is the trust store, opened when first needed (storeErr: why
	// it cannot be).
	store    *trust.Store
	storeErr error
	opened   bool
}

// policy says which team policy is in force and why (ok), and what git
// tracks that the policy makes per-clone (root: --root, for the command): a file to untrack (warn: its
// tools read another clone's paths) or a settings file repo writes no
// servers into (advice: where the servers can go instead).
func (d *doctor) policy(pol policy, sel *selection, targets []*target.Target, root string) ([]finding, error) {
	out := []finding{{Level: levelOK, Check: "policy", Message: strings.TrimPrefix(pol.Describe(sel.Profiles), "policy: ")}}
	if !pol.Gitignore {
		return out, nil
	}
	if err := plan.MarkTracked(d.w.Env, targets); err != nil {
		return nil, err
	}
	for _, tf := range plan.TrackedFiles(targets) {
		what, fix := teampolicy.TrackedNote(tf, d.w.Profiles, root)
		fd := finding{Level: levelWarn, Check: "tracked", Path: tf.Display, Message: what, Fix: fix}
		if tf.Settings {
			fd.Level = levelAdvice
		}
		out = append(out, fd)
	}
	return out, nil
}

// trust opens the trust store once.
func (d *doctor) trust() (*trust.Store, error) {
	if !d.opened {
		d.store, d.storeErr = openTrust(d.w)
		d.opened = true
	}
	return d.store, d.storeErr
}

// trackedVenvs asks git, once, which of the extensions' venvs it tracks.
func (d *doctor) trackedVenvs() error {
	top, ok := gittrack.Top(d.w.Root)
	if !ok {
		return nil
	}
	var venvs []string
	for _, ext := range d.w.WS.Extensions {
		if _, err := os.Lstat(ext.Venv); err == nil {
			venvs = append(venvs, ext.Venv)
		}
	}
	if len(venvs) == 0 {
		return nil
	}
	var err error
	d.tracked, err = gittrack.Tracked(top, venvs)
	return err
}

// show is a path as a finding prints it: shown from the root or ~, and
// escaped (termtext.Safe). A path in a command to paste is given to
// shellquote.Join as display has it.
func (d *doctor) show(p string) string { return termtext.Safe(d.display(p)) }

func (d *doctor) display(p string) string { return d.w.Env.Display(p) }

func (d *doctor) extension(name string) *extensions.Extension { return d.w.Extension(name) }

// command checks that a stdio server's command can start: a venv python
// exists and runs, an absolute path is an executable file, a bare name is
// on PATH.
func (d *doctor) command(s extensions.Server) finding {
	fd := finding{Server: s.Name, Check: "command", Level: levelOK}
	if s.Remote() {
		fd.Message = fmt.Sprintf("%s server at %s (doctor makes no network calls)", s.Transport, termtext.Safe(s.URL))
		return fd
	}
	cmd := s.Command
	where := fmt.Sprintf("%s:%d", termtext.Safe(s.Source), s.Line)
	switch {
	case strings.Contains(cmd, "${"):
		fd.Level = levelWarn
		fd.Message = fmt.Sprintf("command %q holds an environment reference, which each tool expands; doctor cannot check it", cmd)
		fd.Fix = "make sure the variable is set where the tools start, or use a <<template>> in " + where
		return fd
	case filepath.IsAbs(cmd):
		if ext := d.extension(s.Extension); ext != nil && serverpaths.Under(ext.Venv, cmd) {
			return d.venvPython(fd, s, ext, cmd)
		}
		return d.executable(fd, cmd, "install it, or fix the command in "+where)
	case strings.ContainsAny(cmd, `/\`):
		// Resolution writes a relative command that exists absolute: this
		// one is not in the server's folder, or that folder is the tool's
		// to expand (a cwd holding an environment reference).
		for _, m := range serverpaths.Find(s, d.extension(s.Extension), d.w.Root, d.show) {
			if m.Field == "command" {
				fd.Level, fd.Message, fd.Fix = levelFail, m.What, m.Fix
				return fd
			}
		}
		fd.Level = levelWarn
		fd.Message = fmt.Sprintf("command %q is relative to cwd %q, which each tool expands; doctor cannot check it", cmd, s.Cwd)
		fd.Fix = fmt.Sprintf("make sure it is there where the tools start, or write <<extension.dir>>/%s in %s", termtext.Safe(filepath.ToSlash(filepath.Clean(cmd))), where)
		return fd
	}
	path, err := exec.LookPath(cmd)
	if err != nil {
		fd.Level = levelFail
		fd.Message = fmt.Sprintf("command %q is not on PATH", cmd)
		fd.Fix = fmt.Sprintf("install %s, or put its folder on the PATH the tools start with", termtext.Safe(cmd))
		return fd
	}
	fd.Message = fmt.Sprintf("command %s is on PATH (%s)", termtext.Safe(cmd), d.show(path))
	return fd
}

// scripts fails each script or path a server's arguments name that does
// not exist (see missingPaths); the command has its own finding.
func (d *doctor) scripts(s extensions.Server) []finding {
	ext := d.extension(s.Extension)
	var out []finding
	for _, m := range serverpaths.Find(s, ext, d.w.Root, d.show) {
		if m.Field == "command" || (m.Check == "venv" && serverpaths.Under(ext.Venv, s.Command)) {
			continue // said by the command's finding
		}
		fd := finding{Level: levelFail, Server: s.Name, Check: m.Check, Message: m.What, Fix: m.Fix}
		if m.Check == "venv" {
			fd.Fix = d.venvFix(ext, false)
		}
		out = append(out, fd)
	}
	return out
}

// executable checks an absolute command path.
func (d *doctor) executable(fd finding, cmd, missingFix string) finding {
	fi, err := os.Stat(cmd)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		fd.Level = levelFail
		fd.Message = fmt.Sprintf("command %s does not exist", d.show(cmd))
		fd.Fix = missingFix
	case err != nil:
		fd.Level = levelFail
		fd.Message = fmt.Sprintf("command %s: %v", d.show(cmd), unwrapPathError(err))
		fd.Fix = missingFix
	case fi.IsDir():
		fd.Level = levelFail
		fd.Message = fmt.Sprintf("command %s is a folder", d.show(cmd))
		fd.Fix = missingFix
	case d.f.GOOS != "windows" && fi.Mode().Perm()&0o111 == 0:
		fd.Level = levelFail
		fd.Message = fmt.Sprintf("command %s is not executable", d.show(cmd))
		fd.Fix = "chmod +x " + shellquote.Join([]string{d.display(cmd)})
	default:
		fd.Message = fmt.Sprintf("command %s is executable", d.show(cmd))
	}
	return fd
}

// venvPython checks a command inside the extension's venv. By default it
// runs nothing the workspace ships: the venv must exist, its pyvenv.cfg
// name an existing home, its python lead to an executable file (see
// inspectVenv), and the command, when it is not that python, be an
// executable file. With --exec the venv python also runs an empty program
// (-c with an empty program), which catches what reading cannot: a missing
// shared library, a home whose Python is another version now.
func (d *doctor) venvPython(fd finding, s extensions.Server, ext *extensions.Extension, cmd string) finding {
	if _, err := os.Stat(ext.Venv); errors.Is(err, fs.ErrNotExist) {
		fd.Check = "venv"
		fd.Level = levelFail
		fd.Message = fmt.Sprintf("venv %s does not exist (command %s)", d.show(ext.Venv), d.show(cmd))
		fd.Fix = d.venvFix(ext, false)
		return fd
	}
	if d.tracked[ext.Venv] {
		// A venv is made on each machine from the Python there; one that
		// a commit holds is whatever the commit put in it.
		fd.Check = "venv"
		fd.Level = levelFail
		fd.Message = fmt.Sprintf("venv %s is committed: git tracks files in it, and a real venv is made on each machine, never committed (its python is whatever a commit put there); not run", d.show(ext.Venv))
		fd.Fix = fmt.Sprintf("git rm -r --cached %s, list it in .gitignore, and make it on this machine: %s",
			shellquote.Join([]string{d.show(ext.Venv)}), d.venvFix(ext, true))
		return fd
	}
	st := inspectVenv(ext, d.f.GOOS, d.show)
	if st.problem != "" {
		fd.Check = "venv"
		fd.Level = levelFail
		fd.Message = st.problem
		fd.Fix = d.venvFix(ext, true)
		return fd
	}
	if cmd != ext.Python {
		return d.executable(fd, cmd, d.venvFix(ext, true))
	}
	if !d.exec {
		fd.Message = fmt.Sprintf("venv python %s%s is in place (pyvenv.cfg home %s); not run: repo doctor --exec runs it", d.show(cmd), arrow(cmd, st.target, d.show), d.show(st.home))
		return fd
	}
	// --exec runs a file of the workspace's: only for a server the user
	// trusts, as it is now.
	store, err := d.trust()
	if err != nil {
		fd.Level = levelWarn
		fd.Message = fmt.Sprintf("venv python %s is in place; not run: %v", d.show(cmd), err)
		fd.Fix = "fix the trust store, then run repo doctor --exec again"
		return fd
	}
	if status, _ := store.Check(s.Name, d.defs[s.Name]); status != trust.Trusted {
		fd.Level = levelWarn
		fd.Message = fmt.Sprintf("venv python %s%s is in place (pyvenv.cfg home %s); not run: the server is %s on this machine, and --exec runs only what you trusted",
			d.show(cmd), arrow(cmd, st.target, d.show), d.show(st.home), map[trust.Status]string{trust.New: "not trusted", trust.Changed: "changed since you trusted it"}[status])
		fd.Fix = "review it with repo trust " + shellquote.Join([]string{s.Name}) + ", then run repo doctor --exec again"
		return fd
	}
	ctx, cancel := context.WithTimeout(context.Background(), pythonTimeout)
	defer cancel()
	c := exec.CommandContext(ctx, cmd, "-c", "")
	c.Dir = d.w.Root
	c.WaitDelay = time.Second
	out, err := c.CombinedOutput()
	if err != nil {
		why := err.Error()
		if ctx.Err() != nil {
			why = fmt.Sprintf("did not finish within %s", pythonTimeout)
		} else if first, _, _ := strings.Cut(strings.TrimSpace(string(out)), "\n"); first != "" {
			why = first
		}
		fd.Check = "venv"
		fd.Level = levelFail
		// why is what the workspace's python printed.
		fd.Message = fmt.Sprintf("%s -c '' fails: %s", d.show(cmd), termtext.Safe(why))
		fd.Fix = d.venvFix(ext, true)
		return fd
	}
	fd.Message = fmt.Sprintf("venv python %s runs", d.show(cmd))
	return fd
}

// venvFix is the exact way to (re)create an extension's venv and install
// what the extension needs into it.
func (d *doctor) venvFix(ext *extensions.Extension, recreate bool) string {
	create := "python3 -m venv " + shellquote.Join([]string{d.display(ext.Venv)})
	if recreate {
		create = "python3 -m venv --clear " + shellquote.Join([]string{d.display(ext.Venv)})
	}
	py := shellquote.Join([]string{d.display(ext.Python)})
	exists := func(name string) bool {
		_, err := os.Stat(filepath.Join(ext.Dir, name))
		return err == nil
	}
	switch {
	case exists("requirements.txt"):
		return fmt.Sprintf("%s, then %s -m pip install -r %s", create, py, shellquote.Join([]string{d.display(filepath.Join(ext.Dir, "requirements.txt"))}))
	case exists("pyproject.toml"), exists("setup.py"):
		return fmt.Sprintf("%s, then %s -m pip install %s", create, py, shellquote.Join([]string{d.display(ext.Dir)}))
	case exists("README.md"):
		return fmt.Sprintf("%s, then install the extension's requirements into it (see %s)", create, d.show(filepath.Join(ext.Dir, "README.md")))
	}
	return create + ", then install the extension's requirements into it"
}

// names checks the server's name against every tool it is written to that
// restricts names (profile entry.name_pattern).
func (d *doctor) names(s extensions.Server, targets []*target.Target) []finding {
	var accepted []string
	var out []finding
	for _, tg := range targets {
		if !slices.ContainsFunc(tg.Entries, func(e target.Desired) bool { return e.Name == s.Name }) {
			continue
		}
		for _, id := range tg.Tools {
			p := d.w.Profiles.ForScope(string(tg.Scope)).Get(id)
			if p == nil || p.Entry.NamePattern == "" || slices.Contains(accepted, id) {
				continue
			}
			if p.Entry.AcceptsName(s.Name) {
				accepted = append(accepted, id)
				continue
			}
			out = append(out, finding{Level: levelFail, Server: s.Name, Tool: id, Check: "name",
				Message: fmt.Sprintf("%s does not accept this name (names must match %s), so it will not start the server", p.Name, p.Entry.NamePattern),
				Fix:     fmt.Sprintf("rename the server in %s:%d", termtext.Safe(s.Source), s.Line)})
		}
	}
	if len(out) == 0 && len(accepted) > 0 {
		out = append(out, finding{Level: levelOK, Server: s.Name, Check: "name",
			Message: "name accepted by " + strings.Join(accepted, ", ")})
	}
	return out
}

// file says which file a tool's scope resolves to where that depends on the
// installation (Claude Desktop's MSIX package on Windows), so that a user
// can see why repo wrote there and not where the tool's old docs point.
func (d *doctor) file(p *toolprofiles.Profile, scope string, names []string) (finding, bool) {
	t := p.Scopes.Get(scope)
	if t == nil || len(names) == 0 || !slices.ContainsFunc(t.Installs, func(in toolprofiles.Install) bool { return in.OS == d.w.Env.GOOS }) {
		return finding{}, false
	}
	c, err := target.Choose(t, d.w.Env)
	if err != nil {
		return finding{Level: levelWarn, Tool: p.ID, Check: "file", Message: termtext.Safe(err.Error()),
			Fix: "make the folder readable, or select the tool's scope with --scope"}, true
	}
	return finding{Level: levelOK, Tool: p.ID, Check: "file",
		Message: fmt.Sprintf("%s reads %s: %s", p.Name, d.show(c.Path), termtext.Safe(c.Reason))}, true
}

// toolSteps reports what the user must still do in a tool before it starts
// the servers written for it: its gate (package gates), checked, and its
// profile's advice. They concern the tool on this machine, so for a tool
// that is not here (none of its folders in the home folder, none of its
// executables on PATH) one ok finding says they were skipped. A profile
// that names nothing to look for gets them all.
func (d *doctor) toolSteps(p *toolprofiles.Profile, scope string, names []string, entries []target.Desired) []finding {
	if len(names) == 0 {
		return nil
	}
	g, hasGate := gates.For(p, scope)
	advice := p.AdviceFor(scope)
	if !hasGate && len(advice) == 0 {
		return nil
	}
	if ev := toolsel.OnMachine(p, d.w.Env.Env, d.show); ev.Known && !ev.Installed() {
		var kinds []string
		if hasGate {
			kinds = append(kinds, stepName(g.Kind))
		}
		for _, a := range advice {
			kinds = appendUnique(kinds, stepName(a.Check))
		}
		verb := "is"
		if len(kinds) > 1 || kinds[0] == "switches" {
			verb = "are"
		}
		return []finding{{Level: levelOK, Tool: p.ID, Check: "installed",
			Message: fmt.Sprintf("%s is not on this machine (%s), so its %s %s not checked", p.Name, ev.Absent(), andList(kinds), verb)}}
	}
	var out []finding
	if hasGate {
		c := gates.Context{Root: d.w.Root, Profile: p, Env: d.w.Env.Env, Show: d.show}
		for _, e := range entries {
			c.Entries = append(c.Entries, gates.Entry{Name: e.Name, Value: e.Value})
		}
		st := g.Check(c)
		fd := finding{Level: levelOK, Tool: p.ID, Check: g.Kind, Message: st.Msg}
		switch {
		case st.Unreadable:
			fd.Level = levelWarn
			fd.Fix = "make that file readable and valid; the step itself: " + st.Fix
		case !st.OK:
			fd.Level = levelAdvice
			fd.Fix = st.Fix
		}
		out = append(out, fd)
		out = append(out, d.outdatedApprovals(p, st.ByName)...)
	}
	return append(out, d.advice(p, scope, names)...)
}

// stepName names a kind of gate or advice in a sentence.
func stepName(kind string) string {
	switch kind {
	case gates.Approval:
		return "approval"
	case gates.Trust:
		return "folder trust"
	case "toggle":
		return "switches"
	case "name":
		return "name advice"
	}
	return ""
}

// andList joins "a", "b", "c" as "a, b and c".
func andList(items []string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}

// advice reports what the profile says a user must still do in the tool
// itself (turn project servers on, approve them, trust the folder), which
// repo can neither do nor check; a name advice concerns only the servers
// whose name some command of the tool rejects.
func (d *doctor) advice(p *toolprofiles.Profile, scope string, names []string) []finding {
	if len(names) == 0 {
		return nil
	}
	var out []finding
	for _, a := range p.AdviceFor(scope) {
		if a.Check != "name" {
			out = append(out, finding{Level: levelAdvice, Tool: p.ID, Check: a.Check,
				Message: fmt.Sprintf("%s: %s", a.Message, strings.Join(names, ", ")), Fix: a.Fix})
			continue
		}
		for _, n := range names {
			if a.Concerns(n) {
				out = append(out, finding{Level: levelAdvice, Server: n, Tool: p.ID, Check: "name",
					Message: a.Message, Fix: a.Fix})
			}
		}
	}
	return out
}

// entriesFor lists the entries written for a tool, in file order, each
// once.
func entriesFor(id string, targets []*target.Target) []target.Desired {
	var out []target.Desired
	for _, tg := range targets {
		if !slices.Contains(tg.Tools, id) {
			continue
		}
		for _, e := range tg.Entries {
			if !slices.ContainsFunc(out, func(o target.Desired) bool { return o.Name == e.Name }) {
				out = append(out, e)
			}
		}
	}
	return out
}

// writtenFor lists the servers written for a tool, in file order.
func writtenFor(id string, targets []*target.Target) []string {
	var names []string
	for _, tg := range targets {
		if !slices.Contains(tg.Tools, id) {
			continue
		}
		for _, e := range tg.Entries {
			if !slices.Contains(names, e.Name) {
				names = append(names, e.Name)
			}
		}
	}
	return names
}

// outdatedApprovals reports the servers a tool approved by name (Claude
// Code) whose definition changed after the approval, as repo sync saw
// when it wrote the change: the tool starts the new definition under the
// old approval. A server the user has trusted as it is now (repo trust)
// has been looked at since.
func (d *doctor) outdatedApprovals(p *toolprofiles.Profile, byName []string) []finding {
	if len(byName) == 0 {
		return nil
	}
	store, err := d.trust()
	if err != nil {
		return []finding{{Level: levelWarn, Tool: p.ID, Check: "approval",
			Message: "doctor cannot tell whether a server changed after it was approved: " + err.Error(), Fix: "fix the trust store"}}
	}
	var out []finding
	for _, name := range byName {
		approved := store.Approved[p.ID][name]
		s := d.w.Server(name)
		if approved == "" || s == nil || approved == trust.Define(*s, nil).Digest() {
			continue
		}
		if status, _ := store.Check(name, d.defs[name]); status == trust.Trusted {
			continue
		}
		out = append(out, finding{Level: levelAdvice, Server: name, Tool: p.ID, Check: "approval",
			Message: fmt.Sprintf("%s approved this server by name before its definition changed, and starts the new one under that approval without asking", p.Name),
			Fix:     fmt.Sprintf("read the change (repo trust %s shows the server), then trust it with repo trust, or remove %q from the approvals so that %s asks again", shellquote.Join([]string{name}), name, p.Name)})
	}
	return out
}
