package extensions

import (
	"reflect"
	"strings"
	"testing"
)

var draftDecls = []Declaration{
	{Name: "py", Spec: Spec{Transport: Stdio, Command: "python", Args: []string{"<<root>>/s.py", "--root", "."},
		Env: []KV{{Key: "Z", Value: "${Z}"}, {Key: "A", Value: "<<home>>/a&b"}}}},
	{Name: "bare", Spec: Spec{Transport: Stdio, Command: "uvx"}},
	{Name: "cwd", Spec: Spec{Transport: Stdio, Command: "node", Args: []string{"ünïcode \"quoted\""}, Cwd: "<<root>>/sub"}},
	{Name: "h", Spec: Spec{Transport: HTTP, URL: "https://h.invalid/mcp?a=1&b=2", Headers: []KV{{Key: "Authorization", Value: "Bearer ${T}"}}}},
	{Name: "s", Spec: Spec{Transport: SSE, URL: "https://h.invalid/sse"}},
}

// TestRenderMCPFile: the rendered file reads back as the declarations, in
// order, and is laid out for people.
func TestRenderMCPFile(t *testing.T) {
	data := RenderMCPFile(draftDecls)
	decls, err := parseMCPFile(data, "mcp.json", "team")
	if err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	if len(decls) != len(draftDecls) {
		t.Fatalf("%d servers read back", len(decls))
	}
	for i, d := range decls {
		if d.Name != draftDecls[i].Name || !reflect.DeepEqual(d.Spec, draftDecls[i].Spec) {
			t.Errorf("server %d:\n got %+v\nwant %+v", i, d, draftDecls[i])
		}
	}
	for _, s := range []string{"{\n  \"mcpServers\": {\n    \"py\": {\n      \"command\": \"python\",", `"type": "http",`, `a=1&b=2`, "\n}\n"} {
		if !strings.Contains(string(data), s) {
			t.Errorf("%q not in\n%s", s, data)
		}
	}
	if strings.Contains(string(data), `"type": "stdio"`) {
		t.Errorf("stdio is the default and is not written:\n%s", data)
	}
}

// TestDraftIsLoad: a draft reads as Load reads the same files on disk.
func TestDraftIsLoad(t *testing.T) {
	root := t.TempDir()
	o := Options{Root: root, Home: "/home/u", GOOS: "linux"}
	manifest := RenderManifest("team", "Created by repo mcp import")
	mcp := RenderMCPFile(draftDecls)
	draft, err := Draft(o, "team", manifest, mcp)
	if err != nil {
		t.Fatal(err)
	}
	writeTree(t, root, map[string]string{
		".repository/extensions/team/extension.toml": string(manifest),
		".repository/extensions/team/mcp.json":       string(mcp),
	})
	ws, err := Load(o)
	if err != nil {
		t.Fatal(err)
	}
	if len(ws.Extensions) != 1 || !reflect.DeepEqual(ws.Extensions[0], *draft) {
		t.Fatalf("load:\n%+v\ndraft:\n%+v", ws.Extensions, *draft)
	}
	if draft.Servers[0].Command != DraftContext(o, "team").Python() {
		t.Errorf("python is %s", draft.Servers[0].Command)
	}
}

func TestDraftRefusals(t *testing.T) {
	o := Options{Root: t.TempDir(), GOOS: "linux"}
	if _, err := Draft(o, "team", RenderManifest("other", ""), RenderMCPFile(nil)); err == nil || !strings.Contains(err.Error(), `must equal the folder name`) {
		t.Errorf("got %v", err)
	}
	if _, err := Draft(o, "team", RenderManifest("team", ""), []byte(`{"mcpServers": {"x": {"command": "<<nope>>"}}}`)); err == nil || !strings.Contains(err.Error(), `unknown template <<nope>>`) {
		t.Errorf("got %v", err)
	}
	if _, err := Draft(o, "team", []byte("name = \"team\"\n[provides]\nmcp = \"other.json\"\n"), RenderMCPFile(nil)); err == nil {
		t.Error("a draft's MCP file is mcp.json")
	}
}

func TestCheckNewName(t *testing.T) {
	for _, ok := range []string{"team", "Team-2", "a.b_c", "0"} {
		if err := CheckNewName(ok); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
	for _, bad := range []string{"", ".hidden", "a/b", `a\b`, "..", "-x", "a b", strings.Repeat("x", 65), "é"} {
		if CheckNewName(bad) == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestRenderManifestDecodes(t *testing.T) {
	m, err := decodeManifest(RenderManifest("team", "from .mcp.json"), "extension.toml", "team")
	if err != nil {
		t.Fatal(err)
	}
	if m.Name != "team" || m.Provides.MCP != MCPFileName || m.Runtime.Python != DefaultVenv {
		t.Fatalf("%+v", m)
	}
}
