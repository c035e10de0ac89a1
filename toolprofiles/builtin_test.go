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

// TestBuiltinSharesNothing: every slice element, map and pointed-to struct
// of one call's profiles is its own. It changes everything reachable from
// one call and checks that a call made before and one made after still
// hold what the strict decoder makes of profiles/ — a comparison between
// the calls alone would miss a change they all see through shared memory —
// and that the later call left the changes alone.
func TestBuiltinSharesNothing(t *testing.T) {
	decoded := decodedProfiles(t)
	before, _ := toolprofiles.Builtin()
	changed, _ := toolprofiles.Builtin()
	n := 0
	for _, p := range changed.All() {
		n += mutate(reflect.ValueOf(p).Elem())
	}
	if n < 1000 {
		t.Fatalf("changed only %d values of the built-in profiles: the walk misses some", n)
	}
	// Before the next call, which would hide memory shared with before
	// if it wrote the values anew there.
	holdsTOML(t, "an earlier call", before, decoded)
	after, _ := toolprofiles.Builtin()
	holdsTOML(t, "a later call", after, decoded)
	for _, p := range changed.All() {
		if reflect.DeepEqual(p, decoded.Get(p.ID)) {
			t.Errorf("profile %s: a later call undid the changes another caller made to its own", p.ID)
		}
	}
}

func decodedProfiles(t *testing.T) *toolprofiles.Set {
	t.Helper()
	decoded, err := toolprofiles.LoadFS(os.DirFS("profiles"), toolprofiles.BuiltinOrigin)
	if err != nil {
		t.Fatal(err)
	}
	return decoded
}

// holdsTOML checks that set's profiles are still the decoded ones.
func holdsTOML(t *testing.T, what string, set, decoded *toolprofiles.Set) {
	t.Helper()
	for _, p := range decoded.All() {
		if got := set.Get(p.ID); !reflect.DeepEqual(got, p) {
			t.Errorf("%s: profile %s changed with another caller's:\n got  %+v\n want %+v", what, p.ID, got, p)
		}
	}
}

// mutate changes every value reachable from v that can be changed in
// place — strings, bools, numbers, slice elements, map entries (and adds
// one, making a nil map), the structs pointers point to — and returns how many it changed.
// Unexported fields are left alone: reflection cannot set them.
func mutate(v reflect.Value) int {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return 0
		}
		return mutate(v.Elem())
	case reflect.Struct:
		n := 0
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				n += mutate(v.Field(i))
			}
		}
		return n
	case reflect.Slice:
		n := 0
		for i := 0; i < v.Len(); i++ {
			n += mutate(v.Index(i))
		}
		return n
	case reflect.Map:
		if v.IsNil() {
			if !v.CanSet() {
				return 0
			}
			v.Set(reflect.MakeMap(v.Type()))
		}
		n := 0
		for _, k := range v.MapKeys() {
			// A map's values cannot be set in place: change a copy (a
			// slice or map inside is changed where it is) and store it.
			e := reflect.New(v.Type().Elem()).Elem()
			e.Set(v.MapIndex(k))
			if inner := e; inner.Kind() == reflect.Interface && !inner.IsNil() {
				cp := reflect.New(inner.Elem().Type()).Elem()
				cp.Set(inner.Elem())
				n += mutate(cp)
				e.Set(cp)
			} else {
				n += mutate(e)
			}
			v.SetMapIndex(k, e)
		}
		v.SetMapIndex(reflect.ValueOf("added by another caller").Convert(v.Type().Key()), reflect.Zero(v.Type().Elem()))
		return n + 1
	case reflect.String:
		v.SetString(v.String() + " (changed)")
	case reflect.Bool:
		v.SetBool(!v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(v.Int() + 1)
	case reflect.Float32, reflect.Float64:
		v.SetFloat(v.Float() + 1)
	default:
		return 0
	}
	return 1
}

// TestBuiltinAppendStaysInSlice: appending to any slice of a returned
// profile writes no other slice — of that profile or another — even where
// the values share an array.
func TestBuiltinAppendStaysInSlice(t *testing.T) {
	decoded := decodedProfiles(t)
	set, _ := toolprofiles.Builtin()
	n := 0
	for _, p := range set.All() {
		n += appendToEach(reflect.ValueOf(p).Elem())
	}
	if n < 200 {
		t.Fatalf("appended to only %d slices of the built-in profiles: the walk misses some", n)
	}
	holdsTOML(t, "appended to", set, decoded)
}

// appendToEach appends an element to every slice reachable from v,
// keeping the slices as they were, and returns how many it appended to.
func appendToEach(v reflect.Value) int {
	n := 0
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			n += appendToEach(v.Elem())
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				n += appendToEach(v.Field(i))
			}
		}
	case reflect.Map:
		for _, k := range v.MapKeys() {
			n += appendToEach(v.MapIndex(k))
		}
	case reflect.Slice:
		for i := 0; i < v.Len(); i++ {
			n += appendToEach(v.Index(i))
		}
		if v.IsNil() {
			break
		}
		extra := reflect.New(v.Type().Elem()).Elem() // a zero struct, which no profile holds
		if extra.Kind() == reflect.String {
			extra.SetString("appended by a caller")
		}
		_ = reflect.Append(v, extra) // the caller's append, result dropped
		n++
	}
	return n
}

// BenchmarkBuiltin is what every run of repo pays once to get the
// built-in profiles (bench/RESULTS.md measures the whole process).
func BenchmarkBuiltin(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := toolprofiles.Builtin(); err != nil {
			b.Fatal(err)
		}
	}
}
