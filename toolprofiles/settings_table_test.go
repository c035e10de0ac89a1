package toolprofiles

import (
	"strings"
	"testing"

	"github.com/repo-manager/repo/internal/setting"
)

// TestEverySettingOfTheTable: each row of the settings table has its key
// under [entry.settings], decodes to the member Field gives for its name,
// and takes the keys its kind takes and no other.
func TestEverySettingOfTheTable(t *testing.T) {
	if strings.Join(SettingNames, ",") != strings.Join(setting.Names(), ",") {
		t.Errorf("SettingNames %q, the table %q", SettingNames, setting.Names())
	}
	extra := map[string]string{"negate": "negate = true", "each": "each = { x = 1 }", "unit": `unit = "s"`, "every_request": "every_request = true"}
	for _, r := range setting.Table {
		base := `field = "m"`
		if r.Kind == setting.Seconds {
			base += `, unit = "s"`
		}
		decode := func(keys string) error {
			_, err := Decode([]byte(validProfile+"\n[entry.settings]\n"+r.Profile+" = { "+keys+" }\n"), "mytool.toml")
			return err
		}
		p, err := Decode([]byte(validProfile+"\n[entry.settings]\n"+r.Profile+" = { "+base+" }\n"), "mytool.toml")
		if err != nil {
			t.Fatalf("%s: %v", r.Name, err)
		}
		if f := p.Entry.Settings.Field(r.Name); f == nil || f.Field != "m" || len(p.Entry.Settings.Members()) != 1 {
			t.Errorf("%s: [entry.settings] %s decodes to %+v", r.Name, r.Profile, f)
		}
		for key, spelled := range extra {
			if key == "unit" && r.Kind == setting.Seconds {
				continue
			}
			err := decode(base + ", " + spelled)
			if r.Takes(key) && err != nil {
				t.Errorf("%s: %s refused: %v", r.Name, key, err)
			}
			if !r.Takes(key) && (err == nil || !strings.Contains(err.Error(), "entry.settings."+r.Profile+": "+key+" is for ")) {
				t.Errorf("%s: %s: error %v", r.Name, key, err)
			}
		}
	}
}

// TestSettingKeyErrorsNameTheSettings: a key given to a setting of another
// kind names, from the table, the settings it is for.
func TestSettingKeyErrorsNameTheSettings(t *testing.T) {
	for settings, want := range map[string]string{
		`enabled = { field = "e", each = { x = 1 } }`:                         "entry.settings.enabled: each is for includeTools, excludeTools and autoApprove only",
		`auto_approve = { field = "a", negate = true }`:                       "entry.settings.auto_approve: negate is for enabled only",
		`startup_timeout = { field = "t", unit = "s", every_request = true }`: "entry.settings.startup_timeout: every_request is for tool_timeout only",
	} {
		_, err := Decode([]byte(validProfile+"\n[entry.settings]\n"+settings+"\n"), "mytool.toml")
		if err == nil || !strings.HasSuffix(err.Error(), want) {
			t.Errorf("%s: error %v, want %q", settings, err, want)
		}
	}
}
