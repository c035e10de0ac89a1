package translator

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/tidwall/gjson"

	"github.com/repo-manager/repo/extensions"
	"github.com/repo-manager/repo/internal/jsonvalue"
	"github.com/repo-manager/repo/internal/lazy"
	"github.com/repo-manager/repo/toolprofiles"
)

// Neutral is the way back: one tool's entry, as its file holds it, turned
// into a declaration of the neutral MCP file format (docs/extension-authors.md,
// "The MCP file"), with
// templates where the tool wrote this machine's paths. It reads the entry
// with the same profile data TranslateWith writes it with — field names,
// command shape, transport spellings, reference syntax, escapes — so an
// entry that repo's translation of the declaration gives back is read as
// that declaration.
//
// Anything the neutral format cannot say is an error (*NeutralError)
// rather than something dropped or changed: a member the dialect does not
// know, a value that is not a string, text the tool would expand that is
// not one of its references, literal text the neutral format would read as
// a reference or a template, a bare python command (which the neutral
// format resolves to the extension's venv).
func Neutral(name string, entry []byte, p *toolprofiles.Profile, o NeutralOptions) (extensions.Spec, []Warning, error) {
	n := &neutralizer{name: name, profile: p, opts: o}
	spec, err := n.entry(entry)
	if err != nil {
		return extensions.Spec{}, n.warnings, err
	}
	return spec, n.warnings, nil
}

// NeutralOptions say which of the entry's paths become templates.
type NeutralOptions struct {
	// Root is the absolute workspace root: a whole path prefix of it
	// becomes <<root>>.
	Root string
	// Home is the user's home folder: a whole path prefix of it becomes
	// <<home>>, unless the root is the nearer prefix.
	Home string
	// Python is the venv python of the extension the server goes to: a
	// command that is exactly it becomes python.
	Python string
	// GOOS is the OS the tool runs on; as for Options.GOOS.
	GOOS string
}

// fixValue is what to do about a value the neutral format cannot say.
const fixValue = "change the value in the tool's file, or leave the server out (--server)"

// NeutralError is a part of a tool's entry that the neutral format cannot
// say as the tool means it.
type NeutralError struct {
	Tool   string // profile id
	Server string
	Field  string // the member, as in the tool's entry: "args[2]", "env.TOKEN"; empty for the whole entry
	Msg    string
}

func (e *NeutralError) Error() string {
	if e.Field == "" {
		return fmt.Sprintf("%s: server %q: %s", e.Tool, e.Server, e.Msg)
	}
	return fmt.Sprintf("%s: server %q: %s: %s", e.Tool, e.Server, e.Field, e.Msg)
}

type neutralizer struct {
	name     string
	profile  *toolprofiles.Profile
	opts     NeutralOptions
	warnings []Warning
}

func (n *neutralizer) fail(field, format string, args ...any) error {
	return &NeutralError{Tool: n.profile.ID, Server: n.name, Field: field, Msg: fmt.Sprintf(format, args...)}
}

func (n *neutralizer) warn(format string, args ...any) {
	w := Warning{Tool: n.profile.ID, Server: n.name, Msg: fmt.Sprintf(format, args...)}
	if !slices.Contains(n.warnings, w) {
		n.warnings = append(n.warnings, w)
	}
}

// entry reads the members of the entry: each one the dialect writes is
// turned back, each one the tool or user keeps (preserve) or repo fixes
// (set) stays in the tool's file, and any other is refused.
func (n *neutralizer) entry(raw []byte) (extensions.Spec, error) {
	var spec extensions.Spec
	if !gjson.ValidBytes(raw) {
		return spec, n.fail("", "the entry is not valid JSON")
	}
	obj := gjson.ParseBytes(raw)
	if !obj.IsObject() {
		return spec, n.fail("", "the entry is %s, not an object", describe(obj))
	}
	members := map[string]gjson.Result{}
	var order []string
	obj.ForEach(func(k, v gjson.Result) bool {
		if _, dup := members[k.String()]; !dup {
			order = append(order, k.String())
		}
		members[k.String()] = v
		return true
	})
	used := map[string]bool{}
	get := func(field string) (gjson.Result, bool) {
		if field == "" {
			return gjson.Result{}, false
		}
		v, ok := members[field]
		if ok {
			used[field] = true
		}
		return v, ok
	}
	e := &n.profile.Entry
	get(e.NameField) // the name is the entry's key; a tool that repeats it inside gets it from there

	transport, err := n.transport(members)
	if err != nil {
		return spec, err
	}
	get(e.TypeField) // read by transport
	spec.Transport = transport
	if transport == extensions.Stdio {
		err = n.stdio(&spec, get)
	} else {
		err = n.remote(&spec, get)
	}
	if err != nil {
		return spec, err
	}
	for _, k := range order {
		if used[k] {
			continue
		}
		if slices.Contains(e.Preserve, k) || !slices.Contains(e.Written(), k) {
			// The tool's or the user's (a toggle, Claude Code's oauth): it
			// stays in the tool's file, which repo sync keeps.
			continue
		}
		if want, ok := e.Set[k]; ok {
			if !sameSetValue(members[k], want) {
				n.warn("repo writes %s = %s into every %s entry; this entry's %s is replaced", k, setText(want), n.profile.Name, members[k].Raw)
			}
			continue
		}
		return spec, n.fail(k, "an extension's MCP file has no such field (it takes %s); remove it from the entry, or leave the server out (--server)",
			neutralFields(transport))
	}
	return spec, nil
}

