// Package trust is what the user of this machine has said yes to: the
// servers of a workspace that may reach files outside it (the local and
// user scopes of the tools), each by a digest of its resolved definition.
//
// The repository proposes and the user decides. A workspace's extensions
// are shared text that anyone with push access can change, while a tool's
// user file (~/.claude.json, ~/.codex/config.toml) starts what it holds in
// every project, with no prompt. So a server reaches such a file only
// while the definition the user looked at is the one being written: a
// changed command, argument, environment value, URL or header is a new
// definition, untrusted again, and shown against the one trusted.
//
// The store lives in the user's state folder, never in the workspace, and
// is refused where a workspace could have put it (see Open).
package trust

import (
	"cmp"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"slices"
	"strings"

	"github.com/repo-manager/repo/extensions"
	"github.com/repo-manager/repo/internal/lazy"
	"github.com/repo-manager/repo/internal/setting"
	"github.com/repo-manager/repo/toolprofiles"
)

// Definition is a server as trust judges it: everything that decides what
// the tools run or connect to, and what they let it do, after resolution
// (the venv python, the absolute root, <<templates>> filled in; ${NAME}
// references as written, since the tools expand them). Maps whose order
// does not change behaviour (env, headers, tool lists) are sorted, so
// equal servers have equal definitions.
//
// Left out, because they change nothing a server can do: the settings the
// settings table (internal/setting) does not mark for trust (the startup
// and tool timeouts), the MCP file and line it was declared at. Extension
// is shown, not digested: moving a server between extensions changes
// nothing it runs.
type Definition struct {
	Extension string   `json:"extension"`
	Transport string   `json:"transport"`
	Command   string   `json:"command,omitempty"`
	Args      []string `json:"args,omitempty"`
	Cwd       string   `json:"cwd,omitempty"`
	Env       []Pair   `json:"env,omitempty"`
	URL       string   `json:"url,omitempty"`
	Headers   []Pair   `json:"headers,omitempty"`
	// HeadersHelper is a command the tool runs to get a remote server's
	// headers: code the repository chose, as much as Command is.
	HeadersHelper string `json:"headers_helper,omitempty"`
	// OAuth is the client a tool signs in to a remote server as, where it
	// sends the user and which scopes it asks for.
	OAuth *OAuth `json:"oauth,omitempty"`
	// Settings are those that change what the server may do (enabled,
	// the tool lists: settings_gen.go), with a default where one is
	// absent and the tool lists sorted.
	Settings
	// Profiles are the workspace's own tool profiles that can write outside
	// it (see WorkspaceProfiles): they decide what an entry looks like in a
	// user's file, so a change to one is a change to every server.
	Profiles []Profile `json:"profiles,omitempty"`
}

// OAuth is a server's OAuth client as trust judges it (extensions.OAuth).
type OAuth struct {
	ClientID              string   `json:"client_id,omitempty"`
	ClientSecret          string   `json:"client_secret,omitempty"`
	CallbackPort          int      `json:"callback_port,omitempty"`
	Scopes                []string `json:"scopes,omitempty"`
	AuthServerMetadataURL string   `json:"auth_server_metadata_url,omitempty"`
}

// Pair is one environment variable or header.
type Pair struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// Profile is a workspace tool profile, by its digest.
type Profile struct {
	ID     string `json:"id"`
	Origin string `json:"origin"` // .repository/toolprofiles/<file>.toml
	Digest string `json:"digest"`
}

// WorkspaceOrigin is the origin prefix of the profiles a workspace ships
// (toolprofiles.Load names them so).
const WorkspaceOrigin = ".repository/toolprofiles/"

// WorkspaceProfiles are the profiles of set that the workspace defines and
// that have a local or user scope: those through which a workspace could
// shape what lands outside it. Sorted by id.
func WorkspaceProfiles(set *toolprofiles.Set) []Profile {
	var out []Profile
	if set == nil {
		return nil
	}
	for _, p := range set.All() {
		if !strings.HasPrefix(p.Origin(), WorkspaceOrigin) || (p.Scopes.Local == nil && p.Scopes.User == nil) {
			continue
		}
		// The decoded profile, not its bytes: a comment is no change. Every
		// member is a plain value, so encoding/json gives one form for one
		// profile (map keys sorted).
		data, err := json.Marshal(p)
		if err != nil {
			data = []byte(err.Error()) // cannot happen for decoded TOML; still never equal to a real profile
		}
		sum := sha256.Sum256(data)
		out = append(out, Profile{ID: p.ID, Origin: p.Origin(), Digest: "sha256:" + hex.EncodeToString(sum[:])})
	}
	return out
}

