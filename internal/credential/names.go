package credential

import (
	"slices"
	"strings"
)

// A name says credential by its last word (DB_PASSWORD, X-Api-Key,
// --token, primaryApiKey), or by a word that says it wherever it stands
// (PASSWORD_HASH, oauthAccount) unless its last word says the value is
// something else (OAUTH_CLIENT_ID, PASSWORD_FILE, OAUTH_SCOPES).
var (
	lastWords = []string{
		"key", "keys", "apikey", "secret", "secrets", "password", "passwd", "passphrase", "pass", "pwd",
		"token", "pat", "credential", "credentials", "creds", "cookie", "cookies",
		"authorization", "auth", "bearer", "sig", "signature", "sessionid", "privatekey",
	}
	anyWords = []string{"password", "passwd", "passphrase", "apikey", "oauth"}
	// notBeforeKey are the words before "key" that make it no credential:
	// a database's or a cache's key, a public key.
	notBeforeKey = []string{"public", "publishable", "pub", "primary", "foreign", "sort", "partition", "cache",
		"idempotency", "lookup", "hash", "routing", "dedup", "dedupe", "object", "map", "group", "unique",
		"composite", "shard", "row", "hot", "issue", "jira", "project"}
	// notLast are the last words that make a name with an anyWords word
	// say something else than the credential itself.
	notLast = []string{"id", "url", "uri", "endpoint", "scope", "scopes", "port", "host", "issuer", "provider",
		"type", "mode", "enabled", "disabled", "callback", "redirect", "file", "path", "dir", "name", "length",
		"min", "max", "required", "policy", "hint", "prompt", "env", "var", "variable", "command", "cmd", "helper",
		"flow", "server", "version", "timeout", "expiry", "expires", "ttl"}
)

// IsName reports whether a name says that its value is a credential: an
// environment variable (*_KEY, *_SECRET, *_PASSWORD, *_TOKEN, *_PAT,
// *_CREDENTIALS, …), a header (Authorization, Cookie, *-Key, *-Token), a
// flag (--key, --token, --password, --bearer, --api-key, …) or a key.
func IsName(name string) bool { return isName(words(name)) }

// isName is IsName of a name's words.
func isName(w []string) bool {
	if len(w) == 0 {
		return false
	}
	last := w[len(w)-1]
	if slices.Contains(lastWords, last) {
		if (last == "key" || last == "keys") && len(w) > 1 && slices.Contains(notBeforeKey, w[len(w)-2]) {
			return false
		}
		return true
	}
	if slices.Contains(notLast, last) {
		return false
	}
	for _, x := range w {
		if slices.Contains(anyWords, x) {
			return true
		}
	}
	return false
}

// isPublicName: a name that says its value is public (PUBLIC_KEY,
// STRIPE_PUBLISHABLE_KEY, pubkey): random-looking, and meant to be shared.
// Only a known token format or a private key in it is a credential.
func isPublicName(words []string) bool {
	for _, w := range words {
		if w == "public" || w == "publishable" || w == "pub" || w == "pubkey" {
			return true
		}
	}
	return false
}

// words splits a name into lower-case words at anything but letters and
// digits and at camel case: "X-Api-Key", "--api-key", "API_KEY",
// "apiKey", "APIKey" all end in "api", "key".
func words(name string) []string {
	var out []string
	start := -1
	flush := func(end int) {
		if start >= 0 && end > start {
			out = append(out, strings.ToLower(name[start:end]))
		}
		start = -1
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		alnum := isLower(c) || isUpper(c) || isDigit(c)
		switch {
		case !alnum:
			flush(i)
			continue
		case start < 0:
			start = i
			continue
		}
		prev := name[i-1]
		// aB, or the B of ABc (an acronym followed by a word), starts a word.
		if isUpper(c) && (isLower(prev) || isUpper(prev) && i+1 < len(name) && isLower(name[i+1])) {
			flush(i)
			start = i
		}
	}
	flush(len(name))
	return out
}

// VarName is an environment variable to hold the value of a field called
// name, for a message that says what to write instead: X-Api-Key →
// X_API_KEY, --api-key → API_KEY, Authorization → AUTH_TOKEN, "" → TOKEN.
func VarName(name string) string {
	w := words(name)
	switch {
	case len(w) == 0:
		return "TOKEN"
	case len(w) == 1 && w[0] == "authorization":
		return "AUTH_TOKEN"
	}
	return strings.ToUpper(strings.Join(w, "_"))
}

func isLower(c byte) bool { return c >= 'a' && c <= 'z' }
func isUpper(c byte) bool { return c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// isPath: an absolute, home, relative or template path (repo's <<root>>,
// a Windows drive).
func isPath(s string) bool {
	switch {
	case strings.HasPrefix(s, "/"), strings.HasPrefix(s, "~/"), strings.HasPrefix(s, `~\`), s == "~",
		strings.HasPrefix(s, "./"), strings.HasPrefix(s, "../"), strings.HasPrefix(s, `.\`), strings.HasPrefix(s, `..\`),
		strings.HasPrefix(s, "<<"), strings.HasPrefix(s, `\\`):
		return true
	case len(s) >= 3 && (isUpper(s[0]) || isLower(s[0])) && s[1] == ':' && (s[2] == '\\' || s[2] == '/'):
		return true
	}
	return false
}

// fileExts are the extensions of the files a key, certificate or config
// flag names: --key tls.key, --cert-key server.pem.
var fileExts = []string{"pem", "key", "crt", "cer", "der", "p12", "pfx", "jks", "json", "txt", "yaml", "yml", "toml",
	"env", "gpg", "asc", "pub", "conf", "cfg", "ini", "properties", "keystore", "kdbx", "sh", "py", "js", "ts"}

// isFileName: a name with a file extension that holds no space.
func isFileName(s string) bool {
	dot := strings.LastIndexByte(s, '.')
	if dot <= 0 || strings.ContainsAny(s, " \t") {
		return false
	}
	return slices.Contains(fileExts, strings.ToLower(s[dot+1:]))
}

// isWord: a value that is a switch rather than a secret.
func isWord(s string) bool {
	switch strings.ToLower(s) {
	case "true", "false", "yes", "no", "on", "off", "null", "none", "nil", "undefined", "enabled", "disabled",
		"required", "optional", "default", "inherit", "anonymous", "keychain", "keyring":
		return true
	}
	return false
}

// isPlaceholder: text that stands for a credential in a sample: <token>,
// {{ token }}, xxxxxxxx, ********, your-api-key-here.
func isPlaceholder(s string) bool {
	if strings.HasPrefix(s, "<") && strings.HasSuffix(s, ">") || strings.HasPrefix(s, "{{") && strings.HasSuffix(s, "}}") {
		return true
	}
	same := true
	for i := 1; i < len(s); i++ {
		if s[i] != s[0] {
			same = false
			break
		}
	}
	if same {
		return true
	}
	l := strings.ToLower(s)
	if strings.HasPrefix(l, "your") || strings.HasPrefix(l, "insert") || strings.HasPrefix(l, "replace") || strings.HasPrefix(l, "put-") || strings.HasPrefix(l, "put_") {
		for _, w := range []string{"key", "token", "secret", "password", "here", "api"} {
			if strings.Contains(l, w) {
				return true
			}
		}
	}
	return false
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return s != ""
}
