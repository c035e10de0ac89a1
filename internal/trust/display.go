package trust

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/repo-manager/repo/internal/setting"
	"github.com/repo-manager/repo/internal/shellquote"
	"github.com/repo-manager/repo/internal/termtext"
)

// Lines are d as a person reviews it, one field per line ("command
// /usr/bin/node", "env TOKEN=${GITHUB_TOKEN}"), in a fixed order so that
// two definitions compare line by line (Diff). Every value a workspace
// chose is printed through termtext.Safe.
func (d Definition) Lines() []string {
	var out []string
	add := func(field, value string) {
		out = append(out, field+" "+termtext.Safe(value))
	}
	add("transport", d.Transport)
	if d.Command != "" {
		add("command", d.Command)
	}
	if len(d.Args) > 0 {
		add("args", shellquote.Join(d.Args))
	}
	if d.Cwd != "" {
		add("cwd", d.Cwd)
	}
	for _, p := range d.Env {
		add("env", p.Name+"="+p.Value)
	}
	if d.URL != "" {
		add("url", d.URL)
	}
	for _, p := range d.Headers {
		add("header", p.Name+": "+p.Value)
	}
	if d.HeadersHelper != "" {
		add("headers_helper", d.HeadersHelper)
	}
	if o := d.OAuth; o != nil {
		out = append(out, "oauth")
		if o.ClientID != "" {
			add("oauth client_id", o.ClientID)
		}
		if o.ClientSecret != "" {
			add("oauth client_secret", o.ClientSecret)
		}
		if o.CallbackPort != 0 {
			add("oauth callback_port", fmt.Sprint(o.CallbackPort))
		}
		if len(o.Scopes) > 0 {
			add("oauth scopes", strings.Join(o.Scopes, " "))
		}
		if o.AuthServerMetadataURL != "" {
			add("oauth auth_server_metadata_url", o.AuthServerMetadataURL)
		}
	}
	// The trusted settings, in the table's order: a boolean when it is
	// not its default, a tool list when it is there.
	for _, r := range setting.Trusted() {
		switch r.Kind {
		case setting.Bool:
			if v := d.getBool(r.Name); v != r.Default {
				add(r.Trust, strconv.FormatBool(v))
			}
		case setting.Tools:
			if list := d.getTools(r.Name); list != nil && (r.Empty != "" || len(list) > 0) {
				add(r.Trust, strings.Join(list, ", "))
			}
		}
	}
	for _, p := range d.Profiles {
		add("profile", p.ID+" "+p.Origin+" "+p.Digest)
	}
	return out
}

// Summary is what the server runs or connects to, in one line: the
// command and its arguments, or the URL.
func (d Definition) Summary() string {
	if d.URL != "" && d.Command == "" {
		return termtext.Safe(d.URL)
	}
	return termtext.Safe(shellquote.Join(append([]string{d.Command}, d.Args...)))
}

// DiffLine is one line of Diff: Op is ' ' (in both), '-' (only in the old
// definition) or '+' (only in the new).
type DiffLine struct {
	Op   byte
	Text string
}

func (l DiffLine) String() string { return string(l.Op) + " " + l.Text }

// Diff compares two definitions line by line (Lines), in order: a longest
// common subsequence, so a changed argument shows as that line removed and
// added, and the fields around it stay.
func Diff(old, new Definition) []DiffLine {
	a, b := old.Lines(), new.Lines()
	// lcs[i][j]: length of the longest common subsequence of a[i:], b[j:].
	lcs := make([][]int, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out []DiffLine
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] == b[j]:
			out = append(out, DiffLine{' ', a[i]})
			i++
			j++
		case lcs[i+1][j] >= lcs[i][j+1]:
			out = append(out, DiffLine{'-', a[i]})
			i++
		default:
			out = append(out, DiffLine{'+', b[j]})
			j++
		}
	}
	for ; i < len(a); i++ {
		out = append(out, DiffLine{'-', a[i]})
	}
	for ; j < len(b); j++ {
		out = append(out, DiffLine{'+', b[j]})
	}
	return out
}

// Redact is d with the values of fields replaced by a mark that says what
// was there and tells one value from another: a literal credential an
// author wrote ("env API_KEY", "header Authorization", "args[2]", "url",
// "command", "cwd", "headersHelper", "oauth.authServerMetadataUrl": cmd
// names them from internal/target.LiteralSecrets) is never printed, nor
// kept in the store. The digest is still that of the values: Redact is for
// showing and keeping a definition, never for digesting one.
func (d Definition) Redact(fields []string) Definition {
	if len(fields) == 0 {
		return d
	}
	mark := func(v string) string {
		sum := sha256.Sum256([]byte(v))
		return fmt.Sprintf("<literal credential, %d characters, sha256:%s>", len(v), hex.EncodeToString(sum[:6]))
	}
	d.Args = slices.Clone(d.Args)
	d.Env = slices.Clone(d.Env)
	d.Headers = slices.Clone(d.Headers)
	for _, f := range fields {
		kind, key, _ := strings.Cut(f, " ")
		switch {
		case kind == "env":
			for i := range d.Env {
				if d.Env[i].Name == key {
					d.Env[i].Value = mark(d.Env[i].Value)
				}
			}
		case kind == "header":
			for i := range d.Headers {
				if d.Headers[i].Name == key {
					d.Headers[i].Value = mark(d.Headers[i].Value)
				}
			}
		case kind == "url":
			d.URL = mark(d.URL)
		case kind == "command":
			d.Command = mark(d.Command)
		case kind == "cwd":
			d.Cwd = mark(d.Cwd)
		case kind == "headersHelper":
			d.HeadersHelper = mark(d.HeadersHelper)
		case kind == "oauth.authServerMetadataUrl" && d.OAuth != nil:
			o := *d.OAuth
			o.AuthServerMetadataURL = mark(o.AuthServerMetadataURL)
			d.OAuth = &o
		case strings.HasPrefix(kind, "args["):
			var i int
			if _, err := fmt.Sscanf(kind, "args[%d]", &i); err == nil && i >= 0 && i < len(d.Args) {
				a := d.Args[i]
				if k, _, ok := strings.Cut(a, "="); ok && strings.HasPrefix(k, "-") {
					d.Args[i] = k + "=" + mark(a[len(k)+1:])
				} else {
					d.Args[i] = mark(a)
				}
			}
		}
	}
	return d
}
