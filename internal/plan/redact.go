package plan

import (
	"bytes"
	"encoding/json"
	"sort"
	"strings"

	udiff "github.com/aymanbagabas/go-udiff"
	"github.com/tidwall/gjson"

	"github.com/repo-manager/repo/internal/credential"
	"github.com/repo-manager/repo/internal/ordered"
	"github.com/repo-manager/repo/internal/target"
	"github.com/repo-manager/repo/toolprofiles"
)

// Redaction: a diff prints lines of a user's own file — ~/.claude.json
// holds primaryApiKey and oauthAccount, a tool's file other servers'
// tokens, and a line that only gains a comma is printed twice. Every value
// in the shown lines that internal/credential flags is replaced by
// Redacted, unless it is a value of repo's own entries (what the
// workspace's extensions make repo write, which the diff is there to
// show). The detector judges strings; finding them, with the key each is
// the value of, is the scanners' job (redact_scan.go), one per format
// family (JSON and JSONC, TOML, YAML), which need no valid document and
// give up nothing they cannot read as a value (comments are judged as
// free text). A line that holds a whole file is then shortened to what
// changed in it (redact_shorten.go).

// Redacted stands in a diff for a value the detector flags.
const Redacted = "<redacted>"

// redactedDiff is the unified diff of old and new in f's format, with
// credentials outside repo's entries redacted and long lines shortened.
func redactedDiff(oldLabel, newLabel string, f *FilePlan, old, new []byte) string {
	u := unifiedHunks(oldLabel, newLabel, old, new)
	if len(u.Hunks) == 0 {
		return ""
	}
	o := f.own()
	allow := o.values
	oldShown, newShown := shownLines(u)
	oldSpans := secretSpans(old, f.Format, oldShown, allow)
	newSpans := secretSpans(new, f.Format, newShown, allow)
	oneLine := bytes.Count(old, []byte{'\n'}) <= 1 && bytes.Count(new, []byte{'\n'}) <= 1
	for _, h := range u.Hunks {
		from, to := h.FromLine, h.ToLine
		for i := range h.Lines {
			l := &h.Lines[i]
			switch l.Kind {
			case udiff.Delete:
				l.Content = mask(l.Content, oldSpans[from])
				from++
			case udiff.Insert:
				l.Content = mask(l.Content, newSpans[to])
				to++
			default:
				l.Content = mask(l.Content, oldSpans[from])
				from++
				to++
			}
		}
		shorten(h, oneLine, o)
	}
	return u.String()
}

// own are the string values of repo's entries in the file, as it writes
// them, as they were when it wrote them and as it removes them (never
// redacted), and their keys and names (which a shortened line keeps next
// to them).
func (f *FilePlan) own() own {
	o := own{values: map[string]bool{}, keys: map[string]bool{}}
	for _, n := range f.Changes {
		if n.Entry != "" {
			o.keys[n.Entry] = true
		}
	}
	var walk func(v gjson.Result)
	walk = func(v gjson.Result) {
		switch {
		case v.Type == gjson.String:
			o.values[v.Str] = true
		case v.IsArray(), v.IsObject():
			v.ForEach(func(k, m gjson.Result) bool {
				if k.Type == gjson.String {
					o.keys[k.Str] = true
				}
				walk(m)
				return true
			})
		}
	}
	for _, e := range f.ours {
		switch e := e.(type) {
		case ordered.Object:
			walk(gjson.ParseBytes(ordered.JSON(e)))
		case []byte:
			walk(gjson.ParseBytes(e))
		}
	}
	return o
}

// shownLines are the 1-based line numbers of old and new that the diff
// prints.
func shownLines(u udiff.UnifiedDiff) (old, new map[int]bool) {
	old, new = map[int]bool{}, map[int]bool{}
	for _, h := range u.Hunks {
		from, to := h.FromLine, h.ToLine
		for _, l := range h.Lines {
			switch l.Kind {
			case udiff.Delete:
				old[from] = true
				from++
			case udiff.Insert:
				new[to] = true
				to++
			default:
				old[from] = true
				from++
				to++
			}
		}
	}
	return old, new
}

// span is a byte range of a line.
type span struct{ start, end int }

// mask replaces the spans of line (sorted, apart) with Redacted.
func mask(line string, spans []span) string {
	if len(spans) == 0 {
		return line
	}
	var b strings.Builder
	at := 0
	for _, s := range spans {
		if s.start < at || s.end > len(line) {
			continue
		}
		b.WriteString(line[at:s.start])
		b.WriteString(Redacted)
		at = s.end
	}
	b.WriteString(line[at:])
	return b.String()
}

