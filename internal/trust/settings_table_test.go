package trust

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/repo-manager/repo/extensions"
	"github.com/repo-manager/repo/internal/setting"
)

// TestEverySettingOfTheTable: a row of the settings table with a Trust
// member changes the digest, is shown by Lines and stored under that
// member; one without changes none of them — trust judges exactly the
// settings the table marks.
func TestEverySettingOfTheTable(t *testing.T) {
	base := baseServer()
	base.Settings = extensions.Settings{}
	d0 := Define(base, nil)
	for _, r := range setting.Table {
		s := baseServer()
		s.Settings = extensions.Settings{}
		f := reflect.ValueOf(&s.Settings).Elem().FieldByName(r.GoName())
		switch r.Kind {
		case setting.Bool:
			v := !r.Default
			f.Set(reflect.ValueOf(&v))
		case setting.Tools:
			f.Set(reflect.ValueOf([]string{"b", "a"}))
		case setting.Seconds:
			f.SetInt(30)
		}
		d := Define(s, nil)
		data, err := json.Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		trusted := r.Trust != ""
		if changed := d.Digest() != d0.Digest(); changed != trusted {
			t.Errorf("%s: digest changed %v, trust judges it %v", r.Name, changed, trusted)
		}
		shown := strings.Join(d.Lines(), "\n") != strings.Join(d0.Lines(), "\n")
		if shown != trusted || trusted && !strings.Contains(strings.Join(d.Lines(), "\n"), "\n"+r.Trust+" ") {
			t.Errorf("%s: lines %q", r.Name, d.Lines())
		}
		if trusted && !strings.Contains(string(data), `"`+r.Trust+`":`) {
			t.Errorf("%s: stored as %s", r.Name, data)
		}
	}
}
