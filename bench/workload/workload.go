// Package workload generates the benchmark workspaces of issue 5: a
// workspace with N extensions (one MCP server each, a mix of python-venv,
// `python -m`, node and remote servers, some with ${VAR} references), the
// users' own pre-existing config files for every project-scope tool, the
// peers' source files for the same servers (ruler's .ruler/ruler.toml,
// rulesync's .rulesync/mcp.json), and a synthetic ~/.claude.json of a given
// size. Everything is deterministic given the seed.
//
// It is shared by `go run -tags repodev ./bench/gen` and the Go benchmarks
// (*_bench_test.go in extensions/, translator/, writers/, internal/jsonedit/).
package workload

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/repo-manager/repo/extensions"
	"github.com/repo-manager/repo/internal/ordered"
	"github.com/repo-manager/repo/toolprofiles"
	"github.com/repo-manager/repo/translator"
)

// Kinds of generated servers.
const (
	KindPythonVenv   = "python-venv"   // command "python", a script, "--root ."
	KindPythonModule = "python-module" // command "python3", "-m pkg", "--root=."
	KindNode         = "node"          // command "node", <<extension.dir>>/dist/…
	KindRemote       = "remote"        // "type": "http", url, headers
)

// KV is one member of an ordered string map.
type KV struct{ Key, Value string }

// Server is one generated declaration, as written in the extension's mcp.json.
type Server struct {
	Name      string
	Extension string
	Kind      string
	Command   string
	Args      []string
	Env       []KV
	URL       string
	Headers   []KV
}

// Declaration renders the server as an mcp.json entry.
func (s Server) Declaration() ordered.Object {
	var o ordered.Object
	if s.Kind == KindRemote {
		o = o.Set("type", "http")
		o = o.Set("url", s.URL)
		if len(s.Headers) > 0 {
			o = o.Set("headers", kvObject(s.Headers))
		}
		return o
	}
	o = o.Set("command", s.Command)
	o = o.Set("args", s.Args)
	if len(s.Env) > 0 {
		o = o.Set("env", kvObject(s.Env))
	}
	return o
}

func kvObject(kvs []KV) ordered.Object {
	o := make(ordered.Object, 0, len(kvs))
	for _, kv := range kvs {
		o = append(o, ordered.Member{Key: kv.Key, Value: kv.Value})
	}
	return o
}

var words = []string{
	"vault", "spec", "atlas", "ledger", "prism", "relay", "quill", "forge", "harbor", "lumen",
	"orbit", "pixel", "rivet", "sable", "tundra", "umber", "vector", "willow", "zephyr", "cobalt",
	"delta", "ember", "fjord", "glacier", "helix", "iris", "jasper", "kepler", "lotus", "mosaic",
}

// Servers returns n deterministic server declarations: about 35% python in
// the extension's venv ("python" + "--root ."), 20% "python3 -m" with
// "--root=.", 25% node, 20% remote http; about a third carry ${VAR}
// references in env or headers.
func Servers(n int, seed uint64) []Server {
	r := rand.New(rand.NewPCG(seed, 0x5eed))
	out := make([]Server, n)
	for i := range out {
		w1, w2 := words[r.IntN(len(words))], words[r.IntN(len(words))]
		ext := fmt.Sprintf("%s-%s-%04d", w1, w2, i)
		name := fmt.Sprintf("%s-%s-mcp-%04d", w1, w2, i)
		envVar := strings.ToUpper(strings.ReplaceAll(w1+"_"+w2, "-", "_")) + fmt.Sprintf("_%04d_TOKEN", i)
		withRef := r.IntN(3) == 0
		s := Server{Name: name, Extension: ext}
		switch p := r.IntN(100); {
		case p < 35:
			s.Kind, s.Command = KindPythonVenv, "python"
			s.Args = []string{"<<extension.dir>>/lib/scripts/" + w1 + "_server.py", "serve", "--root", "."}
			s.Env = []KV{{strings.ToUpper(w1) + "_MCP_ROOT_DIR", "<<root>>"}}
			if r.IntN(2) == 0 {
				s.Env = append(s.Env, KV{"PYTHONUNBUFFERED", "1"})
			}
		case p < 55:
			s.Kind, s.Command = KindPythonModule, "python3"
			s.Args = []string{"-m", strings.ReplaceAll(w1+"_"+w2, "-", "_"), "--root=.", "--log-level", "info"}
		case p < 80:
			s.Kind, s.Command = KindNode, "node"
			s.Args = []string{"<<extension.dir>>/dist/" + w2 + "-mcp.js", "--stdio"}
			s.Env = []KV{{"NODE_ENV", "production"}, {strings.ToUpper(w2) + "_WORKING_DIR", "<<root>>"}}
		default:
			s.Kind = KindRemote
			s.URL = fmt.Sprintf("https://mcp.%s.example.com/v1/%s/mcp", w1, w2)
			s.Headers = []KV{{"X-Client", "repo-bench"}}
			withRef = withRef || r.IntN(2) == 0
		}
		if withRef {
			if s.Kind == KindRemote {
				s.Headers = append(s.Headers, KV{"Authorization", "Bearer ${" + envVar + "}"})
			} else {
				s.Env = append(s.Env, KV{envVar, "${" + envVar + "}"})
			}
		}
		out[i] = s
	}
	return out
}

