package workload

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"unicode/utf8"
)

// ClaudeOptions describe a synthetic ~/.claude.json.
type ClaudeOptions struct {
	Size int64  // target size in bytes (the file ends up within a few KB of it)
	Root string // the workspace root: its projects entry is placed in the middle
	Seed uint64
}

// ClaudeStats says what was written.
type ClaudeStats struct {
	Bytes     int64
	Projects  int
	History   int   // history entries over all projects
	RootAt    int64 // byte offset of the workspace's projects key
	RootIndex int   // its index among the projects
}

// WriteClaudeJSONFile writes the file at path (its folder is created).
func WriteClaudeJSONFile(path string, o ClaudeOptions) (ClaudeStats, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return ClaudeStats{}, err
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
	if err != nil {
		return ClaudeStats{}, err
	}
	st, err := WriteClaudeJSON(f, o)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return st, err
}

// WriteClaudeJSON writes a ~/.claude.json the way Claude Code writes it
// (JSON.stringify with two-space indentation, non-ASCII left as UTF-8): the
// usual top-level settings, a cached changelog, and thousands of projects
// entries, each with its allowed tools, up to 100 prompt history entries
// (multi-line prompts with code and non-ASCII, some with pasted logs), cost
// and token statistics, and sometimes its own mcpServers. The workspace's
// entry (projects[Root], with one server of the user's) sits in the
// middle by size.
func WriteClaudeJSON(w io.Writer, o ClaudeOptions) (ClaudeStats, error) {
	g := &claudeGen{w: bufio.NewWriterSize(w, 1<<20), r: rand.New(rand.NewPCG(o.Seed, 0xc1a0de))}
	var st ClaudeStats
	g.raw("{\n")
	g.field(1, "numStartups", strconv.Itoa(300+g.r.IntN(2000)), true)
	g.field(1, "installMethod", q("native"), true)
	g.field(1, "autoUpdates", "true", true)
	g.field(1, "theme", q("dark"), true)
	g.raw("  \"tipsHistory\": {\n")
	tips := []string{"new-user-warmup", "plan-mode-for-complex-tasks", "memory-command", "theme-command", "prompt-queue", "enter-to-steer-in-relatime", "todo-list", "vscode-command-install", "ide-upsell-external-terminal", "git-worktrees", "shift-tab", "custom-commands", "permissions", "double-esc"}
	for i, t := range tips {
		g.field(2, t, strconv.Itoa(g.r.IntN(900)), i < len(tips)-1)
	}
	g.raw("  },\n")
	g.field(1, "userID", q(g.hex(64)), true)
	g.field(1, "firstStartTime", q("2025-03-14T09:26:53.589Z"), true)
	g.field(1, "cachedChangelog", q(g.changelog()), true)
	g.raw("  \"projects\": {\n")
	half := o.Size / 2
	placed := false
	tail := int64(2048) // what follows the projects map
	for i := 0; ; i++ {
		if !placed && g.n >= half {
			if i > 0 {
				g.raw(",\n")
			}
			st.RootAt = g.n + 4
			st.RootIndex = i
			st.History += g.project(o.Root, true)
			placed = true
			st.Projects++
			continue
		}
		if placed && g.n >= o.Size-tail {
			break
		}
		if i > 0 {
			g.raw(",\n")
		}
		path := fmt.Sprintf("/home/dev/src/%s/%s-%s-%d", g.pick(orgs), g.pick(words), g.pick(words), i)
		if g.r.IntN(10) == 0 {
			path = fmt.Sprintf("/tmp/scratch-%s", g.hex(8))
		}
		st.History += g.project(path, false)
		st.Projects++
	}
	g.raw("\n  },\n")
	g.field(1, "hasCompletedOnboarding", "true", true)
	g.field(1, "lastOnboardingVersion", q("2.1.329"), true)
	g.raw("  \"oauthAccount\": {\n")
	g.field(2, "accountUuid", q(g.uuid()), true)
	g.field(2, "emailAddress", q("dev@example.com"), true)
	g.field(2, "organizationUuid", q(g.uuid()), true)
	g.field(2, "organizationRole", q("admin"), true)
	g.field(2, "workspaceRole", "null", true)
	g.field(2, "organizationName", q("Example Org"), false)
	g.raw("  },\n")
	g.field(1, "subscriptionNoticeCount", "0", true)
	g.field(1, "hasAvailableSubscription", "false", true)
	g.raw("  \"mcpServers\": {\n")
	g.raw("    \"github\": {\n      \"type\": \"http\",\n      \"url\": \"https://api.githubcopilot.com/mcp/\",\n      \"headers\": {\n        \"Authorization\": \"Bearer ${GITHUB_PAT}\"\n      }\n    }\n")
	g.raw("  },\n")
	g.field(1, "bypassPermissionsModeAccepted", "true", false)
	g.raw("}")
	if err := g.w.Flush(); err != nil {
		return st, err
	}
	if g.err != nil {
		return st, g.err
	}
	st.Bytes = g.n
	return st, nil
}

