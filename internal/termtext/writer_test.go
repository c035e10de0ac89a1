package termtext

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestLines(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", ""},
		{"a\nb\n", "a\nb\n"},
		{"\tx\r\n", "\tx\r\n"},
		{"+  \"args\": [\"x\"]\n", "+  \"args\": [\"x\"]\n"},
		{"サーバー\n", "サーバー\n"},
		// A lone CR redraws the line; ESC starts a sequence; OSC 52 sets the clipboard.
		{"+bash\r\x1b[2Knode\n", `+bash\r\x1b[2Knode` + "\n"},
		{"a\x1b]52;c;aGk=\x07\n", `a\x1b]52;c;aGk=\a` + "\n"},
		{"end\r", `end\r`},
		{"a\u009bb \u202e \u2028 \x7f\n", `a\u009bb \u202e \u2028 \x7f` + "\n"},
		{"caf\xe9\n", `caf\xe9` + "\n"},
		{"\U000e0001", `\U000e0001`},
	} {
		got := Lines(c.in)
		if got != c.want {
			t.Errorf("Lines(%q) = %q, want %q", c.in, got, c.want)
		}
		for _, line := range strings.Split(strings.ReplaceAll(got, "\r\n", "\n"), "\n") {
			if !Printable(strings.ReplaceAll(line, "\t", " ")) {
				t.Errorf("Lines(%q) has an unprintable line %q", c.in, line)
			}
		}
	}
}

// guard writes the pieces through a Writer and returns what came out.
func guard(sgr bool, pieces ...string) string {
	var b bytes.Buffer
	w := NewWriter(&b, func() bool { return sgr })
	for _, p := range pieces {
		if n, err := w.Write([]byte(p)); err != nil || n != len(p) {
			panic("short write")
		}
	}
	if err := w.Flush(); err != nil {
		panic(err)
	}
	return b.String()
}

func TestWriter(t *testing.T) {
	for _, c := range []struct {
		name   string
		sgr    bool
		pieces []string
		want   string
	}{
		{"plain", false, []string{"a b\n", "\tc\r\n"}, "a b\n\tc\r\n"},
		{"unicode", false, []string{"日本語 🙂\n"}, "日本語 🙂\n"},
		{"redraw", false, []string{"bash\r\x1b[2Knode\n"}, `bash\u000d\u001b[2Knode` + "\n"},
		{"osc", false, []string{"\x1b]0;title\x07"}, `\u001b]0;title\u0007`},
		{"c1 and bidi", false, []string{"\u009b2K \u202e \u2028"}, `\u009b2K \u202e \u2028`},
		{"astral", false, []string{"\U000e0001"}, `\udb40\udc01`},
		{"not utf-8", false, []string{"caf\xe9!"}, `caf\xe9!`},
		{"del", false, []string{"\x7f"}, `\u007f`},
		// Colour passes only when on, and only SGR.
		{"colour on", true, []string{"\x1b[33mwarning:\x1b[m x\n"}, "\x1b[33mwarning:\x1b[m x\n"},
		{"colour off", false, []string{"\x1b[33mw\x1b[m"}, `\u001b[33mw\u001b[m`},
		{"not sgr with colour on", true, []string{"\x1b[2K\x1b]52;c;x\x07"}, `\u001b[2K\u001b]52;c;x\u0007`},
		// Split across writes: a CRLF, a rune, a colour sequence.
		{"split crlf", false, []string{"a\r", "\nb"}, "a\r\nb"},
		{"split cr", false, []string{"a\r", "b"}, `a\u000db`},
		{"split rune", false, []string{"\xe6\x97", "\xa5x"}, "日x"},
		{"split sgr", true, []string{"\x1b[3", "3mx"}, "\x1b[33mx"},
		{"cr at the end", false, []string{"a\r"}, `a\u000d`},
		{"esc at the end", true, []string{"a\x1b["}, `a\u001b[`},
		{"rune cut at the end", false, []string{"a\xe6\x97"}, `a\xe6\x97`},
	} {
		if got := guard(c.sgr, c.pieces...); got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}

// TestWriterKeepsJSONValid: a document encoding/json wrote, with DEL, C1
// controls and format characters as they are, is still valid and means the
// same after the guard.
func TestWriterKeepsJSONValid(t *testing.T) {
	in := map[string]string{"a\u202e": "x\x7f\u009b\u2028\U000e0001\x1b"}
	doc, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	out := guard(false, string(doc))
	var back map[string]string
	if err := json.Unmarshal([]byte(out), &back); err != nil {
		t.Fatalf("%s: %v", out, err)
	}
	if back["a\u202e"] != in["a\u202e"] {
		t.Errorf("got %q, want %q", back, in)
	}
	if !Printable(out) {
		t.Errorf("%q is not printable", out)
	}
}

func FuzzWriter(f *testing.F) {
	for _, s := range []string{"a\r\nb", "\x1b[33mx\x1b[m", "\xe6\x97\xa5", "\r", "\u202e"} {
		f.Add(s, 3, true)
	}
	f.Fuzz(func(t *testing.T, s string, cut int, sgr bool) {
		if cut < 0 || cut > len(s) {
			cut = len(s) / 2
		}
		out := guard(sgr, s[:cut], s[cut:])
		if !sgr {
			whole := guard(false, s)
			if out != whole {
				t.Fatalf("split at %d: %q, whole: %q", cut, out, whole)
			}
		}
		// Without colour sequences, what comes out is printable lines.
		text := out
		if sgr {
			text = sgrPattern(text)
		}
		if !utf8.ValidString(text) {
			t.Fatalf("%q: output not UTF-8: %q", s, text)
		}
		for _, line := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
			if !Printable(strings.ReplaceAll(line, "\t", " ")) {
				t.Fatalf("%q: unprintable output line %q", s, line)
			}
		}
	})
}

// sgrPattern removes the colour sequences the guard lets through.
func sgrPattern(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == 0x1b {
			if n, ok := sgrLen([]byte(s[i:])); ok && n > 0 {
				i += n - 1
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// BenchmarkWriter: the guard on a diff of plain text (the common case,
// passed on without a copy) and on one with an escape on every line.
func BenchmarkWriter(b *testing.B) {
	line := "+      \"args\": [\"--root\", \"/home/u/ws\", \"server.py\"],\n"
	for _, c := range []struct{ name, text string }{
		{"plain", strings.Repeat(line, 20000)},
		{"escapes", strings.Repeat("+ \x1b[2K "+line, 20000)},
	} {
		b.Run(c.name, func(b *testing.B) {
			data := []byte(c.text)
			w := NewWriter(io.Discard, nil)
			b.SetBytes(int64(len(data)))
			for i := 0; i < b.N; i++ {
				_, _ = w.Write(data)
			}
		})
	}
}

func BenchmarkLines(b *testing.B) {
	text := strings.Repeat("+      \"args\": [\"--root\", \"/home/u/ws\", \"サーバー.py\"],\n", 20000)
	b.SetBytes(int64(len(text)))
	for i := 0; i < b.N; i++ {
		_ = Lines(text)
	}
}
