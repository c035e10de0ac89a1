// Package toolprofiles holds what repo knows about each AI tool — where its
// MCP config lives per scope, in which format, under which key, and how an
// entry is spelled — as data: TOML files in profiles/, decoded strictly so
// that a typo in a profile fails a test instead of writing a wrong file,
// and compiled into the binary as Go values by go generate. The user may
// add or replace profiles with files of their own (UserDir), for any
// scope; a workspace may, for the project scope only and for files inside
// the workspace, with its files in .repository/toolprofiles/*.toml (see
// confine.go). Both are decoded when a workspace is loaded.
package toolprofiles

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/repo-manager/repo/internal/lazy"
)

// Scope names, in the order repo reports them.
const (
	ScopeProject = "project" // a file in the repository
	ScopeLocal   = "local"   // user-private, but for this repository only
	ScopeUser    = "user"    // global for the user
)

// Scopes lists the valid scope names.
var Scopes = []string{ScopeProject, ScopeLocal, ScopeUser}

// Formats a target file can have. They differ in what the tool's reader
// accepts, which decides what repo may leave in (or refuse to find in) a file.
const (
	FormatJSON         = "json"          // strict RFC 8259
	FormatJSONComments = "json-comments" // // and /* */ comments, no trailing commas (Gemini, Qwen)
	FormatJSONC        = "jsonc"         // comments and trailing commas
	FormatTOML         = "toml"          // Codex: [mcp_servers."<name>"] tables
	FormatYAML         = "yaml"          // Continue, Goose
)

// Containers of a server map.
const (
	ContainerMap  = "map"  // {"<name>": {entry}} (most tools)
	ContainerList = "list" // [{name: "<name>", …entry}] (Continue)
)

// Evidence levels, strongest first, as docs/supported-tools.md explains
// them.
var evidenceLevels = []string{"run", "src", "docs", "2nd", "unverified"}

// Profile describes one AI tool.
type Profile struct {
	ID       string   `toml:"id"`
	Name     string   `toml:"name"`
	MCP      bool     `toml:"mcp"`
	Evidence string   `toml:"evidence"` // strongest evidence behind the profile: run, src, docs, 2nd, unverified
	Sources  []string `toml:"sources"`  // where the facts come from
	Notes    string   `toml:"notes"`
	// Detect lists paths relative to the root whose existence means the
	// workspace uses the tool: the evidence for its project scope.
	Detect []string `toml:"detect"`
	// DetectUser lists the tool's own folders or files in the user's home
	// (~/…, ${VAR:-…}/…) whose existence means it is used on this machine,
	// and Binaries its executables, one of which on PATH means the same:
	// the evidence for its user and local scopes, and for whether repo
	// doctor checks its approvals. Both empty: repo cannot tell.
	DetectUser []string `toml:"detect_user"`
	// Per-OS replacements of DetectUser (GOOS names), for tools whose
	// folders differ by OS (VS Code's user data).
	DetectUserLinux   []string    `toml:"detect_user_linux"`
	DetectUserDarwin  []string    `toml:"detect_user_darwin"`
	DetectUserWindows []string    `toml:"detect_user_windows"`
	Binaries          []string    `toml:"binaries"`
	Scopes            ScopeTable  `toml:"scopes"`
	Entry             EntryFormat `toml:"entry"`
	// Advice lists what a user must still do before the tool starts the
	// servers repo wrote, where repo cannot see whether it is done (a
	// per-session toggle in the tool's UI); repo doctor prints each one.
	Advice []Advice `toml:"advice"`

	origin string // "builtin:<file>", or the file of the user or workspace that defined it
	source source // built-in, the user's own, or the workspace's (confine.go)
}

// DetectUserFor returns the user-level markers to look for on goos.
func (p *Profile) DetectUserFor(goos string) []string {
	switch {
	case goos == "linux" && len(p.DetectUserLinux) > 0:
		return p.DetectUserLinux
	case goos == "darwin" && len(p.DetectUserDarwin) > 0:
		return p.DetectUserDarwin
	case goos == "windows" && len(p.DetectUserWindows) > 0:
		return p.DetectUserWindows
	}
	return p.DetectUser
}

// KnowsUserEvidence reports whether the profile says what shows the tool
// on a machine (detect_user, its per-OS forms, or binaries).
func (p *Profile) KnowsUserEvidence() bool {
	return len(p.DetectUser)+len(p.DetectUserLinux)+len(p.DetectUserDarwin)+len(p.DetectUserWindows)+len(p.Binaries) > 0
}

// Origin says where the profile was defined.
func (p *Profile) Origin() string { return p.origin }

// ScopeTable holds the target of each scope the tool has.
type ScopeTable struct {
	Project *Target `toml:"project"`
	Local   *Target `toml:"local"`
	User    *Target `toml:"user"`
}

// Get returns the target of a scope, or nil.
func (s ScopeTable) Get(scope string) *Target {
	switch scope {
	case ScopeProject:
		return s.Project
	case ScopeLocal:
		return s.Local
	case ScopeUser:
		return s.User
	}
	return nil
}

