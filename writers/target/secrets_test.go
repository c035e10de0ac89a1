package target

import (
	"reflect"
	"regexp"
	"testing"

	"github.com/repo-manager/repo/extensions"
)

func TestLiteralSecrets(t *testing.T) {
	s := extensions.Server{Name: "s", Spec: extensions.Spec{
		Args: []string{"--token", "abcd1234efgh5678", "--api-key=ghp_0123456789abcdefABCDEF", "--root", "/home/u/work/project-2024"},
		Env: []extensions.KV{
			{Key: "GITHUB_TOKEN", Value: "${GITHUB_TOKEN}"},          // a reference: fine
			{Key: "API_KEY", Value: "Zm9vYmFyYmF6cXV4MTIz"},          // literal: warn
			{Key: "AUTH_MODE", Value: "local"},                       // a word: fine
			{Key: "SESSION_DIR", Value: "/tmp/sessions"},             // a path: fine
			{Key: "OPENAI", Value: "sk-proj-abcdefghijklmnop123456"}, // known prefix: warn
		},
		Headers: []extensions.KV{{Key: "Authorization", Value: "Bearer eyJhbGciOiJIUzI1NiJ9abc123"}},
	}}
	got := LiteralSecrets(s)
	want := []string{"env API_KEY", "env OPENAI", "header Authorization", "args[1]", "args[2]"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v\nwant %v", got, want)
	}
}

// The regexp as it was written before tokenShapes, and before the prefix
// look-up in front of it.
var secretValueBefore = regexp.MustCompile(`(ghp_|gho_|ghu_|ghs_|github_pat_|glpat-|sk-[A-Za-z0-9]|sk_live_|xox[abprs]-|AKIA[0-9A-Z]{12}|AIza[0-9A-Za-z_-]{20}|-----BEGIN [A-Z ]*PRIVATE KEY)`)

func TestHasKnownTokenMatchesRegexp(t *testing.T) {
	values := []string{"", "serve", "--root", ".", "/home/u/ws/.repository/extensions/x/lib/server.py",
		"https://mcp.example.com/v1/mcp", "Bearer ghp_abc", "xghp_", "gh_p", "github_pat_11AB", "glpat-x", "glpat",
		"sk-a", "sk-", "sk--", "task-runner", "sk_live_1", "sk_live", "xoxb-1", "xoxz-1", "xox",
		"AKIAABCDEFGHIJKL", "AKIAABCDEFGHIJK", "AKIAabcdefghijkl", "AIza0123456789abcdefghij", "AIza0123456789abcdefghi",
		"-----BEGIN RSA PRIVATE KEY-----", "-----BEGIN PUBLIC KEY-----", "-----BEGIN PRIVATE KEY", "ghs_", "ghu_", "gho_"}
	for _, v := range values {
		if got, want := hasKnownToken(v), secretValueBefore.MatchString(v); got != want {
			t.Errorf("hasKnownToken(%q) = %v, the regexp says %v", v, got, want)
		}
	}
	if secretValue.String() != secretValueBefore.String() {
		t.Errorf("secretValue is %s, was %s", secretValue, secretValueBefore)
	}
}
