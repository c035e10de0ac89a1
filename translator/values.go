package translator

import (
	"fmt"
	"strings"

	"github.com/repo-manager/repo/extensions"
	"github.com/repo-manager/repo/internal/termtext"
	"github.com/repo-manager/repo/toolprofiles"
)

// A value is written in pieces: the author's literal text, the literal text
// of a resolved path, a reference in the tool's syntax, and the tool's
// workspace variable (portable mode). Only the last two may be read by the
// tool as something to substitute; the literal pieces get the tool's escape
// where it has one, and where it has none the rendered value is checked
// against every syntax the tool expands (entry.expands).
type pieceKind uint8

const (
	authorText  pieceKind = iota // the author's text, as written
	pathText                     // a resolved path (Server.Resolved)
	refText                      // an environment reference, in the tool's syntax
	rootVarText                  // the tool's workspace variable
)

type piece struct {
	kind pieceKind
	text string
	pos  int    // offset of a literal piece in the value as resolved
	from string // pathText: the template it came from ("root", ...)
	path string // pathText: the whole path it is part of
	ref  bool   // authorText: a ${NAME} the tool takes no references in here
}

// literal reports whether the tool must read the piece as written.
func (p piece) literal() bool { return p.kind == authorText || p.kind == pathText }

// fieldRules are the expansion rules of the profile that apply to one
// value field on the tool's OS: the escape, and the patterns to check.
type fieldRules struct {
	esc    *strings.Replacer
	checks []*toolprofiles.Expansion
}

// fieldIndex numbers the value fields (toolprofiles.ValueFields) for the
// per-translation rule cache.
func fieldIndex(name string) int {
	switch name {
	case "command":
		return 0
	case "args":
		return 1
	case "env":
		return 2
	case "cwd":
		return 3
	case "url":
		return 4
	}
	return 5 // headers
}

// rulesFor returns the rules for field, computed once per translation.
func (t *translation) rulesFor(field string) *fieldRules {
	i := fieldIndex(field)
	r := &t.rules[i]
	if t.ruled[i] {
		return r
	}
	t.ruled[i] = true
	t.collect(r, func(x *toolprofiles.Expansion) bool { return x.Applies(field, t.goos) })
	return r
}

// collect fills r with the profile's expansion rules that apply: the
// escape, where one has it, else the rules a value must not match.
func (t *translation) collect(r *fieldRules, applies func(*toolprofiles.Expansion) bool) {
	e := &t.profile.Entry
	for i := range e.Expands {
		x := &e.Expands[i]
		if !applies(x) {
			continue
		}
		if esc := x.Replacer(); esc != nil {
			r.esc = esc
		} else {
			r.checks = append(r.checks, x)
		}
	}
}

// keyIndex numbers the keys an expansion rule can name
// (toolprofiles.KeyFields).
func keyIndex(kind string) int {
	switch kind {
	case "name":
		return 0
	case "env":
		return 1
	}
	return 2 // headers
}

// keyRulesFor returns the rules for the keys of kind, computed once per
// translation.
func (t *translation) keyRulesFor(kind string) *fieldRules {
	i := keyIndex(kind)
	r := &t.keyRules[i]
	if t.keyRuled[i] {
		return r
	}
	t.keyRuled[i] = true
	t.collect(r, func(x *toolprofiles.Expansion) bool { return x.AppliesToKey(kind, t.goos) })
	return r
}

// keyWord names a kind of key (name, env, headers) in a refusal. A switch,
// not a map: a map literal is built at every start (bench/startup.sh).
func keyWord(kind string) string {
	switch kind {
	case "name":
		return "the server's name"
	case "env":
		return "env name"
	case "headers":
		return "header name"
	}
	return ""
}

// key renders a key of the entry — the server's name, an env or header
// name — as the tool must read it, for a tool that expands text in keys
// as in values (entry.expands keys): escaped where the rule has an
// escape, else checked, and the server refused for the tool when the tool
// would read part of the key as something to substitute. A key is all the
// author's text: no reference in it is meant.
func (t *translation) key(kind, k string) string {
	if t.err != nil {
		return k
	}
	rules := t.keyRulesFor(kind)
	out := k
	if rules.esc != nil {
		out = rules.esc.Replace(k)
	}
	for _, x := range rules.checks {
		if m := x.FindStringIndex(out); m != nil {
			t.err = &Refusal{Tool: t.profile.ID, ToolName: t.profile.Name, Server: t.server.Name, Source: t.server.Source,
				Key: keyWord(kind), Value: k, Text: out[m[0]:m[1]]}
			return k
		}
	}
	return out
}

