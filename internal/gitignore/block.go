package gitignore

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/repo-manager/repo/internal/fileio"
)

// Block is what repo's block in the .gitignore is to list.
type Block struct {
	// Paths are root-relative and slash-separated (see Paths).
	Paths []string
}

// Kind is what a Change does.
type Kind int

// The kinds of change to the block.
const (
	Added     Kind = iota // a line the block lists now
	Removed               // a line the block no longer lists
	Rewritten             // the block put back as repo writes it (Line is "")
)

// Why a line of the block changes, as --check prints it.
const (
	ReasonNotIgnored   = "machine-specific file not ignored"
	ReasonNoLongerOurs = "file repo no longer writes"
	ReasonUserLine     = "named by a line of the user's"
	ReasonIgnoreBlock  = "ignore block out of date"
	ReasonStaged       = "repo's staged copies not ignored"
)

// Change is one thing Rewrite does to the block.
type Change struct {
	Kind   Kind
	Line   string
	Reason string
}

// line is one line of a .gitignore, with its terminator.
type line struct {
	text string // without the terminator
	eol  string // "\n", "\r\n" or "" (the last line, unterminated)
}

// Rewrite is a .gitignore's bytes (nil: no file) with repo's block made to
// list the paths of b that no line of the user's names, in place; created
// at the end of the file; removed when it would be empty. The file's line
// ending is kept, and a file that does not end in a newline still does
// not: the block then owns the line break before it. The changes say what
// happened to the block's lines; there are none when the bytes stay as
// they are. A block repo cannot tell apart from the user's lines is a
// *LineError.
func (b *Block) Rewrite(data []byte) ([]byte, []Change, error) {
	lines := splitLines(data)
	start, end, err := blockAt(lines)
	if err != nil {
		return nil, nil, err
	}
	var user, old []line
	for i, l := range lines {
		switch {
		case start < 0 || i < start || i > end:
			user = append(user, l)
		case i > start && i < end:
			old = append(old, l)
		}
	}
	want := b.listed(user)
	eol, lastCR := endings(lines)
	var block []line
	if len(want) > 0 {
		block = append(block, line{text: MarkerStart, eol: eol})
		for _, p := range want {
			block = append(block, line{text: p, eol: eol})
		}
		block = append(block, line{text: MarkerEnd, eol: eol})
	}
	var after bytes.Buffer
	for _, l := range splice(lines, start, end, block, eol, lastCR) {
		after.WriteString(l.text)
		after.WriteString(l.eol)
	}
	if bytes.Equal(after.Bytes(), data) {
		return after.Bytes(), nil, nil
	}
	return after.Bytes(), b.changes(old, want, start >= 0), nil
}

// listed are the lines the block is to hold: the escaped paths that no
// line of the user's names, sorted, then the names repo stages their new
// versions under next to them (fileio.StagedPattern), which exist during a
// run and after a killed one until the next: a copy of an ignored file,
// secrets and all, that git add -A must not take. None when there is no
// path to list.
func (b *Block) listed(user []line) []string {
	var want []string
	for _, p := range slices.Sorted(slices.Values(b.Paths)) {
		if !slices.ContainsFunc(user, func(l line) bool { return userNames(l.text, p) }) {
			want = append(want, escape(p))
		}
	}
	if len(want) > 0 {
		want = append(want, fileio.StagedPattern)
	}
	return want
}

// endings are the line ending the block is written with (the file's
// first, else "\n") and whether the file's last line, without a newline,
// ends in a carriage return. Such a line gets the newline that makes it
// CRLF, and when it is the only line, the block is CRLF: as the file will
// read back.
func endings(lines []line) (eol string, lastCR bool) {
	eol = "\n"
	if len(lines) > 0 && lines[0].eol != "" {
		eol = lines[0].eol
	}
	lastCR = len(lines) > 0 && lines[len(lines)-1].eol == "" && strings.HasSuffix(lines[len(lines)-1].text, "\r")
	if lastCR && len(lines) == 1 {
		eol = "\r\n"
	}
	return eol, lastCR
}

