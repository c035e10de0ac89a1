package commit

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/repo-manager/repo/internal/fileio"
	"github.com/repo-manager/repo/internal/par"
	"github.com/repo-manager/repo/internal/plan"
)

// ErrChanged is returned by Apply when a file changed between planning and
// writing: another program wrote it. Plan again and apply the new plan.
var ErrChanged = errors.New("changed while repo was planning")

// ErrInterrupted is returned by ApplyInterruptible when the host stopped
// it (Interrupt.Stop) before it had replaced every tool config: it has put
// everything back, and nothing is written.
var ErrInterrupted = errors.New("interrupted")

// Interrupt is how a host program stops Apply: its signal handler (repo's
// is in cmd), or a cancel button, closes the channels; ctx.Done() serves.
// Apply installs no handler of its own. A nil channel never closes.
type Interrupt struct {
	// Stop stops the run at its next step, before it stages or commits
	// another file and while it waits for a tool's lock. If it has not
	// replaced every tool config yet, it puts back what it has replaced,
	// removes what it staged and the folders it created, and returns
	// ErrInterrupted. If it has, the run is past the point where undoing
	// is the shorter way to whole files: it finishes (the ownership
	// records, the folder fsyncs) and returns as usual.
	Stop <-chan struct{}
	// Abort, closed after Stop, makes the run end as soon as the files
	// are whole again, without waiting any longer: a tool's lock is tried
	// once (then the file is put back without it, with a warning), and
	// folders are not fsynced (the renames are whole, their durability
	// is the file system's). The renames that put the set back, or finish
	// it, still happen: each is a system call, and stopping between them
	// would leave some files new and some old. A file being staged when
	// Stop closed finishes its write and fsync, which cannot be cut.
	Abort <-chan struct{}
}

// closed reports whether c is closed (a nil c never is).
func closed(c <-chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}

// Applied is what Apply did.
type Applied struct {
	// Written are the files that hold repo's new version: every changed
	// file of the plan, or, after a failure, those repo could not put
	// back (another program changed them since, or putting them back
	// failed: the error says which, and why).
	Written []*plan.FilePlan
	// Warnings are files written in a way the user should know about.
	Warnings []string
	// PutBack is, after a failure or a stop, how many files had been
	// replaced and were put back.
	PutBack int
}

// Apply writes every changed file of the plan, and deletes those it
// deletes (FilePlan.Delete), all or nothing:
//  1. It removes what killed runs left next to the files, and creates the
//     folders of new files.
//  2. It stages every new version next to its file, fsynced and read
//     back, several at once: the fsyncs share the file system's journal
//     commits, which one after the other were most of a small sync's
//     writing time. A failure here writes nothing at all.
//  3. It commits the files one by one: the intents of the ownership
//     records first (FilePlan.Intent: every entry repo has or is about to
//     write, so none is ever on disk unrecorded), the tool configs, then
//     the records as they end. Each commit replaces only what was planned
//     from, and keeps what it replaced (see commit.go).
//  4. It fsyncs the folders (best effort: where a folder cannot be
//     fsynced, the renames are whole but their durability is the file
//     system's; see syncDirs), then checks that no tool wrote into a file
//     it replaced or deleted (a tool that saves in place into a file it
//     opened before the swap), and lets the replaced and deleted files go
//     (and the empty folders repo had created for a deleted one).
//
// If a commit fails — another program wrote a file (ErrChanged: plan
// again), a file cannot be replaced (immutable, no space) — every file
// already committed is put back and the folders it created are removed,
// so the run leaves the files as it found them; a file that another
// program changed since is left as it is, and one that cannot be put
// back (an I/O error) as repo wrote it, both reported in Written and
// named in the error.
func Apply(p *plan.Plan) (Applied, error) { return ApplyInterruptible(p, Interrupt{}) }

// ApplyInterruptible is Apply, which the host may stop (see Interrupt). A
// nil error means every file is written, whether or not Stop was closed
// meanwhile; ErrInterrupted means none is.
func ApplyInterruptible(p *plan.Plan, in Interrupt) (Applied, error) {
	return apply(p, in, fileio.OS{})
}

