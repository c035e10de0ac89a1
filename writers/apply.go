package writers

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/repo-manager/repo/internal/par"
)

// ErrChanged is returned by Apply when a file changed between planning and
// writing: another program wrote it. Plan again and apply the new plan.
var ErrChanged = errors.New("changed while repo was planning")

// Apply writes every changed file of the plan in three steps. First every
// new version is written next to its file, fsynced and read back, several
// at once: the fsyncs share the file system's journal commits, which one
// after the other were most of a small sync's writing time, and a failure
// here writes nothing at all. Then the tool configs are replaced one by
// one, each only if it still holds what was planned from (a tool may have
// rewritten it meanwhile: then nothing more is written, the files already
// replaced stay, each whole, and the error says to run again), and their
// folders are fsynced. Last the ownership records are replaced the same
// way, so a record never claims an entry that is not on disk.
func Apply(p *Plan) (written []*FilePlan, err error) {
	var configs, records []*FilePlan
	for _, f := range p.Stale() {
		if f.Scope == "record" {
			records = append(records, f)
		} else {
			configs = append(configs, f)
		}
	}
	files := append(configs, records...)
	staged, err := stageAll(files)
	if err != nil {
		return nil, err
	}
	next := 0 // files[next:] are not committed
	defer func() {
		for i := next; i < len(files); i++ {
			discardStaged(staged[i])
		}
	}()
	commit := func(from, to int) error {
		defer func() { syncDirs(files[from:next]) }()
		for i := from; i < to; i++ {
			f := files[i]
			next = i + 1
			err := commitFile(staged[i], f.Path, f.After, f.Before, f.Mode, f.Existed)
			switch {
			case errors.Is(err, ErrChanged):
				return fmt.Errorf("%s: another program wrote it while repo was planning: %w", f.Display, ErrChanged)
			case err != nil:
				return fmt.Errorf("%s: cannot write: %w", f.Display, unwrapPath(err))
			}
			written = append(written, f)
		}
		return nil
	}
	if err := commit(0, len(configs)); err != nil {
		return written, err
	}
	return written, commit(len(configs), len(files))
}

// stageParallel bounds how many files are staged at once.
const stageParallel = 8

// stageAll stages every file (see stageFile), several at once. On an
// error nothing is left staged.
func stageAll(files []*FilePlan) ([]string, error) {
	for _, f := range files {
		if !f.Existed {
			if err := os.MkdirAll(filepath.Dir(f.Path), 0o755); err != nil {
				return nil, fmt.Errorf("%s: cannot create its folder: %w", f.Display, unwrapPath(err))
			}
		}
	}
	staged := make([]string, len(files))
	errs := make([]error, len(files))
	par.Each(len(files), stageParallel, func(i int) {
		staged[i], errs[i] = stageFile(files[i].Path, files[i].After, files[i].Mode)
	})
	for i, f := range files {
		if errs[i] != nil {
			for j := range files {
				if errs[j] == nil {
					discardStaged(staged[j])
				}
			}
			return nil, fmt.Errorf("%s: cannot write: %w", f.Display, unwrapPath(errs[i]))
		}
	}
	return staged, nil
}

// syncDirs fsyncs each folder of the files once, all at once.
func syncDirs(files []*FilePlan) {
	seen := map[string]bool{}
	done := make(chan struct{})
	for _, f := range files {
		if dir := filepath.Dir(f.Path); !seen[dir] {
			seen[dir] = true
			go func() {
				_ = syncDir(dir)
				done <- struct{}{}
			}()
		}
	}
	for range seen {
		<-done
	}
}

// Diff renders a git-style unified diff of one planned file, with
// slash-separated a/ and b/ labels so golden files match on every OS.
// It is empty when the file does not change.
func Diff(f *FilePlan) string {
	if !f.Changed() {
		return ""
	}
	label := f.Display
	if strings.HasPrefix(label, "/") {
		label = label[1:]
	}
	oldLabel, newLabel := "a/"+label, "b/"+label
	var head strings.Builder
	fmt.Fprintf(&head, "diff --git %s %s\n", oldLabel, newLabel)
	if !f.Existed {
		fmt.Fprintf(&head, "new file mode 100%o\n", f.Mode.Perm())
		oldLabel = "/dev/null"
	}
	return head.String() + unifiedDiff(oldLabel, newLabel, f.Before, f.After)
}
