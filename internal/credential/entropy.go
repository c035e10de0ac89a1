package credential

import (
	"math"
	"strings"
)

// minEntropyLen is the shortest word the entropy rule judges: random keys
// are longer, and shorter words are names and versions far more often.
const minEntropyLen = 20

// highEntropy finds the words of s that look random: twenty characters or
// more of letters, digits and + = _ - (a slash, a dot, a colon and
// anything else end a word, so paths, domains and versions fall apart
// into short words), holding upper case, lower case and digits that
// change from one to the other often, as in a random string and not as in
// a CamelCase name with a number at the end.
//
// Not judged: a hexadecimal word (with or without dashes: a UUID, a hash,
// a commit), which is an id or a digest far more often than a key, and a
// digest after sha1:, sha256:, sha384:, sha512:, md5: or an SRI sha…-.
func highEntropy(s string) []Finding {
	var out []Finding
	for i := 0; i < len(s); {
		if !entropyByte(s[i]) {
			i++
			continue
		}
		j := i
		for j < len(s) && entropyByte(s[j]) {
			j++
		}
		if j-i >= minEntropyLen && looksRandom(s[i:j]) && !inDigest(s, i) {
			out = append(out, Finding{Start: i, End: j, Rule: RuleEntropy, What: "a high-entropy string"})
		}
		i = j
	}
	return out
}

func entropyByte(c byte) bool {
	return isLower(c) || isUpper(c) || isDigit(c) || c == '+' || c == '=' || c == '_' || c == '-'
}

// inDigest: the word at s[i] is part of a digest: the text before it
// ends with a digest's algorithm (sha256:…), or its field (up to a space,
// a quote or a separator) starts with a subresource-integrity one
// (sha512-…, whose base64 may hold slashes).
func inDigest(s string, i int) bool {
	l := strings.ToLower(s[:i])
	for _, p := range []string{"sha1:", "sha224:", "sha256:", "sha384:", "sha512:", "md5:", "blake2b:", "blake3:"} {
		if strings.HasSuffix(l, p) {
			return true
		}
	}
	field := strings.ToLower(s[strings.LastIndexAny(l, " \t\n\"'=,;")+1:])
	for _, p := range []string{"sha1-", "sha256-", "sha384-", "sha512-"} {
		if strings.HasPrefix(field, p) {
			return true
		}
	}
	return false
}

// looksRandom judges one word.
func looksRandom(w string) bool {
	var lower, upper, digit, hexOnly = 0, 0, 0, true
	switches := 0
	prev := byte(0)
	for i := 0; i < len(w); i++ {
		c := w[i]
		var class byte
		switch {
		case isLower(c):
			lower++
			class = 1
		case isUpper(c):
			upper++
			class = 2
		case isDigit(c):
			digit++
			class = 3
		default:
			class = 4
		}
		if !(isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' || c == '-') {
			hexOnly = false
		}
		if prev != 0 && class != prev {
			switches++
		}
		prev = class
	}
	if hexOnly || lower == 0 || upper == 0 || digit == 0 {
		return false
	}
	// A random word over letters and digits changes class at about six
	// characters in ten; a CamelCase name with a version, about two.
	if float64(switches) < 0.3*float64(len(w)-1) {
		return false
	}
	return shannon(w) >= 3.5
}

// shannon is the entropy of w's characters, in bits per character.
func shannon(w string) float64 {
	var counts [256]int
	for i := 0; i < len(w); i++ {
		counts[w[i]]++
	}
	h := 0.0
	n := float64(len(w))
	for _, c := range counts {
		if c > 0 {
			p := float64(c) / n
			h -= p * math.Log2(p)
		}
	}
	return h
}