// value renders one value of the server for the tool: the author's
// environment references in the tool's syntax (where the tool expands them
// in field), the root as the tool's workspace variable in portable mode,
// and every other piece literal — escaped, or refused.
func (t *translation) value(field member, v string, spans []extensions.Span) string {
	if t.err != nil {
		return v
	}
	rules := t.rulesFor(field.name)
	if t.root == "" && !strings.Contains(v, "${") {
		// No reference, nothing to relocate: all of v is literal. Escape it,
		// or make sure the tool reads none of it, without splitting it into
		// pieces — they are needed only to say what a refusal is about.
		out := v
		if rules.esc != nil {
			out = rules.esc.Replace(v)
		}
		for _, x := range rules.checks {
			if x.MatchString(out) {
				return t.render(field, v, t.pieces(field, v, spans), rules)
			}
		}
		return out
	}
	pieces := t.pieces(field, v, spans)
	if t.root != "" {
		pieces = t.relocate(pieces, v)
	}
	return t.render(field, v, pieces, rules)
}

// render joins the pieces, the literal ones escaped, and checks the result.
func (t *translation) render(field member, v string, pieces []piece, rules *fieldRules) string {
	if len(pieces) == 1 && (rules.esc == nil || !pieces[0].literal()) && len(rules.checks) == 0 {
		return pieces[0].text
	}
	var b strings.Builder
	var at []int // start of each piece in the output, for the checks
	if len(rules.checks) > 0 {
		at = make([]int, len(pieces)+1)
	}
	for i, p := range pieces {
		if at != nil {
			at[i] = b.Len()
		}
		if rules.esc != nil && p.literal() {
			b.WriteString(rules.esc.Replace(p.text))
		} else {
			b.WriteString(p.text)
		}
	}
	out := b.String()
	if at == nil {
		return out
	}
	at[len(pieces)] = len(out)
	for _, x := range rules.checks {
		t.check(field, v, out, pieces, at, x)
	}
	return out
}

// pieces splits v into the author's text and resolved paths, and the
// author's text into literal text and environment references.
func (t *translation) pieces(field member, v string, spans []extensions.Span) []piece {
	var out []piece
	author := func(start, end int) {
		if start < end {
			out = t.refs(out, field, v[start:end], start)
		}
	}
	last := 0
	for _, sp := range spans {
		author(last, sp.Start)
		out = append(out, piece{kind: pathText, text: v[sp.Start:sp.End], pos: sp.Start, from: sp.From, path: v[sp.Start:sp.End]})
		last = sp.End
	}
	author(last, len(v))
	return out
}

// refs appends the author's text s (at offset pos of the value): each
// environment reference in the tool's syntax, where the tool expands
// references in field, and the rest as literal text.
func (t *translation) refs(out []piece, field member, s string, pos int) []piece {
	if !strings.Contains(s, "${") {
		return append(out, piece{kind: authorText, text: s, pos: pos})
	}
	last := 0
	for _, m := range envRefs(s) {
		if m[0] > last {
			out = append(out, piece{kind: authorText, text: s[last:m[0]], pos: pos + last})
		}
		def, hasDefault := "", m[4] >= 0
		if hasDefault {
			def = s[m[6]:m[7]]
		}
		if ref, ok := t.envRefOne(field, s[m[0]:m[1]], s[m[2]:m[3]], hasDefault, def); ok {
			out = append(out, piece{kind: refText, text: ref})
		} else {
			out = append(out, piece{kind: authorText, text: ref, pos: pos + m[0], ref: true})
		}
		last = m[1]
	}
	if last < len(s) {
		out = append(out, piece{kind: authorText, text: s[last:], pos: pos + last})
	}
	return out
}

// envRefOne is one reference, ref, to the variable name: in the tool's
// syntax (ok), or the reference's own text, which the tool keeps literal
// in field (with a warning).
func (t *translation) envRefOne(field member, ref, name string, hasDefault bool, def string) (string, bool) {
	e := &t.profile.Entry
	if e.EnvRef == "" {
		t.warn("%s expands no environment references; %s keeps the literal text %s", t.profile.Name, field, termtext.Safe(ref))
		return ref, false
	}
	if !e.ExpandsRefsIn(field.name) {
		t.warn("%s expands environment references only in %s; %s keeps the literal text %s", t.profile.Name, strings.Join(e.EnvRefFields, ", "), field, termtext.Safe(ref))
		return ref, false
	}
	if hasDefault {
		if e.EnvRefDefault {
			return strings.Replace(e.EnvRef, "NAME", name+":-"+def, 1), true
		}
		t.warn("%s has no default syntax for environment references; the default %q of ${%s} in %s is dropped", t.profile.Name, def, name, field)
	}
	return strings.Replace(e.EnvRef, "NAME", name, 1), true
}

// relocate replaces the root in literal pieces with the tool's workspace
// variable where it is a whole path prefix: the root itself, or the root
// followed by a separator, in the value v as resolved.
func (t *translation) relocate(pieces []piece, v string) []piece {
	var out []piece
	for _, p := range pieces {
		if !p.literal() || !strings.Contains(p.text, t.root) {
			out = append(out, p)
			continue
		}
		rest, pos := p.text, p.pos
		for {
			i := strings.Index(rest, t.root)
			if i < 0 {
				break
			}
			end := pos + i + len(t.root) // in v
			if end < len(v) && v[end] != '/' && v[end] != '\\' {
				// Not a whole path prefix: keep it, look further.
				lit := p
				lit.text, lit.pos = rest[:i+len(t.root)], pos
				out = append(out, lit)
				rest, pos = rest[i+len(t.root):], end
				continue
			}
			if i > 0 {
				lit := p
				lit.text, lit.pos = rest[:i], pos
				out = append(out, lit)
			}
			out = append(out, piece{kind: rootVarText, text: t.rootVar})
			rest, pos = rest[i+len(t.root):], end
		}
		if rest != "" {
			lit := p
			lit.text, lit.pos = rest, pos
			out = append(out, lit)
		}
	}
	return out
}

