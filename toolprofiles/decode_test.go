package toolprofiles

import (
	"strings"
	"testing"
)

// validProfile is a minimal correct profile; the tests break one thing at a time.
const validProfile = `id = "mytool"
name = "My Tool"
mcp = true
evidence = "docs"
sources = ["https://example.com/docs/mcp"]
detect = [".mytool"]

[scopes.project]
paths = [".mytool/mcp.json"]
format = "json"
key = ["mcpServers"]

[entry]
command = "string"
env_ref = "${NAME}"
`

func TestDecodeValid(t *testing.T) {
	p, err := Decode([]byte(validProfile), "test.toml")
	if err != nil {
		t.Fatalf("Decode: %v", err)
	}
	if p.ID != "mytool" || p.Origin() != "test.toml" {
		t.Fatalf("id %q origin %q", p.ID, p.Origin())
	}
	e := p.Entry
	if e.CommandField != "command" || e.ArgsField != "args" || e.EnvField != "env" {
		t.Fatalf("defaults not applied: %+v", e)
	}
}

func TestDecodeRemoteDefaults(t *testing.T) {
	src := validProfile + "\n[entry.remote]\nhttp = {}\nsse = { url_field = \"serverUrl\" }\n"
	p, err := Decode([]byte(src), "test.toml")
	if err != nil {
		t.Fatalf("Decode: %v", err)
	}
	r := p.Entry.Remote
	if r == nil || r.HTTP == nil || r.SSE == nil {
		t.Fatalf("remote = %+v", r)
	}
	if r.HTTP.URLField != "url" || r.SSE.URLField != "serverUrl" || r.HeadersField != "headers" {
		t.Fatalf("remote defaults: http %+v sse %+v headers %q", *r.HTTP, *r.SSE, r.HeadersField)
	}
}

