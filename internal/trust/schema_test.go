package trust

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

// TestSchemaMatchesDefinition holds docs/schema/trust.v1.json to the
// definition repo trust --output json prints: the schema's properties are
// the members of Definition (its settings included) and of OAuth, in
// order, and those it requires are the ones always printed.
func TestSchemaMatchesDefinition(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "docs", "schema", "trust.v1.json"))
	if err != nil {
		t.Fatal(err)
	}
	for def, typ := range map[string]reflect.Type{"definition": reflect.TypeOf(Definition{}), "oauth": reflect.TypeOf(OAuth{})} {
		schema := gjson.GetBytes(data, "$defs."+def)
		var props, required []string
		schema.Get("properties").ForEach(func(k, _ gjson.Result) bool {
			props = append(props, k.String())
			return true
		})
		for _, r := range schema.Get("required").Array() {
			required = append(required, r.String())
		}
		members, always := jsonMembers(typ)
		if !slices.Equal(props, members) {
			t.Errorf("%s: the schema's properties are\n%q\nthe definition's members\n%q", def, props, members)
		}
		if len(required) > 0 || def == "definition" {
			if !slices.Equal(required, always) {
				t.Errorf("%s: the schema requires %q, the definition always has %q", def, required, always)
			}
		}
	}
}

// jsonMembers are the JSON members of struct type typ as encoding/json
// writes them (an embedded struct's in its place), and those without
// omitempty.
func jsonMembers(typ reflect.Type) (members, always []string) {
	for i := range typ.NumField() {
		f := typ.Field(i)
		tag, ok := f.Tag.Lookup("json")
		if f.Anonymous && !ok {
			m, a := jsonMembers(f.Type)
			members, always = append(members, m...), append(always, a...)
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		members = append(members, name)
		if !strings.Contains(opts, "omitempty") {
			always = append(always, name)
		}
	}
	return members, always
}
