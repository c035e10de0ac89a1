package extensions

import (
	"reflect"
	"strings"
	"testing"

	"github.com/repo-manager/repo/internal/setting"
)

// sample is a valid value of each kind as an MCP file spells it, what it
// reads as, and a value of another kind.
var sample = map[setting.Kind]struct {
	json  string
	value any
	wrong string
}{
	setting.Bool:    {"false", false, `"false"`},
	setting.Tools:   {`["b", "a"]`, []string{"b", "a"}, `"a"`},
	setting.Seconds: {"30", int64(30), `"30"`},
}

// TestEverySettingOfTheTable: each row of the settings table is a known
// member of a server, read as its kind says into the field its name gives
// (and only that one), and refused, naming it, with a value of another
// kind.
func TestEverySettingOfTheTable(t *testing.T) {
	for _, r := range setting.Table {
		k := sample[r.Kind]
		ws, _, err := loadOne(t, `{"mcpServers": {"s": {"command": "x", "`+r.Name+`": `+k.json+`}}}`, nil)
		if err != nil {
			t.Fatalf("%s: %v", r.Name, err)
		}
		s := ws.Servers[0].Settings
		var got any
		switch r.Kind {
		case setting.Bool:
			got = *s.Bool(r.Name)
		case setting.Tools:
			got = s.Tools(r.Name)
		case setting.Seconds:
			got = s.Seconds(r.Name)
		}
		if !reflect.DeepEqual(got, k.value) || s.IsZero() {
			t.Errorf("%s: read %#v, want %#v", r.Name, got, k.value)
		}
		for _, other := range setting.Table {
			if other.Name != r.Name && s.Given(other.Name) {
				t.Errorf("%s: also sets %s", r.Name, other.Name)
			}
		}
		_, _, err = loadOne(t, `{"mcpServers": {"s": {"command": "x", "`+r.Name+`": `+k.wrong+`}}}`, nil)
		if err == nil || !strings.Contains(err.Error(), "field "+r.Name+": must be ") {
			t.Errorf("%s: a value of another kind: error %v", r.Name, err)
		}
		_, _, err = loadOne(t, `{"mcpServers": {"s": {"command": "x", "nope": 1}}}`, nil)
		if err == nil || !strings.Contains(err.Error(), ", "+r.Name) {
			t.Errorf("%s: not among the known fields: %v", r.Name, err)
		}
	}
}