func TestDecodeErrors(t *testing.T) {
	const origin = ".repository/toolprofiles/mytool.toml"
	tests := []struct {
		name string
		src  string
		want []string // every part must appear in the error text
	}{
		{
			name: "unknown top-level key",
			src:  strings.Replace(validProfile, `mcp = true`, "mcp = true\nhomepage = \"x\"", 1),
			want: []string{"line 4", `unknown key "homepage"`},
		},
		{
			name: "misspelt scope table",
			src:  strings.Replace(validProfile, `[scopes.project]`, `[scopes.projct]`, 1),
			want: []string{"line 8", `unknown key "scopes.projct"`},
		},
		{
			name: "misspelt entry key",
			src:  strings.Replace(validProfile, `command = "string"`, `comand = "string"`, 1),
			want: []string{"line 14", `unknown key "entry.comand"`},
		},
		{
			name: "misspelt remote key",
			src:  validProfile + "\n[entry.remote]\nhttp = { typ = \"http\" }\n",
			// go-toml leaves the inline table's own name ("http") out of the key.
			want: []string{"line 18", `unknown key "entry.remote.`, `typ"`},
		},
		{
			name: "every unknown key is named",
			src:  strings.Replace(validProfile, `mcp = true`, "mcp = true\nfoo = 1\nbar = 2", 1),
			want: []string{`line 4, column 1: unknown key "foo"`, `line 5, column 1: unknown key "bar"`},
		},
		{
			name: "wrong type",
			src:  strings.Replace(validProfile, `mcp = true`, `mcp = "yes"`, 1),
			want: []string{"line 3", "bool"},
		},
		{
			name: "string where a list is expected",
			src:  strings.Replace(validProfile, `paths = [".mytool/mcp.json"]`, `paths = ".mytool/mcp.json"`, 1),
			want: []string{"line 9"},
		},
		{
			name: "TOML syntax error",
			src:  strings.Replace(validProfile, `name = "My Tool"`, `name = "My Tool`, 1),
			want: []string{"line 2"},
		},
		{
			name: "bad format value",
			src:  strings.Replace(validProfile, `format = "json"`, `format = "xml"`, 1),
			want: []string{"scopes.project", `format "xml"`},
		},
		{
			name: "bad id",
			src:  strings.Replace(validProfile, `id = "mytool"`, `id = "My_Tool"`, 1),
			want: []string{`id "My_Tool"`},
		},
		{
			name: "missing id",
			src:  strings.Replace(validProfile, `id = "mytool"`, ``, 1),
			want: []string{`id ""`},
		},
		{
			name: "bad evidence",
			src:  strings.Replace(validProfile, `evidence = "docs"`, `evidence = "sure"`, 1),
			want: []string{`evidence "sure"`},
		},
		{
			name: "no sources",
			src:  strings.Replace(validProfile, `sources = ["https://example.com/docs/mcp"]`, `sources = []`, 1),
			want: []string{"sources"},
		},
		{
			name: "mcp false with scopes",
			src:  strings.Replace(validProfile, `mcp = true`, `mcp = false`, 1),
			want: []string{"mcp = false but scopes are given"},
		},
		{
			name: "mcp true without scopes",
			src:  "id = \"mytool\"\nname = \"M\"\nmcp = true\nevidence = \"docs\"\nsources = [\"s\"]\n",
			want: []string{"needs at least one scope"},
		},
		{
			name: "env_ref without NAME",
			src:  strings.Replace(validProfile, `env_ref = "${NAME}"`, `env_ref = "${VAR}"`, 1),
			want: []string{`entry.env_ref "${VAR}" must contain NAME`},
		},
		{
			name: "env_ref_default without env_ref",
			src:  strings.Replace(validProfile, `env_ref = "${NAME}"`, `env_ref_default = true`, 1),
			want: []string{"env_ref_default needs entry.env_ref"},
		},
		{
			name: "bad command shape",
			src:  strings.Replace(validProfile, `command = "string"`, `command = "list"`, 1),
			want: []string{`entry.command "list"`},
		},
		{
			name: "type value without type field",
			src:  validProfile + "stdio_type = \"stdio\"\n",
			want: []string{"needs entry.type_field"},
		},
		{
			name: "empty remote",
			src:  validProfile + "\n[entry.remote]\nheaders_field = \"h\"\n",
			want: []string{"entry.remote: give http, sse or both"},
		},
		{
			name: "absolute project path",
			src:  strings.Replace(validProfile, `paths = [".mytool/mcp.json"]`, `paths = ["~/.mytool/mcp.json"]`, 1),
			want: []string{"scopes.project", "project paths are relative"},
		},
		{
			name: "relative user path",
			src:  validProfile + "\n[scopes.user]\npaths = [\".mytool.json\"]\nformat = \"json\"\nkey = [\"mcpServers\"]\n",
			want: []string{"scopes.user", `path ".mytool.json"`},
		},
		{
			name: "relative per-OS user path",
			src:  validProfile + "\n[scopes.user]\npaths = [\"~/.m.json\"]\npaths_windows = [\"AppData/m.json\"]\nformat = \"json\"\nkey = [\"mcpServers\"]\n",
			want: []string{"scopes.user", `path "AppData/m.json"`},
		},
		{
			name: "no paths",
			src:  strings.Replace(validProfile, `paths = [".mytool/mcp.json"]`, `paths = []`, 1),
			want: []string{"scopes.project", "at least one path"},
		},
		{
			name: "no key",
			src:  strings.Replace(validProfile, `key = ["mcpServers"]`, `key = []`, 1),
			want: []string{"scopes.project", "key"},
		},
		{
			name: "empty key segment",
			src:  strings.Replace(validProfile, `key = ["mcpServers"]`, `key = ["a", ""]`, 1),
			want: []string{"scopes.project", "segments must not be empty"},
		},
		{
			name: "bad unsupported_os",
			src:  strings.Replace(validProfile, `format = "json"`, "format = \"json\"\nunsupported_os = [\"macos\"]", 1),
			want: []string{`unsupported_os "macos"`},
		},
		{
			name: "absolute detect marker",
			src:  strings.Replace(validProfile, `detect = [".mytool"]`, `detect = ["/etc/mytool"]`, 1),
			want: []string{`detect "/etc/mytool"`},
		},
		{
			name: "user marker in detect",
			src:  strings.Replace(validProfile, `detect = [".mytool"]`, `detect = ["~/.mytool"]`, 1),
			want: []string{`detect "~/.mytool"`, "go in detect_user"},
		},
		{
			name: "relative user marker",
			src:  strings.Replace(validProfile, `detect = [".mytool"]`, "detect = [\".mytool\"]\ndetect_user = [\".mytool\"]", 1),
			want: []string{`detect_user ".mytool": use a path starting with ~/ or ${VAR}`},
		},
		{
			name: "relative per-OS user marker",
			src:  strings.Replace(validProfile, `detect = [".mytool"]`, "detect = [\".mytool\"]\ndetect_user_windows = [\"AppData/mytool\"]", 1),
			want: []string{`detect_user_windows "AppData/mytool": use a path starting with ~/ or ${VAR}`},
		},
		{
			name: "binary with a folder",
			src:  strings.Replace(validProfile, `detect = [".mytool"]`, "detect = [\".mytool\"]\nbinaries = [\"bin/mytool\"]", 1),
			want: []string{`binaries "bin/mytool": give the executable's file name`},
		},
		{
			name: "binary listed twice",
			src:  strings.Replace(validProfile, `detect = [".mytool"]`, "detect = [\".mytool\"]\nbinaries = [\"mt\", \"mt\"]", 1),
			want: []string{`binaries "mt" is listed twice`},
		},
		{
			name: "preserve names a written field",
			src:  validProfile + "cwd_field = \"cwd\"\npreserve = [\"cwd\"]\n",
			want: []string{`entry.preserve "cwd"`, "from the server itself"},
		},
		{
			// A member repo never writes is the tool's or the user's anyway:
			// listing it would say it needs protecting, which it does not.
			name: "preserve names a member repo never writes",
			src:  validProfile + "preserve = [\"disabled\"]\n",
			want: []string{`entry.preserve "disabled"`, "repo never writes it"},
		},
		{
			name: "preserve names a member twice",
			src:  validProfile + "preserve = [\"enabled\", \"enabled\"]\n\n[entry.settings]\nenabled = { field = \"enabled\" }\n",
			want: []string{`entry.preserve "enabled" is listed twice`},
		},
		{
			name: "former place with more than a place",
			src:  strings.Replace(validProfile, "key = [\"mcpServers\"]\n", "key = [\"mcpServers\"]\nformer = [{ paths = [\".old.json\"], format = \"json\", key = [\"servers\"], skeleton = \"{}\" }]\n", 1),
			want: []string{"scopes.project: former[0]: give paths, format, key"},
		},
		{
			name: "former place outside the workspace for project scope",
			src:  strings.Replace(validProfile, "key = [\"mcpServers\"]\n", "key = [\"mcpServers\"]\nformer = [{ paths = [\"~/.old.json\"], format = \"json\", key = [\"servers\"] }]\n", 1),
			want: []string{"scopes.project: former[0]: path \"~/.old.json\": project paths are relative to the root"},
		},
		{
			name: "extension variable outside the project scope",
			src:  strings.Replace(validProfile, "[scopes.project]\npaths = [\".mytool/mcp.json\"]", "[scopes.user]\npaths = [\"~/.mytool/<<extension>>/mcp.json\"]", 1),
			want: []string{"<<extension>> is for project files only"},
		},
		{
			name: "extension variable inside a name",
			src:  strings.Replace(validProfile, "paths = [\".mytool/mcp.json\"]", "paths = [\".mytool/x-<<extension>>/mcp.json\"]", 1),
			want: []string{"must be one whole folder name of the path"},
		},
		{
			name: "set names a written field",
			src:  validProfile + "\n[entry.set]\ncommand = \"x\"\n",
			want: []string{`entry.set "command"`},
		},
		{
			name: "misspelt expansion key",
			src:  validProfile + "\n[[entry.expands]]\nfields = [\"args\"]\npatern = 'x'\n",
			want: []string{"line 19", `unknown key "entry.expands.patern"`},
		},
		{
			name: "reference scope names an unknown value",
			src:  validProfile + "env_ref_fields = [\"env\", \"arguments\"]\n",
			want: []string{`entry.env_ref_fields: "arguments": use command, args, env, cwd, url, headers`},
		},
		{
			name: "reference scope without a reference syntax",
			src:  strings.Replace(validProfile, `env_ref = "${NAME}"`, `env_ref_fields = ["env"]`, 1),
			want: []string{"entry.env_ref_fields needs entry.env_ref"},
		},
		{
			name: "expansion without fields",
			src:  validProfile + "\n[[entry.expands]]\npattern = 'x'\n",
			want: []string{"entry.expands[0]: fields: name at least one of"},
		},
		{
			name: "expansion listing a value twice",
			src:  validProfile + "\n[[entry.expands]]\nfields = [\"env\", \"env\"]\npattern = 'x'\n",
			want: []string{`entry.expands[0]: fields: "env" is listed twice`},
		},
		{
			name: "expansion with both a pattern and an escape",
			src:  validProfile + "\n[[entry.expands]]\nfields = [\"env\"]\npattern = 'x'\nescape = { '$' = '\\$' }\n",
			want: []string{"entry.expands[0]: give either pattern (the tool has no escape) or escape"},
		},
		{
			name: "expansion with neither",
			src:  validProfile + "\n[[entry.expands]]\nfields = [\"env\"]\n",
			want: []string{"entry.expands[0]: give either pattern"},
		},
		{
			name: "pattern that does not compile",
			src:  validProfile + "\n[[entry.expands]]\nfields = [\"env\"]\npattern = '\\$('\n",
			want: []string{"entry.expands[0]: pattern: error parsing regexp"},
		},
		{
			name: "pattern matching everything",
			src:  validProfile + "\n[[entry.expands]]\nfields = [\"env\"]\npattern = 'x*'\n",
			want: []string{`entry.expands[0]: pattern "x*" matches the empty string`},
		},
		{
			name: "escape keys that overlap",
			src:  validProfile + "\n[[entry.expands]]\nfields = [\"env\"]\nescape = { '$' = '$$', '${' = '\\${' }\n",
			want: []string{`entry.expands[0]: escape: "$" is a prefix of "${"`},
		},
		{
			name: "escape that changes nothing",
			src:  validProfile + "\n[[entry.expands]]\nfields = [\"env\"]\nescape = { '$' = '$' }\n",
			want: []string{`escape "$" = "$": give a non-empty string and a different spelling`},
		},
		{
			name: "resolved_only with an escape",
			src:  validProfile + "\n[[entry.expands]]\nfields = [\"env\"]\nescape = { '$' = '\\$' }\nresolved_only = true\n",
			want: []string{"entry.expands[0]: resolved_only needs a pattern"},
		},
		{
			name: "expansion on an unknown OS",
			src:  validProfile + "\n[[entry.expands]]\nfields = [\"env\"]\npattern = 'x'\nos = [\"win32\"]\n",
			want: []string{`entry.expands[0]: os "win32": use linux, darwin or windows`},
		},
		{
			name: "expansion naming an unknown key",
			src:  validProfile + "\n[[entry.expands]]\nfields = [\"env\"]\nkeys = [\"args\"]\npattern = 'x'\n",
			want: []string{`entry.expands[0]: keys: "args": use name, env, headers`},
		},
		{
			name: "expansion escaping the server's name",
			src:  validProfile + "\n[[entry.expands]]\nfields = [\"env\"]\nkeys = [\"env\", \"name\"]\nescape = { '$' = '$$' }\n",
			want: []string{"entry.expands[0]: keys: a server's name is never escaped"},
		},
		{
			name: "a string that is not printable",
			src:  strings.Replace(validProfile, `name = "My Tool"`, `name = "My\u001b]0;x\u0007Tool"`, 1),
			want: []string{`must be printable: name: control character U+001B at byte 2`},
		},
		{
			name: "two escaping rules",
			src: validProfile + "\n[[entry.expands]]\nfields = [\"env\"]\nescape = { '$' = '\\$' }\n" +
				"\n[[entry.expands]]\nfields = [\"args\"]\nescape = { '%' = '%%' }\n",
			want: []string{"entry.expands: at most one rule may have an escape"},
		},
		{
			name: "relative local path outside the repository is fine, relative user path is not",
			src:  validProfile + "\n[scopes.local]\npaths = [\".mytool/local.json\"]\nformat = \"json\"\nkey = [\"m\"]\n[scopes.user]\npaths = [\"u.json\"]\nformat = \"json\"\nkey = [\"m\"]\n",
			want: []string{"scopes.user", `path "u.json"`},
		},
		{
			name: "install without a reason",
			src:  validProfile + installOf("os = \"windows\"\nmarker = \"${LOCALAPPDATA}/P\"\npath = \"${LOCALAPPDATA}/P/f.json\""),
			want: []string{"scopes.project", "installs[0]", "name, marker, path and reason are required"},
		},
		{
			name: "install on an unknown OS",
			src:  validProfile + installOf("name = \"pkg\"\nos = \"win\"\nmarker = \"~/P\"\npath = \"~/P/f.json\"\nreason = \"r\""),
			want: []string{"installs[0] (pkg)", `os "win"`},
		},
		{
			name: "install on an unsupported OS",
			src: strings.Replace(validProfile, `format = "json"`, "format = \"json\"\nunsupported_os = [\"linux\"]", 1) +
				installOf("name = \"pkg\"\nos = \"linux\"\nmarker = \"~/P\"\npath = \"~/P/f.json\"\nreason = \"r\""),
			want: []string{"installs[0] (pkg)", "unsupported_os"},
		},
		{
			name: "relative install path",
			src:  validProfile + installOf("name = \"pkg\"\nos = \"windows\"\nmarker = \"P\"\npath = \"~/P/f.json\"\nreason = \"r\""),
			want: []string{"installs[0] (pkg)", `"P"`, "start with ~, / or ${VAR}"},
		},
		{
			name: "advice with an unknown check",
			src:  validProfile + "\n[[advice]]\ncheck = \"nag\"\nmessage = \"m\"\nfix = \"f\"\n",
			want: []string{"advice[0]", `check "nag"`, "toggle, approval, trust, name"},
		},
		{
			name: "advice without a fix",
			src:  validProfile + "\n[[advice]]\ncheck = \"toggle\"\nmessage = \"m\"\n",
			want: []string{"advice[0]", "message and fix are required"},
		},
		{
			name: "advice for a scope the tool does not have",
			src:  validProfile + "\n[[advice]]\nscopes = [\"user\"]\ncheck = \"toggle\"\nmessage = \"m\"\nfix = \"f\"\n",
			want: []string{"advice[0]", `scope "user"`},
		},
		{
			name: "name advice without a pattern",
			src:  validProfile + "\n[[advice]]\ncheck = \"name\"\nmessage = \"m\"\nfix = \"f\"\n",
			want: []string{"advice[0]", "name_pattern go together"},
		},
		{
			name: "advice with a bad pattern",
			src:  validProfile + "\n[[advice]]\ncheck = \"name\"\nname_pattern = \"(\"\nmessage = \"m\"\nfix = \"f\"\n",
			want: []string{"advice[0]", "name_pattern"},
		},
		{
			name: "advice on a tool without MCP",
			src:  "id = \"x\"\nname = \"X\"\nmcp = false\nevidence = \"2nd\"\nsources = [\"s\"]\n\n[[advice]]\ncheck = \"toggle\"\nmessage = \"m\"\nfix = \"f\"\n",
			want: []string{"mcp = false but advice is given"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Decode([]byte(tt.src), origin)
			if err == nil {
				t.Fatalf("Decode succeeded (%+v), want an error", p)
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, origin+": ") {
				t.Errorf("error %q does not start with the origin %q", msg, origin)
			}
			for _, w := range tt.want {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q does not contain %q", msg, w)
				}
			}
		})
	}
}

