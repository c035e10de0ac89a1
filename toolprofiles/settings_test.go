package toolprofiles

import (
	"reflect"
	"strings"
	"testing"
)

func TestDecodeSettings(t *testing.T) {
	src := validProfile + `preserve = ["disabled", "tools"]

[entry.settings]
enabled = { field = "disabled", negate = true }
include_tools = { field = "only" }
exclude_tools = { field = "hidden" }
auto_approve = { field = "tools", each = { approval_mode = "approve" } }
startup_timeout = { field = "startup_s", unit = "s" }
tool_timeout = { field = "timeout", unit = "ms", max = 3600000, every_request = true }
`
	p, err := Decode([]byte(src), "test.toml")
	if err != nil {
		t.Fatal(err)
	}
	s := p.Entry.Settings
	want := Settings{
		Enabled:        &SettingField{Field: "disabled", Negate: true},
		IncludeTools:   &SettingField{Field: "only"},
		ExcludeTools:   &SettingField{Field: "hidden"},
		AutoApprove:    &SettingField{Field: "tools", Each: map[string]any{"approval_mode": "approve"}},
		StartupTimeout: &SettingField{Field: "startup_s", Unit: "s"},
		ToolTimeout:    &SettingField{Field: "timeout", Unit: "ms", Max: 3600000, EveryRequest: true},
	}
	if !reflect.DeepEqual(s, want) {
		t.Errorf("settings:\n got %+v\nwant %+v", s, want)
	}
	if got := s.Members(); !reflect.DeepEqual(got, []string{"disabled", "only", "hidden", "tools", "startup_s", "timeout"}) {
		t.Errorf("Members() = %v", got)
	}
	if s.Field("toolTimeout") != s.ToolTimeout || s.Field("nope") != nil {
		t.Error("Field looks up the wrong setting")
	}
}

// A setting that could not mean what the MCP file says is refused when the
// profile is decoded, with the key to fix.
func TestDecodeSettingsErrors(t *testing.T) {
	cases := []struct {
		name, settings string
		want           string
	}{
		{"unknown setting", `timeout = { field = "t", unit = "s" }`, `unknown key "entry.settings.timeout"`},
		{"unknown key", `enabled = { field = "enabled", default = true }`, `line 18, column 32: unknown key`},
		{"no field", `enabled = { negate = true }`, "entry.settings.enabled: field: name the member"},
		{"written member", `enabled = { field = "command" }`, `entry.settings.enabled: field "command": repo writes that member`},
		{"same member twice", "include_tools = { field = \"t\" }\nexclude_tools = { field = \"t\" }", `entry.settings.exclude_tools: field "t": another setting`},
		{"negate a list", `exclude_tools = { field = "t", negate = true }`, "entry.settings.exclude_tools: negate is for enabled only"},
		{"each on enabled", `enabled = { field = "e", each = { x = 1 } }`, "entry.settings.enabled: each is for includeTools"},
		{"empty each", `auto_approve = { field = "tools", each = {} }`, "entry.settings.auto_approve: each: give the value"},
		{"timeout without unit", `tool_timeout = { field = "timeout" }`, `entry.settings.tool_timeout: unit "": use "s" or "ms"`},
		{"timeout in minutes", `startup_timeout = { field = "t", unit = "min" }`, `unit "min": use "s" or "ms"`},
		{"unit on a list", `auto_approve = { field = "a", unit = "s" }`, "entry.settings.auto_approve: unit is for timeouts only"},
		{"max on enabled", `enabled = { field = "e", max = 1 }`, "entry.settings.enabled: max is for timeouts only"},
		{"negative max", `tool_timeout = { field = "t", unit = "s", max = -1 }`, "max -1"},
		{"every request on startup", `startup_timeout = { field = "t", unit = "s", every_request = true }`, "every_request is for tool_timeout only"},
		{"wrong type", `enabled = "enabled"`, "line 18, column 11: toml: cannot decode TOML string into struct field toolprofiles.Settings.Enabled"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Decode([]byte(validProfile+"\n[entry.settings]\n"+c.settings+"\n"), "mytool.toml")
			if err == nil {
				t.Fatal("no error")
			}
			if !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "mytool.toml") {
				t.Errorf("error %q does not name the file and contain %q", err, c.want)
			}
		})
	}
}