func neutralFields(transport string) string {
	if transport == extensions.Stdio {
		return "command, args, env and cwd for a stdio server"
	}
	return "url and headers for a remote server"
}

// transport decides what kind of server the entry is, by the tool's type
// member where it writes one, else by the members present.
func (n *neutralizer) transport(members map[string]gjson.Result) (string, error) {
	e := &n.profile.Entry
	r := e.Remote
	kinds := []struct {
		transport string
		kind      *toolprofiles.RemoteKind
	}{}
	if r != nil {
		if r.HTTP != nil {
			kinds = append(kinds, struct {
				transport string
				kind      *toolprofiles.RemoteKind
			}{extensions.HTTP, r.HTTP})
		}
		if r.SSE != nil {
			kinds = append(kinds, struct {
				transport string
				kind      *toolprofiles.RemoteKind
			}{extensions.SSE, r.SSE})
		}
	}
	_, hasCommand := members[e.CommandField]
	if v, ok := members[e.TypeField]; ok && e.TypeField != "" {
		if v.Type != gjson.String {
			return "", n.fail(e.TypeField, "must be a string, not %s", describe(v))
		}
		typ := v.String()
		switch {
		case e.StdioType != "" && typ == e.StdioType:
			return extensions.Stdio, nil
		case e.StdioType == "" && typ == extensions.Stdio && hasCommand:
			return extensions.Stdio, nil // what the neutral format would call it; the tool writes no type for it
		}
		for _, k := range kinds {
			if k.kind.Type != "" && typ == k.kind.Type {
				return k.transport, nil
			}
		}
		var known []string
		if e.StdioType != "" {
			known = append(known, fmt.Sprintf("%q (stdio)", e.StdioType))
		}
		for _, k := range kinds {
			if k.kind.Type != "" {
				known = append(known, fmt.Sprintf("%q (%s)", k.kind.Type, k.transport))
			}
		}
		if len(known) == 0 {
			return "", n.fail(e.TypeField, "%q: %s writes no %s for its servers", typ, n.profile.Name, e.TypeField)
		}
		return "", n.fail(e.TypeField, "%q is not a transport repo knows for %s (%s)", typ, n.profile.Name, strings.Join(known, ", "))
	}
	if hasCommand {
		return extensions.Stdio, nil
	}
	// No type: the URL field tells. A kind the tool spells without a type
	// first (Gemini CLI: httpUrl for http, url for sse), then any.
	for _, typed := range []bool{false, true} {
		for _, k := range kinds {
			if (k.kind.Type != "") != typed {
				continue
			}
			if _, ok := members[k.kind.URLField]; ok {
				return k.transport, nil
			}
		}
	}
	if r == nil {
		return "", n.fail("", "has no %s; %s starts stdio servers only", e.CommandField, n.profile.Name)
	}
	return "", n.fail("", "has neither a %s nor a URL, so it is no server repo can read", e.CommandField)
}

