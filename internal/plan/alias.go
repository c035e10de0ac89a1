package plan

import (
	"path/filepath"
	"slices"

	"github.com/repo-manager/repo/internal/record"
	"github.com/repo-manager/repo/internal/target"
	"github.com/repo-manager/repo/toolprofiles"
)

// ReasonAlias is why a plan removes an entry repo wrote under another path
// to the workspace.
const ReasonAlias Reason = "entry written under another path to this workspace"

// aliasPlan is what earlier versions of repo left under the other paths to
// the workspace that this run came by (Env.Aliases). They keyed, recorded
// and locked a workspace under the path it was reached by, so one reached
// through a symlink had its per-user record there, and its local entries
// under projects["<that path>"] in ~/.claude.json, which Claude Code never
// reads (it keys projects by the real path).
type aliasPlan struct {
	// adopt are the targets of the per-user records kept under the
	// aliases; the workspace's own record takes them over when it does not
	// exist yet, so the entries they name stay repo's. Only then: once the
	// workspace has a record, it alone says what repo owns.
	adopt []*record.Entry
	// retired are the records taken over: deleted by the plan, so that no
	// record is left behind under a path the workspace no longer has (a
	// move), and none claims what the workspace's own record now does.
	retired []retiredRecord
}

// retiredRecord is a per-user record a plan takes over and deletes.
type retiredRecord struct {
	path, root string
	raw        []byte
}

// planAliases reads the per-user records of env.Aliases when a target
// needs the per-user record, and adds to targets, for each key of that
// record which holds an alias in a file the run writes, a target that
// removes the entries repo wrote there.
func planAliases(env target.Env, targets []*target.Target) ([]*target.Target, *aliasPlan, error) {
	if len(env.Aliases) == 0 || !slices.ContainsFunc(targets, func(t *target.Target) bool { return t.Scope != toolprofiles.ScopeProject }) {
		return targets, nil, nil
	}
	path, err := UserRecordPath(env)
	if err != nil {
		return nil, nil, err
	}
	own, raw, err := record.Read(path, env.Display(path))
	if err != nil {
		return nil, nil, err
	}
	canonicalFiles(env, recordUser, own, nil)
	ap := &aliasPlan{}
	owned := own.Targets
	if raw == nil {
		for _, alias := range env.Aliases {
			old, path, raw, ok := aliasRecord(env, alias)
			if !ok {
				continue
			}
			ap.retired = append(ap.retired, retiredRecord{path: path, root: alias, raw: raw})
			for _, t := range old.Targets {
				if !slices.ContainsFunc(ap.adopt, func(a *record.Entry) bool { return a.File == t.File && slices.Equal(a.Key, t.Key) }) {
					ap.adopt = append(ap.adopt, t)
				}
			}
		}
		owned = ap.adopt
	}
	out := slices.Clip(targets)
	for _, rt := range owned {
		alias := keyAlias(env, rt.Key)
		if alias == "" {
			continue
		}
		i := slices.IndexFunc(targets, func(t *target.Target) bool {
			return t.Scope != toolprofiles.ScopeProject && targetFile(env, recordUser, t) == rt.File
		})
		if i < 0 {
			continue // a file this run does not write: it is handled when one does
		}
		retire := *targets[i]
		retire.Key = slices.Clone(rt.Key)
		retire.Entries = nil
		retire.Alias = alias
		out = append(out, &retire)
	}
	return out, ap, nil
}

// aliasRecord is the per-user record kept under alias (by an earlier
// repo, or before the workspace moved), with its path and bytes, if there
// is a readable one that says it is alias's.
func aliasRecord(env target.Env, alias string) (*record.Record, string, []byte, bool) {
	aenv := env
	aenv.Root = alias
	path, err := UserRecordPath(aenv)
	if err != nil {
		return nil, "", nil, false
	}
	// A missing, damaged or foreign old record is left alone: without it
	// the entries it names are the user's, and sync says how to adopt them.
	rec, raw, err := record.Read(path, env.Display(path))
	if err != nil || raw == nil || rec.Root != alias {
		return nil, "", nil, false
	}
	canonicalFiles(env, recordUser, rec, nil)
	return rec, path, raw, true
}

// keyAlias is the alias (of env.Aliases) that a key holds as a segment,
// the way a profile key spells <<root>>, or "".
func keyAlias(env target.Env, key []string) string {
	for _, alias := range env.Aliases {
		if alias != env.Root && slices.Contains(key, filepath.ToSlash(alias)) {
			return alias
		}
	}
	return ""
}

// adoptInto gives the workspace's per-user record, which did not exist
// yet if there is anything to adopt, the targets of the records kept under
// its aliases.
func (ap *aliasPlan) adoptInto(rec *record.Record) {
	if ap == nil {
		return
	}
	for _, t := range ap.adopt {
		rec.Take(t)
	}
}

// matchesDigestAt is record.MatchesDigest at the root or, for an entry an
// earlier repo wrote when it came by another path to the workspace, at one
// of env.Aliases.
func matchesDigestAt(env target.Env, raw []byte, digest string) bool {
	if record.MatchesDigest(raw, digest, env.Root) {
		return true
	}
	for _, alias := range env.Aliases {
		if record.MatchesDigest(raw, digest, alias) {
			return true
		}
	}
	return false
}

// goneReason is why an entry repo owns in t that no server wants any more
// is removed.
func goneReason(t *target.Target) Reason {
	if t.Leaving != "" {
		return Reason(t.Leaving)
	}
	if t.Alias != "" {
		return ReasonAlias
	}
	return ReasonGone
}
