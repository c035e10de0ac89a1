package extensions

import (
	"reflect"
	"strings"
	"testing"

	"github.com/repo-manager/repo/internal/setting"
)

func TestSettingsDecode(t *testing.T) {
	mcp := `{"mcpServers": {
  "all": {"command": "x", "enabled": false, "includeTools": ["a", "b"], "excludeTools": ["c"],
          "autoApprove": ["a"], "startupTimeout": 30, "toolTimeout": 1e2},
  "remote": {"url": "https://h.invalid/mcp", "enabled": true, "toolTimeout": 600},
  "none": {"command": "y"}
}}`
	ws, _, err := loadOne(t, mcp, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Settings{}
	for _, s := range ws.Servers {
		got[s.Name] = s.Settings
	}
	off, on := false, true
	want := map[string]Settings{
		"all": {Enabled: &off, IncludeTools: []string{"a", "b"}, ExcludeTools: []string{"c"},
			AutoApprove: []string{"a"}, StartupTimeout: 30, ToolTimeout: 100},
		"remote": {Enabled: &on, ToolTimeout: 600},
		"none":   {},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("settings:\n got %+v\nwant %+v", got, want)
	}
	if a := got["all"]; !a.Off() || a.IsZero() {
		t.Errorf("all: Off() = %v, IsZero() = %v", a.Off(), a.IsZero())
	}
	if n := got["none"]; n.Off() || !n.IsZero() {
		t.Errorf("none: Off() = %v, IsZero() = %v", n.Off(), n.IsZero())
	}
	if r := got["remote"]; r.Off() {
		t.Error("remote: enabled true is not off")
	}
}

// A wrong setting is an error like any other field's: file, line, column,
// extension, server and field, and what to write instead.
func TestSettingsErrors(t *testing.T) {
	cases := []struct {
		name, entry string
		want        []string
	}{
		{"enabled string", `"enabled": "false"`, []string{"mcp.json:2:", `field enabled: must be true or false, not a string`}},
		{"enabled null", `"enabled": null`, []string{`field enabled: must be true or false, not null`}},
		{"include not a list", `"includeTools": "a"`, []string{`field includeTools: must be an array of strings, not a string`}},
		{"include number", `"includeTools": ["a", 1]`, []string{`field includeTools[1]: must be a string, not a number`}},
		{"include empty", `"includeTools": []`, []string{`field includeTools: an empty list offers no tool at all`, `"enabled": false`}},
		{"exclude empty name", `"excludeTools": [""]`, []string{`field excludeTools[0]: a tool name must not be empty`}},
		{"approve twice", `"autoApprove": ["a", "b", "a"]`, []string{`field autoApprove[2]: "a" is listed twice`}},
		{"approve spaces", `"autoApprove": [" a"]`, []string{`field autoApprove[0]: " a": a tool name has no leading or trailing spaces`}},
		{"timeout string", `"toolTimeout": "60"`, []string{`field toolTimeout: must be a number of seconds, not a string`}},
		{"timeout fraction", `"startupTimeout": 1.5`, []string{`field startupTimeout: 1.5: give a whole number of seconds`}},
		{"timeout zero", `"startupTimeout": 0`, []string{`field startupTimeout: 0: give 1 to 86400 seconds`}},
		{"timeout negative", `"toolTimeout": -5`, []string{`give 1 to 86400 seconds`}},
		{"timeout in ms", `"toolTimeout": 600000`, []string{`field toolTimeout: 600000: give 1 to 86400 seconds (is it in milliseconds? the unit is seconds)`}},
		{"timeout twice", `"toolTimeout": 5, "toolTimeout": 6`, []string{`field toolTimeout: appears twice`}},
		{"misspelt", `"autoapprove": ["a"]`, []string{`field autoapprove: unknown field (known: command, args, env, cwd, type, url, headers, oauth, headersHelper, ` + strings.Join(setting.Names(), ", ") + `)`}},
		{"snake case", `"tool_timeout": 5`, []string{`field tool_timeout: unknown field`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			mcp := "{\"mcpServers\": {\n  \"s\": {\"command\": \"x\", " + c.entry + "}\n}}"
			_, _, err := loadOne(t, mcp, nil)
			if err == nil {
				t.Fatal("no error")
			}
			msg := err.Error()
			for _, w := range append([]string{".repository/extensions/ext/mcp.json:2:", `extension ext, server "s"`}, c.want...) {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q does not contain %q", msg, w)
				}
			}
		})
	}
}

// The column points at the offending value, as for the other fields.
func TestSettingsErrorPosition(t *testing.T) {
	mcp := "{\"mcpServers\": {\n  \"s\": {\"command\": \"x\",\n    \"toolTimeout\": true}}}"
	_, _, err := loadOne(t, mcp, nil)
	if err == nil || !strings.Contains(err.Error(), "mcp.json:3:20:") {
		t.Fatalf("err = %v, want line 3, column 20", err)
	}
}
