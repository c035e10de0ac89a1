package toolprofiles

import (
	"slices"
	"strings"
	"testing"
)

// TestReferenceScopeIsStated: every built-in profile with a reference syntax
// says in which values the tool expands it (checked against its source),
// rather than falling back to "all of them".
func TestReferenceScopeIsStated(t *testing.T) {
	set, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range set.All() {
		if p.Entry.EnvRef != "" && len(p.Entry.EnvRefFields) == 0 {
			t.Errorf("%s: env_ref %q without env_ref_fields", p.ID, p.Entry.EnvRef)
		}
	}
}

// TestOwnReferencesAreExpanded: where a tool expands its references, its
// expansion rules must match the reference repo writes — else the rules
// describe some other syntax than the one the tool reads, and literal text
// in that syntax would go unchecked.
func TestOwnReferencesAreExpanded(t *testing.T) {
	set, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range set.All() {
		e := &p.Entry
		if e.EnvRef == "" || len(e.Expands) == 0 {
			continue
		}
		refs := []string{strings.Replace(e.EnvRef, "NAME", "API_TOKEN", 1)}
		if e.EnvRefDefault {
			refs = append(refs, strings.Replace(e.EnvRef, "NAME", "LEVEL:-info", 1))
		}
		for _, field := range ValueFields {
			if !e.ExpandsRefsIn(field) {
				continue
			}
			for _, ref := range refs {
				matched := false
				for i := range e.Expands {
					x := &e.Expands[i]
					if x.Applies(field, "linux") && x.Regexp() != nil && x.Regexp().FindString(ref) == ref {
						matched = true
					}
					if x.Applies(field, "linux") && x.Replacer() != nil {
						matched = true // a shell-like tool: its references are written raw, literal text escaped
					}
				}
				if !matched {
					t.Errorf("%s: no expansion rule for %s matches its own reference %s", p.ID, field, ref)
				}
			}
		}
	}
}

// TestExpansionFieldsExist: a rule names only values the tool has — no
// cwd rule for a tool without a working-directory field, no url or
// headers rule for a stdio-only tool.
func TestExpansionFieldsExist(t *testing.T) {
	set, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range set.All() {
		e := &p.Entry
		lists := [][]string{e.EnvRefFields}
		for _, x := range e.Expands {
			lists = append(lists, x.Fields)
		}
		for _, fields := range lists {
			if slices.Contains(fields, "cwd") && e.CwdField == "" {
				t.Errorf("%s: names cwd, but has no cwd_field", p.ID)
			}
			if (slices.Contains(fields, "url") || slices.Contains(fields, "headers")) && e.Remote == nil {
				t.Errorf("%s: names url or headers, but writes no remote servers", p.ID)
			}
		}
	}
}