// Define is the definition of server s written through the workspace
// profiles given (WorkspaceProfiles).
func Define(s extensions.Server, profiles []Profile) Definition {
	d := Definition{
		Extension: s.Extension,
		Transport: s.Transport,
		Command:   s.Command,
		Args:      slices.Clone(s.Args),
		Cwd:       s.Cwd,
		Env:       pairs(s.Env),
		URL:       s.URL,
		Headers:   pairs(s.Headers),
		Settings:  defineSettings(&s.Settings),
	}
	if s.Auth != nil {
		d.HeadersHelper = s.Auth.HeadersHelper
		if o := s.Auth.OAuth; o != nil {
			d.OAuth = &OAuth{ClientID: o.ClientID, ClientSecret: o.ClientSecret, CallbackPort: o.CallbackPort,
				Scopes: slices.Clone(o.Scopes), AuthServerMetadataURL: o.AuthServerMetadataURL}
		}
	}
	if d.Transport == "" {
		d.Transport = extensions.Stdio
	}
	if len(profiles) > 0 {
		d.Profiles = slices.Clone(profiles)
		slices.SortFunc(d.Profiles, func(a, b Profile) int { return strings.Compare(a.ID, b.ID) })
	}
	if len(d.Args) == 0 {
		d.Args = nil
	}
	return d
}

// defineSettings are the trusted settings of s, each as the settings
// table says its kind is judged: a boolean not given is its default; a
// tool list is sorted, and one whose absence means something (Empty) is
// nil when not given and never nil when given.
func defineSettings(s *extensions.Settings) Settings {
	var d Settings
	for _, r := range trustedSettings.Get() {
		switch r.Kind {
		case setting.Bool:
			v := r.Default
			if b := s.Bool(r.Name); b != nil {
				v = *b
			}
			d.setBool(r.Name, v)
		case setting.Tools:
			list := sorted(s.Tools(r.Name))
			if r.Empty != "" && list == nil && s.Tools(r.Name) != nil {
				list = []string{}
			}
			d.setTools(r.Name, list)
		}
	}
	return d
}

// encode adds the trusted settings to a digest, in the table's order: a
// boolean as a flag; a tool list counted, after a flag saying whether it
// is there where its absence means something.
func (s *Settings) encode(e *encoder) {
	for _, r := range trustedSettings.Get() {
		switch r.Kind {
		case setting.Bool:
			e.flag(s.getBool(r.Name))
		case setting.Tools:
			list := s.getTools(r.Name)
			if r.Empty != "" {
				e.flag(list != nil)
			}
			e.list(list)
		}
	}
}

func pairs(kvs []extensions.KV) []Pair {
	if len(kvs) == 0 {
		return nil
	}
	out := make([]Pair, len(kvs))
	for i, kv := range kvs {
		out[i] = Pair{Name: kv.Key, Value: kv.Value}
	}
	slices.SortStableFunc(out, func(a, b Pair) int { return cmp.Compare(a.Name, b.Name) })
	return out
}

func sorted(list []string) []string {
	if len(list) == 0 {
		return nil
	}
	out := slices.Clone(list)
	slices.Sort(out)
	return out
}

// trustedSettings are the settings a definition holds (setting.Trusted):
// the table does not change while repo runs, and Define and Digest go
// through it for every server.
var trustedSettings = lazy.Value[[]setting.Row]{New: setting.Trusted}

// digestDomain starts every encoding: a digest of something else, or of
// another version of this encoding, can never equal one of these.
const digestDomain = "repo trust definition v1\x00"

// Digest is the digest of everything in d that changes behaviour, as
// "sha256:<64 hex digits>". Each value is encoded with its length before
// it and each list with its count, so no two definitions share an
// encoding: "a b" is not "a", "b", an argument is not the end of the
// command, a name=value is not a name.
func (d Definition) Digest() string {
	e := encoder{buf: append(make([]byte, 0, 512), digestDomain...)}
	e.str(d.Transport)
	e.str(d.Command)
	e.list(d.Args)
	e.str(d.Cwd)
	e.pairs(d.Env)
	e.str(d.URL)
	e.pairs(d.Headers)
	e.str(d.HeadersHelper)
	e.flag(d.OAuth != nil)
	if o := d.OAuth; o != nil {
		e.str(o.ClientID)
		e.str(o.ClientSecret)
		e.count(o.CallbackPort)
		e.list(o.Scopes)
		e.str(o.AuthServerMetadataURL)
	}
	d.Settings.encode(&e)
	e.count(len(d.Profiles))
	for _, p := range d.Profiles {
		e.str(p.ID)
		e.str(p.Origin)
		e.str(p.Digest)
	}
	sum := sha256.Sum256(e.buf)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// encoder is Digest's unambiguous encoding.
type encoder struct{ buf []byte }

func (e *encoder) count(n int) { e.buf = binary.AppendUvarint(e.buf, uint64(n)) }

func (e *encoder) str(s string) {
	e.count(len(s))
	e.buf = append(e.buf, s...)
}

func (e *encoder) list(l []string) {
	e.count(len(l))
	for _, s := range l {
		e.str(s)
	}
}

func (e *encoder) pairs(ps []Pair) {
	e.count(len(ps))
	for _, p := range ps {
		e.str(p.Name)
		e.str(p.Value)
	}
}

func (e *encoder) flag(b bool) {
	if b {
		e.buf = append(e.buf, 1)
	} else {
		e.buf = append(e.buf, 0)
	}
}
