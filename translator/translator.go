// Package translator turns a resolved server into one tool's entry. It is
// pure: no I/O, no globals, and the same input always gives the same bytes,
// so golden files can pin every tool's dialect.
package translator

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/repo-manager/repo/extensions"
	"github.com/repo-manager/repo/internal/lazy"
	"github.com/repo-manager/repo/internal/ordered"
	"github.com/repo-manager/repo/toolprofiles"
)

// Warning is something a tool cannot express, said once per tool and server.
type Warning struct {
	Tool   string
	Server string
	Msg    string
	// Problem is Msg with the tool's name said as "the tool": the same
	// problem of one server in several tools reads the same, so that a
	// report can say it once, naming the tools (see Group).
	Problem string
}

func (w Warning) String() string {
	return fmt.Sprintf("%s: server %q: %s", w.Tool, w.Server, w.Msg)
}

// Result is a server in a tool's dialect.
type Result struct {
	Entry ordered.Object // nil when the tool cannot take the server at all
	// Settings are the members of Entry written from the server's
	// settings (extensions.Settings) and its authentication
	// (extensions.Auth), in the order written.
	Settings []string
	Warnings []Warning
	// Err is a *Refusal when literal text of the server would be expanded by
	// the tool, which has no escape for it: writing the entry would start
	// the server with other values than it declares. Entry is nil then.
	Err error
}

// onlyRef matches a value that is one environment reference (envRefs)
// without a default, and nothing else; compiled on first use, not at
// start-up (bench/run.sh, startup cases).
var onlyRef = lazy.Regexp{Expr: `^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$`}

// Options change a translation.
type Options struct {
	// Portable writes the tool's workspace variable (RootVar) instead of
	// the absolute root Root, where the tool has one.
	Portable bool
	Root     string
	// GOOS is the OS the tool runs on. A profile's expansion rules that are
	// limited to some OS (entry.expands os) apply there only; with GOOS
	// empty, none of them does.
	GOOS string
	// NoEnvRef: the file being written is one in which the tool takes no
	// environment references (toolprofiles.Target.NoEnvRef): the entry is
	// written as for a tool without a reference syntax.
	NoEnvRef bool
}

// TranslateWith renders s for profile p with options.
func TranslateWith(s extensions.Server, p *toolprofiles.Profile, o Options) Result {
	if o.NoEnvRef && p.Entry.EnvRef != "" {
		cp := *p
		cp.Entry.EnvRef, cp.Entry.EnvRefDefault, cp.Entry.EnvRefFields = "", false, nil
		p = &cp
	}
	if s.Settings.Off() && p.Entry.Settings.Enabled == nil {
		// Switched off by its author, and the tool has no toggle to say so:
		// the server is not the tool's at all, nor is anything about it.
		return Result{}
	}
	t := &translation{server: s, profile: p, goos: o.GOOS, noRef: o.NoEnvRef}
	if o.Portable && p.Entry.RootVar != "" && o.Root != "" {
		t.root, t.rootVar = o.Root, p.Entry.RootVar
	}
	t.key("name", s.Name) // never rewritten: checked only
	var entry ordered.Object
	if s.Remote() {
		entry = t.remote()
	} else {
		entry = t.stdio()
	}
	if t.err != nil {
		return Result{Warnings: t.warnings, Err: t.err}
	}
	if entry != nil && !p.Entry.AcceptsName(s.Name) {
		t.warn("%s does not accept the server name %q (names must match %s); it is written, but the tool will not start it — rename the server in %s", p.Name, s.Name, p.Entry.NamePattern, s.Source)
	}
	if entry != nil {
		keys := make([]string, 0, len(p.Entry.Set))
		for k := range p.Entry.Set {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			entry = entry.Set(k, p.Entry.Set[k])
		}
	}
	var members []string
	if entry != nil {
		entry, members = t.settings(entry)
		// The authentication is like a setting for two tools sharing a file:
		// each writes the members it has (Claude Code's oauth, which
		// Copilot CLI does not read), and their values must agree.
		members = append(members, t.authMembers...)
	}
	return Result{Entry: entry, Settings: members, Warnings: t.warnings}
}