func (n *neutralizer) stdio(spec *extensions.Spec, get func(string) (gjson.Result, bool)) error {
	e := &n.profile.Entry
	cmdv, ok := get(e.CommandField)
	if !ok {
		return n.fail("", "a stdio server needs a %s", e.CommandField)
	}
	var words []string
	if e.Command == "array" {
		list, err := n.strings(e.CommandField, cmdv)
		if err != nil {
			return err
		}
		if len(list) == 0 {
			return n.fail(e.CommandField, "is empty; a stdio server needs a command")
		}
		words = list
	} else {
		if cmdv.Type != gjson.String {
			return n.fail(e.CommandField, "must be a string, not %s", describe(cmdv))
		}
		words = []string{cmdv.String()}
		if av, ok := get(e.ArgsField); ok {
			args, err := n.strings(e.ArgsField, av)
			if err != nil {
				return err
			}
			words = append(words, args...)
		}
	}
	var err error
	if spec.Command, err = n.command(e.CommandField, words[0]); err != nil {
		return err
	}
	for i, a := range words[1:] {
		field := member{name: "args", index: i, indexed: true}
		at := fmt.Sprintf("%s[%d]", e.ArgsField, i)
		if e.Command == "array" {
			at = fmt.Sprintf("%s[%d]", e.CommandField, i+1)
		}
		v, err := n.value(at, field, a)
		if err != nil {
			return err
		}
		spec.Args = append(spec.Args, v)
	}
	if ev, ok := get(e.EnvField); ok {
		if spec.Env, err = n.kvs(e.EnvField, "env", ev); err != nil {
			return err
		}
	}
	if fv, ok := get(e.EnvForward); ok {
		names, err := n.strings(e.EnvForward, fv)
		if err != nil {
			return err
		}
		for _, name := range names {
			if !onlyRef.Get().MatchString("${" + name + "}") {
				return n.fail(e.EnvForward, "%q is not a variable name an environment reference can hold", name)
			}
			if slices.ContainsFunc(spec.Env, func(kv extensions.KV) bool { return kv.Key == name }) {
				return n.fail(e.EnvForward, "%s is both set in %s and forwarded; keep one", name, e.EnvField)
			}
			spec.Env = append(spec.Env, extensions.KV{Key: name, Value: "${" + name + "}"})
		}
	}
	if cv, ok := get(e.CwdField); ok {
		if cv.Type != gjson.String {
			return n.fail(e.CwdField, "must be a string, not %s", describe(cv))
		}
		if spec.Cwd, err = n.value(e.CwdField, member{name: "cwd"}, cv.String()); err != nil {
			return err
		}
	}
	return nil
}

func (n *neutralizer) remote(spec *extensions.Spec, get func(string) (gjson.Result, bool)) error {
	r := n.profile.Entry.Remote
	kind := r.HTTP
	if spec.Transport == extensions.SSE {
		kind = r.SSE
	}
	uv, ok := get(kind.URLField)
	if !ok {
		return n.fail("", "a %s server needs a %s", spec.Transport, kind.URLField)
	}
	if uv.Type != gjson.String {
		return n.fail(kind.URLField, "must be a string, not %s", describe(uv))
	}
	var err error
	if spec.URL, err = n.value(kind.URLField, member{name: "url"}, uv.String()); err != nil {
		return err
	}
	if hv, ok := get(r.HeadersField); ok {
		if spec.Headers, err = n.kvs(r.HeadersField, "headers", hv); err != nil {
			return err
		}
	}
	header := func(field, key, value string) error {
		if slices.ContainsFunc(spec.Headers, func(kv extensions.KV) bool { return strings.EqualFold(kv.Key, key) }) {
			return n.fail(field, "header %s is also given in %s; keep one", key, r.HeadersField)
		}
		spec.Headers = append(spec.Headers, extensions.KV{Key: key, Value: value})
		return nil
	}
	if bv, ok := get(r.BearerEnvField); ok {
		if bv.Type != gjson.String || !onlyRef.Get().MatchString("${"+bv.String()+"}") {
			return n.fail(r.BearerEnvField, "must be the name of an environment variable, not %s", bv.Raw)
		}
		if err := header(r.BearerEnvField, "Authorization", "Bearer ${"+bv.String()+"}"); err != nil {
			return err
		}
	}
	if hv, ok := get(r.EnvHeadersField); ok {
		if !hv.IsObject() {
			return n.fail(r.EnvHeadersField, "must be a map of header names to variable names, not %s", describe(hv))
		}
		var ferr error
		hv.ForEach(func(k, v gjson.Result) bool {
			if v.Type != gjson.String || !onlyRef.Get().MatchString("${"+v.String()+"}") {
				ferr = n.fail(r.EnvHeadersField+"."+k.String(), "must be the name of an environment variable, not %s", v.Raw)
				return false
			}
			ferr = header(r.EnvHeadersField, k.String(), "${"+v.String()+"}")
			return ferr == nil
		})
		if ferr != nil {
			return ferr
		}
	}
	return nil
}

