package credential

import (
	"reflect"
	"strings"
	"testing"
)

// fake makes a deterministic token body of n characters from alphabet, so
// that the tests hold no real credential and no scanner takes them for one
// by their text alone.
func fake(alphabet string, n int, seed uint32) string {
	b := make([]byte, n)
	x := seed*2654435761 + 12345
	for i := range b {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		b[i] = alphabet[int(x%uint32(len(alphabet)))]
	}
	return string(b)
}

const (
	azAZ09  = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	hexLow  = "0123456789abcdef"
	az      = "abcdefghijklmnopqrstuvwxyz"
	b64Std  = azAZ09 + "+/"
	upper09 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
)

var (
	hex32 = fake(hexLow, 32, 1)
	hex40 = fake(hexLow, 40, 2)
	hex64 = fake(hexLow, 64, 3)
	rand  = fake(azAZ09, 40, 4)
)

type checkCase struct {
	name, value string
	rule        Rule   // "" for no finding
	secret      string // the bytes the first finding covers; "" for the whole value
}

// TestCheck is every case of issue 18 item 1 and the formats repo knows,
// each in the form it takes in an MCP entry.
func TestCheck(t *testing.T) {
	cases := []checkCase{
		// URL userinfo and query parameters, connection strings of any scheme.
		{"", "https://alice:S3cretPassw0rd@mcp.example.com/v1/mcp", RuleURLPass, "S3cretPassw0rd"},
		{"url", "https://mcp.example.com/v1?api_key=" + hex32, RuleURLQuery, hex32},
		{"", "https://mcp.example.com/sse?transport=sse&token=" + rand, RuleURLQuery, rand},
		{"", "https://acct.blob.core.windows.net/c?sv=2022-11-02&se=2030-01-01&sig=" + fake(b64Std, 43, 5), RuleURLQuery, fake(b64Std, 43, 5)},
		{"", "https://h.example/x?access_token=" + rand + "#frag", RuleURLQuery, rand},
		{"", "https://h.example/x?X-Amz-Signature=" + hex64, RuleURLQuery, hex64},
		{"", "jdbc:mysql://db/app?user=app&password=pw", RuleURLQuery, "pw"},
		{"", "postgres://admin:Hunter2Secret99@db.internal:5432/app", RuleURLPass, "Hunter2Secret99"},
		{"DATABASE_URL", "postgres://u:Pa55w0rdXYZ@h/db", RuleURLPass, "Pa55w0rdXYZ"},
		{"", "mongodb+srv://app:pw@cluster0.example.mongodb.net/db", RuleURLPass, "pw"},
		{"REDIS_URL", "redis://:s3cr3tpass@localhost:6379/0", RuleURLPass, "s3cr3tpass"},
		{"", "amqp://guest:guest@localhost:5672/", RuleURLPass, "guest"},
		{"", "--db=postgres://admin:Hunter2Secret99@db/app", RuleURLPass, "Hunter2Secret99"},
		{"CONN", "Server=tcp:db,1433;Database=app;User Id=sa;Password=Hunter2Secret;", RuleConnString, "Hunter2Secret"},
		{"AZURE_STORAGE_CONNECTION_STRING", "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=" + fake(b64Std, 86, 6) + "==;EndpointSuffix=core.windows.net", RuleConnString, fake(b64Std, 86, 6) + "=="},

		// Header names with a literal value.
		{"Authorization", "Bearer abcdef1234567890", RuleNamed, "abcdef1234567890"},
		{"authorization", "Basic dXNlcjpwYXNzd29yZA==", RuleNamed, "dXNlcjpwYXNzd29yZA=="},
		{"Proxy-Authorization", "token correcthorse", RuleNamed, "correcthorse"},
		{"Cookie", "sessionid=8f7d6e5c4b3a2918; csrftoken=abc", RuleNamed, "sessionid=8f7d6e5c4b3a2918; csrftoken=abc"},
		{"X-Api-Key", "abcdefgh12345678", RuleNamed, ""},
		{"Api-Key", "Zm9vYmFyYmF6", RuleNamed, ""},
		{"X-Goog-Api-Key", "plainletterskey", RuleNamed, ""},
		{"X-Auth-Token", "abcdefghijkl", RuleNamed, ""},
		{"Private-Token", "abcdefghijkl", RuleNamed, ""},
		{"X-Client-Secret", "abcdefghijkl", RuleNamed, ""},

		// Environment names with a literal value, letters only included.
		{"OPENAI_KEY", "abcd1234efgh5678ijkl", RuleNamed, ""},
		{"DB_PASSWORD", "correcthorsebatterystaple", RuleNamed, ""},
		{"AWS_SECRET_ACCESS_KEY", fake(b64Std, 40, 7), RuleNamed, ""},
		{"GITHUB_PAT", "thisisnotarealtoken", RuleNamed, ""},
		{"GOOGLE_APPLICATION_CREDENTIALS", "inline-json-blob-here", RuleNamed, ""},
		{"SMTP_PASS", "mailpassword", RuleNamed, ""},
		{"JWT_SECRET", "supersecretvalue", RuleNamed, ""},
		{"SLACK_SIGNING_SECRET", hex32, RuleNamed, ""},
		{"apiKey", "letters-and-dashes", RuleNamed, ""},
		{"primaryApiKey", "anything-long-enough", RuleNamed, ""},
		{"bearer_token", "abcdefghijklmnop", RuleNamed, ""},
		{"oauthAccount", "alice@example.com", RuleNamed, ""},
		{"PASSWORD_HASH", "$2b$12$abcdefghijklmnopqrstuv", RuleNamed, ""},
		{"DB_PASSWORD", "pass word with spaces", RuleNamed, ""},

		// Known token formats, wherever they stand.
		{"", "ghp_" + fake(azAZ09, 36, 10), RuleToken, ""},
		{"", "gho_" + fake(azAZ09, 36, 11), RuleToken, ""},
		{"", "ghs_" + fake(azAZ09, 36, 12), RuleToken, ""},
		{"", "github_pat_11" + fake(azAZ09+"_", 80, 13), RuleToken, ""},
		{"", "https://x-access-token:ghp_" + fake(azAZ09, 36, 14) + "@github.com/o/r.git", RuleToken, "ghp_" + fake(azAZ09, 36, 14)},
		{"", "https://ghp_" + fake(azAZ09, 36, 14) + "@github.com/o/r.git", RuleToken, "ghp_" + fake(azAZ09, 36, 14)},
		{"", "glpat-" + fake(azAZ09, 20, 15), RuleToken, ""},
		{"", "xoxb-1234567890-1234567890123-" + fake(azAZ09, 24, 16), RuleToken, ""},
		{"", "xapp-1-A0123456789-1234567890123-" + fake(hexLow, 64, 17), RuleToken, ""},
		{"", "https://hooks.slack.com/services/T00000000/B00000000/" + fake(azAZ09, 24, 18), RuleToken, "hooks.slack.com/services/T00000000/B00000000/" + fake(azAZ09, 24, 18)},
		{"", "AKIA" + fake(upper09, 16, 19), RuleToken, ""},
		{"", "ASIA" + fake(upper09, 16, 20), RuleToken, ""},
		{"", "AIza" + fake(azAZ09+"_-", 35, 21), RuleToken, ""},
		{"", "GOCSPX-" + fake(azAZ09, 28, 22), RuleToken, ""},
		{"", "ya29." + fake(azAZ09+"_-", 60, 23), RuleToken, ""},
		{"", "sk-" + fake(azAZ09, 48, 24), RuleToken, ""},
		{"", "sk-proj-" + fake(azAZ09+"_-", 100, 25), RuleToken, ""},
		{"", "sk-ant-api03-" + fake(azAZ09+"_-", 93, 26) + "AA", RuleToken, ""},
		{"", "sk-ant-oat01-" + fake(azAZ09+"_-", 80, 27), RuleToken, ""},
		{"", "sk_live_" + fake(azAZ09, 24, 28), RuleToken, ""},
		{"", "rk_test_" + fake(azAZ09, 24, 29), RuleToken, ""},
		{"", "whsec_" + fake(azAZ09, 32, 30), RuleToken, ""},
		{"", "npm_" + fake(azAZ09, 36, 31), RuleToken, ""},
		{"", "pypi-AgEIcHlwaS5vcmc" + fake(azAZ09+"_-", 60, 32), RuleToken, ""},
		{"", "hf_" + fake(azAZ09[:52], 34, 33), RuleToken, ""},
		{"", "SG." + fake(azAZ09+"_-", 22, 34) + "." + fake(azAZ09+"_-", 43, 35), RuleToken, "SG." + fake(azAZ09+"_-", 22, 34)},
		{"", "shpat_" + fake(hexLow, 32, 36), RuleToken, ""},
		{"", "dop_v1_" + fake(hexLow, 64, 37), RuleToken, ""},
		{"", "lin_api_" + fake(azAZ09, 40, 38), RuleToken, ""},
		{"", "ntn_" + fake(azAZ09, 46, 39), RuleToken, ""},
		{"", "dapi" + fake(hexLow, 32, 40), RuleToken, ""},
		{"", "gsk_" + fake(azAZ09, 52, 41), RuleToken, ""},
		{"", "tskey-auth-" + fake(azAZ09, 30, 42), RuleToken, ""},
		{"", "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0." + fake(azAZ09+"_-", 43, 43), RuleToken, ""},
		{"", "123456789:" + fake(azAZ09+"_-", 35, 44), RuleToken, ""},
		{"", "-----BEGIN RSA PRIVATE KEY-----\nMIIEow" + fake(b64Std, 60, 45) + "\n-----END RSA PRIVATE KEY-----\n", RulePrivateKey, "-----BEGIN RSA PRIVATE KEY-----\nMIIEow" + fake(b64Std, 60, 45) + "\n-----END RSA PRIVATE KEY-----"},
		{"", "-----BEGIN OPENSSH PRIVATE KEY-----", RulePrivateKey, ""},
		{"", "Bearer sk-" + fake(azAZ09, 48, 46), RuleToken, "sk-" + fake(azAZ09, 48, 46)},

		// Literal defaults inside references.
		{"", "${GH_TOKEN:-ghp_" + fake(azAZ09, 36, 47) + "}", RuleDefault, "ghp_" + fake(azAZ09, 36, 47)},
		{"TOKEN", "${DB_PASSWORD:-correcthorsebatterystaple}", RuleDefault, "correcthorsebatterystaple"},
		{"", "${API_KEY-" + rand + "}", RuleDefault, rand},
		{"", "https://alice:${PASS:-S3cretPassw0rd}@h.example/", RuleDefault, "S3cretPassw0rd"},

		// High-entropy strings.
		{"", fake(azAZ09, 32, 48), RuleEntropy, ""},
		{"", "server.js " + fake(azAZ09, 24, 49), RuleEntropy, fake(azAZ09, 24, 49)},
		{"", "eyJmb28iOiJiYXIiLCJiYXoiOjF9", RuleEntropy, ""}, // base64 of {"foo":"bar","baz":1}: taken for a secret

		// References and what is no credential.
		{"GITHUB_TOKEN", "${GITHUB_TOKEN}", "", ""},
		{"GITHUB_TOKEN", "${env:GITHUB_TOKEN}", "", ""},
		{"GITHUB_TOKEN", "{env:GITHUB_TOKEN}", "", ""},
		{"GITHUB_TOKEN", "$GITHUB_TOKEN", "", ""},
		{"API_KEY", "${input:apiKey}", "", ""},
		{"API_KEY", "${{ secrets.API_KEY }}", "", ""},
		{"API_KEY", "{file:~/.secrets/api-key}", "", ""},
		{"API_KEY", "", "", ""},
		{"Authorization", "Bearer ${DOCS_TOKEN}", "", ""},
		{"Authorization", "Bearer ${env:DOCS_TOKEN}", "", ""},
		{"MIXED", "x-${GH_TOKEN}-y", "", ""},
		{"TOKEN", "prefix-${GH_TOKEN}", "", ""},
		{"", "https://${USER}:${PASS}@h.example/", "", ""},
		{"", "postgres://${DB_USER}:${DB_PASS}@db/app", "", ""},
		{"AUTH_MODE", "local", "", ""},
		{"SESSION_DIR", "/tmp/sessions", "", ""},
		{"PASSWORD_FILE", "/run/secrets/db", "", ""},
		{"PASSWORD_FILE", "db-password.txt", "", ""},
		{"SSL_KEY", "/etc/ssl/private/key.pem", "", ""},
		{"TLS_KEY", "server.key", "", ""},
		{"SSH_KEY", "~/.ssh/id_ed25519", "", ""},
		{"API_KEY", "<<home>>/.config/tool/key", "", ""},
		{"SORT_KEY", "created_at_descending", "", ""},
		{"PUBLIC_KEY", fake(b64Std, 44, 50), "", ""},
		{"STRIPE_PUBLISHABLE_KEY", "pk_live_" + fake(azAZ09, 24, 51), "", ""},
		{"MAX_TOKENS", "4096", "", ""},
		{"TOKEN_LIMIT", "100000", "", ""},
		{"OAUTH_CLIENT_ID", "1234-abcdefg.apps.googleusercontent.com", "", ""},
		{"OAUTH_SCOPES", "repo read:org", "", ""},
		{"TOKEN_URL", "https://auth.example.com/oauth/token", "", ""},
		{"API_KEY", "your-api-key-here", "", ""},
		{"API_TOKEN", "<token>", "", ""},
		{"API_TOKEN", "xxxxxxxxxxxx", "", ""},
		{"AUTH", "required", "", ""},
		{"AUTH_ENABLED", "true", "", ""},
		{"Accept", "application/json", "", ""},
		{"Content-Type", "application/json; charset=utf-8", "", ""},
		{"", "/home/u/work/.repository/extensions/x/.venv/bin/python", "", ""},
		{"", "<<root>>/lib/scripts/server.py", "", ""},
		{"", `C:\Users\alice\AppData\Roaming\npm\node_modules\x\dist\index.js`, "", ""},
		{"", "/nix/store/" + fake("0123456789abcdfghijklmnpqrsvwxyz", 32, 52) + "-nodejs-20.11.0/bin/node", "", ""},
		{"", "1.2.3", "", ""},
		{"", "v2025.11.26", "", ""},
		{"", "@modelcontextprotocol/server-github@2025.4.8", "", ""},
		{"", "ghcr.io/github/github-mcp-server@sha256:" + hex64, "", ""},
		{"", "pkg@sha256:" + hex64, "", ""},
		{"", "sha512-" + fake(b64Std, 86, 53) + "==", "", ""},
		{"", "3f2b8c9e-1d4a-4b7e-9f3c-2a1b0c9d8e7f", "", ""},
		{"", "srv-3f2b8c9e-1d4a-4b7e-9f3c-2a1b0c9d8e7f", "", ""},
		{"", hex32, "", ""}, // a hash, unnamed
		{"", hex40, "", ""}, // a commit
		{"", "node", "", ""},
		{"", ".", "", ""},
		{"", "https://mcp.example.com/v1/mcp", "", ""},
		{"", "https://api.githubcopilot.com/mcp/?transport=sse&readonly=true", "", ""},
		{"", "http://localhost:3000/callback?code_challenge_method=S256&state=abc", "", ""},
		{"", "ssh://git@github.com/org/repo.git", "", ""},
		{"", "postgres://admin@db.internal/app", "", ""},
		{"", "ExtensionManagerService2024", "", ""},
		{"", "task-runner-for-everything", "", ""},
		{"", "sk-learn-mcp-server-tools", "", ""},
		{"", "claude-3-5-sonnet-20241022", "", ""},
		{"", "com.example.server.MainApplicationClass", "", ""},
		{"", "AUTH_MODE=oauth", "", ""},
		{"", "Accept: application/json", "", ""},
		{"", "x-${GH_TOKEN}-y", "", ""},
	}
	for _, c := range cases {
		got := Check(c.name, c.value)
		if c.rule == "" {
			if len(got) > 0 {
				t.Errorf("Check(%q, %q) = %+v, want nothing", c.name, c.value, got)
			}
			continue
		}
		if len(got) == 0 {
			t.Errorf("Check(%q, %q) found nothing, want %s", c.name, c.value, c.rule)
			continue
		}
		f := got[0]
		want := c.secret
		if want == "" {
			want = c.value
		}
		if f.Rule != c.rule || c.value[f.Start:f.End] != want {
			t.Errorf("Check(%q, %q) = %s %q, want %s %q", c.name, c.value, f.Rule, c.value[f.Start:f.End], c.rule, want)
		}
		if f.What == "" || strings.Contains(f.What, want) {
			t.Errorf("Check(%q, %q): What %q is empty or holds the value", c.name, c.value, f.What)
		}
	}
}

