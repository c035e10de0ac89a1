package toolprofiles

import (
	"fmt"
	"slices"
)

// Settings says where a tool keeps each per-server setting of an MCP file
// (enabled, includeTools, excludeTools, autoApprove, startupTimeout,
// toolTimeout): the member of the entry and how its value is spelled. A
// nil field means the tool has no such member; repo then writes nothing
// for it, with a warning, and a server the author switched off is not
// written for the tool at all.
type Settings struct {
	// Enabled: a boolean member, false for a server that is off; with
	// negate, the member says the opposite (Roo Code's "disabled": true).
	Enabled *SettingField `toml:"enabled"`
	// IncludeTools: the only tools of the server the tool offers.
	IncludeTools *SettingField `toml:"include_tools"`
	// ExcludeTools: tools of the server the tool never offers.
	ExcludeTools *SettingField `toml:"exclude_tools"`
	// AutoApprove: tools the tool calls without asking each time; with
	// each, a table keyed by tool name (Codex tools.<name>.approval_mode).
	AutoApprove *SettingField `toml:"auto_approve"`
	// StartupTimeout: how long the tool waits for the server to start
	// (initialize and list its tools).
	StartupTimeout *SettingField `toml:"startup_timeout"`
	// ToolTimeout: how long the tool waits for one tool call. With
	// every_request the member bounds every request the tool sends —
	// starting too — and gets toolTimeout only: the author's startupTimeout
	// would cut each call short.
	ToolTimeout *SettingField `toml:"tool_timeout"`
}

// SettingField is the member one setting is written to.
type SettingField struct {
	Field string `toml:"field"`
	// Negate (enabled only): the member holds the opposite value.
	Negate bool `toml:"negate"`
	// Each (tool lists only): the member is a table with one key per tool
	// name, each holding this value, instead of a list of names.
	Each map[string]any `toml:"each"`
	// Unit (timeouts only, required): "s" or "ms". The MCP file gives
	// seconds; a tool in milliseconds gets them times 1000.
	Unit string `toml:"unit"`
	// Max (timeouts only): the largest value the tool accepts, in Unit; a
	// larger one is written as Max, with a warning. 0: no limit.
	Max int64 `toml:"max"`
	// EveryRequest (tool_timeout only): see Settings.ToolTimeout.
	EveryRequest bool `toml:"every_request"`
}

// SettingNames are the settings as an MCP file spells them, in the order
// repo writes their members.
var SettingNames = []string{"enabled", "includeTools", "excludeTools", "autoApprove", "startupTimeout", "toolTimeout"}

// Field returns the member a setting (one of SettingNames) is written to,
// or nil when the tool has none.
func (s *Settings) Field(name string) *SettingField {
	switch name {
	case "enabled":
		return s.Enabled
	case "includeTools":
		return s.IncludeTools
	case "excludeTools":
		return s.ExcludeTools
	case "autoApprove":
		return s.AutoApprove
	case "startupTimeout":
		return s.StartupTimeout
	case "toolTimeout":
		return s.ToolTimeout
	}
	return nil
}

// Members lists the entry members the settings are written to.
func (s *Settings) Members() []string {
	var out []string
	for _, n := range SettingNames {
		if f := s.Field(n); f != nil {
			out = append(out, f.Field)
		}
	}
	return out
}

// profileKey is how a profile spells a setting's table.
func profileKey(name string) string {
	switch name {
	case "includeTools":
		return "include_tools"
	case "excludeTools":
		return "exclude_tools"
	case "autoApprove":
		return "auto_approve"
	case "startupTimeout":
		return "startup_timeout"
	case "toolTimeout":
		return "tool_timeout"
	}
	return name
}

// validate checks each setting against what it can mean; written are the
// members repo derives from the server itself.
func (s *Settings) validate(written []string) error {
	var members []string
	for _, name := range SettingNames {
		f := s.Field(name)
		if f == nil {
			continue
		}
		key := "entry.settings." + profileKey(name)
		timeout := name == "startupTimeout" || name == "toolTimeout"
		list := name == "includeTools" || name == "excludeTools" || name == "autoApprove"
		switch {
		case f.Field == "":
			return fmt.Errorf("%s: field: name the member of the entry", key)
		case slices.Contains(written, f.Field):
			return fmt.Errorf("%s: field %q: repo writes that member from the server itself", key, f.Field)
		case slices.Contains(members, f.Field):
			return fmt.Errorf("%s: field %q: another setting is written there", key, f.Field)
		case f.Negate && name != "enabled":
			return fmt.Errorf("%s: negate is for enabled only", key)
		case f.Each != nil && !list:
			return fmt.Errorf("%s: each is for includeTools, excludeTools and autoApprove only", key)
		case f.Each != nil && len(f.Each) == 0:
			return fmt.Errorf("%s: each: give the value each tool's table holds", key)
		case timeout && f.Unit != "s" && f.Unit != "ms":
			return fmt.Errorf("%s: unit %q: use \"s\" or \"ms\"", key, f.Unit)
		case !timeout && f.Unit != "":
			return fmt.Errorf("%s: unit is for timeouts only", key)
		case !timeout && f.Max != 0:
			return fmt.Errorf("%s: max is for timeouts only", key)
		case f.Max < 0:
			return fmt.Errorf("%s: max %d: give the largest value the tool accepts, in %s", key, f.Max, f.Unit)
		case f.EveryRequest && name != "toolTimeout":
			return fmt.Errorf("%s: every_request is for tool_timeout only", key)
		}
		members = append(members, f.Field)
	}
	return nil
}