// strings reads a list of strings.
func (n *neutralizer) strings(field string, v gjson.Result) ([]string, error) {
	if !v.IsArray() {
		return nil, n.fail(field, "must be a list of strings, not %s", describe(v))
	}
	var out []string
	var err error
	v.ForEach(func(_, e gjson.Result) bool {
		if e.Type != gjson.String {
			err = n.fail(fmt.Sprintf("%s[%d]", field, len(out)), "must be a string, not %s", describe(e))
			return false
		}
		out = append(out, e.String())
		return true
	})
	return out, err
}

// kvs reads env or headers: a map of strings, in the file's order.
func (n *neutralizer) kvs(at, field string, v gjson.Result) ([]extensions.KV, error) {
	if !v.IsObject() {
		return nil, n.fail(at, "must be a map of strings, not %s", describe(v))
	}
	var out []extensions.KV
	var err error
	v.ForEach(func(k, e gjson.Result) bool {
		key := k.String()
		if e.Type != gjson.String {
			err = n.fail(at+"."+key, "must be a string, not %s", describe(e))
			return false
		}
		var val string
		if val, err = n.value(at+"."+key, member{name: field, key: key}, e.String()); err != nil {
			return false
		}
		out = append(out, extensions.KV{Key: key, Value: val})
		return true
	})
	return out, err
}

// bareNeutralPython is what Resolve turns into the extension's venv python.
// Compiled on first use, not at start-up (bench/run.sh, startup cases).
var bareNeutralPython = lazy.Regexp{Expr: `^python(3(\.[0-9]+)?)?$`}

// command reads the command: the extension's venv python becomes python,
// and a bare python, which the neutral format would turn into that venv's
// python, is refused.
func (n *neutralizer) command(at, cmd string) (string, error) {
	v, err := n.value(at, member{name: "command"}, cmd)
	if err != nil {
		return "", err
	}
	if n.opts.Python != "" && v == n.neutralPath(n.opts.Python) {
		return "python", nil
	}
	if bareNeutralPython.Get().MatchString(v) {
		venv := n.opts.Python
		if r, err := filepath.Rel(n.opts.Root, venv); err == nil && n.opts.Root != "" && filepath.IsLocal(r) {
			venv = filepath.ToSlash(r)
		}
		return "", n.fail(at, "%q: in an extension's MCP file %s means the extension's own venv python (%s), not the one on the PATH; "+
			"give the entry the interpreter's absolute path (command -v %s), or create that venv with the server installed and point the entry at it, then import again",
			v, v, venv, v)
	}
	return v, nil
}

// neutralPath is how the neutral format writes path p (one literal value).
func (n *neutralizer) neutralPath(p string) string {
	var pieces []rpiece
	pieces = n.templates(append(pieces, rpiece{kind: rLiteral, text: p}))
	return joinPieces(pieces)
}

// Pieces of a value on the way back.
type rkind uint8

const (
	rLiteral  rkind = iota // text the tool keeps as written
	rRef                   // an environment reference, already in the neutral syntax
	rTemplate              // a template: <<root>>, <<home>>
)

type rpiece struct {
	kind       rkind
	text       string
	start, end int // in the tool's value (rLiteral, rRef); a literal piece's text is unescaped
}

func joinPieces(pieces []rpiece) string {
	var b strings.Builder
	for _, p := range pieces {
		b.WriteString(p.text)
	}
	return b.String()
}

