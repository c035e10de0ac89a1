package extensions

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/tidwall/gjson"

	"github.com/repo-manager/repo/internal/setting"
	"github.com/repo-manager/repo/internal/termtext"
)

// Declaration is one server of an MCP file as its author wrote it.
type Declaration struct {
	Name      string
	Line, Col int
	Spec
	Settings Settings
}

// knownFields lists the members a server may have, for the error about one
// it may not. A function, not a variable: only that error needs it, and
// building it was work every run did before main (bench/startup.sh).
func knownFields() string {
	return "command, args, env, cwd, type, url, headers, " + strings.Join(authFields, ", ") + ", " + strings.Join(setting.Names(), ", ")
}

// parseMCPFile reads the mcpServers map of an MCP file, keeping the order in
// which the author wrote servers, env and headers (it is kept in output).
func parseMCPFile(data []byte, file, ext string) ([]Declaration, error) {
	pos := func(offset int) (int, int) { return lineCol(data, offset) }
	fail := func(offset int, server, field, msg string) error {
		l, c := pos(offset)
		return &Error{File: file, Line: l, Col: c, Extension: ext, Server: server, Field: field, Msg: msg}
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if at := invalidUTF8(data); at >= 0 {
		// encoding/json and gjson would read such bytes as U+FFFD: every
		// path and word they are in would be written wrong, and nothing
		// would say so.
		return nil, fail(at, "", "", fmt.Sprintf("byte 0x%02x is not UTF-8; an MCP file is UTF-8 text (save it as UTF-8)", data[at]))
	}
	if err := validJSON(data); err != nil {
		var serr *json.SyntaxError
		if errors.As(err, &serr) {
			msg := serr.Error()
			if msg == "" {
				msg = "data after the top-level object"
			}
			return nil, fail(int(serr.Offset)-1, "", "", "invalid JSON: "+msg)
		}
		return nil, fail(0, "", "", "invalid JSON: "+err.Error())
	}
	root := gjson.ParseBytes(data)
	if !root.IsObject() {
		return nil, fail(root.Index, "", "", "the file must hold a JSON object with an \"mcpServers\" map")
	}
	servers := root.Get("mcpServers")
	if !servers.Exists() {
		return nil, fail(0, "", "mcpServers", "missing: the file must hold an \"mcpServers\" map")
	}
	if !servers.IsObject() {
		return nil, fail(servers.Index, "", "mcpServers", "must be an object of servers, not "+kind(servers))
	}
	if err := checkTopLevel(root, fail); err != nil {
		return nil, err
	}
	var decls []Declaration
	seen := map[string]bool{}
	var ferr error
	servers.ForEach(func(k, v gjson.Result) bool {
		name := k.String()
		if name == "" {
			ferr = fail(k.Index, "", "mcpServers", "a server name must not be empty")
			return false
		}
		if err := termtext.Check(name); err != nil {
			ferr = fail(k.Index, name, "", "a server name is printed by repo and the tools, and must be printable: "+err.Error()+"; rename the server")
			return false
		}
		if seen[name] {
			ferr = fail(k.Index, name, "", "server name appears twice in mcpServers")
			return false
		}
		seen[name] = true
		d, err := parseDeclaration(name, v, fail)
		if err != nil {
			ferr = err
			return false
		}
		d.Line, d.Col = pos(k.Index)
		decls = append(decls, d)
		return true
	})
	return decls, ferr
}

type failFunc func(offset int, server, field, msg string) error

func checkTopLevel(root gjson.Result, fail failFunc) error {
	var err error
	seen := map[string]bool{}
	root.ForEach(func(k, _ gjson.Result) bool {
		if seen[k.String()] {
			err = fail(k.Index, "", k.String(), "key appears twice")
			return false
		}
		seen[k.String()] = true
		return true
	})
	return err
}

func parseDeclaration(name string, v gjson.Result, fail failFunc) (Declaration, error) {
	d := Declaration{Name: name}
	if !v.IsObject() {
		return d, fail(v.Index, name, "", "a server must be an object, not "+kind(v))
	}
	var err error
	seen := map[string]bool{}
	v.ForEach(func(k, f gjson.Result) bool {
		field := k.String()
		if seen[field] {
			err = fail(k.Index, name, field, "appears twice")
			return false
		}
		seen[field] = true
		switch field {
		case "command", "cwd", "url", "type":
			if f.Type != gjson.String {
				err = fail(f.Index, name, field, "must be a string, not "+kind(f))
				return false
			}
			switch field {
			case "command":
				d.Command = f.String()
			case "cwd":
				d.Cwd = f.String()
			case "url":
				d.URL = f.String()
				if cerr := termtext.Check(d.URL); cerr != nil {
					err = fail(f.Index, name, field, "a URL holds no control or format character ("+cerr.Error()+"); percent-encode it")
					return false
				}
			case "type":
				d.Transport = f.String()
				if d.Transport == "streamable-http" {
					// The MCP spec's name of the transport; Claude Code
					// reads it as http too.
					d.Transport = HTTP
				}
			}
		case "args":
			d.Args, err = stringList(f, name, field, fail)
		case "env":
			d.Env, err = stringMap(f, name, field, fail)
		case "headers":
			d.Headers, err = stringMap(f, name, field, fail)
			for i := 0; err == nil && i < len(d.Headers); i++ {
				// A CR or LF in a header value would add a header to the
				// request (or make the tool refuse it).
				if cerr := termtext.Check(d.Headers[i].Value); cerr != nil {
					err = fail(f.Get(gjson.Escape(d.Headers[i].Key)).Index, name, "headers."+d.Headers[i].Key, "a header value holds no control or format character: "+cerr.Error())
				}
			}
		default:
			var ok bool
			if ok, err = parseAuth(&d, name, field, f, fail); ok {
				break
			}
			if ok, err = parseSetting(&d.Settings, name, field, f, fail); !ok {
				err = fail(k.Index, name, field, "unknown field (known: "+knownFields()+")")
			}
		}
		return err == nil
	})
	if err != nil {
		return d, err
	}
	return d, checkShape(&d, v, fail)
}

// checkShape enforces what each transport needs, so that a declaration no
// tool could start is refused here rather than written everywhere.
func checkShape(d *Declaration, v gjson.Result, fail failFunc) error {
	at := func(field string) int {
		if r := v.Get(gjson.Escape(field)); r.Exists() {
			return r.Index
		}
		return v.Index
	}
	if d.Transport == "" {
		d.Transport = Stdio
		if d.URL != "" {
			d.Transport = HTTP
		}
	}
	switch d.Transport {
	case Stdio:
		if strings.TrimSpace(d.Command) == "" {
			return fail(at("command"), d.Name, "command", "a stdio server needs a non-empty command")
		}
		for _, f := range []string{"url", "headers", "oauth", "headersHelper"} {
			if v.Get(f).Exists() {
				return fail(at(f), d.Name, f, "only remote (http, sse) servers take "+f)
			}
		}
	case HTTP, SSE:
		if d.URL == "" {
			return fail(at("url"), d.Name, "url", "a "+d.Transport+" server needs a url")
		}
		for _, f := range []string{"command", "args", "env", "cwd"} {
			if v.Get(f).Exists() {
				return fail(at(f), d.Name, f, "a "+d.Transport+" server takes url and headers, not "+f)
			}
		}
	default:
		return fail(at("type"), d.Name, "type", fmt.Sprintf("%q: use stdio, http (or streamable-http) or sse", d.Transport))
	}
	return nil
}

func stringList(f gjson.Result, server, field string, fail failFunc) ([]string, error) {
	if !f.IsArray() {
		return nil, fail(f.Index, server, field, "must be an array of strings, not "+kind(f))
	}
	out := []string{}
	var err error
	i := 0
	f.ForEach(func(_, e gjson.Result) bool {
		if e.Type != gjson.String {
			err = fail(e.Index, server, fmt.Sprintf("%s[%d]", field, i), "must be a string, not "+kind(e))
			return false
		}
		out = append(out, e.String())
		i++
		return true
	})
	return out, err
}

func stringMap(f gjson.Result, server, field string, fail failFunc) ([]KV, error) {
	if !f.IsObject() {
		return nil, fail(f.Index, server, field, "must be an object of strings, not "+kind(f))
	}
	out := []KV{}
	seen := map[string]bool{}
	var err error
	f.ForEach(func(k, e gjson.Result) bool {
		name := fmt.Sprintf("%s.%s", field, k.String())
		if cerr := termtext.Check(k.String()); cerr != nil {
			err = fail(k.Index, server, name, "a name in "+field+" must be printable: "+cerr.Error())
			return false
		}
		if seen[k.String()] {
			err = fail(k.Index, server, name, "appears twice")
			return false
		}
		seen[k.String()] = true
		if e.Type != gjson.String {
			err = fail(e.Index, server, name, "must be a string, not "+kind(e))
			return false
		}
		out = append(out, KV{Key: k.String(), Value: e.String()})
		return true
	})
	return out, err
}

func kind(r gjson.Result) string {
	switch {
	case r.IsObject():
		return "an object"
	case r.IsArray():
		return "an array"
	}
	switch r.Type {
	case gjson.String:
		return "a string"
	case gjson.Number:
		return "a number"
	case gjson.True, gjson.False:
		return "a boolean"
	case gjson.Null:
		return "null"
	}
	return "nothing"
}

// validJSON checks syntax with encoding/json, whose errors carry an offset.
// Anything but whitespace after the top-level value is an error at its
// own position.
func validJSON(data []byte) error {
	if json.Valid(data) { // the common case, checked without decoding
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	var v json.RawMessage
	if err := dec.Decode(&v); err != nil {
		return err
	}
	end := int(dec.InputOffset())
	if rest := bytes.TrimLeft(data[end:], " \t\r\n"); len(rest) > 0 {
		return &json.SyntaxError{Offset: int64(len(data) - len(rest) + 1)}
	}
	return nil
}

// invalidUTF8 is the offset of the first byte of data that is not part of
// a UTF-8 character, or -1.
func invalidUTF8(data []byte) int {
	if utf8.Valid(data) {
		return -1
	}
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size == 1 {
			return i
		}
		i += size
	}
	return -1
}

// lineCol turns a byte offset into a 1-based line and column (in runes).
func lineCol(data []byte, offset int) (int, int) {
	if offset < 0 {
		offset = 0
	}
	if offset > len(data) {
		offset = len(data)
	}
	before := data[:offset]
	line := bytes.Count(before, []byte("\n")) + 1
	start := bytes.LastIndexByte(before, '\n') + 1
	return line, len([]rune(string(before[start:]))) + 1
}