// Target is where a tool keeps its servers for one scope.
type Target struct {
	// Paths the tool reads, in preference order. The first that exists is
	// written; if none exists, the first is created. Paths may use ~ and
	// ${VAR} / ${VAR:-default}; project paths are relative to the root.
	Paths []string `toml:"paths"`
	// Per-OS replacements of Paths (GOOS names: linux, darwin, windows).
	PathsLinux   []string `toml:"paths_linux"`
	PathsDarwin  []string `toml:"paths_darwin"`
	PathsWindows []string `toml:"paths_windows"`
	// OSes on which the tool has no file for this scope.
	UnsupportedOS []string `toml:"unsupported_os"`
	// Installs are kinds of installation that read a file of their own:
	// where the folder an installation creates exists, its file is the one
	// the tool reads, whether or not that file exists yet. They are looked
	// at, in order, before the candidate paths (see Target.Choose).
	Installs []Install `toml:"installs"`
	Format   string    `toml:"format"`
	// Key is the path of the server map inside the file, one literal key per
	// segment; <<root>> stands for the workspace root (Claude's local scope).
	Key []string `toml:"key"`
	// Container is "map" (default) or "list": a list of entries that carry
	// their name in NameField (Continue's mcpServers).
	Container string `toml:"container"`
	NameField string `toml:"name_field"` // list entries: the member holding the name (default "name")
	// Skeleton is the content of a new file, for files repo creates and
	// owns outright (a Continue drop-in file needs name, version, schema).
	Skeleton string `toml:"skeleton"`
	// CreationChanges says what creating this file changes in the tool
	// besides its servers (Continue's cn leaves its remote default config
	// for it), as a phrase that follows "creating it". repo creates such a
	// file only for a tool named with --tool, and warns; a file that exists
	// is written as any other.
	CreationChanges string `toml:"creation_changes"`
	// Lock is how the tool serialises its own saves of the file; repo
	// takes it around replacing the file, so that a save of the tool never
	// straddles repo's (docs/coexistence.md).
	Lock *Lock `toml:"lock"`
	// NoEnvRef: the tool expands no environment references in this scope's
	// file, though it does in others (Kilo CLI refuses a project kilo.json
	// holding {env:…}, for the user config only may read the environment).
	NoEnvRef bool `toml:"no_env_ref"`
	// Former are the files and keys the tool read this scope's servers
	// from before (Devin's mcpServers key in config.json, which Devin CLI
	// v3000.3 moved to mcp_config.json). A sync removes the entries repo
	// wrote there, by its ownership record, and counts an entry the tool
	// itself moved from there to Paths as repo's; the user's entries there
	// are never touched. Each gives paths (per OS as above), format and key.
	Former []Target `toml:"former"`
	// Entry, when set, is the tool's dialect in this scope's file, which
	// differs from its others (Goose's project drop-ins are Claude-style
	// JSON, its user config.yaml has its own entries): it replaces the
	// profile's entry for this scope (Profile.ForScope).
	Entry *EntryFormat `toml:"entry"`
	// SettingsFile: the file holds the tool's other settings besides its
	// MCP servers (.zed/settings.json, .gemini/settings.json), which a team
	// commits. In the project scope repo never git-ignores such a file as a
	// whole while git tracks it, and never asks for it to be untracked: a
	// per-clone policy leaves it as the repository has it (see
	// internal/plan, tracked.go).
	SettingsFile bool `toml:"settings_file"`
}

// ExtensionVar in a project path stands for the name of an extension: the
// scope's file is a drop-in per extension, holding only that extension's
// servers (Goose's .agents/plugins/<name>/.mcp.json).
const ExtensionVar = "<<extension>>"

// PerExtension reports whether the scope's file is one per extension.
func (t *Target) PerExtension() bool {
	return slices.ContainsFunc(t.Paths, func(p string) bool { return strings.Contains(p, ExtensionVar) })
}

// ForExtension is t with ExtensionVar in its paths replaced by name.
func (t *Target) ForExtension(name string) *Target {
	cp := *t
	rep := func(paths []string) []string {
		if paths == nil {
			return nil
		}
		out := make([]string, len(paths))
		for i, p := range paths {
			out[i] = strings.ReplaceAll(p, ExtensionVar, name)
		}
		return out
	}
	cp.Paths, cp.PathsLinux, cp.PathsDarwin, cp.PathsWindows = rep(t.Paths), rep(t.PathsLinux), rep(t.PathsDarwin), rep(t.PathsWindows)
	return &cp
}

// ForScope is p as it writes scope: p itself, or a copy whose entry is the
// scope's own (Target.Entry).
func (p *Profile) ForScope(scope string) *Profile {
	t := p.Scopes.Get(scope)
	if t == nil || t.Entry == nil {
		return p
	}
	cp := *p
	cp.Entry = *t.Entry
	// Said in every warning about it: what the tool lacks here, it may
	// have in its other files.
	cp.Name = p.Name + " (" + scope + " file)"
	return &cp
}

// Lock kinds: how a tool locks its config file.
const (
	// LockMkdir is a folder the tool creates before it re-reads and saves
	// the file, and removes after (Claude Code's ~/.claude.json.lock).
	LockMkdir = "mkdir"
	// LockFlock is an exclusive flock on a file next to the config, which
	// repo takes only if the file exists and never creates (Copilot CLI
	// binds its lock file by device and inode).
	LockFlock = "flock"
)

// Lock is a tool's lock on its config file.
type Lock struct {
	Kind string `toml:"kind"` // LockMkdir or LockFlock
	// Path is the lock's name, relative to the config file's folder.
	Path string `toml:"path"`
}

// PathsFor returns the candidate paths on goos, or nil when the scope does
// not exist there.
func (t *Target) PathsFor(goos string) []string {
	if slices.Contains(t.UnsupportedOS, goos) {
		return nil
	}
	switch {
	case goos == "linux" && len(t.PathsLinux) > 0:
		return t.PathsLinux
	case goos == "darwin" && len(t.PathsDarwin) > 0:
		return t.PathsDarwin
	case goos == "windows" && len(t.PathsWindows) > 0:
		return t.PathsWindows
	}
	return t.Paths
}

// Install is one kind of installation of a tool that reads its own file
// (Claude Desktop's MSIX package on Windows).
type Install struct {
	Name   string `toml:"name"`   // what it is, as repo doctor says it
	OS     string `toml:"os"`     // the GOOS it exists on
	Marker string `toml:"marker"` // a folder that exists exactly when it is installed
	Path   string `toml:"path"`   // the file it reads
	Reason string `toml:"reason"` // why the candidate paths are wrong for it, with the source
}

