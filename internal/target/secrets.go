package target

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/repo-manager/repo/extensions"
	"github.com/repo-manager/repo/internal/credential"
	"github.com/repo-manager/repo/internal/termtext"
)

// Literal is a literal credential in one field of a server or an entry:
// what internal/credential found, and where.
type Literal struct {
	// Field names the value in the MCP file's terms: "env.DB_PASSWORD",
	// "headers.Cookie", "args[3]", "url", "command", "cwd"; for a tool's
	// entry, its own members ("environment.X", "http_headers.Y").
	Field string
	// Key is the name in the field's map (the variable or header), "" for
	// the others.
	Key string
	credential.Finding
}

// String is the field as a message shows it: text a workspace or a user
// chose, kept from acting on a terminal.
func (l Literal) String() string { return termtext.Safe(l.Field) }

// LiteralSecrets reports the literal credentials of a server, field by
// field: its command, arguments (a flag's value under the flag), variables
// and headers (under their names), cwd and URL. A reference (${NAME}) is
// never one; its literal default is.
func LiteralSecrets(s extensions.Server) []Literal {
	var found []Literal
	add := func(field, key string, fs []credential.Finding) {
		for _, f := range fs {
			found = append(found, Literal{Field: field, Key: key, Finding: f})
		}
	}
	add("command", "", credential.Check("", s.Command))
	for _, a := range credential.Args(s.Args) {
		found = append(found, Literal{Field: "args[" + strconv.Itoa(a.Index) + "]", Finding: a.Finding})
	}
	for _, kv := range s.Env {
		add("env."+kv.Key, kv.Key, credential.Check(kv.Key, kv.Value))
	}
	add("cwd", "", credential.Check("", s.Cwd))
	add("url", "", credential.Check("", s.URL))
	for _, kv := range s.Headers {
		add("headers."+kv.Key, kv.Key, credential.Check(kv.Key, kv.Value))
	}
	if a := s.Auth; a != nil {
		// A helper is a command line: a token may sit in it as in args.
		add("headersHelper", "", credential.Check("", a.HeadersHelper))
		if o := a.OAuth; o != nil {
			add("oauth.authServerMetadataUrl", "", credential.Check("", o.AuthServerMetadataURL))
		}
	}
	return found
}

// EntrySecrets reports the literal credentials in a tool's entry (strict
// JSON, as the editors give it), whatever the tool calls its members: a
// string under a key is judged under that key, a list of strings as a
// command's arguments, and the path of the member names the field
// (env.X, args[2], http_headers.Authorization, command[3]). What cannot be
// read as JSON holds none.
func EntrySecrets(value []byte) []Literal {
	var found []Literal
	walkEntry(gjson.ParseBytes(value), "", "", &found)
	return found
}

// SecretStrings are the bytes of the literal credentials in a tool's
// entry (strict JSON): what a message about the entry must not print
// (HideSecrets).
func SecretStrings(value []byte) []string {
	var out []string
	var walk func(v gjson.Result, key string)
	walk = func(v gjson.Result, key string) {
		switch {
		case v.Type == gjson.String:
			for _, f := range credential.Check(key, v.Str) {
				out = append(out, v.Str[f.Start:f.End])
			}
		case v.IsArray():
			var strs []string
			v.ForEach(func(_, m gjson.Result) bool {
				strs = append(strs, m.Str)
				walk(m, key)
				return true
			})
			for _, a := range credential.Args(strs) {
				out = append(out, strs[a.Index][a.Start:a.End])
			}
		case v.IsObject():
			v.ForEach(func(k, m gjson.Result) bool { walk(m, k.Str); return true })
		}
	}
	walk(gjson.ParseBytes(value), "")
	return out
}

// HideSecrets is s with each of secrets, as it is and as Go quotes it,
// replaced by <redacted>.
func HideSecrets(s string, secrets []string) string {
	for _, x := range secrets {
		if x == "" {
			continue
		}
		q := strconv.Quote(x)
		s = strings.ReplaceAll(strings.ReplaceAll(s, q[1:len(q)-1], "<redacted>"), x, "<redacted>")
	}
	return s
}

func walkEntry(v gjson.Result, path, key string, found *[]Literal) {
	switch {
	case v.Type == gjson.String:
		for _, f := range credential.Check(key, v.Str) {
			*found = append(*found, Literal{Field: path, Key: key, Finding: f})
		}
	case v.IsArray() && credential.IsName(key):
		for i, it := range v.Array() {
			walkEntry(it, fmt.Sprintf("%s[%d]", path, i), key, found)
		}
	case v.IsArray():
		items := v.Array()
		strs := make([]string, 0, len(items))
		for _, it := range items {
			if it.Type != gjson.String {
				strs = nil
				break
			}
			strs = append(strs, it.Str)
		}
		if strs != nil {
			for _, a := range credential.Args(strs) {
				*found = append(*found, Literal{Field: fmt.Sprintf("%s[%d]", path, a.Index), Finding: a.Finding})
			}
			return
		}
		for i, it := range items {
			walkEntry(it, fmt.Sprintf("%s[%d]", path, i), key, found)
		}
	case v.IsObject():
		v.ForEach(func(k, m gjson.Result) bool {
			p := k.Str
			if path != "" {
				p = path + "." + k.Str
			}
			walkEntry(m, p, k.Str, found)
			return true
		})
	}
}

// Leak is a literal credential of a server whose entry goes into project
// files: the server, the field, and the targets.
type Leak struct {
	Server  extensions.Server
	Literal Literal
	Targets []*Target
}

// ProjectLeaks returns the literal credentials of the servers whose
// entries go into the project targets among targets, each with those
// targets. Whether git commits a target is the caller's to tell (package
// gittrack): a project file is meant to be committed unless [mcp]
// gitignore makes it each clone's own.
func ProjectLeaks(targets []*Target, servers []extensions.Server) []Leak {
	var out []Leak
	for _, s := range servers {
		var into []*Target
		for _, t := range targets {
			if t.Scope == ScopeProject && slices.ContainsFunc(t.Entries, func(d Desired) bool { return d.Name == s.Name }) {
				into = append(into, t)
			}
		}
		if len(into) == 0 {
			continue
		}
		for _, l := range LiteralSecrets(s) {
			out = append(out, Leak{Server: s, Literal: l, Targets: into})
		}
	}
	return out
}
