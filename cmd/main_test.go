package cmd

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/repo-manager/repo/internal/termtext"
)

var digestPattern = regexp.MustCompile(`sha256:[0-9a-f]{32}`)

var escapePattern = regexp.MustCompile(`\\x[0-9a-fA-F]{2}|\\u[0-9a-fA-F]{4}`)

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
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			// schema NAME FILE validates FILE (or stdout) against the
			// documented output schema docs/schema/NAME.json.
			"schema": func(ts *testscript.TestScript, neg bool, args []string) {
				if len(args) != 2 {
					ts.Fatalf("usage: schema NAME FILE")
				}
				err := validateSchema(args[0], ts.ReadFile(args[1]))
				if neg && err == nil {
					ts.Fatalf("%s is valid against %s", args[1], args[0])
				}
				if !neg && err != nil {
					ts.Fatalf("%s against docs/schema/%s.json: %v", args[1], args[0], err)
				}
			},
			// unwork FILE OUT copies FILE (or stdout, stderr) to OUT with the
			// work folder spelled $WORK and entry digests (which hash those
			// paths) masked, so goldens hold nothing run-specific and plain
			// cmp (which -update can rewrite) compares them.
			"unwork": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) != 2 {
					ts.Fatalf("usage: unwork FILE OUT")
				}
				text := ts.ReadFile(args[0])
				// repo shows the real path of a workspace: on macOS the
				// work folder is under /var, a link to /private/var.
				if real, err := filepath.EvalSymlinks(ts.Getenv("WORK")); err == nil && real != ts.Getenv("WORK") {
					text = strings.ReplaceAll(text, real, "$WORK")
				}
				text = strings.ReplaceAll(text, ts.Getenv("WORK"), "$WORK")
				text = digestPattern.ReplaceAllString(text, "sha256:<digest>")
				out := ts.MkAbs(args[1])
				ts.Check(os.MkdirAll(filepath.Dir(out), 0o755))
				ts.Check(os.WriteFile(out, []byte(text), 0o644))
			},
			// printable [-noguard] FILE fails when FILE (or stdout, stderr)
			// holds a character that is not printable, but "\n", "\r\n" and
			// "\t": nothing a workspace chose reaches a terminal as control.
			// -noguard also fails on the escape that only run's last guard
			// writes for a carriage return (\u000d; Safe, Lines and every
			// config format write \r), so a message that relied on the guard
			// is found: give the hostile values a carriage return.
			"printable": func(ts *testscript.TestScript, neg bool, args []string) {
				noguard := len(args) == 2 && args[0] == "-noguard"
				if noguard {
					args = args[1:]
				}
				if neg || len(args) != 1 {
					ts.Fatalf("usage: printable [-noguard] FILE")
				}
				text := ts.ReadFile(args[0])
				for i, line := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
					if !termtext.Printable(strings.ReplaceAll(line, "\t", " ")) {
						ts.Fatalf("%s: line %d is not printable: %q", args[0], i+1, line)
					}
					if noguard && strings.Contains(line, `\u000d`) {
						ts.Fatalf("%s: line %d was escaped by the last guard, not where it is printed: %q", args[0], i+1, line)
					}
				}
			},
			// envq NAME VALUE sets NAME to VALUE, a Go string literal
			// ("a\x1bb"), for names a script cannot spell (control
			// characters, bytes that are not UTF-8): mv x $NAME, cd $NAME.
			"envq": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) != 2 {
					ts.Fatalf("usage: envq NAME \"VALUE\"")
				}
				v, err := strconv.Unquote(args[1])
				ts.Check(err)
				ts.Setenv(args[0], v)
			},
			// unescape FILE replaces each \xHH and \uHHHH in FILE by the byte
			// or character, for file content a script cannot spell (a
			// comment holding an escape sequence) without raw control
			// bytes in the script.
			"unescape": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) != 1 {
					ts.Fatalf("usage: unescape FILE")
				}
				text := escapePattern.ReplaceAllStringFunc(ts.ReadFile(args[0]), func(m string) string {
					n, _ := strconv.ParseUint(m[2:], 16, 32)
					if m[1] == 'x' {
						return string([]byte{byte(n)})
					}
					return string(rune(n))
				})
				ts.Check(os.WriteFile(ts.MkAbs(args[0]), []byte(text), 0o644))
			},
		},
		Condition: func(cond string) (bool, error) {
			switch cond {
			case "root": // root reads files whatever their mode
				return os.Geteuid() == 0, nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
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
			// REPOBIN is the folder of the commands above, so a script can
			// set a PATH that holds nothing of this machine's (no AI tool
			// that would count as installed): env PATH=$REPOBIN${:}$WORK/bin
			repo, err := exec.LookPath("repo")
			if err != nil {
				return err
			}
			e.Setenv("REPOBIN", filepath.Dir(repo))
			return nil
		},
	})
}

// validateSchema checks a JSON document against docs/schema/<name>.json.
func validateSchema(name, doc string) error {
	c := jsonschema.NewCompiler()
	sch, err := c.Compile(filepath.Join("..", "docs", "schema", name+".json"))
	if err != nil {
		return err
	}
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(doc))
	if err != nil {
		return err
	}
	return sch.Validate(v)
}