// value turns one of the entry's values back: the tool's references into
// ${NAME}, its workspace variable and this machine's root and home into
// templates, its escapes undone. at names the member in the tool's entry.
func (n *neutralizer) value(at string, field member, v string) (string, error) {
	e := &n.profile.Entry
	var ref *regexp.Regexp
	if e.ExpandsRefsIn(field.name) {
		ref = refPattern(e.EnvRef, e.EnvRefDefault)
	}
	var esc map[string]string
	var checks []*toolprofiles.Expansion
	for i := range e.Expands {
		x := &e.Expands[i]
		if !x.Applies(field.name, n.opts.GOOS) {
			continue
		}
		if len(x.Escape) > 0 {
			esc = x.Escape
		} else {
			checks = append(checks, x)
		}
	}
	pieces, err := n.split(at, v, ref, esc)
	if err != nil {
		return "", err
	}
	for _, x := range checks {
		if err := n.check(at, field.name, v, pieces, x); err != nil {
			return "", err
		}
	}
	pieces = mergeLiterals(pieces)
	for _, p := range pieces {
		if p.kind != rLiteral {
			continue
		}
		if m := firstEnvRef(p.text); m != "" {
			if ref != nil || esc != nil {
				// The tool has a reference here, and the entry says the text
				// literally instead: the neutral format cannot.
				return "", n.fail(at, "%q holds the literal text %s, which %s keeps as written but an extension's MCP file reads as an environment reference: %s", v, m, n.profile.Name, fixValue)
			}
			n.warn("%s: %s keeps the text %s as written, but in an extension's MCP file it is an environment reference, which other tools expand", at, n.profile.Name, m)
		}
	}
	pieces = n.templates(pieces)
	for _, p := range pieces {
		if p.kind == rLiteral && strings.Contains(p.text, "<<") {
			return "", n.fail(at, "%q holds <<, which an extension's MCP file reads as the start of a template (<<root>>, …): %s", v, fixValue)
		}
	}
	return joinPieces(pieces), nil
}

// refPatterns caches the pattern of each reference syntax.
var refPatterns sync.Map // syntax and default flag -> *regexp.Regexp

// refPattern matches a reference written in syntax (NAME the placeholder):
// group 1 the name, group 3 the default where the tool has defaults.
func refPattern(syntax string, withDefault bool) *regexp.Regexp {
	id := fmt.Sprintf("%s\x00%t", syntax, withDefault)
	if re, ok := refPatterns.Load(id); ok {
		return re.(*regexp.Regexp)
	}
	before, after, _ := strings.Cut(syntax, "NAME")
	def := ""
	if withDefault {
		def = `(:-([^}]*))?`
	}
	re := regexp.MustCompile("^" + regexp.QuoteMeta(before) + `([A-Za-z_][A-Za-z0-9_]*)` + def + regexp.QuoteMeta(after))
	refPatterns.Store(id, re)
	return re
}

// split reads a value left to right into literal text (escapes undone),
// the tool's references and its workspace variable. With an escape, every
// special string that is not escaped and starts no reference is refused:
// the tool would expand it.
func (n *neutralizer) split(at, v string, ref *regexp.Regexp, esc map[string]string) ([]rpiece, error) {
	e := &n.profile.Entry
	refStart, _, _ := strings.Cut(e.EnvRef, "NAME")
	var out []rpiece
	lit := func(s string, start, end int) {
		out = append(out, rpiece{kind: rLiteral, text: s, start: start, end: end})
	}
	// Escape spellings, longest first, and the special strings they stand for.
	type pair struct{ special, spelled string }
	var pairs []pair
	for k, s := range esc {
		pairs = append(pairs, pair{k, s})
	}
	slices.SortFunc(pairs, func(a, b pair) int { return len(b.spelled) - len(a.spelled) })
next:
	for i := 0; i < len(v); {
		rest := v[i:]
		for _, p := range pairs {
			if strings.HasPrefix(rest, p.spelled) {
				lit(p.special, i, i+len(p.spelled))
				i += len(p.spelled)
				continue next
			}
		}
		if ref != nil && strings.HasPrefix(rest, refStart) {
			if m := ref.FindStringSubmatchIndex(rest); m != nil {
				name := rest[m[2]:m[3]]
				text := "${" + name + "}"
				if len(m) >= 8 && m[6] >= 0 {
					text = "${" + name + ":-" + rest[m[6]:m[7]] + "}"
				}
				out = append(out, rpiece{kind: rRef, text: text, start: i, end: i + m[1]})
				i += m[1]
				continue
			}
		}
		if e.RootVar != "" && strings.HasPrefix(rest, e.RootVar) {
			out = append(out, rpiece{kind: rTemplate, text: "<<root>>", start: i, end: i + len(e.RootVar)})
			i += len(e.RootVar)
			continue
		}
		for _, p := range pairs {
			if strings.HasPrefix(rest, p.special) {
				return nil, n.fail(at, "%q has an unescaped %s, which %s expands (it writes %s for the character itself), and an extension's MCP file can say no expansion but an environment reference ${NAME}: %s",
					v, p.special, n.profile.Name, p.spelled, fixValue)
			}
		}
		// One byte of literal text; a run of them is merged later.
		lit(v[i:i+1], i, i+1)
		i++
	}
	return out, nil
}

