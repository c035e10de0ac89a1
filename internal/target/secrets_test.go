package target

import (
	"reflect"
	"testing"

	"github.com/repo-manager/repo/extensions"
	"github.com/repo-manager/repo/internal/credential"
)

func fields(ls []Literal) []string {
	var out []string
	for _, l := range ls {
		out = append(out, l.Field+" "+string(l.Rule))
	}
	return out
}

func TestLiteralSecrets(t *testing.T) {
	s := extensions.Server{Name: "s", Spec: extensions.Spec{
		Command: "node",
		Args:    []string{"--token", "abcd1234efgh5678", "--api-key=ghp_0123456789abcdefABCDEF0123456789abcd", "--root", "/home/u/work/project-2024", "--key", "tls.key"},
		Env: []extensions.KV{
			{Key: "GITHUB_TOKEN", Value: "${GITHUB_TOKEN}"},                             // a reference: fine
			{Key: "API_KEY", Value: "Zm9vYmFyYmF6cXV4MTIz"},                             // literal
			{Key: "AUTH_MODE", Value: "local"},                                          // a word: fine
			{Key: "SESSION_DIR", Value: "/tmp/sessions"},                                // a path: fine
			{Key: "OPENAI", Value: "sk-proj-abcdefghijklmnop123456"},                    // known format
			{Key: "DB_PASSWORD", Value: "correcthorsebatterystaple"},                    // letters only
			{Key: "DATABASE_URL", Value: "postgres://u:Pa55w0rdXYZ@h/db"},               // a connection string
			{Key: "GH", Value: "${GH_TOKEN:-ghp_0123456789abcdefABCDEF0123456789abcd}"}, // a default
		},
		URL:     "https://alice:S3cretPassw0rd@h.example/mcp?api_key=a8f5f167f44f4964e6c998dee827110c",
		Headers: []extensions.KV{{Key: "Authorization", Value: "Bearer eyJhbGciOiJIUzI1NiJ9abc123"}, {Key: "Cookie", Value: "sessionid=abcdefgh1234"}},
	}}
	got := fields(LiteralSecrets(s))
	want := []string{"args[1] named", "args[2] token", "env.API_KEY named", "env.OPENAI token", "env.DB_PASSWORD named",
		"env.DATABASE_URL url-password", "env.GH reference-default", "url url-password", "url url-query",
		"headers.Authorization named", "headers.Cookie named"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
}

// TestEntrySecrets: a tool's entry, in its own dialect, is judged member
// by member, whatever the tool calls them.
func TestEntrySecrets(t *testing.T) {
	entry := `{"type":"local","command":["npx","-y","srv","--key","a8f5f167f44f4964e6c998dee827110c"],
		"environment":{"OPENAI_KEY":"abcd1234efgh5678ijkl","HOME_DIR":"/home/u"},
		"http_headers":{"X-Api-Key":"plainletterskey","Accept":"application/json"},
		"url":"https://h.example/mcp?token=${TOKEN}","enabled":true,"timeout":30,
		"apiKeys":["first-long-literal"],"nested":{"deeper":{"password":"hunter2hunter2"}}, "bad": "{env:X}"}`
	got := fields(EntrySecrets([]byte(entry)))
	want := []string{"command[4] named", "environment.OPENAI_KEY named", "http_headers.X-Api-Key named",
		"apiKeys[0] named", "nested.deeper.password named"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
	if got := EntrySecrets([]byte(`not json`)); len(got) != 0 {
		t.Fatalf("EntrySecrets(not json) = %v", got)
	}
}

func TestProjectLeaks(t *testing.T) {
	lit := extensions.Server{Name: "lit", Extension: "e", Spec: extensions.Spec{Env: []extensions.KV{{Key: "API_KEY", Value: "abcdefgh12345678"}}}}
	ref := extensions.Server{Name: "ref", Extension: "e", Spec: extensions.Spec{Env: []extensions.KV{{Key: "API_KEY", Value: "${API_KEY}"}}}}
	proj := &Target{Path: "/w/.mcp.json", Scope: ScopeProject, Entries: []Desired{{Name: "lit"}, {Name: "ref"}}}
	other := &Target{Path: "/w/.cursor/mcp.json", Scope: ScopeProject, Entries: []Desired{{Name: "ref"}}}
	user := &Target{Path: "/h/.claude.json", Scope: "user", Entries: []Desired{{Name: "lit"}}}
	leaks := ProjectLeaks([]*Target{proj, other, user}, []extensions.Server{lit, ref})
	if len(leaks) != 1 || leaks[0].Server.Name != "lit" || leaks[0].Literal.Field != "env.API_KEY" ||
		len(leaks[0].Targets) != 1 || leaks[0].Targets[0] != proj || leaks[0].Literal.Rule != credential.RuleNamed {
		t.Fatalf("ProjectLeaks = %+v", leaks)
	}
}