// ToolFile is one project-scope tool and the file it reads.
type ToolFile struct {
	ID      string
	Path    string // relative to the root, slash-separated (the first candidate)
	Format  string
	Key     []string
	Profile *toolprofiles.Profile
}

// JSONFormats are the formats the generator writes user configs for.
var JSONFormats = []string{toolprofiles.FormatJSON, toolprofiles.FormatJSONComments, toolprofiles.FormatJSONC}

// ProjectTools lists the MCP tools with a project-scope file in one of
// JSONFormats on goos, sorted by id: what `repo tools --output json` shows
// with a "project" target of those formats.
func ProjectTools(goos string) ([]ToolFile, error) {
	set, err := toolprofiles.Builtin()
	if err != nil {
		return nil, err
	}
	var out []ToolFile
	for _, p := range set.All() {
		t := p.Scopes.Get(toolprofiles.ScopeProject)
		if !p.MCP || t == nil || !slices.Contains(JSONFormats, t.Format) {
			continue
		}
		paths := t.PathsFor(goos)
		if len(paths) == 0 {
			continue
		}
		out = append(out, ToolFile{ID: p.ID, Path: paths[0], Format: t.Format, Key: t.Key, Profile: p})
	}
	return out, nil
}

// PeerTools maps the repo tool ids that ruler 0.3.x and rulesync 17.x both
// write in project scope, to the same file, to their own names.
var PeerTools = []struct{ Repo, Ruler, Rulesync string }{
	{"claude", "claude", "claudecode"},
	{"crush", "crush", "crush"},
	{"cursor", "cursor", "cursor"},
	{"factory", "factory", "factorydroid"},
	{"jetbrains", "junie", "junie"},
	{"kiro", "kiro", "kiro"},
	{"opencode", "opencode", "opencode"},
	{"qwen", "qwen", "qwencode"},
	{"roo", "roo", "roo"},
	{"zed", "zed", "zed"},
}

// Options says what Generate writes.
type Options struct {
	N    int    // extensions, one server each
	Seed uint64 // decides names and the mix of servers
	// Tools restricts the project tools (repo ids); nil means all of ProjectTools.
	Tools []string
	// Comments puts comments (and, in JSONC, trailing commas) into the user
	// configs whose format allows them. Off for the race with the peers:
	// both crash on comments in .zed/settings.json.
	Comments bool
	// Peers writes .ruler/ruler.toml and .rulesync/mcp.json with the same
	// servers, resolved for this machine (neither peer has templates).
	Peers bool
	// Home is used to resolve <<home>> for the peers' files; default $HOME.
	Home string
}

// Result says what was written.
type Result struct {
	Root    string
	Servers []Server
	Tools   []ToolFile
	Files   []string // user config files written, relative to the root
}

