// Package editortest holds a format editor to the editor contract
// (internal/editor) on one file: Run checks the promises of the
// contract on a file as users have it, Fuzz the ones that hold on any file
// the editor parses, and Bench times the batch edits of N entries.
package editortest

import (
	"bytes"
	"fmt"
	"slices"
	"testing"

	"github.com/repo-manager/repo/internal/editor"
)

// Case is one file and the server map in it.
type Case struct {
	Name   string
	Format editor.Format
	File   []byte   // the file's bytes; nil: a file that does not exist yet
	Key    []string // the server map's key path
}

// Value is the value Run writes for entry i, version v: what repo writes
// for a local server, in every format.
func Value(i int, v string) []byte {
	return fmt.Appendf(nil, `{"command":"/opt/srv-%d/bin/srv","args":["--root","/home/u/w %s",""],"env":{"TOKEN":"${TOKEN}","V":"%s"}}`, i, v, v)
}

// names of the entries Run adds: plain, with characters each format quotes,
// and with a dot (a TOML key separator).
var names = []string{"repo-a", "x y: #z", "repo.c"}

func entries(version string, ns ...string) []editor.Entry {
	es := make([]editor.Entry, len(ns))
	for i, n := range ns {
		es[i] = editor.Entry{Name: n, Value: Value(slices.Index(names, n), version)}
	}
	return es
}

// Run checks every promise of the contract on c, a file as users have it:
// every edit succeeds; added entries read back, after the entries already
// there, and leave the bytes before them as they were; a Delete of them
// gives back the file byte for byte (and, for a new file, DeleteEmpty
// and Bare take it back to nothing); a new value changes only its entry's
// lines; a second Write of the same entries changes no byte; and each
// batch (Write, Delete) gives the bytes of an edit of each entry in turn.
func Run(t *testing.T, c Case) {
	t.Helper()
	s := &suite{t: t, c: c, strict: true}
	doc := s.open(c.File)
	if doc == nil {
		return
	}
	added := s.add(doc)
	if added == nil {
		return
	}
	s.restore(doc, added)
	s.update(added)
	s.again(added)
	s.deletions(added)
}

// Fuzz checks on any file the promises that do not depend on its shape:
// the batches against an edit of each in turn (the same bytes, or both
// refused), the entries read back, a new value that changes only its
// entry's lines, and a second Write that changes nothing. A file the
// format does not parse is skipped.
func Fuzz(t *testing.T, c Case) {
	t.Helper()
	s := &suite{t: t, c: c}
	doc := s.open(c.File)
	if doc == nil {
		return
	}
	if added := s.add(doc); added != nil {
		s.update(added)
		s.again(added)
		s.deletions(added)
	}
	s.deletions(doc)
}

// suite is one Run or Fuzz.
type suite struct {
	t      *testing.T
	c      Case
	strict bool // a file as users have it: every edit must succeed
}

func (s *suite) fail(format string, args ...any) {
	s.t.Helper()
	s.t.Fatalf("%s: "+format, append([]any{s.c.Name}, args...)...)
}

// refused reports an edit that failed: in Run, a failure of the test.
func (s *suite) refused(what string, err error) bool {
	s.t.Helper()
	if err != nil && s.strict {
		s.fail("%s: %v", what, err)
	}
	return err != nil
}

// open is the document of a file as a plan opens it: a blank file is a
// new one. A file the editor completes (JSON with nothing but comments
// gets {} after them) keeps its bytes first.
func (s *suite) open(data []byte) editor.Doc {
	s.t.Helper()
	if len(bytes.TrimSpace(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")))) == 0 {
		return s.c.Format.New()
	}
	d, err := s.c.Format.Parse(bytes.Clone(data))
	if s.refused("Parse", err) {
		return nil
	}
	if !bytes.HasPrefix(d.Bytes(), data) {
		s.fail("Bytes after Parse do not begin with the file's")
	}
	return d
}

// read returns the entries of the map at the case's key.
func (s *suite) read(d editor.Doc) ([]editor.Member, bool) {
	s.t.Helper()
	ms, _, err := d.Entries(s.c.Key)
	return ms, !s.refused("Entries", err)
}

// line is the line of entry m of d.
func (s *suite) line(d editor.Doc, m editor.Member) int {
	if m.Line > 0 {
		return m.Line
	}
	return d.Line(s.c.Key, m.Key)
}