// apply is ApplyInterruptible through the file system fsys: fileio.OS,
// or in tests one that fails a chosen call (internal/fsfault).
func apply(p *plan.Plan, in Interrupt, fsys fileio.FS) (Applied, error) {
	if closed(in.Stop) {
		return Applied{}, fmt.Errorf("%w; nothing was written", ErrInterrupted)
	}
	r := newRun(p, in, fsys)
	all := make([]string, len(p.Files))
	for i, f := range p.Files {
		all[i] = f.Path
	}
	fileio.RemoveStale(fsys, all)
	if len(r.files) == 0 {
		return Applied{Warnings: writeState(fsys, p.State)}, nil
	}
	if err := r.prepare(); err != nil {
		return Applied{}, err
	}
	if err := r.commitAll(); err != nil {
		return r.fail(err)
	}
	if !closed(in.Abort) {
		syncDirs(fsys, r.files)
	}
	for _, c := range r.done {
		if c.writtenAside() {
			return r.fail(fmt.Errorf("%s: another program wrote into it while repo was replacing it: %w", c.f.Display, ErrChanged))
		}
	}
	for _, c := range r.done {
		c.finish()
		if c.kind == deleted {
			removeEmptyFolders(fsys, c.f.CreatedFolders())
		}
	}
	r.res.Written = r.stale
	r.res.Warnings = append(r.res.Warnings, writeState(fsys, p.State)...)
	return r.res, nil
}

// run is one Apply under way.
type run struct {
	fs fileio.FS
	in Interrupt
	// files are committed in order: records' intents, tool configs,
	// records. of[i] is the file of the plan that files[i] writes.
	files, of  []*plan.FilePlan
	intents    int              // files[:intents] are records' intents
	stale      []*plan.FilePlan // the plan's files that change
	finishFrom int              // from here on, a stop finishes the run (Interrupt.Stop)
	folders    []string         // the folders it created (makeFolders)
	staged     []*fileio.Staged // files[i]'s new version (stageAll)
	done       []*committed     // the files committed so far
	res        Applied
}

// newRun orders the files of p that change for their commit.
func newRun(p *plan.Plan, in Interrupt, fsys fileio.FS) *run {
	var intents, configs, records, intentOf, recordOf []*plan.FilePlan
	stale := p.Stale()
	for _, f := range stale {
		switch {
		case f.Scope != plan.ScopeRecord:
			configs = append(configs, f)
		case f.Intent != nil:
			intent, final := *f, *f
			// A record that goes (it owns nothing after the run) is
			// written with its intent first all the same, and deleted last.
			intent.After, intent.Delete = f.Intent, false
			intents, intentOf = append(intents, &intent), append(intentOf, f)
			if !bytes.Equal(f.Intent, f.After) {
				final.Existed, final.Before = true, f.Intent
				records, recordOf = append(records, &final), append(recordOf, f)
			}
		default:
			records, recordOf = append(records, f), append(recordOf, f)
		}
	}
	return &run{
		fs: fsys, in: in, stale: stale,
		files:      slices.Concat(intents, configs, records),
		of:         slices.Concat(intentOf, configs, recordOf),
		intents:    len(intents),
		finishFrom: max(len(intents)+len(configs), 1),
	}
}

// prepare creates the folders of the new files and stages every file. On
// an error (or a stop) nothing is left of either.
func (r *run) prepare() error {
	var err error
	r.folders, err = makeFolders(r.fs, r.files)
	if err != nil {
		err = fmt.Errorf("%w; nothing was written", err)
	} else {
		r.staged, err = stageAll(r.fs, r.files, r.in.Stop)
	}
	if err == nil && closed(r.in.Stop) {
		for _, s := range r.staged {
			s.Remove()
		}
		err = fmt.Errorf("%w; nothing was written", ErrInterrupted)
	}
	if err != nil {
		removeFolders(r.fs, r.folders)
	}
	return err
}

