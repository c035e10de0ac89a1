package credential

import (
	"strings"

	"github.com/repo-manager/repo/internal/lazy"
)

// shape is a token format with a fixed prefix: the prefix, the characters
// of the body after it, and how long the body is (max 0: no bound).
type shape struct {
	prefix   string
	body     charset
	min, max int
	what     string
}

type charset uint8

const (
	alnum     charset = iota // A-Z a-z 0-9
	alnumDash                // and - _
	hex                      // 0-9 a-f A-F
	upperNum                 // A-Z 0-9
	letters                  // A-Z a-z
	b64                      // A-Z a-z 0-9 + / = - _
)

func (cs charset) has(c byte) bool {
	switch cs {
	case alnum:
		return isLower(c) || isUpper(c) || isDigit(c)
	case alnumDash:
		return isLower(c) || isUpper(c) || isDigit(c) || c == '-' || c == '_'
	case hex:
		return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
	case upperNum:
		return isUpper(c) || isDigit(c)
	case letters:
		return isLower(c) || isUpper(c)
	case b64:
		return isLower(c) || isUpper(c) || isDigit(c) || c == '+' || c == '/' || c == '=' || c == '-' || c == '_'
	}
	return false
}

// shapes are the token formats repo knows by their prefix, from the
// providers' own documentation of their formats. The bodies are long
// enough that a word starting with the prefix is not taken for one.
// Longer prefixes come before their own prefixes (sk-ant- before sk-).
var shapes = []shape{
	{"github_pat_", alnumDash, 22, 0, "a GitHub token"},
	{"ghp_", alnum, 30, 0, "a GitHub token"},
	{"gho_", alnum, 30, 0, "a GitHub token"},
	{"ghu_", alnum, 30, 0, "a GitHub token"},
	{"ghs_", alnum, 30, 0, "a GitHub token"},
	{"ghr_", alnum, 30, 0, "a GitHub token"},
	{"glpat-", alnumDash, 20, 0, "a GitLab token"},
	{"gldt-", alnumDash, 20, 0, "a GitLab token"},
	{"glptt-", alnumDash, 20, 0, "a GitLab token"},
	{"glrt-", alnumDash, 20, 0, "a GitLab token"},
	{"glcbt-", alnumDash, 20, 0, "a GitLab token"},
	{"gloas-", alnumDash, 20, 0, "a GitLab token"},
	{"glsoat-", alnumDash, 20, 0, "a GitLab token"},
	{"xoxb-", alnumDash, 10, 0, "a Slack token"},
	{"xoxp-", alnumDash, 10, 0, "a Slack token"},
	{"xoxa-", alnumDash, 10, 0, "a Slack token"},
	{"xoxr-", alnumDash, 10, 0, "a Slack token"},
	{"xoxs-", alnumDash, 10, 0, "a Slack token"},
	{"xoxe-", alnumDash, 10, 0, "a Slack token"},
	{"xoxe.xoxp-", alnumDash, 10, 0, "a Slack token"},
	{"xapp-", alnumDash, 10, 0, "a Slack token"},
	{"hooks.slack.com/services/", b64, 20, 0, "a Slack webhook"},
	{"AKIA", upperNum, 16, 16, "an AWS access key"},
	{"ASIA", upperNum, 16, 16, "an AWS access key"},
	{"ABIA", upperNum, 16, 16, "an AWS access key"},
	{"ACCA", upperNum, 16, 16, "an AWS access key"},
	{"AIza", alnumDash, 35, 35, "a Google API key"},
	{"GOCSPX-", alnumDash, 24, 0, "a Google OAuth client secret"},
	{"ya29.", alnumDash, 30, 0, "a Google OAuth token"},
	{"sk-ant-", alnumDash, 20, 0, "an Anthropic key"},
	{"sk-", alnumDash, 20, 0, "an OpenAI key"},
	{"sk_live_", alnum, 16, 0, "a Stripe key"},
	{"sk_test_", alnum, 16, 0, "a Stripe key"},
	{"rk_live_", alnum, 16, 0, "a Stripe key"},
	{"rk_test_", alnum, 16, 0, "a Stripe key"},
	{"whsec_", alnum, 24, 0, "a Stripe webhook secret"},
	{"npm_", alnum, 36, 36, "an npm token"},
	{"pypi-AgEIcHlwaS5vcmc", alnumDash, 20, 0, "a PyPI token"},
	{"hf_", letters, 30, 0, "a Hugging Face token"},
	{"SG.", alnumDash, 22, 22, "a SendGrid key"},
	{"shpat_", hex, 32, 32, "a Shopify token"},
	{"shpca_", hex, 32, 32, "a Shopify token"},
	{"shppa_", hex, 32, 32, "a Shopify token"},
	{"shpss_", hex, 32, 32, "a Shopify secret"},
	{"dop_v1_", hex, 64, 64, "a DigitalOcean token"},
	{"doo_v1_", hex, 64, 64, "a DigitalOcean token"},
	{"dor_v1_", hex, 64, 64, "a DigitalOcean token"},
	{"ATATT3", alnumDash, 20, 0, "an Atlassian token"},
	{"lin_api_", alnum, 32, 0, "a Linear key"},
	{"ntn_", alnum, 30, 0, "a Notion token"},
	{"secret_", alnum, 43, 43, "a Notion token"},
	{"dp.pt.", alnum, 40, 0, "a Doppler token"},
	{"dp.st.", alnumDash, 40, 0, "a Doppler token"},
	{"dp.sa.", alnum, 40, 0, "a Doppler token"},
	{"gsk_", alnum, 40, 0, "a Groq key"},
	{"r8_", alnum, 30, 0, "a Replicate token"},
	{"pplx-", alnum, 40, 0, "a Perplexity key"},
	{"xai-", alnum, 40, 0, "an xAI key"},
	{"dapi", hex, 32, 32, "a Databricks token"},
	{"PMAK-", alnumDash, 40, 0, "a Postman key"},
	{"figd_", alnumDash, 30, 0, "a Figma token"},
	{"sntrys_", b64, 40, 0, "a Sentry token"},
	{"sntryu_", hex, 64, 64, "a Sentry token"},
	{"sbp_", hex, 40, 40, "a Supabase token"},
	{"tskey-", alnumDash, 20, 0, "a Tailscale key"},
	{"glsa_", alnumDash, 32, 0, "a Grafana token"},
	{"glc_", b64, 32, 0, "a Grafana token"},
	{"tvly-", alnumDash, 20, 0, "a Tavily key"},
	{"nfp_", alnum, 36, 36, "a Netlify token"},
	{"pul-", hex, 40, 40, "a Pulumi token"},
	{"HRKU-", alnumDash, 30, 0, "a Heroku key"},
	{"ops_eyJ", b64, 30, 0, "a 1Password token"},
	{"AGE-SECRET-KEY-1", upperNum, 50, 0, "an age secret key"},
	{"SK", hex, 32, 32, "a Twilio key"},
}