// Generate writes the workspace at root, which must not hold one already.
func Generate(root string, o Options) (*Result, error) {
	root, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(filepath.Join(root, extensions.RepoDir)); err == nil {
		return nil, fmt.Errorf("%s: already holds a workspace", root)
	}
	all, err := ProjectTools(runtime.GOOS)
	if err != nil {
		return nil, err
	}
	tools := all
	if o.Tools != nil {
		tools = nil
		for _, id := range o.Tools {
			i := slices.IndexFunc(all, func(t ToolFile) bool { return t.ID == id })
			if i < 0 {
				return nil, fmt.Errorf("unknown or non-JSON project tool %q", id)
			}
			tools = append(tools, all[i])
		}
	}
	res := &Result{Root: root, Servers: Servers(o.N, o.Seed), Tools: tools}
	for _, s := range res.Servers {
		if err := writeExtension(root, s); err != nil {
			return nil, err
		}
	}
	ids := make([]string, len(tools))
	for i, t := range tools {
		ids[i] = fmt.Sprintf("%q", t.ID)
	}
	cfg := "# Generated by bench/gen.\n[mcp]\ntools = [" + strings.Join(ids, ", ") + "]\n"
	if err := writeFile(filepath.Join(root, ".repository", "config.toml"), []byte(cfg)); err != nil {
		return nil, err
	}
	done := map[string]bool{}
	for _, t := range tools {
		if done[t.Path] {
			continue // claude and copilot share .mcp.json
		}
		done[t.Path] = true
		data, err := UserConfig(t, o.Comments)
		if err != nil {
			return nil, err
		}
		if err := writeFile(filepath.Join(root, filepath.FromSlash(t.Path)), data); err != nil {
			return nil, err
		}
		res.Files = append(res.Files, t.Path)
	}
	if o.Peers {
		if err := writePeers(root, o); err != nil {
			return nil, err
		}
	}
	return res, nil
}

func writeExtension(root string, s Server) error {
	dir := filepath.Join(root, ".repository", "extensions", s.Extension)
	var m strings.Builder
	fmt.Fprintf(&m, "name = %q\nversion = \"1.%d.0\"\n\n[provides]\nmcp = \"mcp.json\"\n", s.Extension, len(s.Name)%7)
	if s.Kind == KindPythonVenv || s.Kind == KindPythonModule {
		m.WriteString("\n[runtime]\npython = \".venv\"\n")
	}
	if err := writeFile(filepath.Join(dir, "extension.toml"), []byte(m.String())); err != nil {
		return err
	}
	decl := ordered.Object{{Key: "mcpServers", Value: ordered.Object{{Key: s.Name, Value: s.Declaration()}}}}
	return writeFile(filepath.Join(dir, "mcp.json"), indent(ordered.JSON(decl), ""))
}

// UserConfig returns a user's own config for the tool's project file: an
// unrelated setting and one server of the user's in the tool's dialect,
// with a comment and trailing commas where the format allows and comments
// is set.
func UserConfig(t ToolFile, comments bool) ([]byte, error) {
	user := extensions.Server{Name: "user-own-" + t.ID, Extension: "user",
		Spec: extensions.Spec{Transport: extensions.Stdio, Command: "docker",
			Args: []string{"run", "-i", "--rm", "ghcr.io/acme/db-mcp:1.4"}, Env: []extensions.KV{{Key: "DB_URL", Value: "postgres://localhost/dev"}}}}
	entry := translator.TranslateWith(user, t.Profile, translator.Options{}).Entry
	if entry == nil {
		return nil, fmt.Errorf("%s cannot take a stdio server", t.ID)
	}
	canComment := comments && t.Format != toolprofiles.FormatJSON
	trailing := comments && t.Format == toolprofiles.FormatJSONC
	var b bytes.Buffer
	b.WriteString("{\n")
	if canComment {
		b.WriteString("  // Project settings for " + t.Profile.Name + ", edited by hand.\n")
	}
	setting := `"x-bench-setting": {"theme": "dark", "telemetry": false}`
	if t.ID == "opencode" {
		setting = `"$schema": "https://opencode.ai/config.json"`
	}
	b.WriteString("  " + setting + ",\n")
	depth := 1
	for i, k := range t.Key {
		pad := strings.Repeat("  ", depth)
		b.WriteString(pad + quote(k) + ": {\n")
		depth++
		if i == len(t.Key)-1 && canComment {
			b.WriteString(strings.Repeat("  ", depth) + "/* my own servers; repo leaves them alone */\n")
		}
	}
	pad := strings.Repeat("  ", depth)
	b.WriteString(pad + quote(user.Name) + ": ")
	b.Write(indent(ordered.JSON(entry), pad))
	b.Truncate(b.Len() - 1) // indent's final newline
	for range t.Key {
		if trailing {
			b.WriteByte(',')
		}
		depth--
		b.WriteString("\n" + strings.Repeat("  ", depth) + "}")
	}
	if trailing {
		b.WriteByte(',')
	}
	b.WriteString("\n}\n")
	return b.Bytes(), nil
}