// splice puts block (empty: none) where the old block was (lines start to
// end; -1: none), else at the end of the file.
func splice(lines []line, start, end int, block []line, eol string, lastCR bool) []line {
	var out []line
	switch {
	case start >= 0:
		out = append(out, lines[:start]...)
		if lines[end].eol == "" && len(block) > 0 {
			block[len(block)-1].eol = "" // the file did not end in a newline
		}
		if lines[end].eol == "" && len(block) == 0 && start > 0 {
			// The block was put after a last line without a newline:
			// that line break was the block's.
			out[len(out)-1].eol = ""
		}
		out = append(out, block...)
		return append(out, lines[end+1:]...)
	case len(block) > 0:
		out = append(out, lines...)
		if n := len(out); n > 0 && out[n-1].eol == "" {
			out[n-1].eol = eol
			if lastCR {
				out[n-1].text, out[n-1].eol = strings.TrimSuffix(out[n-1].text, "\r"), "\r\n"
			}
			block[len(block)-1].eol = ""
		}
		return append(out, block...)
	}
	return lines
}

// changes are what a rewrite that changed the file did to the block's
// lines: the old block's lines (old; existed: there was a block) against
// the new one's (want). A rewrite that changed no line is the block put
// back as repo writes it.
func (b *Block) changes(old []line, want []string, existed bool) []Change {
	had := make([]string, 0, len(old))
	for _, l := range old {
		had = append(had, strings.TrimRight(l.text, " \t"))
	}
	var out []Change
	// The staged copies' line is part of the block, as its markers are:
	// a change only when a block of an earlier version lacks it.
	for _, p := range want {
		switch {
		case slices.Contains(had, p):
		case p != fileio.StagedPattern:
			out = append(out, Change{Kind: Added, Line: p, Reason: ReasonNotIgnored})
		case existed:
			out = append(out, Change{Kind: Added, Line: p, Reason: ReasonStaged})
		}
	}
	for _, p := range had {
		if p != "" && p != fileio.StagedPattern && !strings.HasPrefix(p, "#") && !slices.Contains(want, p) {
			reason := ReasonNoLongerOurs
			if slices.ContainsFunc(b.Paths, func(q string) bool { return escape(q) == p }) {
				reason = ReasonUserLine
			}
			out = append(out, Change{Kind: Removed, Line: p, Reason: reason})
		}
	}
	if len(out) == 0 {
		out = []Change{{Kind: Rewritten, Reason: ReasonIgnoreBlock}}
	}
	return out
}

func splitLines(data []byte) []line {
	var lines []line
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			lines = append(lines, line{text: string(data)})
			break
		}
		text, eol := string(data[:i]), "\n"
		if strings.HasSuffix(text, "\r") {
			text, eol = text[:len(text)-1], "\r\n"
		}
		lines = append(lines, line{text: text, eol: eol})
		data = data[i+1:]
	}
	return lines
}

// blockAt is where repo's block is in lines: the indexes of its marker
// lines, or -1, -1. A marker without its partner, or two blocks, is an
// error at the line: repo never guesses which lines are its own.
func blockAt(lines []line) (start, end int, err error) {
	start, end = -1, -1
	for i, l := range lines {
		text := strings.TrimRight(strings.TrimPrefix(l.text, "\ufeff"), " \t")
		switch {
		case strings.HasPrefix(text, MarkerPrefix):
			if start >= 0 {
				if end < 0 {
					return 0, 0, &LineError{Line: i + 1, Err: fmt.Errorf("repo's block that starts on line %d has no end marker before this second start marker; delete one of them, or end the block with the line %q", start+1, MarkerEnd)}
				}
				return 0, 0, &LineError{Line: i + 1, Err: fmt.Errorf("a second block of repo's (the first is on lines %d-%d); delete one of them", start+1, end+1)}
			}
			start = i
		case text == MarkerEnd:
			if start < 0 || end >= 0 {
				return 0, 0, &LineError{Line: i + 1, Err: fmt.Errorf("the end marker of repo's block, without its start marker before it; delete the line, or put the start marker back")}
			}
			end = i
		}
	}
	if start >= 0 && end < 0 {
		return 0, 0, &LineError{Line: start + 1, Err: fmt.Errorf("repo's block starts here but has no end marker; end it with the line %q, or delete the block", MarkerEnd)}
	}
	return start, end, nil
}
