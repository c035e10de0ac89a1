package toolprofiles

import (
	"fmt"
	"slices"
	"strings"

	"github.com/repo-manager/repo/internal/setting"
)

// Settings (settings_gen.go) has a field per row of the settings table in
// internal/setting, under the row's key in [entry.settings].

// SettingField is the member one setting is written to.
type SettingField struct {
	Field string `toml:"field"`
	// Negate (a boolean setting): the member holds the opposite value
	// (Roo Code's "disabled": true for enabled false).
	Negate bool `toml:"negate"`
	// Each (a tool list): the member is a table with one key per tool name,
	// each holding this value, instead of a list of names (Codex
	// tools.<name>.approval_mode).
	Each map[string]any `toml:"each"`
	// Unit (timeouts only, required): "s" or "ms". The MCP file gives
	// seconds; a tool in milliseconds gets them times 1000.
	Unit string `toml:"unit"`
	// Max (timeouts only): the largest value the tool accepts, in Unit; a
	// larger one is written as Max, with a warning. 0: no limit.
	Max int64 `toml:"max"`
	// EveryRequest (a setting whose row allows it: tool_timeout): the member
	// bounds every request the tool sends, starting too, so it gets
	// toolTimeout only: the author's startupTimeout would cut each call
	// short.
	EveryRequest bool `toml:"every_request"`
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

// validate checks each setting against what it can mean (its kind, in the
// settings table); written are the members repo derives from the server
// itself.
func (s *Settings) validate(written []string) error {
	var members []string
	for _, r := range setting.Table {
		f := s.Field(r.Name)
		if f == nil {
			continue
		}
		key := "entry.settings." + r.Profile
		switch {
		case f.Field == "":
			return fmt.Errorf("%s: field: name the member of the entry", key)
		case slices.Contains(written, f.Field):
			return fmt.Errorf("%s: field %q: repo writes that member from the server itself", key, f.Field)
		case slices.Contains(members, f.Field):
			return fmt.Errorf("%s: field %q: another setting is written there", key, f.Field)
		}
		if err := f.fits(r, key); err != nil {
			return err
		}
		members = append(members, f.Field)
	}
	return nil
}

// fits checks that f gives only the keys its setting's kind takes.
func (f *SettingField) fits(r setting.Row, key string) error {
	timeout := r.Kind == setting.Seconds
	switch {
	case f.Negate && !r.Takes("negate"):
		return fmt.Errorf("%s: negate is for %s only", key, taking("negate", false))
	case f.Each != nil && !r.Takes("each"):
		return fmt.Errorf("%s: each is for %s only", key, taking("each", false))
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
	case f.EveryRequest && !r.Takes("every_request"):
		return fmt.Errorf("%s: every_request is for %s only", key, taking("every_request", true))
	}
	return nil
}

// taking names the settings a profile key is for ("includeTools,
// excludeTools and autoApprove"), or their own keys.
func taking(profileKey string, keys bool) string {
	var names []string
	for _, r := range setting.Taking(profileKey) {
		if keys {
			names = append(names, r.Profile)
		} else {
			names = append(names, r.Name)
		}
	}
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}
