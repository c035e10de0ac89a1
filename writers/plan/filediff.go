package plan

import (
	"fmt"
	"strings"

	"github.com/repo-manager/repo/writers/internal/fileio"
)

// Diff renders a git-style unified diff of one planned file, with
// slash-separated a/ and b/ labels so golden files match on every OS.
// It is empty when the file does not change.
func Diff(f *FilePlan) string {
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
	return head.String() + unifiedDiff(oldLabel, newLabel, f.Before, after)
}
