// Package credential tells a literal credential from the rest of what an
// MCP server's configuration holds. repo asks it before anything goes into
// a file git commits (an imported extension, a project file), for the
// files a repository already commits (repo doctor), and before a value of
// a user's file is printed in a diff.
//
// It judges strings, with the name they go by where there is one (an
// environment variable, a header, a flag, a query parameter, a key of a
// user's file): it knows nothing of JSON, TOML or YAML. What counts as a
// credential:
//
//   - a known token format anywhere in the value (GitHub, GitLab, Slack,
//     AWS, Google, OpenAI and Anthropic sk-…, Stripe, JWTs, PEM private
//     keys, …; tokens.go);
//   - a password in a URL's userinfo (https://alice:pw@…, postgres://…,
//     any scheme), a credential-looking query parameter (?api_key=…,
//     token=, sig=, …), a password or key of a key=value; connection
//     string;
//   - under a credential name (DB_PASSWORD, *_KEY, *_TOKEN, Authorization,
//     Cookie, X-Api-Key, --token, --bearer, …; names.go), any literal value
//     of eight characters or more, letters only included, that is not a
//     path, a file name, a URL, a number, a boolean or a placeholder; also
//     NAME=value and Name: value inside one argument (docker -e, --header);
//   - a flag's value: the argument after --key, --token, --password, … or
//     after the = of --bearer=… (Args);
//   - the literal default inside a reference (${GH_TOKEN:-ghp_…});
//   - a high-entropy word of twenty characters or more with upper case,
//     lower case and digits interleaved (entropy.go).
//
// A reference is never a credential: ${NAME} (and ${NAME:-default}, whose
// default is judged), ${env:NAME}, ${input:…}, ${{ … }}, {env:NAME},
// {file:…}, $NAME, and repo's own <<templates>>.
//
// Not credentials, by choice: paths (also of a file called key.pem), a
// UUID or a hexadecimal string without a name that says credential (they
// are ids, hashes and commits far more often than keys: a pin such as
// pkg@sha256:… or a commit given to --rev stays), a digest after sha256:
// or sha512-, a URL without userinfo or credential parameters. Base64 of
// something that is not secret cannot be told from an encoded key: a
// base64 word of twenty characters or more is taken for a credential.
package credential

import (
	"slices"
	"strings"
	"sync"
)

// Rule says which rule found a credential.
type Rule string

// The rules, in the order Check applies them.
const (
	RuleDefault    Rule = "reference-default" // the literal default of ${NAME:-…}
	RuleNamed      Rule = "named"             // a literal value under a credential name
	RulePrivateKey Rule = "private-key"
	RuleToken      Rule = "token" // a known token format
	RuleURLPass    Rule = "url-password"
	RuleURLQuery   Rule = "url-query"
	RuleConnString Rule = "connection-string"
	RuleEntropy    Rule = "entropy"
)

// Finding is one credential in a value: the bytes that hold it, and what
// it looks like. What never holds any of the value, nor the name (which
// may be text a workspace chose): the caller names the field.
type Finding struct {
	Start, End int
	Rule       Rule
	What       string
	// Name is the name the credential goes by, where it has one: the
	// variable, header, flag or query parameter it is the value of ("" for
	// a token found by its form).
	Name string
}

// Check returns the credentials in value, judged under name: an
// environment variable, a header, a flag, a key of a file, or "" when it
// has none. The findings are in order and do not overlap.
func Check(name, value string) []Finding {
	if value == "" {
		return nil
	}
	if len(name)+len(value) > memoMaxLen {
		return checkValue(name, value)
	}
	key := memoKey{name, value}
	memo.Lock()
	fs, ok := memo.m[key]
	memo.Unlock()
	if !ok {
		fs = checkValue(name, value)
		memo.Lock()
		if memo.m == nil {
			memo.m = map[memoKey][]Finding{} // made on first use, not at start-up
		}
		if len(memo.m) < memoMaxEntries {
			memo.m[key] = fs
		}
		memo.Unlock()
	}
	return slices.Clone(fs) // the caller's to change
}