// TestArgs: flags with their value, --flag=value, headers and variables
// in one argument; and the flags whose value is none.
func TestArgs(t *testing.T) {
	type want struct {
		index  int
		secret string
	}
	cases := []struct {
		args []string
		want []want
	}{
		{[]string{"server.js", "--key", hex32}, []want{{2, hex32}}},
		{[]string{"--bearer=Zm9vYmFyYmF6cXV4MTIz"}, []want{{0, "Zm9vYmFyYmF6cXV4MTIz"}}},
		{[]string{"--token", "abcdefghijkl", "--port", "8080"}, []want{{1, "abcdefghijkl"}}},
		{[]string{"--password", "correcthorsebatterystaple"}, []want{{1, "correcthorsebatterystaple"}}},
		{[]string{"--api-key", "letterslettersletters"}, []want{{1, "letterslettersletters"}}},
		{[]string{"--client-secret=abcdefghijkl"}, []want{{0, "abcdefghijkl"}}},
		{[]string{"--header", "Authorization: Bearer abcdefghijkl"}, []want{{1, "abcdefghijkl"}}},
		{[]string{"-H", "X-Api-Key: abcdefgh12345678"}, []want{{1, "abcdefgh12345678"}}},
		{[]string{"run", "-e", "OPENAI_KEY=abcd1234efgh5678ijkl", "image"}, []want{{2, "abcd1234efgh5678ijkl"}}},
		{[]string{"--url", "https://alice:S3cretPassw0rd@h.example/"}, []want{{1, "S3cretPassw0rd"}}},
		{[]string{"--token", "${GH_TOKEN}"}, nil},
		{[]string{"--token=${GH_TOKEN:-ghp_" + fake(azAZ09, 36, 60) + "}"}, []want{{0, "ghp_" + fake(azAZ09, 36, 60)}}},
		{[]string{"--root", "."}, nil},
		{[]string{"--key", "tls.key", "--cert", "tls.crt"}, nil},
		{[]string{"--key-file", "secretsfile"}, nil},
		{[]string{"--key", "--verbose"}, nil},
		{[]string{"--auth", "none"}, nil},
		{[]string{"-e", "OPENAI_KEY"}, nil},
		{[]string{"--header", "Authorization: Bearer ${TOKEN}"}, nil},
		{[]string{"--header", "Accept: application/json"}, nil},
		{[]string{"-y", "@modelcontextprotocol/server-github@2025.4.8"}, nil},
		{[]string{"--rev", hex40}, nil},
		{[]string{"--port", "8080", "--timeout", "30"}, nil},
	}
	for _, c := range cases {
		got := Args(c.args)
		if len(got) != len(c.want) {
			t.Errorf("Args(%q) = %+v, want %v", c.args, got, c.want)
			continue
		}
		for i, w := range c.want {
			g := got[i]
			if g.Index != w.index || c.args[g.Index][g.Start:g.End] != w.secret {
				t.Errorf("Args(%q)[%d] = args[%d] %q, want args[%d] %q", c.args, i, g.Index, c.args[g.Index][g.Start:g.End], w.index, w.secret)
			}
		}
	}
}

