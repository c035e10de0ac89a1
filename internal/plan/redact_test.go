package plan

import (
	"fmt"
	"strings"
	"testing"

	"github.com/repo-manager/repo/internal/ordered"
	"github.com/repo-manager/repo/internal/target"
	"github.com/repo-manager/repo/toolprofiles"
)

// Test credentials, made up; the names say where each one sits.
const (
	ghToken   = "ghp_0123456789abcdefghijklmnopqrstuvwxyzAB"
	anthropic = "sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789AbCdEfGhIjKlMnOpQrStUvWxYz0123456789AbCdEfGhIjKl-AAAAAA"
	hexKey    = "a8f5f167f44f4964e6c998dee827110c"
	password  = "correcthorsebatterystaple"
	urlPass   = "S3cretPassw0rd"
)

// maskAll is every line of text with its redactions, as a diff showing
// every line would print them.
func maskAll(text string, format target.Format, allow map[string]bool) string {
	shown := map[int]bool{}
	for i := 1; i <= strings.Count(text, "\n")+1; i++ {
		shown[i] = true
	}
	spans := secretSpans([]byte(text), format, shown, allow)
	lines := strings.SplitAfter(text, "\n")
	for i := range lines {
		lines[i] = mask(lines[i], spans[i+1])
	}
	return strings.Join(lines, "")
}

// TestRedactFormats: in each format family, every form a user's file
// holds a credential in is redacted, and the rest stays as it is.
func TestRedactFormats(t *testing.T) {
	cases := []struct {
		name   string
		format target.Format
		text   string
		secret []string // must be gone
		kept   []string // must stay
	}{
		{"claude.json", toolprofiles.FormatJSON, `{
  "numStartups": 42,
  "userID": "4f1d2c3b4a5968778695a4b3c2d1e0f9a8b7c6d5e4f30211a0b9c8d7e6f5a4b3",
  "oauthAccount": {
    "accountUuid": "3f2b8c9e-1d4a-4b7e-9f3c-2a1b0c9d8e7f",
    "emailAddress": "alice@example.com"
  },
  "primaryApiKey": "` + anthropic + `",
  "projects": {"/home/alice/work": {"mcpServers": {"gh": {"command": "npx", "args": ["-y", "gh-mcp", "--key", "` + hexKey + `"],
    "env": {"GITHUB_TOKEN": "` + ghToken + `", "DB_PASSWORD": "` + password + `", "HOME_DIR": "/home/alice"}},
    "remote": {"type": "http", "url": "https://alice:` + urlPass + `@h.example/mcp", "headers": {"Authorization": "Bearer ${TOKEN}"}}}}}
}
`, []string{anthropic, "alice@example.com", "3f2b8c9e-1d4a", hexKey, ghToken, password, urlPass},
			[]string{`"numStartups": 42`, `"command": "npx"`, `"/home/alice/work"`, `"HOME_DIR": "/home/alice"`, `"Bearer ${TOKEN}"`, "https://alice:<redacted>@h.example/mcp", `"4f1d2c3b`}},
		{"jsonc", toolprofiles.FormatJSONC, "{\n  // my token " + ghToken + "\n  \"servers\": {\"a\": {\"args\": [\"--password\", \"hunter2hunter2\", \"--root\", \".\"], \"env\": {\"K\": \"v\\u0041lue\", \"API_KEY\": \"esc\\\"aped-literal\"}}},\n  /* postgres://u:Pa55w0rd@h/db */\n  \"url\": \"https://h.example/?api_key=" + hexKey + "&x=1\",\n}\n",
			[]string{ghToken, "hunter2hunter2", "aped-literal", "Pa55w0rd", hexKey}, []string{`"--root", "."`, `"K": "v\u0041lue"`, "// my token <redacted>", "&x=1"}},
		{"codex config.toml", toolprofiles.FormatTOML, "model = \"o3\"\n# token: " + ghToken + "\n[mcp_servers.gh]\ncommand = \"npx\"\nenv = { GITHUB_TOKEN = \"" + ghToken + "\", DB_PASSWORD = '" + password + "' }\nhttp_headers = { \"X-Api-Key\" = \"abcdefgh12345678\" }\nargs = [\n  \"--key\",\n  \"" + hexKey + "\",\n]\nbearer_token = \"\"\"abcdefghijkl\nmnopqrstuvwx\"\"\"\n[mcp_servers.gh.env]\nAPI_KEY = \"literal-key-here\"\nPATH = \"/usr/bin\"\n[oauth]\nemail = \"alice@example.com\"\n",
			[]string{ghToken, password, "abcdefgh12345678", hexKey, "abcdefghijkl", "mnopqrstuvwx", "literal-key-here", "alice@example.com"},
			[]string{`model = "o3"`, `command = "npx"`, `PATH = "/usr/bin"`, `"--key",`}},
		{"continue config.yaml", toolprofiles.FormatYAML, "name: cfg\nmodels:\n  - name: gpt\n    apiKey: sk-0123456789abcdefghijklmnopqrstuvwxyzAB\n    password: 'correct''horsebattery'\n    url: https://alice:" + urlPass + "@h.example/x # and " + ghToken + "\nmcpServers:\n  - name: gh\n    command: npx\n    args:\n      - --token\n      - " + hexKey + "\n    args2: [\"--key\", plainvalue123]\n    env: {GITHUB_TOKEN: " + ghToken + ", B: \"x\", DB_PASSWORD: " + password + "}\n    env2:\n      DB_PASSWORD: \"" + password + "\"\nkey: |\n  -----BEGIN RSA PRIVATE KEY-----\n  MIIEowIBAAKCAQEA0123456789abcdefghABCDEFGHIJKLMNOPQRSTUVWxyz\n  -----END RSA PRIVATE KEY-----\nafter: fine-value\n",
			[]string{"sk-0123456789", "correct''horse", urlPass, ghToken, hexKey, "plainvalue123", password, "MIIEow", "BEGIN RSA PRIVATE"},
			[]string{"name: gpt", "command: npx", "- --token", "B: \"x\"", "after: fine-value", "https://alice:<redacted>@h.example/x"}},
	}
	for _, c := range cases {
		got := maskAll(c.text, c.format, nil)
		for _, s := range c.secret {
			if strings.Contains(got, s) {
				t.Errorf("%s: %q is still there:\n%s", c.name, s, got)
			}
		}
		for _, s := range append(c.kept, Redacted) {
			if !strings.Contains(got, s) {
				t.Errorf("%s: %q is gone:\n%s", c.name, s, got)
			}
		}
		if strings.Count(got, "\n") != strings.Count(c.text, "\n") {
			t.Errorf("%s: the lines changed:\n%s", c.name, got)
		}
	}
}