// commitAll commits the files one by one, each under its tools' locks,
// until one fails or the host stops the run.
func (r *run) commitAll() error {
	for i, f := range r.files {
		var stop <-chan struct{}
		if i < r.finishFrom {
			stop = r.in.Stop
		}
		if closed(stop) {
			return ErrInterrupted
		}
		release, err := takeToolLocks(r.fs, f, &r.res, stop)
		if err != nil {
			release()
			return ErrInterrupted
		}
		c, err := commitFile(r.fs, f, r.staged[i])
		release()
		if c != nil {
			r.done = append(r.done, c)
		}
		switch {
		case errors.Is(err, ErrChanged):
			return fmt.Errorf("%s: another program wrote it while repo was planning: %w", f.Display, ErrChanged)
		case err != nil:
			return fmt.Errorf("%s: cannot write: %w", f.Display, fileio.UnwrapPath(err))
		}
		if c.warning != "" {
			r.res.Warnings = append(r.res.Warnings, c.warning)
		}
	}
	return nil
}

// fail ends a run that cannot commit every file: it removes what is still
// staged, puts back every file committed, last first, and removes the
// folders it created. A file it cannot put back is reported (Written,
// and in the error, with why).
func (r *run) fail(err error) (Applied, error) {
	for _, s := range r.staged[len(r.done):] {
		s.Remove()
	}
	var kept []keptFile
	for i := len(r.done) - 1; i >= 0; i-- {
		c := r.done[i]
		release, err := takeToolLocks(r.fs, c.f, &r.res, r.in.Abort)
		if err != nil {
			r.res.Warnings = append(r.res.Warnings, fmt.Sprintf("%s: put back without its tool's lock: aborted while waiting for it", c.f.Display))
		}
		why := c.undo()
		release()
		switch {
		case why == nil:
			r.res.PutBack++
		case !slices.ContainsFunc(kept, func(k keptFile) bool { return k.f == r.of[i] }):
			kept = append(kept, keptFile{f: r.of[i], why: why, intent: i < r.intents})
		}
	}
	slices.Reverse(kept)
	if !closed(r.in.Abort) {
		syncDirs(r.fs, r.files)
	}
	removeFolders(r.fs, r.folders)
	for _, k := range kept {
		r.res.Written = append(r.res.Written, k.f)
	}
	return r.res, failure(err, len(r.done), kept)
}

// writeState writes repo's own files of a plan (Plan.State), once the
// rest is written: each staged and renamed into place, after the folders
// it needs. They are what repo remembers for later runs, which do without
// them (a run then knows less): a file that cannot be written is a
// warning, not a failed run.
func writeState(fsys fileio.FS, files []*plan.FilePlan) []string {
	var warnings []string
	for _, f := range files {
		if !f.Changed() {
			continue
		}
		if f.Delete {
			if err := fsys.Remove(f.Path); err != nil && !errors.Is(err, fs.ErrNotExist) {
				warnings = append(warnings, fmt.Sprintf("%s: not deleted (%v)", f.Display, fileio.UnwrapPath(err)))
			}
			continue
		}
		err := os.MkdirAll(filepath.Dir(f.Path), 0o755)
		if err == nil {
			var staged *fileio.Staged
			if staged, err = fileio.StageFile(fsys, f.Path, f.After, f.Mode); err == nil {
				switch {
				case staged.InPlace != nil:
					// repo's own file, with attributes a new file would
					// lose: written where it is.
					err = os.WriteFile(f.Path, f.After, f.Mode)
				default:
					if err = fsys.Rename(staged.Name, f.Path); err != nil {
						staged.Remove()
					} else {
						staged.Release()
					}
				}
			}
		}
		if err != nil {
			warnings = append(warnings, fmt.Sprintf("%s: not written (%v); repo keeps it to recognise this workspace later, and writes it on the next run", f.Display, fileio.UnwrapPath(err)))
		}
	}
	return warnings
}

