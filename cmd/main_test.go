package cmd

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

var update = flag.Bool("update", false, "rewrite the golden sections of failing scripts")

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"repo": func() { os.Exit(Main(os.Args[1:])) },
		// expect CODE repo ARGS... runs repo and fails unless it exits with
		// CODE, so scripts can tell drift (1) from an error (2).
		"expect": func() {
			if len(os.Args) < 3 || os.Args[2] != "repo" {
				fmt.Fprintln(os.Stderr, "usage: expect CODE repo ARGS...")
				os.Exit(2)
			}
			want, err := strconv.Atoi(os.Args[1])
			if err != nil {
				fmt.Fprintln(os.Stderr, "expect: bad exit code", os.Args[1])
				os.Exit(2)
			}
			if got := Main(os.Args[3:]); got != want {
				fmt.Fprintf(os.Stderr, "expect: repo exited %d, want %d\n", got, want)
				os.Exit(1)
			}
			os.Exit(0)
		},
	})
}

// TestScript runs cmd/testdata/scripts/*.txtar: the real binary on real
// files, checked with golden diffs and exit codes.
func TestScript(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 filepath.Join("testdata", "scripts"),
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		UpdateScripts:       *update,
		Setup: func(e *testscript.Env) error {
			home := filepath.Join(e.WorkDir, "home")
			if err := os.MkdirAll(home, 0o755); err != nil {
				return err
			}
			e.Setenv("HOME", home)
			e.Setenv("USERPROFILE", home)
			e.Setenv("XDG_STATE_HOME", "")
			e.Setenv("XDG_CONFIG_HOME", "")
			e.Setenv("NO_COLOR", "1")
			return nil
		},
	})
}