// Advice is one thing a user must do in the tool itself, which repo can
// neither do nor check (turn project servers on, approve them).
type Advice struct {
	// Scopes it applies to; empty: every scope the tool has.
	Scopes []string `toml:"scopes"`
	// Check names the kind of finding: toggle, approval, trust, name.
	Check string `toml:"check"`
	// NamePattern, for check "name": the advice concerns only servers whose
	// name does not match it (a name some command of the tool rejects).
	NamePattern string `toml:"name_pattern"`
	Message     string `toml:"message"` // what the tool does, stated as a fact
	Fix         string `toml:"fix"`     // what the user does about it
}

// Concerns reports whether a name advice concerns a server named name: one
// whose name does not match NamePattern. Other advice concerns every
// server.
func (a *Advice) Concerns(name string) bool {
	return a.NamePattern == "" || !matches(a.NamePattern, name)
}

// EntryFormat is a tool's dialect for one server entry.
type EntryFormat struct {
	// Command shape: "string" (command + args fields) or "array" (one
	// command array with the args folded in, OpenCode).
	Command      string `toml:"command"`
	CommandField string `toml:"command_field"` // default "command"
	ArgsField    string `toml:"args_field"`    // default "args"; unused for "array"
	AlwaysArgs   bool   `toml:"always_args"`   // write args even when empty
	EnvField     string `toml:"env_field"`     // default "env"
	CwdField     string `toml:"cwd_field"`     // empty: the tool has no working-directory field
	TypeField    string `toml:"type_field"`    // empty: no transport type is written
	StdioType    string `toml:"stdio_type"`    // type value of a stdio server; empty: omitted
	// EnvRef is how the tool spells an environment reference, with NAME as
	// the placeholder: "${NAME}", "${env:NAME}", "{env:NAME}". Empty: the
	// tool expands nothing.
	EnvRef string `toml:"env_ref"`
	// EnvRefDefault: the tool understands ${NAME:-default}.
	EnvRefDefault bool `toml:"env_ref_default"`
	// EnvRefFields lists the values in which the tool expands EnvRef, of
	// ValueFields (command, args, env, cwd, url, headers); empty: all of
	// them. A reference in any other value is written as literal text, with
	// a warning (Kiro and Amazon Q expand env and headers only).
	EnvRefFields []string `toml:"env_ref_fields"`
	// Expands lists every syntax the tool substitutes in values — its
	// reference syntax, shell expansion, templates — so that literal text
	// (a resolved path, or an author's text that is not a ${NAME}
	// reference) is never read as one: it gets the tool's escape, or the
	// server is refused for the tool where it has none.
	Expands []Expansion `toml:"expands"`
	// RootVar is the tool's own variable for the workspace folder
	// (${workspaceFolder}); in portable mode it is written instead of the
	// absolute root, so a committed file works at any path.
	RootVar string `toml:"root_var"`
	// Set lists fixed members written into every entry (enabled = true).
	Set map[string]any `toml:"set"`
	// Preserve lists members repo writes — a setting's member, a fixed
	// member of Set — that the tool or the user may change as well (enable
	// toggles, approval lists): their value in the file meets repo's offer
	// in a three-way merge (docs/tool-profiles.md) instead of being
	// compared. A member repo never writes (Written) needs no listing: it
	// is the tool's or the user's, kept as it is and never compared.
	Preserve []string `toml:"preserve"`
	// EnvForward is the list member naming variables the tool passes from
	// its own environment to the server (Codex env_vars): an env member that
	// only forwards a variable of its own name goes there.
	EnvForward string `toml:"env_forward_field"`
	// NameField, when set, repeats the server's name inside the entry
	// (Goose's extensions entries carry a name).
	NameField string `toml:"name_field"`
	// NamePattern is the regular expression a server name must match for
	// the tool to accept it; other names are written with a warning.
	NamePattern string `toml:"name_pattern"`
	// BlockedEnv lists environment variables the tool removes from a
	// server's environment (Gemini CLI drops PYTHONPATH, LD_PRELOAD, …):
	// a server that sets one is still written, with a warning.
	BlockedEnv []string `toml:"blocked_env"`
	// Remote is nil for stdio-only tools.
	Remote *RemoteFormat `toml:"remote"`
	// Settings are where the per-server settings of an MCP file go
	// (settings.go). A setting's member may also be in Set, which gives its
	// value when the author sets nothing, and in Preserve (see
	// docs/tool-profiles.md for how an author's value meets the user's).
	Settings Settings `toml:"settings"`
}

// AcceptsName reports whether the tool accepts name as a server's name
// (NamePattern; any name when the profile has none).
func (e *EntryFormat) AcceptsName(name string) bool {
	return matches(e.NamePattern, name)
}

// matches reports whether name matches pattern. The pattern is compiled
// once, when first matched, not when its profile is loaded: a run loads
// every profile and matches the names of a few (bench/run.sh, the startup
// cases); a built-in pattern never is (matchers.go). No pattern, or one
// that does not compile (the loaders refuse those), matches every name.
func matches(pattern, name string) bool {
	if pattern == "" {
		return true
	}
	if m := handMatcher(pattern); m != nil {
		return m.matchString(name)
	}
	if re, ok := patterns.Load(pattern); ok {
		return re.(*regexp.Regexp).MatchString(name)
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return true
	}
	patterns.Store(pattern, re)
	return re.MatchString(name)
}

// ValueFields are the values of a server that a profile's reference rules
// name: the command, each argument, env values, the working directory, the
// URL and header values.
var ValueFields = []string{"command", "args", "env", "cwd", "url", "headers"}

// KeyFields are the keys of an entry that repo writes from a server and an
// expansion rule can name: the server's name, env names, header names.
var KeyFields = []string{"name", "env", "headers"}