// shapesByFirst lists the shapes by the first byte of their prefix, in
// the order of shapes (a longer prefix before its own prefix). Built on
// first use, not at start-up: most commands never look for a credential
// (bench/run.sh, the startup cases).
var shapesByFirst = lazy.Value[*[256][]int]{New: func() (by *[256][]int) {
	by = new([256][]int)
	for k, sh := range shapes {
		by[sh.prefix[0]] = append(by[sh.prefix[0]], k)
	}
	return by
}}

// knownTokens finds the tokens of a known format: a prefix at the start of
// a word, then a body of the right characters and length, ending there.
func knownTokens(s string) []Finding {
	var out []Finding
	byFirst := shapesByFirst.Get()
	// One pass over the starts of words, each tried against the shapes
	// whose prefix begins with its byte: most values are paths and words
	// that no shape starts with.
	for i := 0; i < len(s); i++ {
		if i > 0 && wordByte(s[i-1]) {
			continue
		}
		for _, k := range byFirst[s[i]] {
			sh := &shapes[k]
			if !strings.HasPrefix(s[i:], sh.prefix) {
				continue
			}
			from := i + len(sh.prefix)
			j := from
			for j < len(s) && sh.body.has(s[j]) {
				j++
			}
			n := j - from
			if n < sh.min || sh.max > 0 && n > sh.max || sh.max > 0 && j < len(s) && wordByte(s[j]) {
				continue
			}
			if sh.prefix == "sk-" && !hasDigits(s[from:j], 2) {
				continue // a name such as sk-learn-mcp-server-tools
			}
			out = append(out, Finding{Start: i, End: j, Rule: RuleToken, What: sh.what})
			i = j - 1
			break
		}
	}
	out = append(out, jwts(s, out)...)
	out = append(out, telegramBots(s, out)...)
	return out
}

