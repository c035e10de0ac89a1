package translator

import (
	"fmt"
	"sort"
	"strings"

	"github.com/repo-manager/repo/internal/ordered"
	"github.com/repo-manager/repo/internal/setting"
	"github.com/repo-manager/repo/toolprofiles"
)

// settings writes the author's per-server settings into entry, each in the
// member the profile names for it (entry.settings), after the fixed
// members, in the settings table's order: an author's value replaces the
// profile's default. It returns the members it wrote. Settings the tool
// has no member for are named in one warning.
//
// Each kind of setting is written alike (value); a setting that means more
// than its kind where the tool has no member for it has its case here.
func (t *translation) settings(entry ordered.Object) (out ordered.Object, members []string) {
	s := &t.server.Settings
	m := &t.profile.Entry.Settings
	var missing []string
	var note string
	for _, r := range setting.Table {
		if !s.Given(r.Name) {
			continue
		}
		f := m.Field(r.Name)
		if f != nil {
			entry = entry.Set(f.Field, t.settingValue(r, f))
			members = append(members, f.Field)
			continue
		}
		switch r.Name {
		case "enabled":
			// true needs nothing where the tool has no toggle: on is the
			// default everywhere. A server switched off for such a tool
			// never gets here: TranslateWith leaves it out.
			continue
		case "startupTimeout":
			if m.ToolTimeout != nil && m.ToolTimeout.EveryRequest {
				note = fmt.Sprintf(" (its %s bounds every request, starting too, and is written from toolTimeout only)", m.ToolTimeout.Field)
			}
		}
		missing = append(missing, r.Name)
	}
	if len(missing) > 0 {
		t.warn("%s has no field for %s: not written, the tool's defaults apply%s", t.profile.Name, strings.Join(missing, ", "), note)
	}
	return entry, members
}

// settingValue is the author's setting r as the tool's member f spells it.
func (t *translation) settingValue(r setting.Row, f *toolprofiles.SettingField) any {
	s := &t.server.Settings
	switch r.Kind {
	case setting.Bool:
		return *s.Bool(r.Name) != f.Negate
	case setting.Tools:
		list := s.Tools(r.Name)
		if f.Each == nil {
			return list
		}
		table := make(ordered.Object, 0, len(list))
		for _, tool := range list {
			table = append(table, ordered.Member{Key: tool, Value: eachValue(f.Each)})
		}
		return table
	case setting.Seconds:
		return t.timeout(r.Name, s.Seconds(r.Name), f)
	}
	return nil
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