type translation struct {
	server   extensions.Server
	profile  *toolprofiles.Profile
	goos     string
	root     string // replaced by rootVar in every string, when set
	rootVar  string
	warnings []Warning
	warned   map[string]bool
	err      *Refusal      // the first value the tool would change
	rules    [6]fieldRules // by fieldIndex, filled in on first use
	ruled    [6]bool
	keyRules [3]fieldRules // by keyIndex, filled in on first use
	keyRuled [3]bool
	// noRef: the file takes no environment references (Options.NoEnvRef).
	noRef bool
	// authMembers are the members the server's authentication went to.
	authMembers []string
}

func (t *translation) warn(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if t.warned == nil {
		t.warned = map[string]bool{}
	}
	if t.warned[msg] {
		return
	}
	t.warned[msg] = true
	neutral := slices.Clone(args)
	for i, a := range neutral {
		if a == any(t.profile.Name) {
			neutral[i] = "the tool"
		}
	}
	problem := fmt.Sprintf(format, neutral...)
	t.warnings = append(t.warnings, Warning{Tool: t.profile.ID, Server: t.server.Name, Msg: msg, Problem: problem})
}

func (t *translation) stdio() ordered.Object {
	e := t.profile.Entry
	var obj ordered.Object
	if e.NameField != "" {
		obj = obj.Set(e.NameField, t.server.Name)
	}
	if e.TypeField != "" && e.StdioType != "" {
		obj = obj.Set(e.TypeField, e.StdioType)
	}
	res := &t.server.Resolved
	cmd := t.value(member{name: "command"}, t.server.Command, res.Command)
	args := make([]string, len(t.server.Args))
	for i, a := range t.server.Args {
		args[i] = t.value(member{name: "args", index: i, indexed: true}, a, extensions.At(res.Args, i))
	}
	if e.Command == "array" {
		obj = obj.Set(e.CommandField, append([]string{cmd}, args...))
	} else {
		obj = obj.Set(e.CommandField, cmd)
		if len(args) > 0 || e.AlwaysArgs {
			obj = obj.Set(e.ArgsField, args)
		}
	}
	for _, kv := range t.server.Env {
		if slices.ContainsFunc(e.BlockedEnv, func(b string) bool { return strings.EqualFold(b, kv.Key) }) {
			t.warn("%s removes %s from a server's environment; the server starts without it (install what it points to instead)", t.profile.Name, kv.Key)
		}
	}
	env, forward := t.envMap(t.server.Env, res.Env, "env")
	if len(env) > 0 {
		obj = obj.Set(e.EnvField, env)
	}
	if len(forward) > 0 {
		obj = obj.Set(e.EnvForward, forward)
	}
	if t.server.Cwd != "" {
		if e.CwdField == "" {
			t.warn("%s has no working-directory field; cwd %q is not written (the server starts where the tool starts it)", t.profile.Name, t.server.Cwd)
		} else {
			obj = obj.Set(e.CwdField, t.value(member{name: "cwd"}, t.server.Cwd, res.Cwd))
		}
	}
	return obj
}

func (t *translation) remote() ordered.Object {
	r := t.profile.Entry.Remote
	if r == nil {
		t.warn("%s supports stdio servers only; this %s server is not written", t.profile.Name, t.server.Transport)
		return nil
	}
	kind := r.HTTP
	if t.server.Transport == extensions.SSE {
		kind = r.SSE
	}
	if kind == nil {
		t.warn("%s does not support %s servers; this server is not written", t.profile.Name, t.server.Transport)
		return nil
	}
	var obj ordered.Object
	if t.profile.Entry.NameField != "" {
		obj = obj.Set(t.profile.Entry.NameField, t.server.Name)
	}
	if kind.Type != "" {
		obj = obj.Set(t.profile.Entry.TypeField, kind.Type)
	}
	res := &t.server.Resolved
	obj = obj.Set(kind.URLField, t.value(member{name: "url"}, t.server.URL, res.URL))
	headers, spans := t.server.Headers, res.Headers
	var bearer string
	var envHeaders ordered.Object
	if !t.profile.Entry.ExpandsRefsIn("headers") && (r.BearerEnvField != "" || r.EnvHeadersField != "") {
		headers, spans = nil, nil
		for i, kv := range t.server.Headers {
			sp := extensions.At(res.Headers, i)
			if m := onlyRef.Get().FindStringSubmatch(strings.TrimPrefix(kv.Value, "Bearer ")); m != nil && len(sp) == 0 {
				switch {
				case r.BearerEnvField != "" && strings.EqualFold(kv.Key, "Authorization") && strings.HasPrefix(kv.Value, "Bearer "):
					bearer = m[1]
					continue
				case r.EnvHeadersField != "" && kv.Value == m[0]:
					envHeaders = append(envHeaders, ordered.Member{Key: t.key("headers", kv.Key), Value: m[1]})
					continue
				}
			}
			headers = append(headers, kv)
			spans = append(spans, sp)
		}
	}
	if h, _ := t.envMap(headers, spans, "headers"); len(h) > 0 {
		obj = obj.Set(r.HeadersField, h)
	}
	if bearer != "" {
		obj = obj.Set(r.BearerEnvField, bearer)
	}
	if len(envHeaders) > 0 {
		obj = obj.Set(r.EnvHeadersField, envHeaders)
	}
	obj, t.authMembers = t.auth(obj, t.noRef)
	return obj
}