func TestIsName(t *testing.T) {
	yes := []string{"API_KEY", "OPENAI_KEY", "key", "--key", "--api-key", "--apikey", "X-Api-Key", "apiKey", "APIKey",
		"primaryApiKey", "DB_PASSWORD", "db_passwd", "SMTP_PASS", "MYSQL_PWD", "GH_TOKEN", "--token", "GITHUB_PAT",
		"GOOGLE_APPLICATION_CREDENTIALS", "Authorization", "Proxy-Authorization", "Cookie", "Set-Cookie", "--bearer",
		"X-Auth-Token", "sig", "X-Amz-Signature", "CLIENT_SECRET", "secrets", "oauthAccount", "PASSWORD_HASH", "--auth"}
	no := []string{"", "PATH", "HOME", "KEY_ID", "AWS_ACCESS_KEY_ID", "MAX_TOKENS", "TOKEN_URL", "SORT_KEY", "PUBLIC_KEY",
		"publishableKey", "PASSWORD_FILE", "OAUTH_CLIENT_ID", "OAUTH_SCOPES", "--key-file", "--token-path", "Accept",
		"SESSION_DIR", "AUTH_MODE", "--root", "args", "env", "command", "url", "keyboard", "monkey", "bypass", "PATTERN"}
	for _, n := range yes {
		if !IsName(n) {
			t.Errorf("IsName(%q) = false", n)
		}
	}
	for _, n := range no {
		if IsName(n) {
			t.Errorf("IsName(%q) = true", n)
		}
	}
}