var statuses = []int{200, 201, 204, 400, 404, 500, 503}

var orgs = []string{"acme", "globex", "initech", "umbrella", "hooli", "stark", "wayne", "wonka", "tyrell", "cyberdyne"}

type claudeGen struct {
	w   *bufio.Writer
	r   *rand.Rand
	n   int64
	err error
}

func (g *claudeGen) raw(s string) {
	if g.err != nil {
		return
	}
	n, err := g.w.WriteString(s)
	g.n += int64(n)
	g.err = err
}

func (g *claudeGen) field(depth int, key, value string, comma bool) {
	s := indentOf(depth) + q(key) + ": " + value
	if comma {
		s += ","
	}
	g.raw(s + "\n")
}

func indentOf(depth int) string {
	const spaces = "                                "
	return spaces[:2*depth]
}

func (g *claudeGen) pick(list []string) string { return list[g.r.IntN(len(list))] }

func (g *claudeGen) hex(n int) string {
	const digits = "0123456789abcdef"
	b := make([]byte, n)
	for i := range b {
		b[i] = digits[g.r.IntN(16)]
	}
	return string(b)
}

func (g *claudeGen) uuid() string {
	h := g.hex(32)
	return h[:8] + "-" + h[8:12] + "-4" + h[13:16] + "-a" + h[17:20] + "-" + h[20:]
}

var prompts = []string{
	"fix the failing test in %s; it started after the refactor of the cache layer",
	"why does `go test ./...` hang on CI but not locally? here is the log:\n\n%s",
	"refactor %s so that the retry logic lives in one place, keep the public API",
	"add a --dry-run flag to the sync command and print a unified diff",
	"explain what this regex does: `^python(3(\\.[0-9]+)?)?$` and whether it matches \"python3.12\"",
	"résumé of the design doc → write it as a checklist, in français please",
	"コードレビューをお願いします: %s のエラーハンドリング",
	"the build breaks with \"undefined: slices.Concat\" — which Go version do we need?",
	"write a migration that renames the column `user_id` to `account_id` and backfills it\n\n```sql\nALTER TABLE sessions ADD COLUMN account_id uuid;\n```",
	"/compact",
	"/review",
	"update the README: the install section still mentions `npm i -g` 🙃",
	"make the JSON editor keep CRLF line endings and the BOM; add golden tests\tfor both",
	"look at %s and tell me which functions allocate in the hot path",
}

var files = []string{"internal/cache/lru.go", "cmd/sync.go", "src/components/Table.tsx", "pkg/api/handler.go", "app/models/user.rb", "lib/parser.py", "server/routes/auth.ts"}

func (g *claudeGen) prompt() string {
	p := g.pick(prompts)
	var arg string
	switch {
	case g.r.IntN(4) == 0:
		arg = g.logLines(3 + g.r.IntN(12))
	default:
		arg = g.pick(files)
	}
	if n := countVerb(p); n > 0 {
		return fmt.Sprintf(p, arg)
	}
	return p
}

func countVerb(s string) int {
	n := 0
	for i := 0; i+1 < len(s); i++ {
		if s[i] == '%' && s[i+1] == 's' {
			n++
		}
	}
	return n
}