// envMap renders env or headers. In a tool that expands no references in
// env, an env member that only forwards a variable of its own name
// ("TOKEN": "${TOKEN}", as the author wrote it) is not written as text: it
// goes to the tool's forwarding list where it has one (Codex env_vars),
// else it is left out so the server inherits it from the tool's environment
// — what the author meant, without a literal "${TOKEN}" reaching the server.
func (t *translation) envMap(in []extensions.KV, spans [][]extensions.Span, field string) (out ordered.Object, forward []string) {
	e := t.profile.Entry
	for i, kv := range in {
		sp := extensions.At(spans, i)
		if field == "env" && !e.ExpandsRefsIn("env") && kv.Value == "${"+kv.Key+"}" && len(sp) == 0 {
			if e.EnvForward != "" {
				forward = append(forward, kv.Key)
				continue
			}
			if e.EnvRef == "" {
				t.warn("%s expands no environment references; env %s is left out so the server inherits %s from the tool's environment", t.profile.Name, kv.Key, kv.Key)
			} else {
				t.warn("%s expands environment references only in %s; env %s is left out so the server inherits %s from the tool's environment", t.profile.Name, strings.Join(e.EnvRefFields, ", "), kv.Key, kv.Key)
			}
			continue
		}
		out = append(out, ordered.Member{Key: t.key(field, kv.Key), Value: t.value(member{name: field, key: kv.Key}, kv.Value, sp)})
	}
	return out, forward
}

// member names the part of a server a warning is about: "command",
// "args[2]", "env.TOKEN". It is spelled out only when a warning prints it:
// ref runs for every argument and env member of every server, per tool.
type member struct {
	name    string
	key     string // of an env or header member
	index   int    // of an argument, when indexed
	indexed bool
}

func (m member) String() string {
	switch {
	case m.indexed:
		return m.name + "[" + strconv.Itoa(m.index) + "]"
	case m.key != "":
		return m.name + "." + m.key
	}
	return m.name
}

// Group says each problem once: warnings of one server that read the same
// but for the tool's name (Problem) become one line naming every tool
// that has it ("claude, copilot: server "s": the tool has no field for
// …"), in the order of their first warning. A warning without a Problem
// (made by hand) stands alone, as String says it.
func Group(ws []Warning) []string {
	type group struct {
		tools []string
		w     Warning
	}
	var order []string
	groups := map[string]*group{}
	for _, w := range ws {
		key := w.Server + "\x00" + w.Problem
		if w.Problem == "" {
			key = "\x01" + w.String()
		}
		g, ok := groups[key]
		if !ok {
			g = &group{w: w}
			groups[key] = g
			order = append(order, key)
		}
		if !slices.Contains(g.tools, w.Tool) {
			g.tools = append(g.tools, w.Tool)
		}
	}
	out := make([]string, 0, len(order))
	for _, key := range order {
		g := groups[key]
		if len(g.tools) == 1 || g.w.Problem == "" {
			out = append(out, g.w.String())
			continue
		}
		out = append(out, fmt.Sprintf("%s: server %q: %s", strings.Join(g.tools, ", "), g.w.Server, g.w.Problem))
	}
	return out
}