// takeToolLocks takes the locks of the tools reading f (toollock.go) and
// returns the function that releases them. A lock that cannot be had in
// time is noted in res's warnings, and the file is written without it.
// When stop closes during a wait, it returns ErrInterrupted with what it
// took so far to release.
func takeToolLocks(fsys fileio.FS, f *plan.FilePlan, res *Applied, stop <-chan struct{}) (release func(), err error) {
	var releases []func()
	release = func() {
		for i := len(releases) - 1; i >= 0; i-- {
			releases[i]()
		}
	}
	for _, l := range f.ToolLocks() {
		r, err := l.Take(fsys, stop)
		releases = append(releases, r)
		switch {
		case errors.Is(err, fileio.ErrLockWaitStopped):
			return release, ErrInterrupted
		case err != nil:
			res.Warnings = append(res.Warnings, fmt.Sprintf("%s: written without its tool's lock: %v", f.Display, err))
		}
	}
	return release, nil
}

// keptFile is a file a failed run could not put back, and why: another
// program changed it since (errChangedSince), or putting it back failed.
// intent: it is a record, left holding its intent (FilePlan.Intent).
type keptFile struct {
	f      *plan.FilePlan
	why    error
	intent bool
}

// failure words an error that stopped a commit: what was done about the
// files committed before it.
func failure(err error, committed int, kept []keptFile) error {
	if len(kept) == 0 {
		if committed == 0 {
			return fmt.Errorf("%w; nothing was written", err)
		}
		return fmt.Errorf("%w; nothing was written (the %d file(s) already replaced were put back)", err, committed)
	}
	var changed, parts []string
	for _, k := range kept {
		if errors.Is(k.why, errChangedSince) {
			changed = append(changed, k.f.Display)
		} else {
			holds := "repo's new version"
			if k.intent {
				holds = "every entry repo had or was about to write (the next run reads it so)"
			}
			parts = append(parts, fmt.Sprintf("%s could not be put back (%v), so it holds %s", k.f.Display, k.why, holds))
		}
	}
	if len(changed) > 0 {
		parts = slices.Insert(parts, 0, fmt.Sprintf("another program changed %s since repo wrote it, so it holds repo's new version", strings.Join(changed, ", ")))
	}
	return fmt.Errorf("%w; repo put back what it could, but %s", err, strings.Join(parts, "; "))
}

// stageParallel bounds how many files are staged at once.
const stageParallel = 8

// stageAll stages every file (see fileio.StageFile), several at once; a file
// to delete has nothing to stage (nil). On an error nothing is left
// staged. When stop closes, the files not yet begun are not staged, and
// it returns ErrInterrupted.
func stageAll(fsys fileio.FS, files []*plan.FilePlan, stop <-chan struct{}) ([]*fileio.Staged, error) {
	staged := make([]*fileio.Staged, len(files))
	errs := make([]error, len(files))
	par.Each(len(files), stageParallel, func(i int) {
		switch {
		case closed(stop):
			errs[i] = ErrInterrupted
		case !files[i].Delete:
			staged[i], errs[i] = fileio.StageFile(fsys, files[i].Path, files[i].After, files[i].Mode)
		}
	})
	for i, f := range files {
		if errs[i] != nil {
			for j := range files {
				staged[j].Remove()
			}
			if errors.Is(errs[i], ErrInterrupted) {
				return nil, fmt.Errorf("%w; nothing was written", ErrInterrupted)
			}
			return nil, fmt.Errorf("%s: cannot write: %w; nothing was written", f.Display, fileio.UnwrapPath(errs[i]))
		}
	}
	return staged, nil
}

// syncDirs fsyncs each folder of the files once, all at once. A folder
// that cannot be fsynced leaves the renames in it to the file system's
// own timing: the files are whole either way, only maybe not yet durable.
func syncDirs(fsys fileio.FS, files []*plan.FilePlan) {
	seen := map[string]bool{}
	var dirs []string
	for _, f := range files {
		if dir := filepath.Dir(f.Path); !seen[dir] {
			seen[dir] = true
			dirs = append(dirs, dir)
		}
	}
	par.Each(len(dirs), len(dirs), func(i int) { _ = fileio.SyncDir(fsys, dirs[i]) })
}
