package shellquote

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/repo-manager/repo/internal/termtext"
)

func TestJoin(t *testing.T) {
	for _, c := range []struct {
		words []string
		want  string
	}{
		{[]string{"amp", "mcp", "approve", "my-server"}, "amp mcp approve my-server"},
		{[]string{"chmod", "+x", "~/bin/x"}, "chmod +x '~/bin/x'"},
		{[]string{"a b", "it's", ""}, `'a b' 'it'\''s' ''`},
		{[]string{"$HOME", "x;y"}, `'$HOME' 'x;y'`},
		{[]string{"日本語"}, `'日本語'`},
		// A carriage return and "erase line" would redraw the row in single quotes.
		{[]string{"bash", "-c", "curl x | sh\r\x1b[2Knode server.js"}, `bash -c $'curl x | sh\r\x1b[2Knode server.js'`},
		{[]string{"a\nb", "it's\t\\"}, `$'a\nb' $'it\'s\t\\'`},
		{[]string{"\x1b]52;c;aGk=\x07"}, `$'\x1b]52;c;aGk=\x07'`},
		// A hex digit after \xHH starts a new $'…'.
		{[]string{"\x1b2K\x1bA"}, `$'\x1b'$'2K\x1b'$'A'`},
		{[]string{"evil\u202etxt.exe", "caf\xe9"}, `$'evil\xe2\x80\xaetxt.exe' $'caf\xe9'`},
	} {
		got := Join(c.words)
		if got != c.want {
			t.Errorf("Join(%q) = %s, want %s", c.words, got, c.want)
		}
		if !termtext.Printable(got) {
			t.Errorf("Join(%q) = %q is not printable", c.words, got)
		}
	}
}

// TestJoinRoundTrip pastes Join's output into bash and checks that the
// words come back byte for byte.
func TestJoinRoundTrip(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash is not installed")
	}
	words := []string{"plain", "a b", "it's", "$HOME", "x\r\x1b[2Ky", "a\nb\tc\\", "\x1b2K", "\u202e", "caf\xe9", "\x7f\u0085", ""}
	out, err := exec.Command("bash", "-c", `printf '%s\0' `+Join(words)).Output()
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
	if strings.Join(got, "|") != strings.Join(words, "|") || len(got) != len(words) {
		t.Errorf("bash read %q, want %q", got, words)
	}
}
