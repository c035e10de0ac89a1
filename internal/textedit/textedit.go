// Package textedit holds what the format editors (jsonedit, tomledit,
// yamledit) share to change a file's bytes in place: a splice, applying a
// set of them, and finding invalid UTF-8.
package textedit

import (
	"slices"
	"unicode/utf8"

	"github.com/repo-manager/repo/internal/bigmem"
)

// Splice replaces Del bytes at offset At with Ins.
type Splice struct {
	At, Del int
	Ins     []byte
}

// Apply returns src with the splices applied; they must not overlap. At
// one offset, pure insertions go before a replacement, and otherwise the
// order given is kept. A large result is copied on two cores.
func Apply(src []byte, ss []Splice) []byte {
	ss = slices.Clone(ss)
	slices.SortStableFunc(ss, func(a, b Splice) int {
		if a.At != b.At {
			return a.At - b.At
		}
		return min(a.Del, 1) - min(b.Del, 1)
	})
	parts := make([][]byte, 0, 2*len(ss)+1)
	prev := 0
	for _, s := range ss {
		parts = append(parts, src[prev:s.At], s.Ins)
		prev = s.At + s.Del
	}
	return bigmem.Concat(append(parts, src[prev:])...)
}

// FirstInvalidUTF8 returns the offset of the first byte of b that is not
// part of valid UTF-8, or len(b).
func FirstInvalidUTF8(b []byte) int {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return len(b)
}
