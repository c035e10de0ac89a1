package extensions

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"

	"github.com/repo-manager/repo/internal/lazy"
	"github.com/repo-manager/repo/internal/ordered"
)

// A draft is an extension that is not on disk yet: the manifest and MCP
// file that repo mcp import is about to create. Draft reads it exactly as
// Load reads an extension from its folder — the same strict decoding and
// resolution — so what the import plans from is what a later run loads.

// MCPFileName is the MCP file of an extension repo creates.
const MCPFileName = "mcp.json"

// newName is what repo accepts as the name of an extension it creates: a
// folder name on every OS, which Load does not skip (no leading dot).
// Compiled on first use, not at start-up: its 64 repetitions make it the
// costliest regexp to compile, and only commands that create an extension
// need it (bench/run.sh, startup cases).
var newName = lazy.Regexp{Expr: `^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`}

// CheckNewName reports why name cannot be the folder of a new extension.
func CheckNewName(name string) error {
	if !newName.Get().MatchString(name) {
		return fmt.Errorf("%q: an extension name is a folder name of letters, digits, '.', '_' and '-', starting with a letter or digit (at most 64)", name)
	}
	return nil
}

// Dir is the folder of the extension called name.
func Dir(root, name string) string {
	return filepath.Join(root, RepoDir, "extensions", name)
}

// RenderManifest is the extension.toml of a new extension whose servers
// are in MCPFileName; comment (one line, or empty) says where it came from.
func RenderManifest(name, comment string) []byte {
	var b bytes.Buffer
	if comment != "" {
		fmt.Fprintf(&b, "# %s\n", comment)
	}
	fmt.Fprintf(&b, "name = %s\nversion = \"0.1.0\"\n\n[provides]\nmcp = %s\n", tomlString(name), tomlString(MCPFileName))
	return b.Bytes()
}

// tomlString quotes s as a TOML basic string.
func tomlString(s string) string {
	b, _ := json.Marshal(s) // JSON's escapes are TOML's, but for \u2028-like ones, which are valid in both
	return string(b)
}

// RenderMCPFile is an MCP file holding decls, in order, each with the
// fields it has, in the order the format documents them: type (for a
// remote server), command, args, env, cwd, url, headers. Two-space
// indent, final newline.
func RenderMCPFile(decls []Declaration) []byte {
	servers := ordered.Object{}
	for _, d := range decls {
		var o ordered.Object
		if d.Remote() {
			o = o.Set("type", d.Transport).Set("url", d.URL)
			if len(d.Headers) > 0 {
				o = o.Set("headers", kvObject(d.Headers))
			}
		} else {
			o = o.Set("command", d.Command)
			if len(d.Args) > 0 {
				o = o.Set("args", d.Args)
			}
			if len(d.Env) > 0 {
				o = o.Set("env", kvObject(d.Env))
			}
			if d.Cwd != "" {
				o = o.Set("cwd", d.Cwd)
			}
		}
		servers = append(servers, ordered.Member{Key: d.Name, Value: o})
	}
	var b bytes.Buffer
	if err := json.Indent(&b, ordered.JSON(ordered.Object{{Key: "mcpServers", Value: servers}}), "", "  "); err != nil {
		panic(err) // ordered.JSON gives valid JSON
	}
	b.WriteByte('\n')
	return b.Bytes()
}

func kvObject(kvs []KV) ordered.Object {
	o := make(ordered.Object, 0, len(kvs))
	for _, kv := range kvs {
		o = append(o, ordered.Member{Key: kv.Key, Value: kv.Value})
	}
	return o
}

// Draft reads the extension called folder from the bytes of its manifest
// and MCP file, as Load would read them from Dir(o.Root, folder): the
// manifest must name MCPFileName.
func Draft(o Options, folder string, manifest, mcp []byte) (*Extension, error) {
	dir := Dir(o.Root, folder)
	mrel := rel(o.Root, filepath.Join(dir, "extension.toml"))
	m, err := decodeManifest(manifest, mrel, folder)
	if err != nil {
		return nil, err
	}
	venv, err := inside(dir, m.Runtime.Python)
	if err != nil {
		return nil, &Error{File: mrel, Extension: folder, Field: "runtime.python", Msg: err.Error()}
	}
	if m.Provides.MCP != MCPFileName {
		return nil, &Error{File: mrel, Extension: folder, Field: "provides.mcp", Msg: fmt.Sprintf("%q: a draft's MCP file is %s", m.Provides.MCP, MCPFileName)}
	}
	ctx := Context{Root: o.Root, Home: o.Home, GOOS: o.GOOS, ExtDir: dir, Venv: m.Runtime.Python}
	ext := &Extension{Name: m.Name, Version: m.Version, Dir: dir, Manifest: mrel, Venv: venv, Python: ctx.Python(),
		MCPFile: rel(o.Root, filepath.Join(dir, MCPFileName))}
	decls, err := parseMCPFile(mcp, ext.MCPFile, folder)
	if err != nil {
		return nil, err
	}
	for _, d := range decls {
		s, err := Resolve(d, ctx, m.Name, ext.MCPFile)
		if err != nil {
			return nil, err
		}
		ext.Servers = append(ext.Servers, s)
	}
	return ext, nil
}

// DraftContext is the resolution context of a new extension called
// folder with the default venv: where its python would be.
func DraftContext(o Options, folder string) Context {
	return Context{Root: o.Root, Home: o.Home, GOOS: o.GOOS, ExtDir: Dir(o.Root, folder), Venv: DefaultVenv}
}
