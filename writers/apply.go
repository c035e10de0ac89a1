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
// Before each write the file is read again; if it changed since it was
// planned (a tool rewrote it meanwhile) nothing more is written and the
// error says to run again. Each write is atomic, and is read back.
func Apply(p *Plan) (written []*FilePlan, err error) {
	var configs, records []*FilePlan
	for _, f := range p.Stale() {
		if f.Scope == "record" {
			records = append(records, f)
		} else {
			configs = append(configs, f)
		}
	}
	for _, f := range append(configs, records...) {
		if err := applyFile(f); err != nil {
			return written, err
		}
		written = append(written, f)
	}
	return written, nil
}

func applyFile(f *FilePlan) error {
	if !f.Existed {
		if err := os.MkdirAll(filepath.Dir(f.Path), 0o755); err != nil {
			return fmt.Errorf("%s: cannot create its folder: %w", f.Display, unwrapPath(err))
		}
	}
	err := writeAtomic(f.Path, f.After, f.Mode, f.Before, f.Existed)
	switch {
	case errors.Is(err, ErrChanged):
		return fmt.Errorf("%s: another program wrote it while repo was planning: %w", f.Display, ErrChanged)
	case err != nil:
		return fmt.Errorf("%s: cannot write: %w", f.Display, unwrapPath(err))
	}
	return nil
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