// Expansion is one syntax a tool substitutes in some values of an entry.
// Give Pattern when the tool has no way to write the text literally (repo
// refuses the server for the tool when literal text matches), or Escape
// when it has one (repo escapes all literal text).
type Expansion struct {
	// Fields it applies to, of ValueFields.
	Fields []string `toml:"fields"`
	// Keys it applies to as well, of KeyFields: a tool that substitutes in
	// its file's raw text (OpenCode) or in a serialised entry (Roo Code's
	// JSON.stringify) expands the server's name, env names and header
	// names too. A key that matches Pattern is refused for the tool; one
	// with an escape gets it (a name never does: the rule for it has a
	// Pattern, as the name is the entry's identity in records and gates).
	Keys []string `toml:"keys"`
	// OS limits it to these GOOS values (linux, darwin, windows); empty:
	// every OS.
	OS []string `toml:"os"`
	// Pattern is an RE2 expression matching text the tool would substitute.
	// A match must be exactly a reference repo wrote in the tool's syntax;
	// any other match is literal text the tool would change, and is refused.
	Pattern string `toml:"pattern"`
	// Escape maps each string the tool treats specially to how it is
	// written literally ("$" = "\\$"); applied to all literal text of
	// Fields. No key may be a prefix of another, so the order is irrelevant.
	Escape map[string]string `toml:"escape"`
	// ResolvedOnly checks only text that comes from resolved paths: the
	// syntax is one authors write on purpose for this tool (Continue's
	// ${{ secrets.X }}, which passes through untouched; docs/tool-profiles.md).
	ResolvedOnly bool `toml:"resolved_only"`
}

// patterns caches compiled Expansion and name patterns: profiles carry
// them as text.
var patterns sync.Map // string -> *regexp.Regexp

// Regexp returns the compiled Pattern, or nil when the rule has none. The
// pattern was checked when the profile was decoded. MatchString,
// FindStringIndex and FindAllStringIndex give the same answers without
// compiling a built-in pattern (matchers.go): use those.
func (x *Expansion) Regexp() *regexp.Regexp {
	if x.Pattern == "" {
		return nil
	}
	if re, ok := patterns.Load(x.Pattern); ok {
		return re.(*regexp.Regexp)
	}
	re := regexp.MustCompile(x.Pattern)
	patterns.Store(x.Pattern, re)
	return re
}

// Applies reports whether the rule covers field on goos.
func (x *Expansion) Applies(field, goos string) bool {
	return slices.Contains(x.Fields, field) && (len(x.OS) == 0 || slices.Contains(x.OS, goos))
}

// AppliesToKey reports whether the rule covers the keys of kind (of
// KeyFields) on goos.
func (x *Expansion) AppliesToKey(kind, goos string) bool {
	return slices.Contains(x.Keys, kind) && (len(x.OS) == 0 || slices.Contains(x.OS, goos))
}

// replacers caches each Escape's strings.Replacer by its pairs: building
// one allocates a table, and a translation escapes every value.
var replacers sync.Map // string -> *strings.Replacer