// claudeJSON is a ~/.claude.json as Claude Code leaves it: its own keys,
// the API key last.
const claudeJSON = `{
  "numStartups": 42,
  "oauthAccount": {
    "accountUuid": "3f2b8c9e-1d4a-4b7e-9f3c-2a1b0c9d8e7f",
    "emailAddress": "alice@example.com"
  },
  "primaryApiKey": "` + anthropic + `"
}
`

// TestDiffRedactsContext: a line that only gains a comma is printed twice
// (- and +), and context lines around repo's change are the user's: their
// credentials are redacted; repo's own entry is shown whole, a value that
// looks random included.
func TestDiffRedactsContext(t *testing.T) {
	entry := ordered.Object{{Key: "command", Value: "node"}, {Key: "args", Value: []string{"--seed", "aB3dE5fG7hI9jK1lM3nO5pQ7"}}}
	after := strings.TrimSuffix(claudeJSON, "\n}\n") + ",\n  \"mcpServers\": {\n    \"ext\": " + string(ordered.JSON(entry)) + "\n  }\n}\n"
	f := &FilePlan{Display: "~/.claude.json", Scope: "user", Existed: true, Before: []byte(claudeJSON), After: []byte(after),
		Format: toolprofiles.FormatJSON, ours: []any{entry}}
	d := Diff(f)
	for _, s := range []string{anthropic, "alice@example.com", "3f2b8c9e"} {
		if strings.Contains(d, s) {
			t.Errorf("the diff holds %q:\n%s", s, d)
		}
	}
	for _, s := range []string{"-  \"primaryApiKey\": \"<redacted>\"\n", "+  \"primaryApiKey\": \"<redacted>\",\n", "aB3dE5fG7hI9jK1lM3nO5pQ7", `"emailAddress": "<redacted>"`} {
		if !strings.Contains(d, s) {
			t.Errorf("the diff lacks %q:\n%s", s, d)
		}
	}
	if raw := RawDiff(f); !strings.Contains(raw, anthropic) || strings.Contains(raw, Redacted) {
		t.Errorf("RawDiff redacts:\n%s", raw)
	}
	// A record or a .gitignore (no format) is not a user's file.
	rec := &FilePlan{Display: "r.json", Existed: true, Before: []byte("{\"k\": \"" + ghToken + "\"}\n"), After: []byte("{}\n")}
	if d := Diff(rec); !strings.Contains(d, ghToken) {
		t.Errorf("a record is redacted:\n%s", d)
	}
}

