package writers

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// ErrChanged is returned by Apply when a file changed between planning and
// writing: another program wrote it. Plan again and apply the new plan.
var ErrChanged = errors.New("changed while repo was planning")

// Apply writes every changed file of the plan: tool configs first, then the
// ownership records, so a record never claims an entry that is not on disk.
// Each batch is written as applyBatch says: all new versions are made
// ready (written, fsynced, read back) before any file is replaced, and a
// file is replaced only if it still holds what was planned from; if one
// changed since (a tool rewrote it meanwhile) nothing more is written and
// the error says to run again.
func Apply(p *Plan) (written []*FilePlan, err error) {
	var configs, records []*FilePlan
	for _, f := range p.Stale() {
		if f.Scope == "record" {
			records = append(records, f)
		} else {
			configs = append(configs, f)
		}
	}
	for _, batch := range [][]*FilePlan{configs, records} {
		done, err := applyBatch(batch)
		written = append(written, done...)
		if err != nil {
			return written, err
		}
	}
	return written, nil
}

// stageParallel bounds how many files are staged at once.
const stageParallel = 8

// applyBatch writes files in three steps. First every new version is
// written next to its file, fsynced and read back, several at once: the
// fsyncs share the file system's journal commits, which one after the
// other were most of a small sync's writing time, and a failure here
// writes nothing at all. Then the files are replaced one by one, each only
// if it still holds what was planned from; a failure stops there, and the
// files already replaced stay (each is whole). Last, each folder written
// into is fsynced once, so the renames are durable before the next batch
// (the records) is written.
func applyBatch(files []*FilePlan) (written []*FilePlan, err error) {
	for _, f := range files {
		if !f.Existed {
			if err := os.MkdirAll(filepath.Dir(f.Path), 0o755); err != nil {
				return nil, fmt.Errorf("%s: cannot create its folder: %w", f.Display, unwrapPath(err))
			}
		}
	}
	staged := make([]string, len(files))
	errs := make([]error, len(files))
	slots := make(chan struct{}, stageParallel)
	done := make(chan struct{})
	for i, f := range files {
		go func() {
			slots <- struct{}{}
			staged[i], errs[i] = stageFile(f.Path, f.After, f.Mode)
			<-slots
			done <- struct{}{}
		}()
	}
	for range files {
		<-done
	}
	next := 0 // files[next:] are not committed
	defer func() {
		for i := next; i < len(files); i++ {
			if errs[i] == nil {
				discardStaged(staged[i])
			}
		}
	}()
	for i, f := range files {
		if errs[i] != nil {
			return nil, fmt.Errorf("%s: cannot write: %w", f.Display, unwrapPath(errs[i]))
		}
	}
	defer syncDirs(&written)
	for i, f := range files {
		next = i + 1
		err := commitFile(staged[i], f.Path, f.After, f.Before, f.Mode, f.Existed)
		switch {
		case errors.Is(err, ErrChanged):
			return written, fmt.Errorf("%s: another program wrote it while repo was planning: %w", f.Display, ErrChanged)
		case err != nil:
			return written, fmt.Errorf("%s: cannot write: %w", f.Display, unwrapPath(err))
		}
		written = append(written, f)
	}
	return written, nil
}

// syncDirs fsyncs each folder of the written files once.
func syncDirs(written *[]*FilePlan) {
	seen := map[string]bool{}
	for _, f := range *written {
		if dir := filepath.Dir(f.Path); !seen[dir] {
			seen[dir] = true
			_ = syncDir(dir)
		}
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
