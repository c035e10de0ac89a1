package tomledit

import "bytes"

var hostileNames = []string{"a.b", `a"b`, "ünï", "a b", ":x", "42", "", `a\b`, "tab\there", "new\nline", "'q'", "[x]", "#x", "=", "x.", "@scope/pkg"}

const codexAppConfig = `# Codex configuration
# See https://developers.openai.com/codex/config

model = "gpt-5"
approval_policy = "on-request"

[projects."/home/u/w"]
trust_level = "trusted"

# My own server, added by hand.
[mcp_servers.user_srv]
command = "npx"
args = ["-y", "@acme/mcp"]

[mcp_servers.user_srv.env]
ACME_TOKEN = "t0k"
`

// realDocs are the documents of the golden tests, before and after.
func realDocs() []string {
	docs := []string{codexAppConfig}
	for _, tc := range goldenCases {
		docs = append(docs, tc.in, tc.want)
	}
	return docs
}

// lineOf returns the 1-based line of byte offset off in data: the line
// numbers the parser keeps, counted the slow way.
func lineOf(data []byte, off int) int {
	if off > len(data) {
		off = len(data)
	}
	return 1 + bytes.Count(data[:off], []byte{'\n'})
}
