// Package translator turns a resolved server into one tool's entry. It is
// pure: no I/O, no globals, and the same input always gives the same bytes,
// so golden files can pin every tool's dialect.
package translator

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/repo-manager/repo/extensions"
	"github.com/repo-manager/repo/internal/ordered"
	"github.com/repo-manager/repo/toolprofiles"
)

// Warning is something a tool cannot express, said once per tool and server.
type Warning struct {
	Tool   string
	Server string
	Msg    string
}

func (w Warning) String() string {
	return fmt.Sprintf("%s: server %q: %s", w.Tool, w.Server, w.Msg)
}

// Result is a server in a tool's dialect.
type Result struct {
	Entry    ordered.Object // nil when the tool cannot take the server at all
	Warnings []Warning
}

// envRef matches an environment reference: ${NAME} or ${NAME:-default}.
// ${{…}} (Continue) and ${env:…}, ${input:…} (already tool syntax) do not match.
// onlyRef matches a value that is one environment reference and nothing else.
var onlyRef = regexp.MustCompile(`^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$`)

var envRef = regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)(:-([^}]*))?\}`)

// Options change a translation.
type Options struct {
	// Portable writes the tool's workspace variable (RootVar) instead of
	// the absolute root Root, where the tool has one.
	Portable bool
	Root     string
}

// Translate renders s for profile p.
func Translate(s extensions.Server, p *toolprofiles.Profile) Result {
	return TranslateWith(s, p, Options{})
}

// TranslateWith renders s for profile p with options.
func TranslateWith(s extensions.Server, p *toolprofiles.Profile, o Options) Result {
	t := &translation{server: s, profile: p}
	if o.Portable && p.Entry.RootVar != "" && o.Root != "" {
		t.root, t.rootVar = o.Root, p.Entry.RootVar
	}
	var entry ordered.Object
	if s.Remote() {
		entry = t.remote()
	} else {
		entry = t.stdio()
	}
	if p.Entry.NamePattern != "" && entry != nil {
		if ok, _ := regexp.MatchString(p.Entry.NamePattern, s.Name); !ok {
			t.warn("%s does not accept the server name %q (names must match %s); it is written, but the tool will not start it — rename the server in %s", p.Name, s.Name, p.Entry.NamePattern, s.Source)
		}
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
	return Result{Entry: entry, Warnings: t.warnings}
}

type translation struct {
	server   extensions.Server
	profile  *toolprofiles.Profile
	root     string // replaced by rootVar in every string, when set
	rootVar  string
	warnings []Warning
	warned   map[string]bool
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
	t.warnings = append(t.warnings, Warning{Tool: t.profile.ID, Server: t.server.Name, Msg: msg})
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
	cmd := t.ref(member{name: "command"}, t.server.Command)
	args := make([]string, len(t.server.Args))
	for i, a := range t.server.Args {
		args[i] = t.ref(member{name: "args", index: i, indexed: true}, a)
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
	env, forward := t.envMap(t.server.Env, "env")
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
			obj = obj.Set(e.CwdField, t.ref(member{name: "cwd"}, t.server.Cwd))
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
	obj = obj.Set(kind.URLField, t.ref(member{name: "url"}, t.server.URL))
	headers := t.server.Headers
	var bearer string
	var envHeaders ordered.Object
	if t.profile.Entry.EnvRef == "" {
		headers = nil
		for _, kv := range t.server.Headers {
			if m := onlyRef.FindStringSubmatch(strings.TrimPrefix(kv.Value, "Bearer ")); m != nil {
				switch {
				case r.BearerEnvField != "" && strings.EqualFold(kv.Key, "Authorization") && strings.HasPrefix(kv.Value, "Bearer "):
					bearer = m[1]
					continue
				case r.EnvHeadersField != "" && kv.Value == m[0]:
					envHeaders = append(envHeaders, ordered.Member{Key: kv.Key, Value: m[1]})
					continue
				}
			}
			headers = append(headers, kv)
		}
	}
	if h, _ := t.envMap(headers, "headers"); len(h) > 0 {
		obj = obj.Set(r.HeadersField, h)
	}
	if bearer != "" {
		obj = obj.Set(r.BearerEnvField, bearer)
	}
	if len(envHeaders) > 0 {
		obj = obj.Set(r.EnvHeadersField, envHeaders)
	}
	return obj
}

// envMap renders env or headers. In a tool that expands nothing, an env
// member that only forwards a variable of its own name ("TOKEN":
// "${TOKEN}") is not written as text: it goes to the tool's forwarding
// list where it has one (Codex env_vars), else it is left out so the server
// inherits it from the tool's environment — what the author meant, without
// a literal "${TOKEN}" reaching the server.
func (t *translation) envMap(in []extensions.KV, field string) (out ordered.Object, forward []string) {
	e := t.profile.Entry
	for _, kv := range in {
		if e.EnvRef == "" && field == "env" && kv.Value == "${"+kv.Key+"}" {
			if e.EnvForward != "" {
				forward = append(forward, kv.Key)
				continue
			}
			t.warn("%s expands no environment references; env %s is left out so the server inherits %s from the tool's environment", t.profile.Name, kv.Key, kv.Key)
			continue
		}
		out = append(out, ordered.Member{Key: kv.Key, Value: t.ref(member{name: field, key: kv.Key}, kv.Value)})
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

// ref rewrites environment references into the tool's own syntax, and in
// portable mode the workspace root into the tool's workspace variable.
func (t *translation) ref(field member, v string) string {
	v = t.relocate(t.envRefs(field, v))
	return v
}

// relocate replaces the root where it is a whole path prefix: the root
// itself, or the root followed by a separator.
func (t *translation) relocate(v string) string {
	if t.root == "" || !strings.Contains(v, t.root) {
		return v
	}
	var b strings.Builder
	for {
		i := strings.Index(v, t.root)
		if i < 0 {
			b.WriteString(v)
			return b.String()
		}
		end := i + len(t.root)
		whole := end == len(v) || v[end] == '/' || v[end] == '\\'
		b.WriteString(v[:i])
		if whole {
			b.WriteString(t.rootVar)
		} else {
			b.WriteString(t.root)
		}
		v = v[end:]
	}
}

// envRefs rewrites each match of envRef in v. It is the one pass of
// envRef.ReplaceAllStringFunc, but with the submatches at hand instead of
// matching each reference a second time to find its name and default.
func (t *translation) envRefs(field member, v string) string {
	if !strings.Contains(v, "${") {
		return v
	}
	matches := envRef.FindAllStringSubmatchIndex(v, -1)
	if matches == nil {
		return v
	}
	var b strings.Builder
	last := 0
	for _, m := range matches {
		def, hasDefault := "", m[4] >= 0
		if hasDefault {
			def = v[m[6]:m[7]]
		}
		b.WriteString(v[last:m[0]])
		b.WriteString(t.envRefOne(field, v[m[0]:m[1]], v[m[2]:m[3]], hasDefault, def))
		last = m[1]
	}
	b.WriteString(v[last:])
	return b.String()
}

// envRefOne is one reference, ref, to the variable name, in the tool's syntax.
func (t *translation) envRefOne(field member, ref, name string, hasDefault bool, def string) string {
	e := t.profile.Entry
	if e.EnvRef == "" {
		t.warn("%s expands no environment references; %s keeps the literal text %s", t.profile.Name, field, ref)
		return ref
	}
	if hasDefault {
		if e.EnvRefDefault {
			return strings.Replace(e.EnvRef, "NAME", name+":-"+def, 1)
		}
		t.warn("%s has no default syntax for environment references; the default %q of ${%s} in %s is dropped", t.profile.Name, def, name, field)
	}
	return strings.Replace(e.EnvRef, "NAME", name, 1)
}
