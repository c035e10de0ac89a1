package commit

import (
	"bytes"
	"os"
	"testing"

	"github.com/repo-manager/repo/extensions"
	"github.com/repo-manager/repo/internal/plan"
	"github.com/repo-manager/repo/internal/target"
	"github.com/repo-manager/repo/toolprofiles"
)

// planOnce plans a sync of the project scope as writers.Run does: the
// former places and the tools that leave, then the plan, all with one
// cache of records.
func planOnce(t *testing.T, env target.Env, records *plan.RecordCache, between func()) *plan.Plan {
	t.Helper()
	stay := profiles(t, "cursor", "devin") // Devin has a former place: FormerTargets reads the record
	if len(stay[1].Scopes.Get(toolprofiles.ScopeProject).Former) == 0 {
		t.Fatal("devin's project target lists no former place any more: pick a tool that does")
	}
	targets, _, err := target.Build([]extensions.Server{server}, stay, toolprofiles.ScopeProject, env)
	if err != nil {
		t.Fatal(err)
	}
	former, err := plan.FormerTargets(env, toolprofiles.ScopeProject, stay, targets, records)
	if err != nil {
		t.Fatal(err)
	}
	lt, _, err := plan.LeavingTargets(env, toolprofiles.ScopeProject, profiles(t, "claude"), stay, plan.ReasonDeselected, records)
	if err != nil {
		t.Fatal(err)
	}
	between()
	p, err := plan.Build(env, append(append(targets, former...), lt...), plan.Options{Records: records, ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	return p
}

// One run parses the ownership record once, however many of its steps
// read it (the no-op check of a workspace spent half its planning on
// parsing the records again); and a record whose bytes changed between
// the steps — another run's sync before this one took the lock, a retry
// after a file changed — is parsed again: the plan is made from what is
// on disk.
func TestRecordParsedOncePerRun(t *testing.T) {
	env := testEnv(t)
	mustSync(t, env, []extensions.Server{server}, "cursor", "devin", "claude")
	path := plan.ProjectRecordPath(env.Root)

	records := plan.NewRecordCache()
	p := planOnce(t, env, records, func() {})
	reads, parses := records.Counts(path)
	if reads != 3 || parses != 1 {
		t.Fatalf("the project record was read %d times through the run's cache and parsed %d times, want 3 reads (Devin's former place, the tools that leave, the plan) and 1 parse", reads, parses)
	}
	if len(p.Stale()) == 0 {
		t.Fatal("the plan removes claude's entries, so it should change files")
	}

	// Another run removes claude's entries between the steps: the plan
	// reads the record it left, not the one parsed before.
	records = plan.NewRecordCache()
	p = planOnce(t, env, records, func() {
		leaveScope(t, env, toolprofiles.ScopeProject, []extensions.Server{server}, []string{"cursor", "devin"}, []string{"claude"})
	})
	if _, parses := records.Counts(path); parses != 2 {
		t.Fatalf("a record rewritten during the run was parsed %d times, want 2", parses)
	}
	now, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, fp := range p.Files {
		if fp.Path == path && !bytes.Equal(fp.Before, now) {
			t.Fatalf("the plan's record is the one read before it changed:\n%s\nwant\n%s", fp.Before, now)
		}
	}
	if st := p.Stale(); len(st) != 0 {
		t.Fatalf("after the other run, the plan should find nothing to do; it would write %s", st[0].Display)
	}
}
