package translator

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/repo-manager/repo/extensions"
	"github.com/repo-manager/repo/internal/ordered"
	"github.com/repo-manager/repo/toolprofiles"
)

func boolPtr(v bool) *bool { return &v }

// settingServers cover every setting, alone and together, on both
// transports.
var settingServers = []extensions.Server{
	{Name: "every-setting", Spec: extensions.Spec{Transport: extensions.Stdio, Command: "node", Args: []string{"s.js"}},
		Settings: extensions.Settings{Enabled: boolPtr(true), IncludeTools: []string{"search", "read"},
			ExcludeTools: []string{"delete"}, AutoApprove: []string{"search"}, StartupTimeout: 30, ToolTimeout: 600}},
	{Name: "off", Spec: extensions.Spec{Transport: extensions.Stdio, Command: "node", Args: []string{"s.js"}},
		Settings: extensions.Settings{Enabled: boolPtr(false), ExcludeTools: []string{"delete"}}},
	{Name: "startup-only", Spec: extensions.Spec{Transport: extensions.Stdio, Command: "node"},
		Settings: extensions.Settings{StartupTimeout: 120}},
	{Name: "long-calls", Spec: extensions.Spec{Transport: extensions.Stdio, Command: "node"},
		Settings: extensions.Settings{ToolTimeout: 7200}},
	{Name: "remote-off", Spec: extensions.Spec{Transport: extensions.HTTP, URL: "https://h.invalid/mcp"},
		Settings: extensions.Settings{Enabled: boolPtr(false), ToolTimeout: 60}},
}

// TestSettingsGolden pins what every tool gets for each setting: its own
// member and unit, or a warning naming what it has no member for. One file
// per profile in testdata/settings/.
func TestSettingsGolden(t *testing.T) {
	set, err := toolprofiles.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range set.All() {
		if !p.MCP {
			continue
		}
		t.Run(p.ID, func(t *testing.T) {
			var b bytes.Buffer
			for _, s := range settingServers {
				res := TranslateWith(s, p, Options{GOOS: "linux"})
				fmt.Fprintf(&b, "== %s\n", s.Name)
				switch {
				case res.Err != nil:
					fmt.Fprintf(&b, "refused: %s\n", res.Err)
				case res.Entry == nil:
					b.WriteString("(not written)\n")
				default:
					var pretty bytes.Buffer
					if err := json.Indent(&pretty, ordered.JSON(res.Entry), "", "  "); err != nil {
						t.Fatal(err)
					}
					b.Write(pretty.Bytes())
					b.WriteByte('\n')
					if len(res.Settings) > 0 {
						fmt.Fprintf(&b, "settings: %s\n", strings.Join(res.Settings, ", "))
					}
				}
				for _, w := range res.Warnings {
					fmt.Fprintf(&b, "warning: %s\n", w.Msg)
				}
			}
			golden := filepath.Join("testdata", "settings", p.ID+".golden")
			if *update {
				if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, b.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./translator -update to create it)", err)
			}
			if !bytes.Equal(b.Bytes(), want) {
				t.Errorf("%s differs from the translation; if the change is intended run go test ./translator -update\n--- got\n%s", golden, b.String())
			}
		})
	}
}