// Replacer returns the rule's Escape as a strings.Replacer, or nil.
func (x *Expansion) Replacer() *strings.Replacer {
	if len(x.Escape) == 0 {
		return nil
	}
	keys := make([]string, 0, len(x.Escape))
	for k := range x.Escape {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	pairs := make([]string, 0, 2*len(keys))
	for _, k := range keys {
		pairs = append(pairs, k, x.Escape[k])
	}
	id := strings.Join(pairs, "\x00")
	if r, ok := replacers.Load(id); ok {
		return r.(*strings.Replacer)
	}
	r := strings.NewReplacer(pairs...)
	replacers.Store(id, r)
	return r
}

// ExpandsRefsIn reports whether the tool expands its EnvRef in field.
func (e *EntryFormat) ExpandsRefsIn(field string) bool {
	return e.EnvRef != "" && (len(e.EnvRefFields) == 0 || slices.Contains(e.EnvRefFields, field))
}

// RemoteFormat is how a tool spells http and sse servers.
type RemoteFormat struct {
	HTTP         *RemoteKind `toml:"http"`
	SSE          *RemoteKind `toml:"sse"`
	HeadersField string      `toml:"headers_field"` // default "headers"
	// For tools that expand nothing (Codex): a header that is only an
	// environment reference is written as the variable's name instead —
	// "Authorization: Bearer ${X}" under BearerEnvField, "H: ${X}" in the
	// map under EnvHeadersField.
	BearerEnvField  string `toml:"bearer_env_field"`
	EnvHeadersField string `toml:"env_headers_field"`
	// Auth says where the tool keeps a remote server's authentication
	// (extensions.Auth); nil: it has no field for any of it.
	Auth *AuthFormat `toml:"auth"`
}

// AuthFormat says where a tool keeps each part of a remote server's
// authentication: the member path of each, or nil where the tool has
// none (the part is then not written, with a warning).
type AuthFormat struct {
	ClientID              *AuthField `toml:"client_id"`
	ClientSecret          *AuthField `toml:"client_secret"`
	CallbackPort          *AuthField `toml:"callback_port"`
	Scopes                *AuthField `toml:"scopes"`
	AuthServerMetadataURL *AuthField `toml:"auth_server_metadata_url"`
	HeadersHelper         *AuthField `toml:"headers_helper"`
	// Enable is a member set to true wherever an OAuth part is written
	// (Gemini CLI uses oauth only with oauth.enabled).
	Enable []string `toml:"enable"`
}

// AuthField is where one part of the authentication goes.
type AuthField struct {
	// Path is the member, a segment per level: ["oauth", "clientId"].
	Path []string `toml:"path"`
	// Join (scopes only): the tool takes one string, the scopes joined
	// with this; empty: a list.
	Join string `toml:"join"`
	// Format (callback_port only): the tool takes a string, this with
	// {port} replaced (Gemini CLI's redirectUri); empty: the number.
	Format string `toml:"format"`
	// Ref (client_secret only): the tool expands its environment reference
	// (entry.env_ref) in this member; without it the secret, which the MCP
	// file gives as a reference only, is not written.
	Ref bool `toml:"ref"`
}

// Parts lists the parts of the authentication by their MCP file names,
// with where the tool keeps each (nil: nowhere).
func (a *AuthFormat) Parts() []AuthPart {
	if a == nil {
		a = &AuthFormat{}
	}
	return []AuthPart{
		{"oauth.clientId", a.ClientID}, {"oauth.clientSecret", a.ClientSecret}, {"oauth.callbackPort", a.CallbackPort},
		{"oauth.scopes", a.Scopes}, {"oauth.authServerMetadataUrl", a.AuthServerMetadataURL}, {"headersHelper", a.HeadersHelper},
	}
}

// AuthPart is one part of the authentication and its field.
type AuthPart struct {
	Name  string
	Field *AuthField
}

// members are the top-level entry members the authentication is written
// to.
func (a *AuthFormat) members() []string {
	if a == nil {
		return nil
	}
	var out []string
	add := func(path []string) {
		if len(path) > 0 && !slices.Contains(out, path[0]) {
			out = append(out, path[0])
		}
	}
	for _, p := range a.Parts() {
		if p.Field != nil {
			add(p.Field.Path)
		}
	}
	add(a.Enable)
	return out
}

func (a *AuthFormat) validate(written []string) error {
	if a == nil {
		return nil
	}
	for _, p := range a.Parts() {
		f := p.Field
		if f == nil {
			continue
		}
		key := "entry.remote.auth." + authKey(p.Name)
		switch {
		case len(f.Path) == 0 || slices.Contains(f.Path, ""):
			return fmt.Errorf("%s: path: give the member, one segment per level", key)
		case slices.Contains(written, f.Path[0]):
			return fmt.Errorf("%s: path %q: repo writes that member from the server itself", key, f.Path)
		case f.Join != "" && p.Name != "oauth.scopes":
			return fmt.Errorf("%s: join is for scopes only", key)
		case f.Format != "" && (p.Name != "oauth.callbackPort" || !strings.Contains(f.Format, "{port}")):
			return fmt.Errorf("%s: format is for callback_port only, and holds {port}", key)
		case f.Ref && p.Name != "oauth.clientSecret":
			return fmt.Errorf("%s: ref is for client_secret only", key)
		}
	}
	if slices.Contains(a.Enable, "") {
		return fmt.Errorf("entry.remote.auth.enable: segments must not be empty")
	}
	return nil
}

func authKey(part string) string {
	switch part {
	case "oauth.clientId":
		return "client_id"
	case "oauth.clientSecret":
		return "client_secret"
	case "oauth.callbackPort":
		return "callback_port"
	case "oauth.scopes":
		return "scopes"
	case "oauth.authServerMetadataUrl":
		return "auth_server_metadata_url"
	}
	return "headers_helper"
}

// RemoteKind spells one remote transport.
type RemoteKind struct {
	Type     string `toml:"type"`      // value of the entry's type field; empty: omitted
	URLField string `toml:"url_field"` // default "url"
}

// Compiled on first use, not at start-up: only profiles decoded from TOML
// (the user's, the workspace's) are validated (bench/run.sh, startup cases).
var idPattern = lazy.Regexp{Expr: `^[a-z0-9][a-z0-9-]*$`}

// applyDefaults fills the field names a profile may leave out.
func (p *Profile) applyDefaults() {
	p.Entry.applyDefaults()
	for _, t := range []*Target{p.Scopes.Project, p.Scopes.Local, p.Scopes.User} {
		if t == nil {
			continue
		}
		t.applyDefaults()
		for i := range t.Former {
			t.Former[i].applyDefaults()
		}
		if t.Entry != nil {
			t.Entry.applyDefaults()
		}
	}
}

func (e *EntryFormat) applyDefaults() {
	if e.Command == "" {
		e.Command = "string"
	}
	if e.CommandField == "" {
		e.CommandField = "command"
	}
	if e.ArgsField == "" {
		e.ArgsField = "args"
	}
	if e.EnvField == "" {
		e.EnvField = "env"
	}
	if e.Remote != nil {
		if e.Remote.HeadersField == "" {
			e.Remote.HeadersField = "headers"
		}
		for _, k := range []*RemoteKind{e.Remote.HTTP, e.Remote.SSE} {
			if k != nil && k.URLField == "" {
				k.URLField = "url"
			}
		}
	}
}

func (t *Target) applyDefaults() {
	if t.Container == "" {
		t.Container = ContainerMap
	}
	if t.Container == ContainerList && t.NameField == "" {
		t.NameField = "name"
	}
}

// validate reports the first thing wrong with a profile.
func (p *Profile) validate() error {
	if !idPattern.Get().MatchString(p.ID) {
		return fmt.Errorf("id %q: use lower-case letters, digits and '-'", p.ID)
	}
	if p.Name == "" {
		return fmt.Errorf("profile %s: name is required", p.ID)
	}
	if !slices.Contains(evidenceLevels, p.Evidence) {
		return fmt.Errorf("profile %s: evidence %q: use one of %s", p.ID, p.Evidence, strings.Join(evidenceLevels, ", "))
	}
	if len(p.Sources) == 0 {
		return fmt.Errorf("profile %s: sources: cite at least one source", p.ID)
	}
	if err := p.validateDetect(); err != nil {
		return err
	}
	n := 0
	for _, scope := range Scopes {
		t := p.Scopes.Get(scope)
		if t == nil {
			continue
		}
		n++
		if err := t.validate(scope); err != nil {
			return fmt.Errorf("profile %s: scopes.%s: %w", p.ID, scope, err)
		}
	}
	if err := p.validateAdvice(); err != nil {
		return err
	}
	if !p.MCP {
		if len(p.Advice) > 0 {
			return fmt.Errorf("profile %s: mcp = false but advice is given", p.ID)
		}
		if n > 0 {
			return fmt.Errorf("profile %s: mcp = false but scopes are given", p.ID)
		}
		return nil
	}
	if n == 0 {
		return fmt.Errorf("profile %s: mcp = true needs at least one scope", p.ID)
	}
	if err := p.validateEntry(&p.Entry); err != nil {
		return err
	}
	for _, scope := range Scopes {
		if t := p.Scopes.Get(scope); t != nil && t.Entry != nil {
			if err := p.validateEntry(t.Entry); err != nil {
				return fmt.Errorf("scopes.%s.entry: %w", scope, err)
			}
		}
	}
	return nil
}

// validateEntry reports the first thing wrong with an entry format of p:
// its own, or one of a scope's.
func (p *Profile) validateEntry(ep *EntryFormat) error {
	e := *ep
	if e.Command != "string" && e.Command != "array" {
		return fmt.Errorf("profile %s: entry.command %q: use \"string\" or \"array\"", p.ID, e.Command)
	}
	if e.EnvRef != "" && !strings.Contains(e.EnvRef, "NAME") {
		return fmt.Errorf("profile %s: entry.env_ref %q must contain NAME", p.ID, e.EnvRef)
	}
	if (e.StdioType != "" || (e.Remote != nil && (kindType(e.Remote.HTTP) != "" || kindType(e.Remote.SSE) != ""))) && e.TypeField == "" {
		return fmt.Errorf("profile %s: entry: a type value needs entry.type_field", p.ID)
	}
	if e.NamePattern != "" {
		if _, err := regexp.Compile(e.NamePattern); err != nil {
			return fmt.Errorf("profile %s: entry.name_pattern: %v", p.ID, err)
		}
	}
	if e.Remote != nil && e.Remote.HTTP == nil && e.Remote.SSE == nil {
		return fmt.Errorf("profile %s: entry.remote: give http, sse or both", p.ID)
	}
	if e.EnvRefDefault && e.EnvRef == "" {
		return fmt.Errorf("profile %s: entry.env_ref_default needs entry.env_ref", p.ID)
	}
	if len(e.EnvRefFields) > 0 && e.EnvRef == "" {
		return fmt.Errorf("profile %s: entry.env_ref_fields needs entry.env_ref", p.ID)
	}
	if err := checkFields(e.EnvRefFields); err != nil {
		return fmt.Errorf("profile %s: entry.env_ref_fields: %w", p.ID, err)
	}
	escapes := 0
	for i := range e.Expands {
		if err := e.Expands[i].validate(); err != nil {
			return fmt.Errorf("profile %s: entry.expands[%d]: %w", p.ID, i, err)
		}
		if len(e.Expands[i].Escape) > 0 {
			escapes++
		}
	}
	if escapes > 1 {
		return fmt.Errorf("profile %s: entry.expands: at most one rule may have an escape (escapes do not compose)", p.ID)
	}
	written := e.writtenFields()
	if err := e.Settings.validate(written); err != nil {
		return fmt.Errorf("profile %s: %w", p.ID, err)
	}
	if e.Remote != nil {
		if err := e.Remote.Auth.validate(written); err != nil {
			return fmt.Errorf("profile %s: %w", p.ID, err)
		}
	}
	offered := append(e.Settings.Members(), e.AuthMembers()...)
	for f := range e.Set {
		offered = append(offered, f)
	}
	for i, f := range e.Preserve {
		switch {
		case slices.Contains(written, f):
			return fmt.Errorf("profile %s: entry.preserve %q: repo writes that field from the server itself", p.ID, f)
		case !slices.Contains(offered, f):
			return fmt.Errorf("profile %s: entry.preserve %q: repo never writes it, so it is kept as the tool or the user wrote it anyway; list only the members of entry.settings, entry.set and entry.remote.auth", p.ID, f)
		case slices.Contains(e.Preserve[:i], f):
			return fmt.Errorf("profile %s: entry.preserve %q is listed twice", p.ID, f)
		}
	}
	for f := range e.Set {
		if slices.Contains(written, f) {
			return fmt.Errorf("profile %s: entry.set %q: repo writes that field itself", p.ID, f)
		}
	}
	return nil
}

// checkFields reports a name that is not one of ValueFields, or a repeat.
func checkFields(fields []string) error {
	for i, f := range fields {
		if !slices.Contains(ValueFields, f) {
			return fmt.Errorf("%q: use %s", f, strings.Join(ValueFields, ", "))
		}
		if slices.Contains(fields[:i], f) {
			return fmt.Errorf("%q is listed twice", f)
		}
	}
	return nil
}

func (x *Expansion) validate() error {
	if len(x.Fields) == 0 {
		return fmt.Errorf("fields: name at least one of %s", strings.Join(ValueFields, ", "))
	}
	if err := checkFields(x.Fields); err != nil {
		return fmt.Errorf("fields: %w", err)
	}
	for i, k := range x.Keys {
		if !slices.Contains(KeyFields, k) {
			return fmt.Errorf("keys: %q: use %s", k, strings.Join(KeyFields, ", "))
		}
		if slices.Contains(x.Keys[:i], k) {
			return fmt.Errorf("keys: %q is listed twice", k)
		}
	}
	if slices.Contains(x.Keys, "name") && len(x.Escape) > 0 {
		return fmt.Errorf("keys: a server's name is never escaped (it is the entry's identity): give the rule for name a pattern")
	}
	if len(x.Keys) > 0 && x.ResolvedOnly {
		return fmt.Errorf("keys: resolved_only checks paths repo filled in, and a key holds none")
	}
	for _, os := range x.OS {
		if os != "linux" && os != "darwin" && os != "windows" {
			return fmt.Errorf("os %q: use linux, darwin or windows", os)
		}
	}
	switch {
	case (x.Pattern == "") == (len(x.Escape) == 0):
		return fmt.Errorf("give either pattern (the tool has no escape) or escape")
	case x.Pattern != "":
		re, err := regexp.Compile(x.Pattern)
		if err != nil {
			return fmt.Errorf("pattern: %v", err)
		}
		if re.MatchString("") {
			return fmt.Errorf("pattern %q matches the empty string", x.Pattern)
		}
	default:
		if x.ResolvedOnly {
			return fmt.Errorf("resolved_only needs a pattern: an escape applies to all literal text")
		}
		for k, v := range x.Escape {
			if k == "" || v == "" || v == k {
				return fmt.Errorf("escape %q = %q: give a non-empty string and a different spelling", k, v)
			}
			for k2 := range x.Escape {
				if k2 != k && strings.HasPrefix(k2, k) {
					return fmt.Errorf("escape: %q is a prefix of %q", k, k2)
				}
			}
		}
	}
	return nil
}

// Written lists every member repo may write into an entry of the tool,
// for any server: the ones derived from the server's definition, the
// members of its settings and the fixed members of Set. These are the
// members repo answers for — compared with what it wants, replaced when
// they differ (or merged, for Preserve). Every other member of a managed
// entry is the tool's or the user's (Claude Code's oauth, Codex's
// http_headers_helper, a $schema): kept as it is, never drift.
func (e *EntryFormat) Written() []string {
	var out []string
	for _, list := range [][]string{e.writtenFields(), e.Settings.Members(), slices.Sorted(maps.Keys(e.Set)), e.AuthMembers()} {
		for _, f := range list {
			if !slices.Contains(out, f) {
				out = append(out, f)
			}
		}
	}
	return out
}

// AuthMembers are the members a remote server's authentication is
// written to (entry.remote.auth), top level only.
func (e *EntryFormat) AuthMembers() []string {
	if e.Remote == nil {
		return nil
	}
	return e.Remote.Auth.members()
}

// writtenFields lists the entry members repo derives from a server
// definition; they can be neither preserved nor fixed by entry.set.
func (e *EntryFormat) writtenFields() []string {
	out := []string{e.CommandField, e.EnvField}
	if e.Command == "string" {
		out = append(out, e.ArgsField)
	}
	for _, f := range []string{e.CwdField, e.TypeField, e.EnvForward, e.NameField} {
		if f != "" {
			out = append(out, f)
		}
	}
	if e.Remote != nil {
		out = append(out, e.Remote.HeadersField)
		for _, f := range []string{e.Remote.BearerEnvField, e.Remote.EnvHeadersField} {
			if f != "" {
				out = append(out, f)
			}
		}
		for _, k := range []*RemoteKind{e.Remote.HTTP, e.Remote.SSE} {
			if k != nil {
				out = append(out, k.URLField)
			}
		}
	}
	return out
}

// validateDetect checks that each workspace marker is relative to the
// root, each user marker in the home folder or under a folder variable,
// and each binary a plain file name.
func (p *Profile) validateDetect() error {
	for _, d := range p.Detect {
		if d == "" || strings.HasPrefix(d, "/") || strings.HasPrefix(d, "${") || strings.HasPrefix(d, "~") || strings.HasPrefix(d, "..") {
			hint := ""
			if strings.HasPrefix(d, "~/") || strings.HasPrefix(d, "${") {
				hint = "; the tool's folders in the home folder go in detect_user"
			}
			return fmt.Errorf("profile %s: detect %q: use a path relative to the root%s", p.ID, d, hint)
		}
	}
	for field, list := range map[string][]string{"detect_user": p.DetectUser, "detect_user_linux": p.DetectUserLinux,
		"detect_user_darwin": p.DetectUserDarwin, "detect_user_windows": p.DetectUserWindows} {
		for _, d := range list {
			if !strings.HasPrefix(d, "~/") && !strings.HasPrefix(d, "${") {
				return fmt.Errorf("profile %s: %s %q: use a path starting with ~/ or ${VAR}", p.ID, field, d)
			}
		}
	}
	for i, b := range p.Binaries {
		if b == "" || strings.ContainsAny(b, `/\`) || b == "." || b == ".." {
			return fmt.Errorf("profile %s: binaries %q: give the executable's file name, without a folder", p.ID, b)
		}
		if slices.Contains(p.Binaries[:i], b) {
			return fmt.Errorf("profile %s: binaries %q is listed twice", p.ID, b)
		}
	}
	return nil
}

// adviceChecks are the kinds of finding an advice entry may give.
var adviceChecks = []string{"toggle", "approval", "trust", "name"}

func (p *Profile) validateAdvice() error {
	for i, a := range p.Advice {
		where := fmt.Sprintf("profile %s: advice[%d]", p.ID, i)
		if !slices.Contains(adviceChecks, a.Check) {
			return fmt.Errorf("%s: check %q: use one of %s", where, a.Check, strings.Join(adviceChecks, ", "))
		}
		if a.Message == "" || a.Fix == "" {
			return fmt.Errorf("%s: message and fix are required", where)
		}
		for _, sc := range a.Scopes {
			if p.Scopes.Get(sc) == nil {
				return fmt.Errorf("%s: scope %q: the profile has no such scope", where, sc)
			}
		}
		if (a.Check == "name") != (a.NamePattern != "") {
			return fmt.Errorf("%s: check \"name\" and name_pattern go together", where)
		}
		if a.NamePattern != "" {
			if _, err := regexp.Compile(a.NamePattern); err != nil {
				return fmt.Errorf("%s: name_pattern: %v", where, err)
			}
		}
	}
	return nil
}

// AdviceFor lists the advice that applies to a scope.
func (p *Profile) AdviceFor(scope string) []Advice {
	var out []Advice
	for _, a := range p.Advice {
		if len(a.Scopes) == 0 || slices.Contains(a.Scopes, scope) {
			out = append(out, a)
		}
	}
	return out
}

func kindType(k *RemoteKind) string {
	if k == nil {
		return ""
	}
	return k.Type
}

// validate reports the first thing wrong with the target of a scope.
func (t *Target) validate(scope string) error {
	if len(t.Paths) == 0 {
		return fmt.Errorf("paths: at least one path is required")
	}
	if err := t.validateLayout(); err != nil {
		return err
	}
	for _, paths := range [][]string{t.Paths, t.PathsLinux, t.PathsDarwin, t.PathsWindows} {
		for _, p := range paths {
			if err := t.validatePath(scope, p, len(paths)); err != nil {
				return err
			}
		}
	}
	for i := range t.Former {
		f := &t.Former[i]
		if len(f.Former) > 0 || len(f.Installs) > 0 || f.Skeleton != "" || f.CreationChanges != "" || f.Lock != nil {
			return fmt.Errorf("former[%d]: give paths, format, key (and container) only: repo only removes its entries there", i)
		}
		if err := f.validate(scope); err != nil {
			return fmt.Errorf("former[%d]: %w", i, err)
		}
	}
	for _, os := range t.UnsupportedOS {
		if os != "linux" && os != "darwin" && os != "windows" {
			return fmt.Errorf("unsupported_os %q: use linux, darwin or windows", os)
		}
	}
	if l := t.Lock; l != nil {
		if l.Kind != LockMkdir && l.Kind != LockFlock {
			return fmt.Errorf("lock.kind %q: use mkdir or flock", l.Kind)
		}
		if l.Path == "" || strings.ContainsAny(l.Path, `/\`) || l.Path == "." || l.Path == ".." {
			return fmt.Errorf("lock.path %q: the name of the lock, next to the config file", l.Path)
		}
	}
	return t.validateInstalls()
}

// validateLayout checks the file's format, the container of the servers
// (a list only in YAML) and the key path to it.
func (t *Target) validateLayout() error {
	switch t.Format {
	case FormatJSON, FormatJSONComments, FormatJSONC, FormatTOML, FormatYAML:
	default:
		return fmt.Errorf("format %q: use json, json-comments, jsonc, toml or yaml", t.Format)
	}
	switch t.Container {
	case ContainerMap:
	case ContainerList:
		if t.Format != FormatYAML {
			return fmt.Errorf("container \"list\" is only supported for yaml files")
		}
	default:
		return fmt.Errorf("container %q: use map or list", t.Container)
	}
	if len(t.Key) == 0 {
		return fmt.Errorf("key: the path of the server map is required")
	}
	if slices.Contains(t.Key, "") {
		return fmt.Errorf("key %q: segments must not be empty", t.Key)
	}
	return nil
}

// validatePath checks path p of a scope, one of n paths for its OS: a
// project path is relative to the root, a user path is not, and a file per
// extension is the project scope's one place.
func (t *Target) validatePath(scope, p string, n int) error {
	if strings.Contains(p, ExtensionVar) {
		segs := strings.Split(p, "/")
		switch {
		case scope != ScopeProject:
			return fmt.Errorf("path %q: %s is for project files only", p, ExtensionVar)
		case strings.Count(p, ExtensionVar) != 1 || !slices.Contains(segs, ExtensionVar) || segs[len(segs)-1] == ExtensionVar:
			return fmt.Errorf("path %q: %s must be one whole folder name of the path", p, ExtensionVar)
		case n != 1 || len(t.Former) > 0 || len(t.Installs) > 0:
			return fmt.Errorf("path %q: a file per extension is the scope's one path, with no former places or installations", p)
		}
	}
	relative := !strings.HasPrefix(p, "~") && !strings.HasPrefix(p, "${") && !strings.HasPrefix(p, "/")
	if scope == ScopeProject && !relative {
		return fmt.Errorf("path %q: project paths are relative to the root", p)
	}
	// A local file is private to the user: in the home folder (Claude's
	// ~/.claude.json) or in the repository, kept out of git by the tool
	// (Devin's .devin/mcp_config.local.json).
	if scope == ScopeUser && relative {
		return fmt.Errorf("path %q: %s paths start with ~, / or ${VAR}", p, scope)
	}
	return nil
}

// validateInstalls checks the installations of the tool that read their
// own file: each complete, for an OS the tool runs on, at absolute paths.
func (t *Target) validateInstalls() error {
	for i, in := range t.Installs {
		if in.Name == "" || in.Marker == "" || in.Path == "" || in.Reason == "" {
			return fmt.Errorf("installs[%d]: name, marker, path and reason are required", i)
		}
		if in.OS != "linux" && in.OS != "darwin" && in.OS != "windows" {
			return fmt.Errorf("installs[%d] (%s): os %q: use linux, darwin or windows", i, in.Name, in.OS)
		}
		if slices.Contains(t.UnsupportedOS, in.OS) {
			return fmt.Errorf("installs[%d] (%s): os %s is listed in unsupported_os", i, in.Name, in.OS)
		}
		for _, p := range []string{in.Marker, in.Path} {
			if !strings.HasPrefix(p, "~") && !strings.HasPrefix(p, "${") && !strings.HasPrefix(p, "/") {
				return fmt.Errorf("installs[%d] (%s): %q: installation paths start with ~, / or ${VAR}", i, in.Name, p)
			}
		}
	}
	return nil
}
