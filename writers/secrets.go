package writers

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/repo-manager/repo/extensions"
)

// A project-scope file is meant to be committed, so a secret written into
// it leaks. repo never expands ${VAR} references into files; these
// patterns catch an author who wrote the secret itself.
var (
	secretName  = regexp.MustCompile(`(?i)(token|secret|passw(or)?d|api[_-]?key|apikey|auth|credential|private[_-]?key|session)`)
	secretValue = regexp.MustCompile(`(ghp_|gho_|ghu_|ghs_|github_pat_|glpat-|sk-[A-Za-z0-9]|sk_live_|xox[abprs]-|AKIA[0-9A-Z]{12}|AIza[0-9A-Za-z_-]{20}|-----BEGIN [A-Z ]*PRIVATE KEY)`)
)

// literalSecrets reports the members of a server that look like literal
// credentials: a value with a known token prefix anywhere, or a non-trivial
// literal value under a name that says it is secret.
func literalSecrets(s extensions.Server) []string {
	var found []string
	check := func(field, name, value string) {
		if strings.Contains(value, "${") || strings.Contains(value, "{env:") {
			return // a reference, expanded by the tool
		}
		if secretValue.MatchString(value) || (name != "" && secretName.MatchString(name) && looksLikeSecret(value)) {
			found = append(found, field)
		}
	}
	for _, kv := range s.Env {
		check("env "+kv.Key, kv.Key, kv.Value)
	}
	for _, kv := range s.Headers {
		check("header "+kv.Key, kv.Key, kv.Value)
	}
	for i, a := range s.Args {
		name := ""
		if k, v, ok := strings.Cut(a, "="); ok && strings.HasPrefix(k, "-") {
			name, a = k, v
		} else if i > 0 && strings.HasPrefix(s.Args[i-1], "-") {
			name = s.Args[i-1]
		}
		check(fmt.Sprintf("args[%d]", i), name, a)
	}
	check("url", "", s.URL)
	return found
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
