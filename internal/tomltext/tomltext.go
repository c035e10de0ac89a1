// Package tomltext finds text in a TOML document that must not be printed
// as it is: a key or string holding a control, format or separator
// character, or bytes that are not UTF-8 (termtext.Check). A workspace's
// manifests, config and tool profiles name things repo prints — extension
// names, paths, tool ids — and TOML's \u escapes let them hold a carriage
// return, an escape sequence or a newline. They are refused where they are
// read, with the line and column, rather than escaped everywhere they go.
//
// It reads the document with go-toml's unstable parser, the one API that
// gives each key and string its position; the strict decoders still decide
// whether the document is valid.
package tomltext

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/pelletier/go-toml/v2/unstable"

	"github.com/repo-manager/repo/internal/termtext"
)

// Problem is the first key or string of a document that is not printable.
type Problem struct {
	Line, Col int
	Key       string // the dotted key it is, or is the value of
	IsKey     bool   // the key itself, not its value
	Err       error  // what termtext.Check found
}

func (p *Problem) Error() string {
	what := termtext.Safe(p.Key)
	if p.IsKey {
		what = "key " + what
	}
	return fmt.Sprintf("%s: %v", what, p.Err)
}

// Check returns the first key or string value of data that is not
// printable, or nil. want says which keys are checked, with their values:
// nil for all; false for text that is content (a file skeleton, with its
// newlines) or someone else's (the tables of a shared config). A document
// that does not parse gives nil: its decoder reports that.
func Check(data []byte, want func(key []string) bool) *Problem {
	if plainASCII(data) {
		return nil
	}
	return check(data, want)
}

// plainASCII reports whether every key and string of data is printable
// without parsing it: its bytes are printable ASCII and newlines, with no
// backslash (no escape) and no multi-line string (whose newlines are
// text). A key or string on one line then holds only printable ASCII.
// Most manifests and configs are such, and parsing them again for this
// check was a tenth of loading an extension.
func plainASCII(data []byte) bool {
	for _, c := range data {
		if (c < 0x20 && c != '\n') || c >= 0x7f || c == '\\' {
			return false
		}
	}
	return !bytes.Contains(data, []byte(`"""`)) && !bytes.Contains(data, []byte("'''"))
}

// check is Check, parsing data.
func check(data []byte, want func(key []string) bool) *Problem {
	if want == nil {
		want = func([]string) bool { return true }
	}
	var p unstable.Parser
	p.Reset(data)
	var table []string
	for p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			keys, prob := keyOf(&p, e, nil, want)
			if prob != nil {
				return prob
			}
			table = keys
		case unstable.KeyValue:
			if prob := checkKeyValue(&p, e, table, want); prob != nil {
				return prob
			}
		}
	}
	return nil
}

// keyOf is the dotted key of a table header or key-value, after prefix,
// checking each part that is wanted.
func keyOf(p *unstable.Parser, n *unstable.Node, prefix []string, want func([]string) bool) ([]string, *Problem) {
	keys := append([]string(nil), prefix...)
	it := n.Key()
	for it.Next() {
		k := it.Node()
		keys = append(keys, string(k.Data))
		if !want(keys) {
			continue
		}
		if err := termtext.Check(string(k.Data)); err != nil {
			return nil, at(p, k, keys, true, err)
		}
	}
	return keys, nil
}

func checkKeyValue(p *unstable.Parser, kv *unstable.Node, table []string, want func([]string) bool) *Problem {
	keys, prob := keyOf(p, kv, table, want)
	if prob != nil {
		return prob
	}
	if !want(keys) {
		return nil
	}
	return checkValue(p, kv.Value(), keys, want)
}

func checkValue(p *unstable.Parser, v *unstable.Node, keys []string, want func([]string) bool) *Problem {
	switch v.Kind {
	case unstable.String:
		if err := termtext.Check(string(v.Data)); err != nil {
			return at(p, v, keys, false, err)
		}
	case unstable.Array:
		it := v.Children()
		for i := 0; it.Next(); i++ {
			n := it.Node()
			if n.Kind == unstable.Comment {
				continue
			}
			if prob := checkValue(p, n, keys, want); prob != nil {
				return prob
			}
		}
	case unstable.InlineTable:
		it := v.Children()
		for it.Next() {
			if n := it.Node(); n.Kind == unstable.KeyValue {
				if prob := checkKeyValue(p, n, keys, want); prob != nil {
					return prob
				}
			}
		}
	}
	return nil
}

func at(p *unstable.Parser, n *unstable.Node, keys []string, isKey bool, err error) *Problem {
	prob := &Problem{Key: strings.Join(keys, "."), IsKey: isKey, Err: err}
	if n.Raw.Length > 0 || n.Raw.Offset > 0 {
		s := p.Shape(n.Raw)
		prob.Line, prob.Col = s.Start.Line, s.Start.Column
	}
	return prob
}