// TestDiffOneLine: a one-line file is shown by its changed entry: the
// other servers are not printed, their token least of all; an update of
// repo's entry shows the entry, old and new.
func TestDiffOneLine(t *testing.T) {
	other := `"other":{"command":"uvx","args":["private-tool","--workspace","/home/alice/secret-project"]}`
	before := `{"mcpServers":{"gh":{"command":"npx","env":{"GITHUB_TOKEN":"` + ghToken + `"}},` + other + `}}`
	entry := ordered.Object{{Key: "command", Value: "node"}, {Key: "args", Value: []string{"/w/server.js"}}}
	after := strings.TrimSuffix(before, "}}") + `,"ext":` + string(ordered.JSON(entry)) + `}}`
	f := &FilePlan{Display: "~/.cursor/mcp.json", Scope: "user", Existed: true, Before: []byte(before), After: []byte(after),
		Format: toolprofiles.FormatJSON, ours: []any{entry}, Changes: []Change{{Action: ActionAdd, Entry: "ext"}}}
	d := Diff(f)
	want := "@@ -1 +1 @@\n-…]}}}\n\\ No newline at end of file\n+…]},\"ext\":{\"command\":\"node\",\"args\":[\"/w/server.js\"]}}}\n\\ No newline at end of file\n"
	if !strings.HasSuffix(d, want) {
		t.Errorf("one-line add:\n%s\nwant it to end in\n%s", d, want)
	}

	newer := ordered.Object{{Key: "command", Value: "node"}, {Key: "args", Value: []string{"/w/other.js"}}}
	again := strings.Replace(after, "/w/server.js", "/w/other.js", 1)
	f = &FilePlan{Display: "~/.cursor/mcp.json", Scope: "user", Existed: true, Before: []byte(after), After: []byte(again),
		Format: toolprofiles.FormatJSON, ours: []any{newer, ordered.JSON(entry)}, Changes: []Change{{Action: ActionUpdate, Entry: "ext"}}}
	d = Diff(f)
	want = "-…]},\"ext\":{\"command\":\"node\",\"args\":[\"/w/server.js\"]}}}\n\\ No newline at end of file\n+…]},\"ext\":{\"command\":\"node\",\"args\":[\"/w/other.js\"]}}}\n"
	if !strings.Contains(d, want) {
		t.Errorf("one-line update:\n%s\nwant\n%s", d, want)
	}
	if raw := RawDiff(f); !strings.Contains(raw, "private-tool") {
		t.Errorf("RawDiff shortens:\n%s", raw)
	}
}

// TestKeepOwn: what a shortened line keeps.
func TestKeepOwn(t *testing.T) {
	o := own{values: map[string]bool{"node": true}, keys: map[string]bool{"srv": true, "command": true}}
	for _, c := range []struct {
		line       string
		start, end int
		want       string
	}{
		{`{"a":"x","srv":{"command":"node"},"b":"y"}` + "\n", -1, -1, `…,"srv":{"command":"node"},…` + "\n"},
		{`{"a":"x","b":"y"}`, -1, -1, elision},
		{`{"a":"x","b":"yz"}`, 14, 15, `…:"yz"}`},
		{`{"a":"x","b":"y"}`, 8, 8, `…,…`},
	} {
		if got := keepOwn(c.line, c.start, c.end, o); got != c.want {
			t.Errorf("keepOwn(%q, %d, %d) = %q, want %q", c.line, c.start, c.end, got, c.want)
		}
	}
}

// FuzzRedactedDiff: the redacted diff of any two texts in any format
// has the raw diff's lines, each either as it is or with parts redacted
// or elided; it never panics.
func FuzzRedactedDiff(f *testing.F) {
	f.Add([]byte(claudeJSON), []byte(strings.Replace(claudeJSON, "42", "43", 1)), uint8(0))
	f.Add([]byte("a = \"x\"\n[t]\nk = '"+ghToken+"'\n"), []byte("a = \"y\"\n[t]\nk = '"+ghToken+"'\n"), uint8(3))
	f.Add([]byte("k: v\nl:\n  - --token\n  - "+hexKey+"\n"), []byte("k: w\nl:\n  - --token\n  - "+hexKey+"\n"), uint8(4))
	formats := []target.Format{toolprofiles.FormatJSON, toolprofiles.FormatJSONC, toolprofiles.FormatJSONComments, toolprofiles.FormatTOML, toolprofiles.FormatYAML}
	f.Fuzz(func(t *testing.T, old, new []byte, fi uint8) {
		fp := &FilePlan{Display: "f", Existed: true, Before: old, After: new, Format: formats[int(fi)%len(formats)]}
		red, raw := Diff(fp), RawDiff(fp)
		if strings.Count(red, "\n") != strings.Count(raw, "\n") {
			t.Fatalf("the redacted diff has other lines:\n%s\nraw:\n%s", red, raw)
		}
	})
}