// check finds the text of out that the tool would substitute under rule x.
// A match that is exactly a reference or workspace variable repo wrote is
// meant; any other match holds literal text the tool would change, and as
// the tool has no escape for it, the server is refused for the tool.
func (t *translation) check(field member, v, out string, pieces []piece, at []int, x *toolprofiles.Expansion) {
	if t.err != nil {
		return
	}
	for _, m := range x.FindAllStringIndex(out, -1) {
		var lit []piece
		meant := false
		for i, p := range pieces {
			if at[i] == m[0] && at[i+1] == m[1] && !p.literal() {
				meant = true
				break
			}
			if p.literal() && at[i] < m[1] && at[i+1] > m[0] {
				lit = append(lit, p)
			}
		}
		if meant || len(lit) == 0 {
			continue
		}
		r := &Refusal{Tool: t.profile.ID, ToolName: t.profile.Name, Server: t.server.Name, Source: t.server.Source,
			Field: field.String(), Value: v, Text: out[m[0]:m[1]]}
		for _, p := range lit {
			if p.kind == pathText {
				r.From, r.Path = p.from, p.path
				break
			}
			if p.ref {
				r.RefFields = t.profile.Entry.EnvRefFields
			}
		}
		if x.ResolvedOnly && r.From == "" {
			continue
		}
		t.err = r
		return
	}
}

// Refusal is literal text of a server that a tool would substitute — as an
// environment reference, a shell expansion, a template — and has no escape
// for, so the tool cannot be given the server as declared.
type Refusal struct {
	Tool     string // profile id
	ToolName string
	Server   string
	Source   string // the MCP file that declares the server
	Field    string // "args[2]", "env.TOKEN"
	Value    string // the value as resolved
	Text     string // the text the tool would substitute, as written for it
	From     string // the template of the path the text is in; empty: the author's text
	Path     string // that path
	// RefFields, for the author's ${NAME} in a value the tool takes no
	// references in, are the values it does take them in.
	RefFields []string
	// Key, for text in a key rather than a value, says which ("header
	// name"); Value is then the key. Field is empty.
	Key string
}

// pathName says what a template's path is (root, home, …), for messages;
// "" for another.
func pathName(from string) string {
	switch from {
	case "root":
		return "the workspace root"
	case "home":
		return "the home folder"
	case "extension.dir":
		return "the extension folder"
	case "runtime.python":
		return "the venv python"
	}
	return ""
}

func (r *Refusal) Error() string {
	if r.Key != "" {
		what := fmt.Sprintf("%s %q", r.Key, r.Value)
		fix := "rename it in " + r.Source
		if r.Key == keyWord("name") {
			what, fix = r.Key, "rename the server in "+r.Source
		}
		return fmt.Sprintf("%s: server %q: %s contains %q, which %s would expand (it reads keys as it reads values), and %s has no way to write it literally; %s, or leave %s out (--tool)",
			r.Tool, r.Server, what, r.Text, r.ToolName, r.ToolName, fix, r.Tool)
	}
	head := fmt.Sprintf("%s: server %q: %s", r.Tool, r.Server, r.Field)
	cannot := fmt.Sprintf("which %s would expand, and %s has no way to write it literally", r.ToolName, r.ToolName)
	switch {
	case r.From == "home":
		return fmt.Sprintf("%s: %s %q contains %q, %s; leave %s out (--tool), or do without <<home>> in %s",
			head, pathName(r.From), r.Path, r.Text, cannot, r.Tool, r.Source)
	case r.From != "":
		what := pathName(r.From)
		if what == "" {
			what = "<<" + r.From + ">>"
		}
		return fmt.Sprintf("%s: %s %q contains %q, %s; move the workspace to a path without it, or leave %s out (--tool)",
			head, what, r.Path, r.Text, cannot, r.Tool)
	case len(r.RefFields) > 0:
		return fmt.Sprintf("%s %q: %s takes environment references in %s only, and in %s it would expand %q itself, with no way to write it literally; "+
			"move the reference to one of those in %s, or leave %s out (--tool)",
			head, r.Value, r.ToolName, strings.Join(r.RefFields, ", "), r.Field, r.Text, r.Source, r.Tool)
	}
	return fmt.Sprintf("%s %q contains %q, %s; only ${NAME} and ${NAME:-default} are environment references (docs/extension-authors.md): "+
		"change the text in %s, or leave %s out (--tool)", head, r.Value, r.Text, cannot, r.Source, r.Tool)
}
