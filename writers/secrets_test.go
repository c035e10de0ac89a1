package writers

import (
	"reflect"
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
	got := literalSecrets(s)
	want := []string{"env API_KEY", "env OPENAI", "header Authorization", "args[1]", "args[2]"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v\nwant %v", got, want)
	}
}