// The findings of the values checked in this process, by name and value:
// a sync checks each server's values once for every tool it writes to (the
// entries, as translated and as written, are the same strings), and the
// rules are pure. Bounded, so that checking a large file's every value
// keeps no more than 4,096 values of up to 1 KB.
var memo struct {
	sync.Mutex
	m map[memoKey][]Finding
}

const (
	memoMaxLen     = 1024 // the longest name and value kept
	memoMaxEntries = 4096
)

type memoKey struct{ name, value string }

// checkValue is Check without the memo.
func checkValue(name, value string) []Finding {
	var out []Finding
	masked := value
	if refs := references(value); len(refs) > 0 {
		b := []byte(value)
		for _, r := range refs {
			if r.defStart >= 0 {
				for _, f := range Check(r.name, value[r.defStart:r.defEnd]) {
					f.Start += r.defStart
					f.End += r.defStart
					f.Rule, f.What = RuleDefault, f.What+", as a reference's default"
					if f.Name == "" {
						f.Name = r.name
					}
					out = append(out, f)
				}
			}
			for i := r.start; i < r.end; i++ {
				b[i] = hole
			}
		}
		masked = string(b)
	}
	out = append(out, check(name, masked)...)
	return tidy(out)
}

// Has reports whether value, under name, holds a credential.
func Has(name, value string) bool { return len(Check(name, value)) > 0 }

// hole marks the bytes of a reference in a masked value: no rule takes it
// for part of a literal.
const hole = 0

// check applies the rules to a value whose references are holes.
func check(name, s string) []Finding {
	w := words(name)
	credName := isName(w)
	// A known format says most about what the value is, under any name.
	if known := append(privateKeys(s), knownTokens(s)...); len(known) > 0 {
		if credName {
			for i := range known {
				known[i].Name = name
			}
		}
		return append(known, urls(s)...)
	}
	if credName && !strings.Contains(s, "://") {
		if out := named(name, s, 0); len(out) > 0 {
			return out
		}
	}
	return unnamed(s, !isPublicName(w))
}

// unnamed applies the rules that need no name to a value that holds no
// known format: URLs, connection strings, embedded assignments and
// headers, entropy.
func unnamed(s string, entropy bool) []Finding {
	out := urls(s)
	conn := connString(s)
	out = append(out, conn...)
	if len(conn) == 0 {
		out = append(out, embedded(s)...)
	}
	if entropy && !isPath(s) {
		for _, f := range highEntropy(s) {
			if !overlaps(out, f) {
				out = append(out, f)
			}
		}
	}
	return out
}

// named is the rule of a credential name: the literal parts of the value,
// after an authorization scheme (Bearer, Basic, token, …), each of at
// least eight characters that is no path, number, boolean or placeholder.
func named(name, s string, off int) []Finding {
	start := schemeEnd(s)
	var out []Finding
	for _, p := range pieces(s, start) {
		if literal(s[p[0]:p[1]], minNamed) {
			out = append(out, Finding{Start: off + p[0], End: off + p[1], Rule: RuleNamed, What: "a literal value under a credential name", Name: name})
		}
	}
	return out
}

// minNamed is the shortest literal taken for a credential under a
// credential name: shorter values are modes, switches and words
// ("local", "oauth", "none"); a real password or key is longer.
const minNamed = 8

// pieces are the runs of s[from:] between holes, spaces trimmed.
func pieces(s string, from int) [][2]int {
	var out [][2]int
	for i := from; i < len(s); {
		for i < len(s) && (s[i] == hole || s[i] == ' ' || s[i] == '\t') {
			i++
		}
		j := i
		for j < len(s) && s[j] != hole {
			j++
		}
		k := j
		for k > i && (s[k-1] == ' ' || s[k-1] == '\t') {
			k--
		}
		if k > i {
			out = append(out, [2]int{i, k})
		}
		i = j
	}
	return out
}

