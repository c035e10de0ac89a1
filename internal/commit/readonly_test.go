package commit

import (
	"bytes"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/repo-manager/repo/extensions"
	"github.com/repo-manager/repo/internal/bigmem"
	"github.com/repo-manager/repo/internal/plan"
	"github.com/repo-manager/repo/internal/target"
	"github.com/repo-manager/repo/toolprofiles"
)

// TestReadOnlyPlanAgrees plans Claude's local scope in a ~/.claude.json
// above the mapping threshold, read (for a sync) and mapped (for --check),
// before and after a sync: both plans must say the same.
func TestReadOnlyPlanAgrees(t *testing.T) {
	env := testEnv(t)
	path := filepath.Join(env.Home, ".claude.json")
	var b strings.Builder
	b.WriteString("{\n  \"projects\": {\n")
	for i := 0; b.Len() < 2*bigmem.MapThreshold; i++ {
		fmt.Fprintf(&b, "    \"/home/u/p%d\": {\"history\": [{\"display\": %q}], \"mcpServers\": {}},\n", i, strings.Repeat("text ", 40))
	}
	fmt.Fprintf(&b, "    %q: {\"mcpServers\": {}}\n  }\n}\n", filepath.ToSlash(env.Root))
	write(t, path, b.String())

	servers := []extensions.Server{server, {Name: "t", Extension: "ext", Spec: extensions.Spec{Transport: extensions.Stdio, Command: "python", Args: []string{"-m", "t"}}}}
	targets, _, err := target.Build(servers, profiles(t, "claude"), toolprofiles.ScopeLocal, env)
	if err != nil {
		t.Fatal(err)
	}
	plans := func() (read, mapped *plan.Plan) {
		t.Helper()
		read, err := plan.Build(env, targets, plan.Options{})
		if err != nil {
			t.Fatal(err)
		}
		mapped, err = plan.Build(env, targets, plan.Options{ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		if mapped.Mapped() != 1 {
			t.Fatalf("%d files mapped, want ~/.claude.json", mapped.Mapped())
		}
		if len(read.Files) != len(mapped.Files) {
			t.Fatalf("%d files planned when read, %d when mapped", len(read.Files), len(mapped.Files))
		}
		for i, r := range read.Files {
			m := mapped.Files[i]
			if r.Path != m.Path || r.Changed() != m.Changed() || !reflect.DeepEqual(r.Changes, m.Changes) || !bytes.Equal(r.After, m.After) {
				t.Fatalf("%s: read and mapped plans differ: changed %v/%v, changes %v/%v", r.Display, r.Changed(), m.Changed(), r.Changes, m.Changes)
			}
		}
		return read, mapped
	}

	read, mapped := plans()
	if len(read.Stale()) != 2 { // ~/.claude.json and the per-user record
		t.Fatalf("%d stale files before the first sync, want 2", len(read.Stale()))
	}
	mapped.Close()
	// What a stale mapped plan keeps is a copy: readable after Close.
	for _, f := range mapped.Files {
		if f.Scope == toolprofiles.ScopeLocal && !bytes.Equal(f.Before, []byte(b.String())) {
			t.Fatal("the Before of a stale mapped file is not the file's bytes after Close")
		}
	}
	if _, err := Apply(read); err != nil {
		t.Fatal(err)
	}
	read, mapped = plans()
	defer mapped.Close()
	if len(read.Stale()) != 0 || len(mapped.Stale()) != 0 {
		t.Fatalf("stale files after a sync: read %d, mapped %d", len(read.Stale()), len(mapped.Stale()))
	}
}
