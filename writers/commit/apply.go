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

	"github.com/repo-manager/repo/internal/par"
	"github.com/repo-manager/repo/writers/internal/fileio"
	"github.com/repo-manager/repo/writers/plan"
)

// ErrChanged is returned by Apply when a file changed between planning and
// writing: another program wrote it. Plan again and apply the new plan.
var ErrChanged = errors.New("changed while repo was planning")

// Applied is what Apply did.
type Applied struct {
	// Written are the files that hold repo's new version: every changed
	// file of the plan, or, after a failure, those repo could not put
	// back (another program changed them since).
	Written []*plan.FilePlan
	// Warnings are files written in a way the user should know about.
	Warnings []string
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
// program changed since is left as it is and reported in Written.
func Apply(p *plan.Plan) (Applied, error) {
	// files are committed in order: records' intents, tool configs,
	// records. of[i] is the file of the plan that files[i] writes.
	var intents, configs, records, intentOf, recordOf []*plan.FilePlan
	for _, f := range p.Stale() {
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
	files := slices.Concat(intents, configs, records)
	of := slices.Concat(intentOf, configs, recordOf)
	all := make([]string, len(p.Files))
	for i, f := range p.Files {
		all[i] = f.Path
	}
	fileio.RemoveStale(all)
	if len(files) == 0 {
		return Applied{Warnings: writeState(p.State)}, nil
	}
	folders, err := makeFolders(files)
	if err != nil {
		removeFolders(folders)
		return Applied{}, err
	}
	staged, err := stageAll(files)
	if err != nil {
		removeFolders(folders)
		return Applied{}, err
	}
	var res Applied
	done := make([]*committed, 0, len(files))
	fail := func(err error) (Applied, error) {
		for _, name := range staged[len(done):] {
			if name != "" {
				os.Remove(name)
			}
		}
		var kept []*plan.FilePlan
		for i := len(done) - 1; i >= 0; i-- {
			release := takeToolLocks(done[i].f, &res)
			restored := done[i].undo()
			release()
			if !restored && !slices.Contains(kept, of[i]) {
				kept = append(kept, of[i])
			}
		}
		slices.Reverse(kept)
		syncDirs(files)
		removeFolders(folders)
		res.Written = kept
		return res, failure(err, len(done), kept)
	}
	for i, f := range files {
		release := takeToolLocks(f, &res)
		c, err := commitFile(f, staged[i])
		release()
		switch {
		case errors.Is(err, ErrChanged):
			return fail(fmt.Errorf("%s: another program wrote it while repo was planning: %w", f.Display, ErrChanged))
		case err != nil:
			return fail(fmt.Errorf("%s: cannot write: %w", f.Display, fileio.UnwrapPath(err)))
		}
		done = append(done, c)
		if c.warning != "" {
			res.Warnings = append(res.Warnings, c.warning)
		}
		if testHookCommitted != nil {
			testHookCommitted(len(done))
		}
	}
	syncDirs(files)
	for _, c := range done {
		if c.writtenAside() {
			return fail(fmt.Errorf("%s: another program wrote into it while repo was replacing it: %w", c.f.Display, ErrChanged))
		}
	}
	for _, c := range done {
		c.finish()
		if c.kind == deleted {
			removeEmptyFolders(c.f.CreatedFolders())
		}
	}
	res.Written = p.Stale()
	res.Warnings = append(res.Warnings, writeState(p.State)...)
	return res, nil
}

// writeState writes repo's own files of a plan (Plan.State), once the
// rest is written: each staged and renamed into place, after the folders
// it needs. They are what repo remembers for later runs, which do without
// them (a run then knows less): a file that cannot be written is a
// warning, not a failed run.
func writeState(files []*plan.FilePlan) []string {
	var warnings []string
	for _, f := range files {
		if !f.Changed() {
			continue
		}
		if f.Delete {
			if err := os.Remove(f.Path); err != nil && !errors.Is(err, fs.ErrNotExist) {
				warnings = append(warnings, fmt.Sprintf("%s: not deleted (%v)", f.Display, fileio.UnwrapPath(err)))
			}
			continue
		}
		err := os.MkdirAll(filepath.Dir(f.Path), 0o755)
		if err == nil {
			var staged string
			if staged, err = fileio.StageFile(f.Path, f.After, f.Mode); err == nil {
				if err = os.Rename(staged, f.Path); err != nil {
					os.Remove(staged)
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
func takeToolLocks(f *plan.FilePlan, res *Applied) (release func()) {
	var releases []func()
	for _, l := range f.ToolLocks() {
		r, err := l.Take()
		releases = append(releases, r)
		if err != nil {
			res.Warnings = append(res.Warnings, fmt.Sprintf("%s: written without its tool's lock: %v", f.Display, err))
		}
	}
	return func() {
		for i := len(releases) - 1; i >= 0; i-- {
			releases[i]()
		}
	}
}

// testHookCommitted, when set by a test, is called after each commit with
// the number of files committed: it plays a crash (runtime.Goexit) or a
// tool writing at that moment.
var testHookCommitted func(committed int)

// failure words an error that stopped a commit: what was done about the
// files committed before it.
func failure(err error, committed int, kept []*plan.FilePlan) error {
	if len(kept) == 0 {
		if committed == 0 {
			return fmt.Errorf("%w; nothing was written", err)
		}
		return fmt.Errorf("%w; nothing was written (the %d file(s) already replaced were put back)", err, committed)
	}
	names := make([]string, len(kept))
	for i, f := range kept {
		names[i] = f.Display
	}
	return fmt.Errorf("%w; repo put back what it could, but another program changed %s since repo wrote it, so it holds repo's new version", err, strings.Join(names, ", "))
}

// stageParallel bounds how many files are staged at once.
const stageParallel = 8

// stageAll stages every file (see fileio.StageFile), several at once; a file
// to delete has nothing to stage (""). On an error nothing is left staged.
func stageAll(files []*plan.FilePlan) ([]string, error) {
	staged := make([]string, len(files))
	errs := make([]error, len(files))
	par.Each(len(files), stageParallel, func(i int) {
		if !files[i].Delete {
			staged[i], errs[i] = fileio.StageFile(files[i].Path, files[i].After, files[i].Mode)
		}
	})
	for i, f := range files {
		if errs[i] != nil {
			for j := range files {
				if errs[j] == nil && staged[j] != "" {
					os.Remove(staged[j])
				}
			}
			return nil, fmt.Errorf("%s: cannot write: %w; nothing was written", f.Display, fileio.UnwrapPath(errs[i]))
		}
	}
	return staged, nil
}

// syncDirs fsyncs each folder of the files once, all at once. A folder
// that cannot be fsynced leaves the renames in it to the file system's
// own timing: the files are whole either way, only maybe not yet durable.
func syncDirs(files []*plan.FilePlan) {
	seen := map[string]bool{}
	var dirs []string
	for _, f := range files {
		if dir := filepath.Dir(f.Path); !seen[dir] {
			seen[dir] = true
			dirs = append(dirs, dir)
		}
	}
	par.Each(len(dirs), len(dirs), func(i int) { _ = fileio.SyncDir(dirs[i]) })
}