// authSchemes are the words an Authorization value starts with, before
// the credential itself.
var authSchemes = []string{"bearer", "basic", "token", "bot", "digest", "apikey", "api-key", "key", "sso-key", "dpop"}

// schemeEnd is where the credential of an Authorization-style value
// starts: after a leading scheme word and its spaces, else 0.
func schemeEnd(s string) int {
	sp := strings.IndexByte(s, ' ')
	if sp <= 0 || !slices.Contains(authSchemes, strings.ToLower(s[:sp])) {
		return 0
	}
	for sp < len(s) && s[sp] == ' ' {
		sp++
	}
	return sp
}

// literal reports whether a piece of a value, judged under a credential
// name, is a literal credential of at least min bytes.
func literal(p string, min int) bool {
	switch {
	case len(p) < min, strings.IndexByte(p, hole) >= 0:
		return false
	case isPath(p), isFileName(p), isWord(p), isPlaceholder(p):
		return false
	case allDigits(p) && len(p) < 12:
		return false // a port, a count, a timeout
	}
	return true
}

// embedded judges a whole value of the forms NAME=value (docker -e,
// --env) and Name: value (--header, curl's -H) under its name.
func embedded(s string) []Finding {
	if eq := strings.IndexByte(s, '='); eq > 0 && isIdent(s[:eq]) {
		if IsName(s[:eq]) {
			return check2(s[:eq], s, eq+1)
		}
		return nil
	}
	if c := strings.IndexByte(s, ':'); c > 0 && isHeaderName(s[:c]) && !strings.HasPrefix(s[c+1:], "//") && IsName(s[:c]) {
		i := c + 1
		for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
		return check2(s[:c], s, i)
	}
	return nil
}

// check2 is check of s[from:] under name, in s's offsets.
func check2(name, s string, from int) []Finding {
	out := check(name, s[from:])
	for i := range out {
		out[i].Start += from
		out[i].End += from
	}
	return out
}

// tidy sorts findings and drops those inside or across an earlier one.
func tidy(fs []Finding) []Finding {
	slices.SortStableFunc(fs, func(a, b Finding) int { return a.Start - b.Start })
	out := fs[:0]
	for _, f := range fs {
		if len(out) > 0 && f.Start < out[len(out)-1].End {
			continue
		}
		out = append(out, f)
	}
	return out
}

func overlaps(fs []Finding, f Finding) bool {
	return slices.ContainsFunc(fs, func(o Finding) bool { return f.Start < o.End && o.Start < f.End })
}

// ArgFinding is a Finding in one argument of a list.
type ArgFinding struct {
	Index int
	Finding
}

// Args returns the credentials in a command's arguments: each argument
// judged under the flag before it (--key VALUE), a --flag=VALUE under its
// flag, the others without a name.
func Args(args []string) []ArgFinding {
	var out []ArgFinding
	for i, a := range args {
		name, value, off := "", a, 0
		if f, v, ok := strings.Cut(a, "="); ok && isFlag(f) {
			name, value, off = f, v, len(f)+1
		} else if i > 0 && isFlag(args[i-1]) && !isFlag(a) && !strings.Contains(args[i-1], "=") {
			name = args[i-1]
		}
		for _, f := range Check(name, value) {
			f.Start += off
			f.End += off
			out = append(out, ArgFinding{Index: i, Finding: f})
		}
	}
	return out
}

// isFlag: -x or --long-name, not a negative number or a lone dash.
func isFlag(a string) bool {
	n := strings.TrimLeft(a, "-")
	return len(a)-len(n) >= 1 && len(a)-len(n) <= 2 && n != "" && (n[0] < '0' || n[0] > '9')
}

func isIdent(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return s != ""
}

func isHeaderName(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '-' || c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return s != ""
}
