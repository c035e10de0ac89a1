package plan

import (
	"slices"
	"testing"

	"github.com/repo-manager/repo/internal/ordered"
)

// The three-way merge of a hand-edited entry, field by field.
func TestMergeHandEdit(t *testing.T) {
	for _, tc := range []struct {
		name             string
		base, file, want string
		mode             mergeMode
		out              string // "" when it conflicts
		kept, conflicts  []string
	}{
		{name: "a member the user added stays", base: `{"a":1,"env":{"X":"1"}}`, file: `{"a":1,"env":{"X":"1","DEBUG":"1"}}`, want: `{"a":1,"env":{"X":"1"}}`,
			out: `{"a":1,"env":{"X":"1","DEBUG":"1"}}`, kept: []string{"env.DEBUG"}},
		{name: "the extension's change and the user's meet", base: `{"args":["a"],"env":{"X":"1"}}`, file: `{"args":["a"],"env":{"X":"1","D":"1"}}`, want: `{"args":["a","b"],"env":{"X":"1"}}`,
			out: `{"args":["a","b"],"env":{"X":"1","D":"1"}}`, kept: []string{"env.D"}},
		{name: "inside an object both changed, other members", base: `{"env":{"X":"1","Y":"1"}}`, file: `{"env":{"X":"2","Y":"1"}}`, want: `{"env":{"X":"1","Y":"3"}}`,
			out: `{"env":{"X":"2","Y":"3"}}`, kept: []string{"env.X"}},
		{name: "a member the user removed stays removed", base: `{"a":1,"cwd":"/x"}`, file: `{"a":1}`, want: `{"a":2,"cwd":"/x"}`,
			out: `{"a":2}`, kept: []string{"cwd"}},
		{name: "a member the extension removed goes", base: `{"a":1,"cwd":"/x"}`, file: `{"a":1,"cwd":"/x","b":2}`, want: `{"a":1}`,
			out: `{"a":1,"b":2}`, kept: []string{"b"}},
		{name: "both changed alike", base: `{"a":1}`, file: `{"a":2}`, want: `{"a":2}`, out: `{"a":2}`},
		{name: "a list is one value", base: `{"args":["a"]}`, file: `{"args":["a","x"]}`, want: `{"args":["a","y"]}`, conflicts: []string{"args"}},
		{name: "a conflict, ours", base: `{"env":{"X":"1"}}`, file: `{"env":{"X":"2"}}`, want: `{"env":{"X":"3"}}`, mode: mergeOurs,
			out: `{"env":{"X":"2"}}`, kept: []string{"env.X"}},
		{name: "a conflict, theirs", base: `{"env":{"X":"1"},"k":1}`, file: `{"env":{"X":"2"},"k":2}`, want: `{"env":{"X":"3"},"k":1}`, mode: mergeTheirs,
			out: `{"env":{"X":"3"},"k":2}`, kept: []string{"k"}},
		{name: "the user removed what the extension changed", base: `{"cwd":"/a"}`, file: `{}`, want: `{"cwd":"/b"}`, conflicts: []string{"cwd"}},
		{name: "an odd member name", base: `{"headers":{}}`, file: `{"headers":{"X-A.b":"1"}}`, want: `{"headers":{}}`,
			out: `{"headers":{"X-A.b":"1"}}`, kept: []string{`headers["X-A.b"]`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := &merger{mode: tc.mode}
			out, ok := m.objects([]byte(tc.base), []byte(tc.file), []byte(tc.want), "")
			if !ok {
				t.Fatal("not merged")
			}
			var conflicts []string
			for _, c := range m.conflicts {
				conflicts = append(conflicts, c.Field)
			}
			if !slices.Equal(conflicts, tc.conflicts) {
				t.Fatalf("conflicts %v, want %v", conflicts, tc.conflicts)
			}
			if tc.out != "" && !sameJSON(ordered.JSON(out), []byte(tc.out)) {
				t.Errorf("merged %s, want %s", ordered.JSON(out), tc.out)
			}
			if !slices.Equal(m.kept, tc.kept) {
				t.Errorf("kept %v, want %v", m.kept, tc.kept)
			}
		})
	}
}

// FuzzMergeHandEdit: a merge with nothing edited on one side is the other
// side; a merge of two sides that agree is that side; and a merge never
// reports a conflict where one side kept the base.
func FuzzMergeHandEdit(f *testing.F) {
	f.Add(`{"a":1,"env":{"X":"1"}}`, `{"a":1,"env":{"X":"1","D":"1"}}`)
	f.Add(`{"args":["a"],"cwd":"/x"}`, `{"args":["b"]}`)
	f.Add(`{}`, `{"headers":{"A":"b"},"n":null}`)
	f.Fuzz(func(t *testing.T, base, other string) {
		if !isObject([]byte(base)) || !isObject([]byte(other)) {
			return
		}
		check := func(name string, b, file, want, expect string) {
			m := &merger{}
			out, ok := m.objects([]byte(b), []byte(file), []byte(want), "")
			if !ok || len(m.conflicts) > 0 {
				t.Fatalf("%s: merge(%s, %s, %s): ok %v, conflicts %+v", name, b, file, want, ok, m.conflicts)
			}
			if !sameJSON(ordered.JSON(out), []byte(expect)) {
				t.Fatalf("%s: merge(%s, %s, %s) = %s, want %s", name, b, file, want, ordered.JSON(out), expect)
			}
		}
		check("the user's edit alone", base, other, base, other)
		check("the extension's change alone", base, base, other, other)
		check("both alike", base, other, other, other)
	})
}
