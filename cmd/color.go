package cmd

import (
	"io"
	"os"
	"strings"
)

// Colour modes of --color.
const (
	colorAuto   = "auto"
	colorAlways = "always"
	colorNever  = "never"
)

var colorModes = []string{colorAuto, colorAlways, colorNever}

// colorOn reports whether output written to w may be coloured. In order:
// --color always or never; NO_COLOR (no-color.org) set and not empty turns
// colour off; CLICOLOR_FORCE set and not 0 turns it on without a terminal;
// CLICOLOR=0 and TERM=dumb turn it off; else colour only on a terminal.
// Each stream is decided alone: `repo sync --dry-run | less` keeps the
// coloured labels on stderr and sends a plain diff through the pipe.
func (f *Factory) colorOn(w io.Writer) bool {
	if g, ok := w.(interface{ Unwrap() io.Writer }); ok {
		w = g.Unwrap() // the stream under run's guard
	}
	switch f.ColorMode {
	case colorAlways:
		return true
	case colorNever:
		return false
	}
	if f.Getenv("NO_COLOR") != "" {
		return false
	}
	if v := f.Getenv("CLICOLOR_FORCE"); v != "" && v != "0" {
		return true
	}
	if f.Getenv("CLICOLOR") == "0" || f.Getenv("TERM") == "dumb" {
		return false
	}
	if f.IsTerminal != nil {
		return f.IsTerminal(w)
	}
	return isTerminal(w)
}

// isTerminal reports whether w is a character device that takes ANSI
// escapes (on Windows, a console switched to virtual-terminal mode).
func isTerminal(w io.Writer) bool {
	file, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := file.Stat()
	if err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		return false
	}
	return enableANSI(file)
}

// SGR codes, as git uses them.
const (
	bold   = "1"
	red    = "31"
	green  = "32"
	yellow = "33"
	cyan   = "36"
)

// paint wraps s in an ANSI colour when output to w is coloured.
func (f *Factory) paint(w io.Writer, code, s string) string {
	if !f.colorOn(w) {
		return s
	}
	return sgr(code, s)
}

func sgr(code, s string) string { return "\x1b[" + code + "m" + s + "\x1b[m" }

// colorDiff colours a unified diff in git's default colours: file headers
// bold, hunk headers cyan, removed lines red, added lines green. A header
// is everything from "diff --git" to the first "@@", so a removed line that
// reads "-- x" is still red.
func colorDiff(diff string) string {
	var b strings.Builder
	header := false
	for _, line := range strings.SplitAfter(diff, "\n") {
		if line == "" {
			continue
		}
		text, nl := strings.CutSuffix(line, "\n")
		switch {
		case strings.HasPrefix(text, "diff --git "):
			header = true
			b.WriteString(sgr(bold, text))
		case strings.HasPrefix(text, "@@"):
			header = false
			// "@@ -1,3 +1,4 @@ context": only the range is cyan.
			if end := strings.Index(text[2:], "@@"); end >= 0 {
				b.WriteString(sgr(cyan, text[:end+4]))
				b.WriteString(text[end+4:])
			} else {
				b.WriteString(sgr(cyan, text))
			}
		case header:
			b.WriteString(sgr(bold, text))
		case strings.HasPrefix(text, "+"):
			b.WriteString(sgr(green, text))
		case strings.HasPrefix(text, "-"):
			b.WriteString(sgr(red, text))
		default:
			b.WriteString(text)
		}
		if nl {
			b.WriteByte('\n')
		}
	}
	return b.String()
}
