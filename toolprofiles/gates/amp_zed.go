package gates

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"unicode/utf16"

	"github.com/repo-manager/repo/internal/ordered"
	"github.com/repo-manager/repo/internal/shellquote"
	"github.com/repo-manager/repo/toolprofiles"
)

// Amp keeps workspace servers (.amp/settings.json) waiting until each is
// approved: `amp mcp approve NAME` adds {serverName, specHash, allow: true}
// to "amp.mcpTrustedServers" in the user's settings, and a denial the same
// with allow false; "amp.workspaces" entries {path, allowAllMcpServers:
// true} approve every server of a workspace at once. The hash is the
// SHA-256 of JSON.stringify of the entry's launch spec, so every change to
// an entry needs a new approval. [run] Amp 0.0.1790142911-g7618fb (the
// installed client, offline, private HOME): approve wrote exactly these
// members, `amp mcp doctor` reported a server denied, awaiting approval or
// trusted accordingly, the hash of the raw (unexpanded) entry matched the
// one computed below, and the settings file is $AMP_SETTINGS_FILE, else
// $XDG_CONFIG_HOME/amp/settings.json (~/.config when unset), else, when
// only it exists, settings.jsonc beside it.
const ampSettings = "${XDG_CONFIG_HOME:-~/.config}/amp/settings.json"

// ampSettingsFile is the file Amp keeps its approvals in, or "" when the
// home folder is unknown.
func ampSettingsFile(c Context) string {
	if v := c.Env.Getenv("AMP_SETTINGS_FILE"); v != "" {
		if !filepath.IsAbs(v) {
			v = filepath.Join(c.Root, v) // Amp takes it from its working directory: the workspace
		}
		return v
	}
	path, err := toolprofiles.ExpandPath(ampSettings, c.Root, c.Env)
	if err != nil {
		return ""
	}
	if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) {
		alt := filepath.Join(filepath.Dir(path), "settings.jsonc")
		if _, err := os.Lstat(alt); err == nil {
			return alt
		}
	}
	return path
}

func ampApproved(c Context) State {
	path := ampSettingsFile(c)
	if path == "" {
		return State{Msg: "workspace servers wait for approval, and repo knows no home folder to read Amp's approvals from: " + strings.Join(c.names(), ", ")}
	}
	var s struct {
		Workspaces []struct {
			Path     string `json:"path"`
			AllowAll bool   `json:"allowAllMcpServers"`
		} `json:"amp.workspaces"`
		Trusted []struct {
			Server string `json:"serverName"`
			Hash   string `json:"specHash"`
			Allow  bool   `json:"allow"`
		} `json:"amp.mcpTrustedServers"`
	}
	if _, err := readJSON(path, &s); err != nil {
		return unreadable(c, path, err)
	}
	for _, w := range s.Workspaces {
		if w.AllowAll && w.Path == c.Root {
			// Every server, also each one a later commit adds or changes.
			return State{Msg: fmt.Sprintf("allowAllMcpServers for this workspace (amp.workspaces) in %s allows every workspace server, also those a later commit adds or changes, without asking", c.Show(path)),
				Fix: "remove it from amp.workspaces, and " + strings.TrimPrefix(ampFix(c.names()), "in the workspace root, ")}
		}
	}
	var denied, pending, changed []string
	for _, e := range c.Entries {
		hash, err := ampSpecHash(e.Value)
		if err != nil {
			return State{Msg: fmt.Sprintf("the entry of %s cannot be hashed as Amp does: %v", e.Name, err), Unreadable: true}
		}
		state, named := "", false
		for _, t := range s.Trusted {
			if t.Server != e.Name {
				continue
			}
			named = true
			if t.Hash == hash {
				state = map[bool]string{true: "approved", false: "denied"}[t.Allow]
			}
		}
		switch {
		case state == "denied":
			denied = append(denied, e.Name)
		case state == "approved":
		case named:
			changed = append(changed, e.Name)
		default:
			pending = append(pending, e.Name)
		}
	}
	waiting := append(append([]string{}, pending...), changed...)
	names := c.names()
	slices.SortStableFunc(waiting, func(a, b string) int { return slices.Index(names, a) - slices.Index(names, b) })
	var msgs []string
	if len(denied) > 0 {
		msgs = append(msgs, "workspace servers denied in "+c.Show(path)+": "+strings.Join(denied, ", "))
	}
	if len(pending) > 0 {
		msgs = append(msgs, "workspace servers wait for approval: "+strings.Join(pending, ", "))
	}
	if len(changed) > 0 {
		msgs = append(msgs, "their entry changed since Amp last approved or denied it, so they wait again: "+strings.Join(changed, ", "))
	}
	if len(msgs) > 0 {
		return State{Msg: strings.Join(msgs, "; "), Fix: ampFix(append(denied, waiting...))}
	}
	return State{OK: true, Msg: fmt.Sprintf("every workspace server is approved in %s (each approval is bound to its entry: approve again after a change)", c.Show(path))}
}