// TestDecodeExpansions: the reference scope and expansion rules decode into
// what the translator reads, and the helpers answer from them.
func TestDecodeExpansions(t *testing.T) {
	src := validProfile + `env_ref_fields = ["env", "headers"]

[[entry.expands]]
fields = ["env", "headers"]
pattern = '\$\{[^}]*\}'

[[entry.expands]]
fields = ["command", "args"]
os = ["windows"]
escape = { '%' = '^%', '^' = '^^' }
`
	p, err := Decode([]byte(src), "test.toml")
	if err != nil {
		t.Fatalf("Decode: %v", err)
	}
	e := &p.Entry
	for field, want := range map[string]bool{"env": true, "headers": true, "args": false, "command": false, "url": false} {
		if got := e.ExpandsRefsIn(field); got != want {
			t.Errorf("ExpandsRefsIn(%s) = %v, want %v", field, got, want)
		}
	}
	if len(e.Expands) != 2 {
		t.Fatalf("expands = %+v", e.Expands)
	}
	x, y := &e.Expands[0], &e.Expands[1]
	if x.Regexp() == nil || !x.Regexp().MatchString("a${HOME}") || x.Replacer() != nil {
		t.Errorf("rule 0 = %+v", x)
	}
	if !x.Applies("env", "linux") || x.Applies("args", "linux") {
		t.Error("rule 0 applies to the wrong values")
	}
	if y.Regexp() != nil || !y.Applies("args", "windows") || y.Applies("args", "linux") || y.Applies("args", "") {
		t.Errorf("rule 1 applies on the wrong OS: %+v", y)
	}
	if got := y.Replacer().Replace("50% ^x"); got != "50^% ^^x" {
		t.Errorf("rule 1 escapes %q", got)
	}
	// Without env_ref_fields, a tool expands its references everywhere.
	q, err := Decode([]byte(validProfile), "test.toml")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range ValueFields {
		if !q.Entry.ExpandsRefsIn(f) {
			t.Errorf("default scope leaves out %s", f)
		}
	}
}

func TestDecodeMCPFalse(t *testing.T) {
	src := "id = \"aider\"\nname = \"Aider\"\nmcp = false\nevidence = \"2nd\"\nsources = [\"tool-formats.md: Aider\"]\n"
	p, err := Decode([]byte(src), "aider.toml")
	if err != nil {
		t.Fatalf("Decode: %v", err)
	}
	if p.MCP || p.Scopes.Get(ScopeUser) != nil {
		t.Fatalf("got %+v", p)
	}
}

// installOf is an installs table for the project scope of validProfile.
func installOf(body string) string {
	return "\n[[scopes.project.installs]]\n" + body + "\n"
}
