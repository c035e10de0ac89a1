package toolprofiles_test

import (
	"testing"

	"github.com/repo-manager/repo/toolprofiles"
)

// A loaded profile's name patterns, compiled when first matched, match as
// those of a profile made in Go.
func TestAcceptsName(t *testing.T) {
	set, err := toolprofiles.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	var withPattern *toolprofiles.Profile
	for _, p := range set.All() {
		if p.Entry.NamePattern != "" {
			withPattern = p
			break
		}
	}
	if withPattern == nil {
		t.Fatal("no built-in profile has entry.name_pattern")
	}
	made := toolprofiles.EntryFormat{NamePattern: withPattern.Entry.NamePattern}
	for _, name := range []string{"ok-name", "has space", "dot.name", "émoji"} {
		if got, want := withPattern.Entry.AcceptsName(name), made.AcceptsName(name); got != want {
			t.Errorf("%s: loaded profile accepts %q: %v, one made in Go: %v", withPattern.ID, name, got, want)
		}
	}
	if withPattern.Entry.AcceptsName("has space") {
		t.Errorf("%s accepts %q (pattern %s)", withPattern.ID, "has space", withPattern.Entry.NamePattern)
	}
	if !(&toolprofiles.EntryFormat{}).AcceptsName("any name at all") {
		t.Error("a profile without a pattern refuses a name")
	}
}