// check refuses text the tool would substitute under rule x (which has no
// escape) that is not one of its references or its workspace variable:
// the neutral format has no way to say it. A rule for a syntax authors
// write on purpose (resolved_only: Continue's ${{ secrets.X }}) lets it
// pass, as it does on the way out.
func (n *neutralizer) check(at, field, v string, pieces []rpiece, x *toolprofiles.Expansion) error {
	if x.ResolvedOnly {
		return nil
	}
	for _, m := range x.FindAllStringIndex(v, -1) {
		meant := false
		touches := false
		for _, p := range pieces {
			if p.kind != rLiteral && p.start == m[0] && p.end == m[1] {
				meant = true
				break
			}
			if p.kind == rLiteral && p.start < m[1] && p.end > m[0] {
				touches = true
			}
		}
		if meant || !touches {
			continue
		}
		what := "and which is no environment reference, the one thing an extension's MCP file can say that a tool expands"
		if e := &n.profile.Entry; e.ExpandsRefsIn(field) {
			what = fmt.Sprintf("but which is no environment reference (%s there), the one thing an extension's MCP file can say that a tool expands", e.EnvRef)
		}
		return n.fail(at, "%q holds %s, which %s expands %s: %s",
			v, v[m[0]:m[1]], n.profile.Name, what, fixValue)
	}
	return nil
}

// mergeLiterals joins neighbouring literal pieces.
func mergeLiterals(pieces []rpiece) []rpiece {
	var out []rpiece
	for _, p := range pieces {
		if k := len(out) - 1; k >= 0 && p.kind == rLiteral && out[k].kind == rLiteral {
			out[k].text += p.text
			out[k].end = p.end
			continue
		}
		out = append(out, p)
	}
	return out
}

// templates turns the root and the home folder, where literal text holds
// either as a whole path prefix, into <<root>> and <<home>>: the longer
// first, so a path is said from the nearer of the two (a root in the home
// folder is <<root>>).
func (n *neutralizer) templates(pieces []rpiece) []rpiece {
	order := []struct{ path, name string }{{n.opts.Root, "<<root>>"}, {n.opts.Home, "<<home>>"}}
	if len(n.opts.Home) > len(n.opts.Root) {
		order[0], order[1] = order[1], order[0]
	}
	for _, tmpl := range order {
		if !usablePrefix(tmpl.path) {
			continue
		}
		var out []rpiece
		for _, p := range pieces {
			if p.kind != rLiteral {
				out = append(out, p)
				continue
			}
			out = append(out, replacePath(p.text, tmpl.path, tmpl.name)...)
		}
		pieces = out
	}
	return pieces
}

// usablePrefix: an absolute path with at least one name in it (never "/").
func usablePrefix(p string) bool {
	return p != "" && filepath.IsAbs(p) && filepath.Dir(p) != p
}

// replacePath splits literal text s at each whole path occurrence of path:
// not preceded by a character a path name continues with, and followed by
// a separator or the end.
func replacePath(s, path, template string) []rpiece {
	var out []rpiece
	last := 0
	for i := 0; i <= len(s)-len(path); {
		j := strings.Index(s[i:], path)
		if j < 0 {
			break
		}
		start, end := i+j, i+j+len(path)
		before := start == 0 || !nameChar(s[start-1])
		after := end == len(s) || s[end] == '/' || s[end] == '\\'
		if !before || !after {
			i = start + 1
			continue
		}
		if start > last {
			out = append(out, rpiece{kind: rLiteral, text: s[last:start]})
		}
		out = append(out, rpiece{kind: rTemplate, text: template})
		last, i = end, end
	}
	if last < len(s) {
		out = append(out, rpiece{kind: rLiteral, text: s[last:]})
	}
	return out
}

// nameChar: a character a path name can continue with, so a path that
// starts right after it is part of a longer one.
func nameChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.' || c == '~'
}

// sameSetValue compares an entry's member with the fixed value the
// profile sets (entry.set).
func sameSetValue(v gjson.Result, want any) bool {
	return jsonvalue.Equal([]byte(v.Raw), []byte(setText(want)), jsonvalue.SameFloat)
}

// setText is a fixed value as JSON.
func setText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

func describe(v gjson.Result) string {
	switch {
	case v.IsObject():
		return "an object"
	case v.IsArray():
		return "a list"
	}
	switch v.Type {
	case gjson.String:
		return "a string"
	case gjson.Number:
		return "the number " + v.Raw
	case gjson.True, gjson.False:
		return "the boolean " + v.Raw
	case gjson.Null:
		return "null"
	}
	return "nothing"
}
