package credential

import (
	"net/url"
	"strings"
)

// urls finds the credentials of every URL in s, of any scheme (https,
// postgres, redis, amqp, mongodb+srv, …): the password of its userinfo,
// and the values of its credential query parameters.
func urls(s string) []Finding {
	var out []Finding
	urlEnd := 0 // the end of the last URL whose query was read
	for from := 0; ; {
		i := strings.Index(s[from:], "://")
		if i < 0 {
			return out
		}
		i += from
		from = i + 3
		if !hasScheme(s[:i]) {
			continue
		}
		// The authority ends at the path, query, fragment or the end of
		// the URL in a longer text.
		a := from
		for a < len(s) && !strings.ContainsRune("/?#\"' \t\n\r<>", rune(s[a])) {
			a++
		}
		if at := strings.LastIndexByte(s[from:a], '@'); at >= 0 {
			userinfo := s[from : from+at]
			if c := strings.IndexByte(userinfo, ':'); c >= 0 {
				ps, pe := from+c+1, from+at
				if pe > ps && hasLiteral(s[ps:pe]) {
					out = append(out, Finding{Start: ps, End: pe, Rule: RuleURLPass, What: "a password in a URL"})
				}
			}
		}
		// A URL inside another one's query was read with it.
		if a >= urlEnd {
			e := a
			for e < len(s) && !strings.ContainsRune("\"' \t\n\r<>", rune(s[e])) {
				e++
			}
			out = append(out, queryParams(s, a, e)...)
			urlEnd = e
		}
		from = a
	}
}

// hasScheme: before[len] ends with a URL scheme (a letter, then letters,
// digits, + - .).
func hasScheme(before string) bool {
	j := len(before)
	for j > 0 && (isLower(before[j-1]) || isUpper(before[j-1]) || isDigit(before[j-1]) || strings.IndexByte("+-.", before[j-1]) >= 0) {
		j--
	}
	for j < len(before) && !isLower(before[j]) && !isUpper(before[j]) {
		j++ // a scheme starts with a letter
	}
	return j < len(before)
}

// hasLiteral: some of p is not a reference.
func hasLiteral(p string) bool {
	for i := 0; i < len(p); i++ {
		if p[i] != hole {
			return true
		}
	}
	return false
}

// queryParams finds, in the URL text s[from:end] after its authority, the
// values of its query parameters whose names say credential (api_key,
// token, access_token, sig, X-Amz-Signature, …). A password parameter
// counts at any length, others from eight characters.
func queryParams(s string, from, end int) []Finding {
	q := strings.IndexByte(s[from:end], '?')
	if q < 0 {
		return nil
	}
	var out []Finding
	i := from + q + 1
	for i < end && s[i] != '#' {
		j := i
		for j < end && s[j] != '&' && s[j] != ';' && s[j] != '#' {
			j++
		}
		if eq := strings.IndexByte(s[i:j], '='); eq > 0 {
			name := s[i : i+eq]
			if n, err := url.QueryUnescape(name); err == nil {
				name = n
			}
			vs, ve := i+eq+1, j
			min := minNamed
			if w := words(name); len(w) > 0 && isPasswordWord(w[len(w)-1]) {
				min = 1
			}
			if IsName(name) && ve > vs && literal(s[vs:ve], min) {
				out = append(out, Finding{Start: vs, End: ve, Rule: RuleURLQuery, What: "a credential in a URL's query", Name: name})
			}
		}
		i = j + 1
	}
	return out
}

func isPasswordWord(w string) bool {
	switch w {
	case "password", "passwd", "pwd", "pass", "passphrase", "secret":
		return true
	}
	return false
}

// connString finds the passwords and keys of a key=value; connection
// string (ADO.NET, Azure Storage, ODBC): Password=…; AccountKey=…;
// SharedAccessSignature=….
func connString(s string) []Finding {
	if strings.IndexByte(s, ';') < 0 || strings.IndexByte(s, '=') < 0 || strings.Contains(s, "://") {
		return nil
	}
	var out []Finding
	for i := 0; i < len(s); {
		j := i + strings.IndexByte(s[i:], ';')
		if j < i {
			j = len(s)
		}
		seg := s[i:j]
		if eq := strings.IndexByte(seg, '='); eq > 0 {
			name := strings.TrimSpace(seg[:eq])
			vs := i + eq + 1
			for vs < j && s[vs] == ' ' {
				vs++
			}
			ve := j
			for ve > vs && s[ve-1] == ' ' {
				ve--
			}
			if IsName(name) && ve > vs && literal(s[vs:ve], 1) {
				out = append(out, Finding{Start: vs, End: ve, Rule: RuleConnString, What: "a credential in a connection string", Name: name})
			}
		}
		i = j + 1
	}
	return out
}