// secretSpans finds, in the shown lines of text, the bytes to redact, by
// line number and relative to the line's start.
func secretSpans(text []byte, format target.Format, shown map[int]bool, allow map[string]bool) map[int][]span {
	if len(shown) == 0 || len(text) == 0 {
		return nil
	}
	r := &redactor{b: text, allow: allow}
	// The byte ranges of the shown lines, in order, for visible.
	lines := make([]int, 0, len(shown))
	for n := range shown {
		lines = append(lines, n)
	}
	sort.Ints(lines)
	starts := lineStarts(text, lines[len(lines)-1]+1)
	var nums []int // the line number of each of r.shown
	for _, n := range lines {
		if n-1 < len(starts) {
			end := len(text)
			if n < len(starts) {
				end = starts[n]
			}
			r.shown = append(r.shown, span{starts[n-1], end})
			nums = append(nums, n)
		}
	}
	switch format {
	case toolprofiles.FormatTOML:
		r.scanTOML()
	case toolprofiles.FormatYAML:
		r.scanYAML()
	default:
		// A large file is read from a while before its first printed
		// line: a JSON line never starts inside a string, and the keys
		// that name the printed values stand on their line or a few
		// above; what opens further up is missed, as the cost of not
		// reading a 100 MB ~/.claude.json whole for a hunk.
		from := 0
		if len(text) >= windowMin && lines[0] > scanBefore {
			from = starts[lines[0]-1-scanBefore]
		}
		r.b = text[:r.shown[len(r.shown)-1].end]
		r.scanJSON(from, format != toolprofiles.FormatJSON)
	}
	out := map[int][]span{}
	for _, s := range r.found {
		// A span may cross lines (a TOML multi-line string): each shown
		// line gets its part.
		for i, n := range nums {
			ls := r.shown[i]
			if s.end <= ls.start || s.start >= ls.end {
				continue
			}
			a, e := max(s.start, ls.start)-ls.start, min(s.end, ls.end)-ls.start
			if text[ls.start+e-1] == '\n' && e-a > 1 {
				e-- // the line break stays
			}
			if e > a {
				out[n] = append(out[n], span{a, e})
			}
		}
	}
	for n := range out {
		out[n] = tidySpans(out[n])
	}
	return out
}

// scanBefore is how many lines before its first printed one a large JSON
// file is read from (secretSpans).
const scanBefore = 2000

// lineStarts returns the offsets at which lines 1..n start (fewer when the
// text has fewer).
func lineStarts(text []byte, n int) []int {
	starts := []int{0}
	for i := 0; len(starts) < n; {
		j := bytes.IndexByte(text[i:], '\n')
		if j < 0 {
			break
		}
		i += j + 1
		if i >= len(text) {
			break
		}
		starts = append(starts, i)
	}
	return starts
}

func tidySpans(ss []span) []span {
	sort.Slice(ss, func(i, j int) bool { return ss[i].start < ss[j].start })
	out := ss[:0]
	for _, s := range ss {
		if len(out) > 0 && s.start < out[len(out)-1].end {
			out[len(out)-1].end = max(out[len(out)-1].end, s.end)
			continue
		}
		out = append(out, s)
	}
	return out
}

// redactor collects the spans to redact while a scanner walks a text.
type redactor struct {
	b     []byte
	allow map[string]bool
	shown []span // the shown lines' byte ranges, in order
	found []span // absolute
}

// token is a scalar of the text: its content's bytes [start, end) (inside
// any quotes), its value, and whether the value is those bytes as they
// are (else a finding redacts the whole token: escapes move offsets).
type token struct {
	start, end int
	value      string
	exact      bool
	// lazy: value is not read yet (a JSON string's content, escaped when
	// !exact): most values are never printed, and reading each would
	// cost the scan of a large ~/.claude.json most of its time.
	lazy bool
}

// text is a token's value.
func (r *redactor) text(t token) string { return tokenText(r.b, t) }

// tokenText is the value of a token of b.
func tokenText(b []byte, t token) string {
	if !t.lazy {
		return t.value
	}
	if t.exact {
		return string(b[t.start:t.end])
	}
	var s string
	if json.Unmarshal(b[t.start-1:min(t.end+1, len(b))], &s) == nil {
		return s
	}
	return string(b[t.start:t.end])
}

// visible reports whether [start, end) touches a shown line.
func (r *redactor) visible(start, end int) bool {
	i := sort.Search(len(r.shown), func(i int) bool { return r.shown[i].end > start })
	return i < len(r.shown) && r.shown[i].start < end
}

// judge redacts what the detector flags in a value: under its key, else
// after a flag (--key VALUE), else under the nearest enclosing key that
// says credential (oauthAccount's email).
func (r *redactor) judge(t token, key, prev string, enclosing []string) {
	if t.end <= t.start || !r.visible(t.start, t.end) {
		return
	}
	v := r.text(t)
	if r.allow[v] {
		return
	}
	fs := credential.Check(key, v)
	if len(fs) == 0 && prev != "" {
		for _, a := range credential.Args([]string{prev, v}) {
			if a.Index == 1 {
				fs = append(fs, a.Finding)
			}
		}
	}
	for i := len(enclosing) - 1; len(fs) == 0 && i >= 0; i-- {
		if credential.IsName(enclosing[i]) {
			fs = credential.Check(enclosing[i], v)
		}
	}
	for _, f := range fs {
		if t.exact {
			r.found = append(r.found, span{t.start + f.Start, t.start + f.End})
		} else {
			r.found = append(r.found, span{t.start, t.end})
			return
		}
	}
}

// comment judges a comment's text as free text: a token or a URL
// password in it is redacted.
func (r *redactor) comment(start, end int) {
	if end > start && r.visible(start, end) {
		text := string(r.b[start:end])
		for _, f := range credential.Check("", text) {
			r.found = append(r.found, span{start + f.Start, start + f.End})
		}
	}
}
