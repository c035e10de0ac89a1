package cmd

import (
	"bytes"
	"errors"
	"io/fs"
	"testing"
)

// Flags cobra refuses together (MarkFlagsMutuallyExclusive) are usage
// errors in repo's words, whatever else the command line holds.
func TestExclusiveFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"sync", "-q", "-v"}, "repo: --quiet and --verbose exclude each other\nrun 'repo sync --help' for usage\n"},
		{[]string{"doctor", "--verbose", "--quiet"}, "repo: --quiet and --verbose exclude each other\nrun 'repo doctor --help' for usage\n"},
		{[]string{"forget", "--tool", "cursor", "--all"}, "repo: --tool and --all exclude each other\nrun 'repo forget --help' for usage\n"},
	} {
		var out, errOut bytes.Buffer
		f := &Factory{IO: IOStreams{Out: &out, ErrOut: &errOut}, Getenv: func(string) string { return "" }}
		if code := run(f, c.args); code != ExitError || errOut.String() != c.want || out.Len() != 0 {
			t.Errorf("%v: exit %d, stderr %q, stdout %q; want 2, %q", c.args, code, errOut.String(), out.String(), c.want)
		}
	}
}

func TestUsageErrorUnwraps(t *testing.T) {
	err := usageError{fs.ErrNotExist}
	if !errors.Is(err, fs.ErrNotExist) {
		t.Fatal("errors.Is does not see through usageError")
	}
}
