package cmd

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// terminalInput is what a user types at a terminal: a reader that is
// also a writer, as os.Stdin is, so that Factory.IsTerminal can call it a
// terminal.
type terminalInput struct{ io.Reader }

func (terminalInput) Write(p []byte) (int, error) { return len(p), nil }

func trustWorkspace(t *testing.T) (root string, env map[string]string) {
	t.Helper()
	dir := t.TempDir()
	root = filepath.Join(dir, "ws")
	ext := filepath.Join(root, ".repository", "extensions", "ext")
	if err := os.MkdirAll(ext, 0o755); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"extension.toml": "name = \"ext\"\n[provides]\nmcp = \"mcp.json\"\n",
		"mcp.json":       `{"mcpServers": {"one": {"command": "sh", "args": ["-c", "id"]}, "two": {"type": "http", "url": "https://two.example/mcp"}}}`,
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(ext, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	home := filepath.Join(dir, "home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	return root, map[string]string{"HOME": home, "NO_COLOR": "1"}
}

// TestTrustAsksOnATerminal: on a terminal repo trust asks for each server
// and trusts only those the user says yes to; the rest stay untrusted
// (exit 3).
func TestTrustAsksOnATerminal(t *testing.T) {
	root, env := trustWorkspace(t)
	var out, errOut bytes.Buffer
	f := factoryAt(root, env)
	f.IO = IOStreams{In: terminalInput{strings.NewReader("y\nno\n")}, Out: &out, ErrOut: &errOut}
	f.IsTerminal = func(io.Writer) bool { return true }
	if code := run(f, []string{"trust"}); code != ExitUntrusted {
		t.Fatalf("exit %d, want %d\n%s", code, ExitUntrusted, errOut.String())
	}
	for _, want := range []string{"trust one? [y/N] ", "trust two? [y/N] ", "trusted one\n", "1 server not trusted\n"} {
		if !strings.Contains(errOut.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut.String())
		}
	}
	if !strings.Contains(out.String(), "    url https://two.example/mcp\n") {
		t.Errorf("the definition is not shown:\n%s", out.String())
	}
	out.Reset()
	errOut.Reset()
	f.IO.In = strings.NewReader("")
	if code := run(f, []string{"trust", "--list"}); code != ExitOK {
		t.Fatalf("--list: exit %d\n%s", code, errOut.String())
	}
	for _, want := range []string{"trusted       one (extension ext): sh -c id\n", "not trusted   two (extension ext): https://two.example/mcp\n"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("--list lacks %q:\n%s", want, out.String())
		}
	}
}

// TestTrustNeverAsksWithoutATerminal: input that is not a terminal (a
// pipe, CI), or an error stream that is not, gets no question, even when
// it holds a "y".
func TestTrustNeverAsksWithoutATerminal(t *testing.T) {
	for name, term := range map[string]func(io.Writer) bool{
		"no terminal":        func(io.Writer) bool { return false },
		"stderr redirected":  func(w io.Writer) bool { _, in := w.(terminalInput); return in },
		"stdin from a pipe":  nil, // a strings.Reader is no terminal
		"json, on terminals": func(io.Writer) bool { return true },
	} {
		t.Run(name, func(t *testing.T) {
			root, env := trustWorkspace(t)
			var out, errOut bytes.Buffer
			f := factoryAt(root, env)
			f.IO = IOStreams{In: terminalInput{strings.NewReader("y\ny\n")}, Out: &out, ErrOut: &errOut}
			f.IsTerminal = term
			args := []string{"trust"}
			switch name {
			case "stdin from a pipe":
				f.IO.In = strings.NewReader("y\ny\n")
				f.IsTerminal = func(io.Writer) bool { return true }
			case "json, on terminals":
				args = append(args, "--output", "json")
			}
			if code := run(f, args); code != ExitUntrusted {
				t.Fatalf("exit %d, want %d\n%s", code, ExitUntrusted, errOut.String())
			}
			if strings.Contains(errOut.String(), "[y/N]") || strings.Contains(errOut.String(), "trusted one") {
				t.Fatalf("asked or trusted:\n%s", errOut.String())
			}
		})
	}
}