func TestVarName(t *testing.T) {
	for in, want := range map[string]string{"X-Api-Key": "X_API_KEY", "--api-key": "API_KEY", "Authorization": "AUTH_TOKEN",
		"": "TOKEN", "OPENAI_KEY": "OPENAI_KEY", "primaryApiKey": "PRIMARY_API_KEY", "api_key": "API_KEY", "Cookie": "COOKIE"} {
		if got := VarName(in); got != want {
			t.Errorf("VarName(%q) = %q, want %q", in, got, want)
		}
	}
}

// FuzzCheck: Check never panics, its findings are in order, inside the
// value and apart, and a value made only of a reference holds none.
func FuzzCheck(f *testing.F) {
	for _, s := range []string{"https://a:b@c/d?api_key=x", "${A:-ghp_x}", "Bearer x", "--key=1", "k=v;Password=p;", "eyJa.eyJb.c", "-----BEGIN X PRIVATE KEY-----", "${", "${{", "{env:", "<<root"} {
		f.Add("API_KEY", s)
		f.Add("", s)
	}
	f.Fuzz(func(t *testing.T, name, value string) {
		got := Check(name, value)
		end := 0
		for _, g := range got {
			if g.Start < end || g.End <= g.Start || g.End > len(value) {
				t.Fatalf("Check(%q, %q): bad span %+v after %d", name, value, g, end)
			}
			end = g.End
		}
		if isIdent(value) && len(Check(name, "${"+value+"}")) > 0 {
			t.Fatalf("the reference ${%s} holds a credential", value)
		}
		_ = Args([]string{name, value})
	})
}

