package translator

import (
	"reflect"
	"strings"
	"testing"

	"github.com/repo-manager/repo/toolprofiles"
)

// envRefsBefore is envRefs as it was: ReplaceAllStringFunc, matching each
// reference again for its name and default, with the field label spelled
// out for every call.
func (t *translation) envRefsBefore(field, v string) string {
	if !strings.Contains(v, "${") {
		return v
	}
	e := t.profile.Entry
	return envRef.ReplaceAllStringFunc(v, func(m string) string {
		sub := envRef.FindStringSubmatch(m)
		name, hasDefault, def := sub[1], sub[2] != "", sub[3]
		if e.EnvRef == "" {
			t.warn("%s expands no environment references; %s keeps the literal text %s", t.profile.Name, field, m)
			return m
		}
		if hasDefault {
			if e.EnvRefDefault {
				return strings.Replace(e.EnvRef, "NAME", name+":-"+def, 1)
			}
			t.warn("%s has no default syntax for environment references; the default %q of ${%s} in %s is dropped", t.profile.Name, def, name, field)
		}
		return strings.Replace(e.EnvRef, "NAME", name, 1)
	})
}

func TestEnvRefsAsBefore(t *testing.T) {
	set, err := toolprofiles.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	values := []string{"", "plain", "${A}", "x${A}y", "${A:-}", "${A:-d}${B}", "--t=${TOKEN}/${B:-x:y}", "${", "${}", "${1A}",
		"$${A}}", "${A:-{b}", "${{A}}", "${env:A}", "${A}${A}", "é${Ä}${A_1:-ü}"}
	fields := map[string]member{
		"command": {name: "command"}, "args[0]": {name: "args", indexed: true}, "args[12]": {name: "args", index: 12, indexed: true},
		"env.TOKEN": {name: "env", key: "TOKEN"}, "headers.Authorization": {name: "headers", key: "Authorization"},
	}
	for _, p := range set.All() {
		for label, field := range fields {
			if field.String() != label {
				t.Fatalf("member %+v is %q, want %q", field, field, label)
			}
			for _, v := range values {
				now, before := &translation{profile: p}, &translation{profile: p}
				got, want := now.envRefs(field, v), before.envRefsBefore(label, v)
				if got != want || !reflect.DeepEqual(now.warnings, before.warnings) {
					t.Errorf("%s %s %q: %q %v\nbefore: %q %v", p.ID, label, v, got, now.warnings, want, before.warnings)
				}
			}
		}
	}
}
