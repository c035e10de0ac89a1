package translator

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/repo-manager/repo/extensions"
	"github.com/repo-manager/repo/internal/ordered"
	"github.com/repo-manager/repo/internal/setting"
)

// withSetting is a stdio server that gives setting r alone (on, the tools
// a and b, 30 seconds), set through the field the table names.
func withSetting(r setting.Row) extensions.Server {
	s := extensions.Server{Name: "s", Spec: extensions.Spec{Transport: extensions.Stdio, Command: "x"}}
	f := reflect.ValueOf(&s.Settings).Elem().FieldByName(r.GoName())
	switch r.Kind {
	case setting.Bool:
		on := true
		f.Set(reflect.ValueOf(&on))
	case setting.Tools:
		f.Set(reflect.ValueOf([]string{"a", "b"}))
	case setting.Seconds:
		f.SetInt(30)
	}
	return s
}

// TestEverySettingOfTheTable: each row of the settings table is written
// into the member a profile maps it to, and named in the warning of a tool
// without one — but for enabled true, which every tool has as its default.
func TestEverySettingOfTheTable(t *testing.T) {
	want := map[setting.Kind]string{setting.Bool: `true`, setting.Tools: `["a","b"]`, setting.Seconds: `30`}
	for _, r := range setting.Table {
		s := withSetting(r)
		if !s.Settings.Given(r.Name) {
			t.Fatalf("%s: the test server does not give it", r.Name)
		}
		mapped := r.Profile + ` = { field = "m"`
		if r.Kind == setting.Seconds {
			mapped += `, unit = "s"`
		}
		res := TranslateWith(s, profileWith(t, mapped+" }"), Options{})
		if got := string(ordered.JSON(res.Entry)); got != `{"command":"x","on":true,"m":`+want[r.Kind]+`}` || !slices.Equal(res.Settings, []string{"m"}) {
			t.Errorf("%s: entry %s, settings %q", r.Name, got, res.Settings)
		}
		res = TranslateWith(s, profileWith(t, ""), Options{})
		named := len(res.Warnings) == 1 && strings.Contains(res.Warnings[0].Msg, "no field for "+r.Name+":")
		if named == (r.Name == "enabled") || res.Entry == nil {
			t.Errorf("%s: without a member: entry %s, warnings %+v", r.Name, ordered.JSON(res.Entry), res.Warnings)
		}
	}
}
