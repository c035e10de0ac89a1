package plan

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/repo-manager/repo/internal/record"
	"github.com/repo-manager/repo/internal/target"
	"github.com/repo-manager/repo/internal/termtext"
	"github.com/repo-manager/repo/toolprofiles"
)

// Shadowing. A tool that reads servers from more than one scope knows one
// server by each name: Claude Code takes a name from its local scope
// (~/.claude.json projects[root]) before the project's .mcp.json, and that
// before the user's own servers (~/.claude.json mcpServers), and what the
// user approved or allowed for the name (permissions.allow
// "mcp__github__*") goes with it. So a server repo writes under the name
// of one of the user's in another scope of the same tool either takes the
// user's server's place, or is hidden by it. Tools rank scopes alike where
// they say (the more specific wins: local, then project, then user), and
// that is the order assumed here.
//
//   - Written at local scope, a new entry that would take the place of an
//     entry of the user's is refused unless the user names it
//     (Options.AdoptNames, or Options.Adopt): local scope is ungated.
//   - Every other case is reported: an entry of repo's that takes the
//     place of the user's (a project entry over the user's user-scope
//     one — the tool asks before it starts a project server), or one the
//     user's hides.
//
// A project sync looks at the other scopes only for the entries it adds:
// the user's files can be large (~/.claude.json), and the project's
// entries were checked when they were added.

// Shadow is a name repo writes in one scope of a tool that an entry of
// the user's has in another scope of that tool.
type Shadow struct {
	Entry      string       `json:"entry"`
	Extension  string       `json:"extension"`
	Tools      []string     `json:"tools"`       // the tools reading both
	File       string       `json:"path"`        // repo's entry's file, as shown to people
	Scope      target.Scope `json:"scope"`       // and its scope
	Other      string       `json:"other_path"`  // the user's entry's file
	OtherScope target.Scope `json:"other_scope"` // and its scope
	// Wins is which of the two the tools use under the name: "repo" when
	// repo's entry takes the place of the user's, "yours" when the user's
	// hides repo's.
	Wins string `json:"wins"`
}

// ShadowError refuses a local-scope entry that would take the place of
// one of the user's (see above).
type ShadowError struct{ Shadow }

func (e *ShadowError) Error() string {
	name := termtext.Safe(e.Entry)
	return fmt.Sprintf("%s: server %q (extension %s) would be written at local scope, where %s takes it in place of your own %q in %s (%s scope), with the approvals and permission rules given to that name; rename one of them, or run 'repo sync --scope local --adopt-name %s' to write it anyway",
		e.File, name, termtext.Safe(e.Extension), strings.Join(e.Tools, ", "), name, e.Other, e.OtherScope, name)
}

func (s Shadow) message() string {
	name := termtext.Safe(s.Entry)
	if s.Wins == "repo" {
		return fmt.Sprintf("%s: server %q (%s scope, for %s) has the name of your own server in %s (%s scope); %s uses repo's under that name in this workspace, with the approvals and permission rules given to it: rename one of them to keep both",
			s.File, name, s.Scope, strings.Join(s.Tools, ", "), s.Other, s.OtherScope, strings.Join(s.Tools, ", "))
	}
	return fmt.Sprintf("%s: server %q (%s scope, for %s) has the name of your own server in %s (%s scope), which %s uses instead in this workspace: rename one of them to have both",
		s.File, name, s.Scope, strings.Join(s.Tools, ", "), s.Other, s.OtherScope, strings.Join(s.Tools, ", "))
}

// scopeRank orders the scopes as tools prefer them.
func scopeRank(s target.Scope) int {
	switch s {
	case toolprofiles.ScopeLocal:
		return 3
	case toolprofiles.ScopeProject:
		return 2
	}
	return 1
}

// shadowCheck is one target's names to look for in its tools' other
// scopes, and what planning its file found there already.
type shadowCheck struct {
	env   target.Env // its Paths memo: the same other places are looked up for each file
	t     *target.Target
	names map[string]shadowName
	// found are the other places' entries of those names, by place
	// (index into t.Others); a place missing here is read after the
	// files are planned (pending).
	found   map[int][]string
	pending []int
}

type shadowName struct {
	extension string
	added     bool // a new entry (or the user's taken over): may be refused
}

// shadowNames are the names of t's entries to look for elsewhere: every
// entry repo writes at local and user scope, the new ones at project scope.
func (tp *targetPlan) shadowCheck() *shadowCheck {
	t := tp.t
	if len(t.Others) == 0 || t.Leaving != "" || t.Alias != "" {
		return nil
	}
	sc := &shadowCheck{env: tp.env, t: t, names: map[string]shadowName{}, found: map[int][]string{}}
	for _, d := range t.Entries {
		if _, ours := tp.next[d.Name]; !ours {
			continue // the user's own (Yours): repo writes nothing
		}
		added := slices.Contains(tp.added, d.Name)
		if t.Scope == toolprofiles.ScopeProject && !added {
			continue
		}
		sc.names[d.Name] = shadowName{extension: d.Extension, added: added}
	}
	if len(sc.names) == 0 {
		return nil
	}
	return sc
}

