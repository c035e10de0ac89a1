package target

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/repo-manager/repo/extensions"
)

// A project-scope file is meant to be committed, so a secret written into
// it leaks. repo never expands ${VAR} references into files; these
// patterns catch an author who wrote the secret itself.
var secretName = regexp.MustCompile(`(?i)(token|secret|passw(or)?d|api[_-]?key|apikey|auth|credential|private[_-]?key|session)`)

// tokenShapes are the credentials with a known form: a literal prefix,
// then a pattern for the rest. secretValue matches any of them anywhere.
var tokenShapes = []struct{ prefix, rest string }{
	{"ghp_", ""}, {"gho_", ""}, {"ghu_", ""}, {"ghs_", ""}, {"github_pat_", ""},
	{"glpat-", ""},
	{"sk-", "[A-Za-z0-9]"}, {"sk_live_", ""},
	{"xox", "[abprs]-"},
	{"AKIA", "[0-9A-Z]{12}"},
	{"AIza", "[0-9A-Za-z_-]{20}"},
	{"-----BEGIN ", "[A-Z ]*PRIVATE KEY"},
}

var secretValue = func() *regexp.Regexp {
	alts := make([]string, len(tokenShapes))
	for i, t := range tokenShapes {
		alts[i] = regexp.QuoteMeta(t.prefix) + t.rest
	}
	return regexp.MustCompile("(" + strings.Join(alts, "|") + ")")
}()

// hasKnownToken is secretValue.MatchString. A match needs the literal
// prefix of a shape, and looking for the prefixes first is several times
// faster than the regexp on the paths and words that make up most values.
func hasKnownToken(value string) bool {
	for _, t := range tokenShapes {
		if strings.Contains(value, t.prefix) {
			return secretValue.MatchString(value)
		}
	}
	return false
}

// LiteralSecrets reports the members of a server that look like literal
// credentials: a value with a known token prefix anywhere, or a non-trivial
// literal value under a name that says it is secret.
func LiteralSecrets(s extensions.Server) []string {
	var found []string
	// The field names are built only for a finding: most members are not.
	for _, kv := range s.Env {
		if literalSecret(kv.Key, kv.Value) {
			found = append(found, "env "+kv.Key)
		}
	}
	for _, kv := range s.Headers {
		if literalSecret(kv.Key, kv.Value) {
			found = append(found, "header "+kv.Key)
		}
	}
	for i, a := range s.Args {
		name := ""
		if k, v, ok := strings.Cut(a, "="); ok && strings.HasPrefix(k, "-") {
			name, a = k, v
		} else if i > 0 && strings.HasPrefix(s.Args[i-1], "-") {
			name = s.Args[i-1]
		}
		if literalSecret(name, a) {
			found = append(found, fmt.Sprintf("args[%d]", i))
		}
	}
	if literalSecret("", s.URL) {
		found = append(found, "url")
	}
	return found
}

// literalSecret reports whether value, of the member called name (""
// when it has none), looks like a literal credential.
func literalSecret(name, value string) bool {
	if strings.Contains(value, "${") || strings.Contains(value, "{env:") {
		return false // a reference, expanded by the tool
	}
	// looksLikeSecret before the name: it is cheaper than the regexp, and
	// most values (paths, words, flags) fail it.
	return hasKnownToken(value) || (name != "" && looksLikeSecret(value) && secretName.MatchString(name))
}

// looksLikeSecret: long enough, and not a path, URL without credentials,
// number or word such as "true" or "local".
func looksLikeSecret(v string) bool {
	v = strings.TrimPrefix(strings.TrimPrefix(v, "Bearer "), "Basic ")
	if len(v) < 12 || strings.ContainsAny(v[:1], "/~.<") || strings.Contains(v, "://") || strings.ContainsAny(v, " \t") {
		return false
	}
	hasDigit, hasLetter := false, false
	for _, r := range v {
		switch {
		case r >= '0' && r <= '9':
			hasDigit = true
		case r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z':
			hasLetter = true
		}
	}
	return hasDigit && hasLetter
}