// writePeers writes ruler's and rulesync's sources with the servers as repo
// resolves them for this machine (absolute venv python and root).
func writePeers(root string, o Options) error {
	home := o.Home
	if home == "" {
		home = os.Getenv("HOME")
	}
	ws, err := extensions.Load(extensions.Options{Root: root, Home: home, GOOS: runtime.GOOS})
	if err != nil {
		return err
	}
	var toml strings.Builder
	toml.WriteString("# Generated by bench/gen: the workspace's servers, resolved.\n[mcp]\nenabled = true\nmerge_strategy = \"merge\"\n")
	var servers ordered.Object
	for _, s := range ws.Servers {
		fmt.Fprintf(&toml, "\n[mcp_servers.%s]\n", quote(s.Name))
		var e ordered.Object
		if s.Remote() {
			e = e.Set("type", s.Transport).Set("url", s.URL)
			fmt.Fprintf(&toml, "url = %s\n", quote(s.URL))
			if len(s.Headers) > 0 {
				e = e.Set("headers", extKV(s.Headers))
				fmt.Fprintf(&toml, "headers = %s\n", tomlInline(s.Headers))
			}
		} else {
			e = e.Set("type", "stdio").Set("command", s.Command).Set("args", s.Args)
			fmt.Fprintf(&toml, "command = %s\nargs = [", quote(s.Command))
			for i, a := range s.Args {
				if i > 0 {
					toml.WriteString(", ")
				}
				toml.WriteString(quote(a))
			}
			toml.WriteString("]\n")
			if len(s.Env) > 0 {
				e = e.Set("env", extKV(s.Env))
				fmt.Fprintf(&toml, "env = %s\n", tomlInline(s.Env))
			}
		}
		servers = append(servers, ordered.Member{Key: s.Name, Value: e})
	}
	if err := writeFile(filepath.Join(root, ".ruler", "ruler.toml"), []byte(toml.String())); err != nil {
		return err
	}
	doc := ordered.Object{{Key: "mcpServers", Value: servers}}
	return writeFile(filepath.Join(root, ".rulesync", "mcp.json"), indent(ordered.JSON(doc), ""))
}

func extKV(kvs []extensions.KV) ordered.Object {
	o := make(ordered.Object, 0, len(kvs))
	for _, kv := range kvs {
		o = append(o, ordered.Member{Key: kv.Key, Value: kv.Value})
	}
	return o
}

// tomlInline renders an inline table; JSON string quoting is valid TOML
// basic-string quoting for the characters generated here.
func tomlInline(kvs []extensions.KV) string {
	parts := make([]string, len(kvs))
	for i, kv := range kvs {
		parts[i] = quote(kv.Key) + " = " + quote(kv.Value)
	}
	return "{ " + strings.Join(parts, ", ") + " }"
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// indent pretty-prints compact JSON with two spaces, every line after the
// first prefixed with prefix, and a final newline.
func indent(compact []byte, prefix string) []byte {
	var b bytes.Buffer
	if err := json.Indent(&b, compact, prefix, "  "); err != nil {
		panic(err)
	}
	b.WriteByte('\n')
	return b.Bytes()
}

func writeFile(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}
