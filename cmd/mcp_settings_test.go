package cmd

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/repo-manager/repo/extensions"
	"github.com/repo-manager/repo/internal/ordered"
	"github.com/repo-manager/repo/internal/setting"
)

// TestMCPListShowsEverySetting: repo mcp list shows each row of the
// settings table, in the table's order, in its text cell and in its JSON,
// which its schema (docs/schema/mcp-list.v1.json) describes member by
// member: a value of another type is refused.
func TestMCPListShowsEverySetting(t *testing.T) {
	s := extensions.Server{Extension: "ext", Name: "s", Source: "mcp.json", Line: 1,
		Spec: extensions.Spec{Transport: extensions.Stdio, Command: "x"}}
	shown := map[setting.Kind]string{setting.Bool: "false", setting.Tools: "a,b", setting.Seconds: "30s"}
	for _, r := range setting.Table {
		f := reflect.ValueOf(&s.Settings).Elem().FieldByName(r.GoName())
		switch r.Kind {
		case setting.Bool:
			off := false
			f.Set(reflect.ValueOf(&off))
		case setting.Tools:
			f.Set(reflect.ValueOf([]string{"a", "b"}))
		case setting.Seconds:
			f.SetInt(30)
		}
		if text, want := settingsText(s.Settings), cell(r, shown[r.Kind]); !strings.Contains(" "+text+" ", " "+want+" ") {
			t.Errorf("%s: the SETTINGS cell %q lacks %q", r.Name, text, want)
		}
	}
	settings := settingsJSON(s.Settings)
	var keys []string
	for _, m := range settings {
		keys = append(keys, m.Key)
	}
	if !slices.Equal(keys, setting.Names()) {
		t.Errorf("settings members %q, the table %q", keys, setting.Names())
	}
	doc := string(ordered.JSON([]any{serverJSON(s)}))
	if err := validateSchema("mcp-list.v1", doc); err != nil {
		t.Errorf("%s: %v", doc, err)
	}
	for i, m := range settings {
		wrong := slices.Clone(settings)
		wrong[i] = ordered.Member{Key: m.Key, Value: map[string]any{}}
		o := serverJSON(s)
		o[len(o)-1].Value = wrong
		if validateSchema("mcp-list.v1", string(ordered.JSON([]any{o}))) == nil {
			t.Errorf("%s: the schema takes an object", m.Key)
		}
	}
}

// cell is how the SETTINGS cell shows setting r given as shown.
func cell(r setting.Row, shown string) string {
	if r.Kind == setting.Bool && r.Off != "" {
		return r.Off
	}
	return r.Name + "=" + shown
}