// profileWith is a minimal stdio profile with the given settings.
func profileWith(t *testing.T, settings string) *toolprofiles.Profile {
	t.Helper()
	src := `id = "t"
name = "Tool"
mcp = true
evidence = "docs"
sources = ["x"]
[scopes.project]
paths = ["t.json"]
format = "json"
key = ["mcpServers"]
[entry]
command = "string"
preserve = ["on"]
[entry.set]
on = true
[entry.settings]
` + settings
	p, err := toolprofiles.Decode([]byte(src), "t.toml")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestSettingsMembers(t *testing.T) {
	all := settingServers[0]
	cases := []struct {
		name, settings string
		server         extensions.Server
		want           string
		warnings       []string
	}{
		{"seconds to ms, after the fixed members",
			`tool_timeout = { field = "timeout", unit = "ms" }`, all,
			`{"command":"node","args":["s.js"],"on":true,"timeout":600000}`,
			[]string{"Tool has no field for includeTools, excludeTools, autoApprove, startupTimeout: not written, the tool's defaults apply"}},
		{"seconds stay seconds",
			"startup_timeout = { field = \"start\", unit = \"s\" }\ntool_timeout = { field = \"call\", unit = \"s\" }", all,
			`{"command":"node","args":["s.js"],"on":true,"start":30,"call":600}`,
			[]string{"Tool has no field for includeTools, excludeTools, autoApprove: not written, the tool's defaults apply"}},
		{"negated toggle",
			`enabled = { field = "disabled", negate = true }`, settingServers[1],
			`{"command":"node","args":["s.js"],"on":true,"disabled":true}`,
			[]string{"Tool has no field for excludeTools: not written, the tool's defaults apply"}},
		{"the author's value replaces the fixed one in place",
			`enabled = { field = "on" }`, settingServers[1],
			`{"command":"node","args":["s.js"],"on":false}`,
			[]string{"Tool has no field for excludeTools: not written, the tool's defaults apply"}},
		{"lists, and a table per tool",
			"include_tools = { field = \"only\" }\nexclude_tools = { field = \"never\" }\nauto_approve = { field = \"tools\", each = { mode = \"approve\", n = [1, { b = 2, a = 1 }] } }", all,
			`{"command":"node","args":["s.js"],"on":true,"only":["search","read"],"never":["delete"],"tools":{"search":{"mode":"approve","n":[1,{"a":1,"b":2}]}}}`,
			[]string{"Tool has no field for startupTimeout, toolTimeout: not written, the tool's defaults apply"}},
		{"a timeout over the tool's maximum is capped, with a warning",
			`tool_timeout = { field = "timeout", unit = "s", max = 3600 }`, settingServers[3],
			`{"command":"node","on":true,"timeout":3600}`,
			[]string{"Tool accepts at most 3600 s in timeout; toolTimeout 7200 is written as 3600 s"}},
		{"a startup timeout is never written into a timeout that bounds every call",
			`tool_timeout = { field = "timeout", unit = "ms", every_request = true }`, settingServers[2],
			`{"command":"node","on":true}`,
			[]string{"Tool has no field for startupTimeout: not written, the tool's defaults apply (its timeout bounds every request, starting too, and is written from toolTimeout only)"}},
		{"enabled true needs no toggle",
			`tool_timeout = { field = "timeout", unit = "s" }`,
			extensions.Server{Name: "s", Spec: extensions.Spec{Transport: extensions.Stdio, Command: "x"}, Settings: extensions.Settings{Enabled: boolPtr(true)}},
			`{"command":"x","on":true}`, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := TranslateWith(c.server, profileWith(t, c.settings), Options{})
			if got := string(ordered.JSON(res.Entry)); got != c.want {
				t.Errorf("entry:\n got %s\nwant %s", got, c.want)
			}
			var msgs []string
			for _, w := range res.Warnings {
				msgs = append(msgs, w.Msg)
			}
			if !reflect.DeepEqual(msgs, c.warnings) {
				t.Errorf("warnings:\n got %q\nwant %q", msgs, c.warnings)
			}
		})
	}
}

// A server its author switched off is not written where the tool has no
// toggle — and nothing about it is said or refused there: not its missing
// settings, not a cwd the tool cannot take, not literal text the tool
// would expand.
func TestSwitchedOffServerWithoutToggle(t *testing.T) {
	p := profileWith(t, `tool_timeout = { field = "timeout", unit = "s" }`)
	p.Entry.Expands = []toolprofiles.Expansion{{Fields: []string{"args"}, Pattern: `\$\w+`}}
	s := extensions.Server{Name: "s", Spec: extensions.Spec{Transport: extensions.Stdio, Command: "x", Args: []string{"$HOME"}, Cwd: "/w"},
		Settings: extensions.Settings{Enabled: boolPtr(false), AutoApprove: []string{"a"}}}
	if res := TranslateWith(s, p, Options{}); res.Entry != nil || res.Err != nil || len(res.Warnings) > 0 || res.Settings != nil {
		t.Fatalf("got %+v, want nothing at all", res)
	}
	s.Settings.Enabled = boolPtr(true)
	if res := TranslateWith(s, p, Options{}); res.Err == nil {
		t.Fatalf("the same server switched on must be refused for its literal $HOME: %+v", res)
	}
}

// Result.Settings names exactly the members written from settings.
func TestSettingsResultMembers(t *testing.T) {
	set, _ := toolprofiles.Builtin()
	res := TranslateWith(settingServers[0], set.Get("codex"), Options{})
	if want := []string{"enabled", "enabled_tools", "disabled_tools", "tools", "startup_timeout_sec", "tool_timeout_sec"}; !reflect.DeepEqual(res.Settings, want) {
		t.Errorf("codex settings = %v, want %v", res.Settings, want)
	}
	if res := TranslateWith(servers[0], set.Get("codex"), Options{}); res.Settings != nil {
		t.Errorf("a server without settings: %v", res.Settings)
	}
}