// ampFix is the command that approves names, in the workspace.
func ampFix(names []string) string {
	var cmds []string
	for _, n := range names {
		cmds = append(cmds, "amp mcp approve "+shellquote.Join([]string{n}))
	}
	return "in the workspace root, after reading each entry in .amp/settings.json, run " + strings.Join(cmds, " && ") + " (again after every change to an entry)"
}

// ampSpecHash is the hash Amp binds an approval to: SHA-256, in hex, of
// JSON.stringify({type: "command", command, args: args || [], env:
// sorted(env || {})}) for a stdio entry, or ({type: "url", url, headers:
// sorted(headers || {}), transport: transport || "http"}) for a remote
// one, where sorted orders the members by key.
func ampSpecHash(entry ordered.Object) (string, error) {
	var v map[string]any
	if err := json.Unmarshal(ordered.JSON(entry), &v); err != nil {
		return "", err
	}
	var b strings.Builder
	if cmd, ok := v["command"]; ok {
		b.WriteString(`{"type":"command","command":`)
		if err := jsStringify(&b, cmd); err != nil {
			return "", err
		}
		b.WriteString(`,"args":`)
		if err := jsStringify(&b, orDefault(v["args"], []any{})); err != nil {
			return "", err
		}
		b.WriteString(`,"env":`)
		if err := jsStringify(&b, orDefault(v["env"], map[string]any{})); err != nil {
			return "", err
		}
	} else {
		b.WriteString(`{"type":"url","url":`)
		if err := jsStringify(&b, v["url"]); err != nil {
			return "", err
		}
		b.WriteString(`,"headers":`)
		if err := jsStringify(&b, orDefault(v["headers"], map[string]any{})); err != nil {
			return "", err
		}
		b.WriteString(`,"transport":`)
		if err := jsStringify(&b, orDefault(v["transport"], "http")); err != nil {
			return "", err
		}
	}
	b.WriteString("}")
	sum := sha256.Sum256([]byte(b.String()))
	return hex.EncodeToString(sum[:]), nil
}

// orDefault is JavaScript's v || def for the values an entry holds.
func orDefault(v, def any) any {
	switch t := v.(type) {
	case nil:
		return def
	case string:
		if t == "" {
			return def
		}
	case bool:
		if !t {
			return def
		}
	case float64:
		if t == 0 {
			return def
		}
	}
	return v
}

