package plan

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/repo-manager/repo/internal/cleanpath"
	"github.com/repo-manager/repo/internal/record"
	"github.com/repo-manager/repo/internal/target"
)

// A file is identified by what it is, not by the path that reached it. A
// link such as .cursor/mcp.json -> ../.mcp.json (one list shared between
// Cursor and Claude Code) makes two tools' paths one file: target.Build
// gives them one target, whose tools must agree on each entry, and the
// records name the file once, by its real path (recordFile), whichever
// tool's path a run came by. So a run for Cursor alone finds the entries a
// run for both wrote, and repo forget --tool cursor sees that Claude Code
// still writes the file (LeavingTargets). A record written before, which
// named the file by each path, is read with the names merged
// (canonicalFiles).

// recordFile is how a record of kind names the file at path, whose real
// path is real ("": not resolved yet): by the real path, absolute in the
// per-user record, relative to the workspace's real root in the records
// kept in the workspace. A project file whose real path is not inside the
// root (checkWritable refuses to write it) keeps the path it was reached
// by.
func recordFile(env target.Env, kind, path, real string) string {
	if real == "" {
		real = env.RealPath(path)
	}
	if kind == recordUser {
		return filepath.ToSlash(real)
	}
	if r, ok := relWithin(env.Root, real); ok {
		return r
	}
	// A root that is itself reached through a link (a host program's
	// env.Root; cmd resolves it).
	if r, ok := relWithin(resolveRoot(env.Root).path, real); ok {
		return r
	}
	return env.Display(path)
}

// relWithin is p relative to dir, slash-separated, when p is inside dir.
func relWithin(dir, p string) (string, bool) {
	r, err := cleanpath.Rel(dir, p)
	if err != nil || r == "." || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return "", false
	}
	return filepath.ToSlash(r), true
}

// realsOf are the real paths of targets, by path (see canonicalFiles).
func realsOf(targets []*target.Target) map[string]string {
	out := make(map[string]string, len(targets))
	for _, t := range targets {
		if t.Real != "" {
			out[t.Path] = t.Real
		}
	}
	return out
}

// targetFile is recordFile for a target.
func targetFile(env target.Env, kind string, t *target.Target) string {
	return recordFile(env, kind, t.Path, t.Real)
}

// canonicalFiles renames the targets of rec, a record of kind, to the
// names recordFile gives their files now; targets that name one file by
// two paths become one (see record.Record.Rename). reals, when not nil, are the
// real paths of files already resolved, by path (a plan's targets). It
// reports whether it changed anything.
func canonicalFiles(env target.Env, kind string, rec *record.Record, reals map[string]string) bool {
	changed := false
	for _, t := range slices.Clone(rec.Targets) {
		path := filepath.FromSlash(t.File)
		if kind != recordUser {
			path = cleanpath.Join(env.Root, path)
		}
		file := recordFile(env, kind, path, reals[path])
		if file == t.File {
			continue
		}
		rec.Rename(t, file)
		changed = true
	}
	return changed
}