// BenchmarkDiffLargeClaude is a dry run's diff of a ~/.claude.json of
// many projects (about 20 MB) that gains one entry in the middle:
// redacted (the default) and raw (--show-secrets). Redaction reads the
// whole text for its keys and containers; the detector judges only the
// values on the lines printed.
func BenchmarkDiffLargeClaude(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("{\n  \"primaryApiKey\": \"" + anthropic + "\",\n  \"projects\": {\n")
	for i := 0; i < 40000; i++ {
		fmt.Fprintf(&sb, "    \"/home/alice/p%d\": {\"allowedTools\": [], \"mcpServers\": {\"gh\": {\"command\": \"npx\", \"args\": [\"-y\", \"gh-mcp\"], \"env\": {\"GITHUB_TOKEN\": \"%s\"}}}, \"history\": [{\"display\": \"fix the build in /home/alice/p%d and run the tests\"}]},\n", i, ghToken, i)
		if i == 20000 {
			sb.WriteString("    \"/home/alice/ws\": {\"mcpServers\": {\n    }},\n")
		}
	}
	sb.WriteString("    \"/last\": {}\n  }\n}\n")
	before := sb.String()
	entry := ordered.Object{{Key: "command", Value: "node"}}
	after := strings.Replace(before, "\"/home/alice/ws\": {\"mcpServers\": {\n", "\"/home/alice/ws\": {\"mcpServers\": {\n      \"srv\": {\"command\": \"node\"}\n", 1)
	f := &FilePlan{Display: "~/.claude.json", Existed: true, Before: []byte(before), After: []byte(after), Format: toolprofiles.FormatJSON, ours: []any{entry}}
	b.SetBytes(int64(len(before)))
	for _, c := range []struct {
		name string
		diff func(*FilePlan) string
	}{{"redacted", Diff}, {"raw", RawDiff}} {
		b.Run(c.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if d := c.diff(f); !strings.Contains(d, "srv") {
					b.Fatal(d)
				}
			}
		})
	}
}

// TestDiffRedactsLargeFile: a large file is read from a while before its
// first printed line, and what is printed is redacted all the same.
func TestDiffRedactsLargeFile(t *testing.T) {
	defer func(n int) { windowMin = n }(windowMin)
	windowMin = 0
	var sb strings.Builder
	sb.WriteString("{\n  \"projects\": {\n")
	for i := 0; i < 5000; i++ {
		fmt.Fprintf(&sb, "    \"/p%d\": {\"env\": {\"GITHUB_TOKEN\": \"%s\"}},\n", i, ghToken)
	}
	sb.WriteString("    \"/last\": {}\n  },\n  \"oauthAccount\": {\n    \"emailAddress\": \"alice@example.com\"\n  },\n  \"primaryApiKey\": \"" + anthropic + "\"\n}\n")
	before := sb.String()
	after := strings.Replace(before, "    \"/p4000\": {", "    \"/p4000\": {\"mcpServers\": {\"srv\": {\"command\": \"node\"}}, ", 1)
	after = strings.Replace(after, "\"primaryApiKey\": \""+anthropic+"\"\n", "\"primaryApiKey\": \""+anthropic+"\",\n  \"x\": 1\n", 1)
	f := &FilePlan{Display: "~/.claude.json", Existed: true, Before: []byte(before), After: []byte(after), Format: toolprofiles.FormatJSON,
		ours: []any{ordered.Object{{Key: "command", Value: "node"}}}}
	d := Diff(f)
	for _, s := range []string{ghToken, anthropic, "alice@example.com"} {
		if strings.Contains(d, s) {
			t.Errorf("the diff holds %q:\n%s", s, d)
		}
	}
	if !strings.Contains(d, `"srv": {"command": "node"}`) || !strings.Contains(d, `"emailAddress": "<redacted>"`) {
		t.Errorf("the diff lacks the entry or the redaction:\n%s", d)
	}
}
