package toolprofiles_test

import (
	"bytes"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/repo-manager/repo/toolprofiles"
	"github.com/repo-manager/repo/toolprofiles/internal/profilegen"
)

// TestBuiltinMatchesTOML holds the compiled-in profiles to what the strict
// decoder (unknown keys, validation, duplicate ids) makes of
// profiles/*.toml, and builtin_gen.go to what go generate writes now.
func TestBuiltinMatchesTOML(t *testing.T) {
	const regenerate = "run go generate ./toolprofiles (or make generate)"
	decoded, err := toolprofiles.LoadFS(os.DirFS("profiles"), toolprofiles.BuiltinOrigin)
	if err != nil {
		t.Fatal(err)
	}
	builtin, err := toolprofiles.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(builtin.IDs(), decoded.IDs()) {
		t.Fatalf("built-in ids %q, profiles/ has %q: %s", builtin.IDs(), decoded.IDs(), regenerate)
	}
	for _, p := range decoded.All() {
		if got := builtin.Get(p.ID); !reflect.DeepEqual(got, p) {
			t.Errorf("built-in profile %s differs from %s:\n got  %+v\n want %+v\n%s", p.ID, p.Origin(), got, p, regenerate)
		}
	}
	want, err := profilegen.Render(decoded)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(profilegen.File)
	if err != nil {
		t.Fatalf("%v; %s", err, regenerate)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s is out of date with profiles/: %s", profilegen.File, regenerate)
	}
}

// TestBuiltinReturnsNewValues: a caller that changes a profile it got
// does not change what the next caller gets.
func TestBuiltinReturnsNewValues(t *testing.T) {
	a, _ := toolprofiles.Builtin()
	a.Get("claude").Scopes.Project.Paths[0] = "changed"
	a.Get("claude").Entry.Set = map[string]any{"x": true}
	b, _ := toolprofiles.Builtin()
	if got := b.Get("claude").Scopes.Project.Paths[0]; got != ".mcp.json" {
		t.Errorf("claude project path %q after another caller changed its copy", got)
	}
	if b.Get("claude").Entry.Set != nil {
		t.Error("claude entry.set changed by another caller")
	}
}

// TestRenderTypes renders values of every kind a TOML entry.set can hold
// (the built-in profiles use only a few) and checks that the source spells
// each with the type the decoder gives it. Spaces are ignored: gofmt aligns
// the values.
func TestRenderTypes(t *testing.T) {
	set, err := toolprofiles.LoadFS(os.DirFS("testdata/render"), "test:")
	if err != nil {
		t.Fatal(err)
	}
	src, err := profilegen.Render(set)
	if err != nil {
		t.Fatal(err)
	}
	flat := strings.Join(strings.Fields(string(src)), "")
	for _, want := range []string{
		`"int": int64(300)`, `"float": float64(1.5)`, `"bool": false`, `"str": "a\"b"`,
		`"list": []any{int64(1), "two", []any{true}}`, `"table": map[string]any{`, `"empty": map[string]any{}`,
		`origin: "test:p.toml"`,
	} {
		if !strings.Contains(flat, strings.ReplaceAll(want, " ", "")) {
			t.Errorf("rendered source lacks %s:\n%s", want, src)
		}
	}
}
