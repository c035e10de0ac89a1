package plan

import (
	"fmt"
	"strings"

	"github.com/repo-manager/repo/internal/fileio"
	"github.com/repo-manager/repo/internal/termtext"
)

// Diff renders a git-style unified diff of one planned file, with
// slash-separated a/ and b/ labels so golden files match on every OS.
// It is empty when the file does not change. In a tool's file, every
// value outside repo's entries that looks like a credential is Redacted,
// and a line holding the whole file (or a very long one) is shown by what
// changed in it (redact.go); RawDiff shows them as they are.
func Diff(f *FilePlan) string { return diff(f, false) }

// RawDiff is Diff with nothing redacted or shortened (--show-secrets).
func RawDiff(f *FilePlan) string { return diff(f, true) }

// DiffText is f's diff as a report carries it: Diff, or
// RawDiff when showSecrets. A diff shows files the workspace may have
// written (a committed config, a comment in it): what is not printable
// is escaped, in the text and the JSON alike (the action prints the
// JSON's).
func DiffText(f *FilePlan, showSecrets bool) string {
	return termtext.Lines(diff(f, showSecrets))
}

func diff(f *FilePlan, raw bool) string {
	if !f.Changed() {
		return ""
	}
	label := strings.TrimPrefix(f.Display, "/")
	oldLabel, newLabel := "a/"+label, "b/"+label
	var head strings.Builder
	fmt.Fprintf(&head, "diff --git %s %s\n", oldLabel, newLabel)
	after := f.After
	switch {
	case f.Delete:
		fmt.Fprintf(&head, "deleted file mode 100%o\n", f.Mode.Perm())
		newLabel, after = "/dev/null", nil
	case !f.Existed:
		fmt.Fprintf(&head, "new file mode 100%o\n", f.Mode.Perm()&^fileio.Umask())
		oldLabel = "/dev/null"
	}
	if raw || f.Format == "" {
		return head.String() + unifiedDiff(oldLabel, newLabel, f.Before, after)
	}
	return head.String() + redactedDiff(oldLabel, newLabel, f, f.Before, after)
}