// lookInFile finds the names in the other places that are the file being
// planned (path, parsed as doc before the plan's edits); the others are
// left pending.
func (sc *shadowCheck) lookInFile(path string, doc Document) error {
	for i, o := range sc.t.Others {
		real := o.Path
		if r, err := sc.env.EvalSymlinks(o.Path); err == nil {
			real = r
		}
		if real != path {
			sc.pending = append(sc.pending, i)
			continue
		}
		if err := sc.collect(i, doc); err != nil {
			return err
		}
	}
	return nil
}

// collect notes which of the names place i of doc holds.
func (sc *shadowCheck) collect(i int, doc Document) error {
	o := sc.t.Others[i]
	members, _, err := doc.Entries(o.Key)
	if err != nil {
		l, c := position(err)
		return &FileError{File: o.Display, Line: l, Col: c, Err: fmt.Errorf("%v (repo looks for servers of the names it writes in %s here)", stripPosition(err), keyString(o.Key))}
	}
	for _, m := range members {
		if _, ok := sc.names[m.Key]; ok {
			sc.found[i] = append(sc.found[i], m.Key)
		}
	}
	return nil
}

// readPending reads the other places that are not a planned file, each
// file once for all checks (docs, by path and format: Claude Code's local
// and user scopes are two keys of one ~/.claude.json).
func (sc *shadowCheck) readPending(docs map[string]Document) error {
	for _, i := range sc.pending {
		o := sc.t.Others[i]
		path := o.Path
		if real, err := sc.env.EvalSymlinks(path); err == nil {
			path = real
		}
		id := path + "\x00" + string(o.Format) + "\x00" + string(o.Container) + "\x00" + o.NameField + "\x00" + o.Skeleton
		doc, ok := docs[id]
		if !ok {
			format, err := FormatFor(o)
			if err != nil {
				return &FileError{File: o.Display, Err: err}
			}
			d, snap, err := openDocument(o.Display, path, format, 0, false, nil)
			if err != nil {
				return err
			}
			if snap.existed {
				doc = d
			}
			docs[id] = doc
		}
		if doc == nil {
			continue // no such file: no entries
		}
		if err := sc.collect(i, doc); err != nil {
			return err
		}
	}
	sc.pending = nil
	return nil
}

// addShadows works out, after every file is planned, what the names repo
// writes meet in the other scopes of their tools: findings in p.Shadows
// and p.Warnings, and the refusals of local-scope entries (see above).
func (p *Plan) addShadows(env target.Env, records *recordSet, checks []*shadowCheck, opts Options) error {
	owners := &otherOwners{env: env, records: records}
	docs := map[string]Document{}
	var errs []error
	for _, sc := range checks {
		if err := sc.readPending(docs); err != nil {
			if sc.t.Scope != toolprofiles.ScopeLocal {
				// Only a report hangs on it: say what could not be checked.
				p.Warnings = append(p.Warnings, fmt.Sprintf("could not look for servers of the names repo writes in %s: %v", sc.t.Display, err))
				continue
			}
			errs = append(errs, err)
			continue
		}
		for i, o := range sc.t.Others {
			for _, name := range sc.found[i] {
				mine, err := owners.owns(o, name)
				if err != nil {
					return err
				}
				if mine {
					continue // repo wrote both: the same server, from this workspace
				}
				n := sc.names[name]
				s := Shadow{Entry: name, Extension: n.extension, Tools: slices.Clone(o.Tools), File: sc.t.Display, Scope: sc.t.Scope,
					Other: o.Display, OtherScope: o.Scope, Wins: "repo"}
				if scopeRank(o.Scope) > scopeRank(sc.t.Scope) {
					s.Wins = "yours"
				}
				if sc.t.Scope == toolprofiles.ScopeLocal && n.added && s.Wins == "repo" && !opts.Adopt && !slices.Contains(opts.AdoptNames, name) {
					errs = append(errs, &ShadowError{s})
					continue
				}
				p.Shadows = append(p.Shadows, s)
				p.Warnings = append(p.Warnings, s.message())
			}
		}
	}
	return errors.Join(errs...)
}

// otherOwners tells whether this workspace's records say repo wrote an
// entry in another scope's file, reading each record once, only when
// asked: a project file's records through git (claims.go).
type otherOwners struct {
	env       target.Env
	records   *recordSet
	user      *record.Record
	workspace *workspaceRecords
}

func (oo *otherOwners) owns(o *target.Target, name string) (bool, error) {
	if o.Scope == toolprofiles.ScopeProject {
		if oo.workspace == nil {
			if oo.records.workspace != nil {
				oo.workspace = oo.records.workspace
			} else {
				wr, err := readWorkspaceRecords(oo.env, nil)
				if err != nil {
					return false, err
				}
				oo.workspace = wr
			}
		}
		return oo.workspace.project.Claims(o.Display, o.Key, name) || oo.workspace.machine.Claims(o.Display, o.Key, name), nil
	}
	if oo.user == nil {
		if st, ok := oo.records.byKind[recordUser]; ok {
			oo.user = st.rec
		} else {
			path, err := UserRecordPath(oo.env)
			if err != nil {
				return false, err
			}
			rec, _, err := record.Read(path, oo.env.Display(path))
			if err != nil {
				return false, err
			}
			oo.user = rec
		}
	}
	return oo.user.Claims(filepath.ToSlash(o.Path), o.Key, name), nil
}
