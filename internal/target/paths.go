package target

import (
	"path/filepath"
	"runtime"
	"sync"

	"github.com/repo-manager/repo/internal/cleanpath"
	"github.com/repo-manager/repo/internal/fileio"
)

// Paths remembers, for one run, what the file system said about the paths
// the run asked about: whether each exists (Choose) and where its symbolic
// links lead (RealPath, EvalSymlinks). A run asks about the same few dozen paths again
// and again — every tool's candidate files when it chooses a path, groups
// targets by file, finds linked readers and the places of leaving tools,
// names files in the records, looks for the names it writes in the
// tools' other scopes — and each resolution walks every folder
// above the file, so without the memo a no-op `repo sync --check` of the
// example workspace made 880 stat calls for 60 paths.
//
// One Paths serves one run (workspace.Host.Env makes it): the run plans on
// one view of the folders. A target's real path (Target.Real) comes from
// it, and plan.checkWritable judges a file that exists by that path, as it
// judged it by target.Build's own resolution before the memo; the links it
// meets and the files not resolved yet it resolves itself, and the reads
// (fileio) and the commit's locks do not go through the memo. A folder
// replaced by a link while a run is under way is not seen by either, as
// before: the commit writes by path. Forget drops what the memo holds,
// for a run that plans again because a tool rewrote a file. Safe for
// concurrent use.
type Paths struct {
	mu    sync.Mutex
	real  map[string]string
	lstat map[string]lstated
	eval  map[string]evaluated
}

// lstated is what lstat(2) said of a path: whether something is there,
// and whether it is a symbolic link. Exists and realPath ask the same
// question of the same paths (a tool's file when it chooses it, then
// when its real path is found); one answer serves both.
type lstated struct{ there, link bool }

// evaluated is what filepath.EvalSymlinks said of a path.
type evaluated struct {
	path string
	err  error
}

// NewPaths returns an empty memo.
func NewPaths() *Paths {
	return &Paths{real: map[string]string{}, lstat: map[string]lstated{}, eval: map[string]evaluated{}}
}

// Forget drops what the memo remembers.
func (m *Paths) Forget() {
	if m == nil {
		return
	}
	m.mu.Lock()
	m.real, m.lstat, m.eval = map[string]string{}, map[string]lstated{}, map[string]evaluated{}
	m.mu.Unlock()
}

// RealPath is RealPath(p), remembered; with no memo, RealPath(p).
func (e Env) RealPath(p string) string {
	if e.Paths == nil {
		return RealPath(p)
	}
	return e.Paths.realPath(p)
}

// EvalSymlinks is filepath.EvalSymlinks(p), remembered: where p is,
// through its links, or the error that it is not there (an error of
// another kind is returned and not remembered).
func (e Env) EvalSymlinks(p string) (string, error) {
	m := e.Paths
	if m == nil {
		return filepath.EvalSymlinks(p)
	}
	m.mu.Lock()
	ev, seen := m.eval[p]
	m.mu.Unlock()
	if seen {
		return ev.path, ev.err
	}
	r, err := filepath.EvalSymlinks(p)
	if err == nil || fileio.IsMissing(err) {
		m.mu.Lock()
		m.eval[p] = evaluated{r, err}
		m.mu.Unlock()
	}
	return r, err
}

// Exists reports whether something is at p (Lstat: a symbolic link counts,
// wherever it leads), remembered; an error other than "not there" is
// returned and not remembered.
func (e Env) Exists(p string) (bool, error) {
	st, err := e.Paths.lstatOf(p)
	return st.there, err
}

// lstatOf is lstat(2) of p, remembered (with no memo, asked each time);
// an error other than "not there" is returned and not remembered.
func (m *Paths) lstatOf(p string) (lstated, error) {
	if m != nil {
		m.mu.Lock()
		st, seen := m.lstat[p]
		m.mu.Unlock()
		if seen {
			return st, nil
		}
	}
	link, err := lstatLink(p)
	switch {
	case err == nil:
	case fileio.IsMissing(err):
	default:
		return lstated{}, err
	}
	st := lstated{there: err == nil, link: link}
	if m != nil {
		m.mu.Lock()
		m.lstat[p] = st
		m.mu.Unlock()
	}
	return st, nil
}

// realPath resolves p a folder at a time, each folder once per run:
// the real path of a file that is not a symbolic link is its name in the
// real path of its folder; a link is resolved whole (EvalSymlinks, which
// follows chains and relative targets). Where p is not there, or cannot
// be looked at, its folder is resolved and its name kept — what RealPath
// does by walking up to the longest part that resolves. Paths that are
// not clean and absolute, and Windows (volumes, junctions, case), take
// RealPath itself.
func (m *Paths) realPath(p string) string {
	if runtime.GOOS == "windows" || !filepath.IsAbs(p) || cleanpath.Clean(p) != p {
		return RealPath(p)
	}
	m.mu.Lock()
	r, ok := m.real[p]
	m.mu.Unlock()
	if ok {
		return r
	}
	dir := cleanpath.Dir(p)
	switch st, err := m.lstatOf(p); {
	case dir == p:
		r = p // the root
	case err == nil && st.link:
		r = RealPath(p)
	default:
		r = cleanpath.Join(m.realPath(dir), filepath.Base(p))
	}
	m.mu.Lock()
	m.real[p] = r
	m.mu.Unlock()
	return r
}