// jsStringify writes v as JavaScript's JSON.stringify does, for the values
// JSON decoding gives: objects with their keys sorted by UTF-16 code units
// (Array.prototype.sort), except that keys which are array indices come
// first, in numeric order, as in any JavaScript object.
func jsStringify(b *strings.Builder, v any) error {
	switch t := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(t))
	case float64:
		b.WriteString(strconv.FormatFloat(t, 'g', -1, 64))
	case string:
		jsQuote(b, t)
	case []any:
		b.WriteByte('[')
		for i, e := range t {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := jsStringify(b, e); err != nil {
				return err
			}
		}
		b.WriteByte(']')
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		slices.SortFunc(keys, jsKeyOrder)
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			jsQuote(b, k)
			b.WriteByte(':')
			if err := jsStringify(b, t[k]); err != nil {
				return err
			}
		}
		b.WriteByte('}')
	default:
		return fmt.Errorf("unexpected %T", v)
	}
	return nil
}

// jsKeyOrder orders an object's keys as JavaScript enumerates a sorted
// object: array indices numerically first, then by UTF-16 code units.
func jsKeyOrder(a, b string) int {
	ai, aIdx := arrayIndex(a)
	bi, bIdx := arrayIndex(b)
	switch {
	case aIdx && bIdx:
		return int(ai) - int(bi)
	case aIdx:
		return -1
	case bIdx:
		return 1
	}
	return slices.Compare(utf16.Encode([]rune(a)), utf16.Encode([]rune(b)))
}

// arrayIndex reports whether s is a canonical array index (0 … 2³²−2).
func arrayIndex(s string) (int64, bool) {
	if s == "" || (len(s) > 1 && s[0] == '0') {
		return 0, false
	}
	n, err := strconv.ParseUint(s, 10, 32)
	if err != nil || n == 1<<32-1 || strconv.FormatUint(n, 10) != s {
		return 0, false
	}
	return int64(n), true
}

// jsQuote writes s as JSON.stringify quotes a string: only '"', '\' and
// control characters are escaped (\b \f \n \r \t, others as \u00xx).
func jsQuote(b *strings.Builder, s string) {
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			if r < 0x20 {
				fmt.Fprintf(b, `\u%04x`, r)
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
}

// Zed starts the context servers of a project's .zed/settings.json only in
// a trusted worktree ("Restricted Mode"; zed.dev/docs/worktree-trust,
// zed-industries/zed crates/project/src/trusted_worktrees.rs). Trust given
// in Zed is kept in its SQLite database (table trusted_worktrees in
// db/0-<channel>/db.sqlite in its data folder), which doctor does not read;
// the user setting "session": {"trust_all_worktrees": true} trusts every
// worktree, and that doctor checks, in the user settings file of the
// profile's user scope.
func zedTrusted(c Context) State {
	settings := zedSettingsFile(c)
	if settings != "" {
		var s struct {
			Session struct {
				TrustAll *bool `json:"trust_all_worktrees"`
			} `json:"session"`
		}
		if _, err := readJSON(settings, &s); err != nil {
			return unreadable(c, settings, err)
		}
		if t := s.Session.TrustAll; t != nil && *t {
			return State{OK: true, Msg: "every worktree is trusted (session.trust_all_worktrees) in " + c.Show(settings)}
		}
	}
	return State{Msg: "Zed starts the project's context servers only in a trusted worktree, and keeps which are trusted in its own database, which doctor does not read"}
}

// zedFix trusts this worktree, never every one (trust_all_worktrees).
func zedFix(Context) string {
	return "open the workspace in Zed and trust it when asked (or with the ! in the title bar: workspace: toggle worktree security)"
}

// zedSettingsFile is Zed's user settings file on this machine, or "".
func zedSettingsFile(c Context) string {
	if c.Profile == nil || c.Profile.Scopes.User == nil {
		return ""
	}
	ch, err := c.Profile.Scopes.User.Choose(c.Root, c.Env, exists)
	if err != nil {
		return ""
	}
	return ch.Path
}

// exists is how repo sync picks a file among a scope's candidates (see
// toolprofiles.Target.Choose): a path that cannot be there (a missing
// folder, or a file where a folder should be) does not exist.
func exists(p string) (bool, error) {
	_, err := os.Lstat(p)
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR):
		return false, nil
	}
	return false, err
}