// BenchmarkCheck is the detector on what a sync judges for every server
// at project scope (the pre-commit hook's path): paths, flags, words,
// references and URLs, none a credential.
func BenchmarkCheck(b *testing.B) {
	values := []struct{ name, value string }{
		{"", "/home/u/work/project/.repository/extensions/vault/.venv/bin/python"},
		{"", "<<root>>/lib/scripts/subagent.py"}, {"", "serve"}, {"", "--root"}, {"", "/home/u/work/project"},
		{"GITHUB_TOKEN", "${GITHUB_TOKEN}"}, {"VAULTSPEC_MCP_ROOT_DIR", "/home/u/work/project"},
		{"", "https://mcp.example.com/v1/mcp?transport=sse"}, {"Authorization", "Bearer ${DOCS_TOKEN}"},
		{"", "@modelcontextprotocol/server-github@2025.4.8"},
	}
	// rules: a value met for the first time; memo: again (a sync checks
	// each server's values once for every tool it writes to).
	for _, bc := range []struct {
		name  string
		check func(name, value string) []Finding
	}{{"rules", checkValue}, {"memo", Check}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				for _, v := range values {
					if len(bc.check(v.name, v.value)) > 0 {
						b.Fatal(v)
					}
				}
			}
		})
	}
}

// TestCheckMemo: a value checked again gives what the rules give, however
// the caller changed what it got the first time.
func TestCheckMemo(t *testing.T) {
	for _, v := range []struct{ name, value string }{
		{"GITHUB_TOKEN", "ghp_" + strings.Repeat("a1B2", 9)},
		{"", "postgres://alice:s3cr3t-pw@db.example.com/app"},
		{"", "${TOKEN:-ghp_" + strings.Repeat("Zz09", 9) + "}"},
		{"", "/usr/bin/node"},
	} {
		first := Check(v.name, v.value)
		for i := range first {
			first[i].Start, first[i].Rule = -1, "changed by the caller"
		}
		_ = append(first[:0], Finding{What: "appended by the caller"})
		if again, want := Check(v.name, v.value), checkValue(v.name, v.value); !reflect.DeepEqual(again, want) {
			t.Errorf("Check(%q, %q) again = %+v, want %+v", v.name, v.value, again, want)
		}
	}
}