// wordByte: a byte that continues a word, so a prefix after it is inside
// another word (task-runner holds "sk-").
func wordByte(c byte) bool { return isLower(c) || isUpper(c) || isDigit(c) || c == '_' || c == '-' }

func hasDigits(s string, n int) bool {
	for i := 0; i < len(s) && n > 0; i++ {
		if isDigit(s[i]) {
			n--
		}
	}
	return n == 0
}

// jwts finds JSON web tokens: eyJ (a base64url JSON object), a dot, a
// payload, a dot, a signature.
func jwts(s string, have []Finding) []Finding {
	var out []Finding
	for from := 0; ; {
		i := strings.Index(s[from:], "eyJ")
		if i < 0 {
			return out
		}
		i += from
		from = i + 3
		if i > 0 && wordByte(s[i-1]) {
			continue
		}
		j, parts := i, 0
		for parts < 3 {
			k := j
			for k < len(s) && alnumDash.has(s[k]) {
				k++
			}
			if k-j < 8 && parts < 2 {
				break
			}
			parts++
			j = k
			if parts < 3 {
				if j >= len(s) || s[j] != '.' {
					break
				}
				j++
			}
		}
		if parts == 3 {
			f := Finding{Start: i, End: j, Rule: RuleToken, What: "a JSON web token"}
			if !overlaps(have, f) && !overlaps(out, f) {
				out = append(out, f)
			}
			from = j
		}
	}
}

// telegramBots finds Telegram bot tokens: a bot id of 8 to 10 digits, a
// colon, 35 characters.
func telegramBots(s string, have []Finding) []Finding {
	var out []Finding
	for i := 0; i < len(s); i++ {
		if s[i] != ':' {
			continue
		}
		d := i
		for d > 0 && isDigit(s[d-1]) {
			d--
		}
		if n := i - d; n < 8 || n > 10 || d > 0 && wordByte(s[d-1]) {
			continue
		}
		j := i + 1
		for j < len(s) && alnumDash.has(s[j]) {
			j++
		}
		if j-i-1 != 35 {
			continue
		}
		f := Finding{Start: d, End: j, Rule: RuleToken, What: "a Telegram bot token"}
		if !overlaps(have, f) {
			out = append(out, f)
		}
	}
	return out
}

// privateKeys finds PEM private keys: from -----BEGIN … PRIVATE KEY to the
// end of the matching -----END line, or of the value.
func privateKeys(s string) []Finding {
	var out []Finding
	for from := 0; ; {
		i := strings.Index(s[from:], "-----BEGIN ")
		if i < 0 {
			return out
		}
		i += from
		head := s[i+len("-----BEGIN "):]
		k := 0
		for k < len(head) && (isUpper(head[k]) || head[k] == ' ') {
			k++
		}
		from = i + len("-----BEGIN ")
		if !strings.Contains(head[:k], "PRIVATE KEY") {
			continue
		}
		end := len(s)
		if e := strings.Index(s[from:], "-----END "); e >= 0 {
			end = from + e + len("-----END ")
			if d := strings.Index(s[end:], "-----"); d >= 0 {
				end += d + len("-----")
			}
		}
		out = append(out, Finding{Start: i, End: end, Rule: RulePrivateKey, What: "a private key"})
		from = end
	}
}
