package translator

import (
	"fmt"
	"sort"
	"strings"

	"github.com/repo-manager/repo/internal/ordered"
	"github.com/repo-manager/repo/toolprofiles"
)

// settings writes the author's per-server settings into entry, each in the
// member the profile names for it (entry.settings), after the fixed
// members: an author's value replaces the profile's default. It returns the
// members it wrote. Settings the tool has no member for are named in one
// warning. (A server switched off for a tool without an enable toggle never
// gets here: TranslateWith leaves it out.)
func (t *translation) settings(entry ordered.Object) (out ordered.Object, members []string) {
	s := t.server.Settings
	m := &t.profile.Entry.Settings
	var missing []string
	set := func(name string, v any) {
		f := m.Field(name)
		entry = entry.Set(f.Field, v)
		members = append(members, f.Field)
	}
	// enabled: true where the tool has no toggle needs nothing: on is the
	// default everywhere.
	if s.Enabled != nil && m.Enabled != nil {
		set("enabled", *s.Enabled != m.Enabled.Negate)
	}
	lists := []struct {
		name  string
		value []string
	}{{"includeTools", s.IncludeTools}, {"excludeTools", s.ExcludeTools}, {"autoApprove", s.AutoApprove}}
	for _, l := range lists {
		if l.value == nil {
			continue
		}
		f := m.Field(l.name)
		if f == nil {
			missing = append(missing, l.name)
			continue
		}
		if f.Each == nil {
			set(l.name, l.value)
			continue
		}
		table := make(ordered.Object, 0, len(l.value))
		for _, tool := range l.value {
			table = append(table, ordered.Member{Key: tool, Value: eachValue(f.Each)})
		}
		set(l.name, table)
	}
	var startupNote string
	if s.StartupTimeout != 0 {
		if m.StartupTimeout != nil {
			set("startupTimeout", t.timeout("startupTimeout", s.StartupTimeout, m.StartupTimeout))
		} else {
			missing = append(missing, "startupTimeout")
			if m.ToolTimeout != nil && m.ToolTimeout.EveryRequest {
				startupNote = fmt.Sprintf(" (its %s bounds every request, starting too, and is written from toolTimeout only)", m.ToolTimeout.Field)
			}
		}
	}
	if s.ToolTimeout != 0 {
		if m.ToolTimeout != nil {
			set("toolTimeout", t.timeout("toolTimeout", s.ToolTimeout, m.ToolTimeout))
		} else {
			missing = append(missing, "toolTimeout")
		}
	}
	if len(missing) > 0 {
		t.warn("%s has no field for %s: not written, the tool's defaults apply%s", t.profile.Name, strings.Join(missing, ", "), startupNote)
	}
	return entry, members
}

// timeout converts seconds to the tool's unit, capped at its maximum.
func (t *translation) timeout(name string, seconds int64, f *toolprofiles.SettingField) int64 {
	v := seconds
	if f.Unit == "ms" {
		v *= 1000
	}
	if f.Max > 0 && v > f.Max {
		t.warn("%s accepts at most %d %s in %s; %s %d is written as %d %s", t.profile.Name, f.Max, f.Unit, f.Field, name, seconds, f.Max, f.Unit)
		v = f.Max
	}
	return v
}

// eachValue is a fresh copy of a profile's each value, with its keys in a
// fixed order (a TOML table decodes to a map).
func eachValue(v any) any {
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		out := make(ordered.Object, 0, len(keys))
		for _, k := range keys {
			out = append(out, ordered.Member{Key: k, Value: eachValue(x[k])})
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = eachValue(e)
		}
		return out
	}
	return v
}