func (g *claudeGen) logLines(n int) string {
	var b []byte
	for i := 0; i < n; i++ {
		b = fmt.Appendf(b, "2026-11-%02dT%02d:%02d:%02d.%03dZ %s %s: request %s took %dms (status=%d, path=\"/api/v1/%s\")\n",
			1+g.r.IntN(28), g.r.IntN(24), g.r.IntN(60), g.r.IntN(60), g.r.IntN(1000),
			g.pick([]string{"INFO", "WARN", "ERROR", "DEBUG"}), g.pick(words), g.hex(12), g.r.IntN(5000),
			statuses[g.r.IntN(len(statuses))], g.pick(words))
	}
	return string(b)
}

// project writes one projects member and returns its history count.
func (g *claudeGen) project(path string, workspace bool) int {
	d := 3
	g.raw(indentOf(2) + q(path) + ": {\n")
	g.raw(indentOf(d) + "\"allowedTools\": [")
	tools := []string{"Bash(npm test:*)", "Bash(go test:*)", "Edit", "Write", "WebFetch(domain:docs.python.org)", "mcp__github__create_pull_request", "Bash(git diff:*)"}
	nt := g.r.IntN(5)
	for i := 0; i < nt; i++ {
		if i == 0 {
			g.raw("\n")
		}
		sep := ","
		if i == nt-1 {
			sep = ""
		}
		g.raw(indentOf(d+1) + q(g.pick(tools)) + sep + "\n")
	}
	if nt > 0 {
		g.raw(indentOf(d))
	}
	g.raw("],\n")
	// History: a third of the projects have a full 100-entry history (Claude
	// Code keeps the last 100 prompts per project), the others 1 to 50.
	nh := 100
	if g.r.IntN(3) != 0 {
		nh = 1 + g.r.IntN(50)
	}
	g.raw(indentOf(d) + "\"history\": [\n")
	for i := 0; i < nh; i++ {
		g.raw(indentOf(d+1) + "{\n")
		g.raw(indentOf(d+2) + "\"display\": " + q(g.prompt()) + ",\n")
		if g.r.IntN(12) == 0 {
			g.raw(indentOf(d+2) + "\"pastedContents\": {\n")
			g.raw(indentOf(d+3) + "\"1\": {\n")
			g.raw(indentOf(d+4) + "\"id\": 1,\n")
			g.raw(indentOf(d+4) + "\"type\": \"text\",\n")
			g.raw(indentOf(d+4) + "\"content\": " + q(g.logLines(20+g.r.IntN(60))) + "\n")
			g.raw(indentOf(d+3) + "}\n")
			g.raw(indentOf(d+2) + "}\n")
		} else {
			g.raw(indentOf(d+2) + "\"pastedContents\": {}\n")
		}
		sep := ","
		if i == nh-1 {
			sep = ""
		}
		g.raw(indentOf(d+1) + "}" + sep + "\n")
	}
	g.raw(indentOf(d) + "],\n")
	g.raw(indentOf(d) + "\"mcpContextUris\": [],\n")
	switch {
	case workspace:
		g.raw(indentOf(d) + "\"mcpServers\": {\n")
		g.raw(indentOf(d+1) + "\"user-local-db\": {\n")
		g.raw(indentOf(d+2) + "\"type\": \"stdio\",\n")
		g.raw(indentOf(d+2) + "\"command\": \"docker\",\n")
		g.raw(indentOf(d+2) + "\"args\": [\n" + indentOf(d+3) + "\"run\",\n" + indentOf(d+3) + "\"-i\",\n" + indentOf(d+3) + "\"--rm\",\n" + indentOf(d+3) + "\"ghcr.io/acme/db-mcp:1.4\"\n" + indentOf(d+2) + "],\n")
		g.raw(indentOf(d+2) + "\"env\": {}\n")
		g.raw(indentOf(d+1) + "}\n")
		g.raw(indentOf(d) + "},\n")
	case g.r.IntN(8) == 0:
		g.raw(indentOf(d) + "\"mcpServers\": {\n")
		g.raw(indentOf(d+1) + "\"playwright\": {\n")
		g.raw(indentOf(d+2) + "\"type\": \"stdio\",\n")
		g.raw(indentOf(d+2) + "\"command\": \"npx\",\n")
		g.raw(indentOf(d+2) + "\"args\": [\n" + indentOf(d+3) + "\"@playwright/mcp@latest\"\n" + indentOf(d+2) + "],\n")
		g.raw(indentOf(d+2) + "\"env\": {}\n")
		g.raw(indentOf(d+1) + "}\n")
		g.raw(indentOf(d) + "},\n")
	default:
		g.raw(indentOf(d) + "\"mcpServers\": {},\n")
	}
	g.raw(indentOf(d) + "\"enabledMcpjsonServers\": [],\n")
	g.raw(indentOf(d) + "\"disabledMcpjsonServers\": [],\n")
	g.field(d, "hasTrustDialogAccepted", "true", true)
	g.field(d, "projectOnboardingSeenCount", strconv.Itoa(g.r.IntN(5)), true)
	g.field(d, "hasClaudeMdExternalIncludesApproved", "false", true)
	g.field(d, "hasClaudeMdExternalIncludesWarningShown", "false", true)
	g.field(d, "lastCost", strconv.FormatFloat(g.r.Float64()*12, 'f', -1, 64), true)
	g.field(d, "lastAPIDuration", strconv.Itoa(g.r.IntN(900000)), true)
	g.field(d, "lastDuration", strconv.Itoa(g.r.IntN(9000000)), true)
	g.field(d, "lastLinesAdded", strconv.Itoa(g.r.IntN(2000)), true)
	g.field(d, "lastLinesRemoved", strconv.Itoa(g.r.IntN(800)), true)
	g.field(d, "lastTotalInputTokens", strconv.Itoa(g.r.IntN(200000)), true)
	g.field(d, "lastTotalOutputTokens", strconv.Itoa(g.r.IntN(90000)), true)
	g.field(d, "lastTotalCacheCreationInputTokens", strconv.Itoa(g.r.IntN(300000)), true)
	g.field(d, "lastTotalCacheReadInputTokens", strconv.Itoa(g.r.IntN(3000000)), true)
	g.field(d, "lastTotalWebSearchRequests", strconv.Itoa(g.r.IntN(4)), true)
	g.raw(indentOf(d) + "\"exampleFiles\": [\n")
	for i := 0; i < 5; i++ {
		sep := ","
		if i == 4 {
			sep = ""
		}
		g.raw(indentOf(d+1) + q(g.pick(files)) + sep + "\n")
	}
	g.raw(indentOf(d) + "],\n")
	g.field(d, "exampleFilesGeneratedAt", strconv.FormatInt(1760000000000+g.r.Int64N(30000000000), 10), true)
	g.field(d, "lastSessionId", q(g.uuid()), false)
	g.raw(indentOf(2) + "}")
	return nh
}

func (g *claudeGen) changelog() string {
	var b []byte
	for v := 329; v > 200; v-- {
		b = fmt.Appendf(b, "## 2.1.%d\n\n- Fixed %s handling when %s\n- Improved `%s` startup time by %d%%\n- Added support for %s in MCP server configs\n\n",
			v, g.pick(words), g.pick(prompts[:3]), g.pick(words), 5+g.r.IntN(40), g.pick(words))
	}
	return string(b)
}

// q quotes s as JSON.stringify does: ", \ and control characters escaped,
// everything else (non-ASCII included) left as is.
func q(s string) string {
	b := make([]byte, 0, len(s)+2)
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x80 {
			_, n := utf8.DecodeRuneInString(s[i:])
			b = append(b, s[i:i+n]...)
			i += n
			continue
		}
		switch c {
		case '"':
			b = append(b, '\\', '"')
		case '\\':
			b = append(b, '\\', '\\')
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\t':
			b = append(b, '\\', 't')
		default:
			if c < 0x20 {
				b = fmt.Appendf(b, "\\u%04x", c)
			} else {
				b = append(b, c)
			}
		}
		i++
	}
	return string(append(b, '"'))
}
