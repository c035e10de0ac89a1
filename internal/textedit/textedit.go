// Package textedit holds what the format editors (jsonedit, tomledit,
// yamledit) share to change a file's bytes in place: a splice, applying a
// set of them, and finding invalid UTF-8.
package textedit

import (
	"fmt"
	"slices"
	"unicode/utf8"

	"github.com/repo-manager/repo/internal/bigmem"
)

// Splice replaces Del bytes at offset At with Ins.
type Splice struct {
	At, Del int
	Ins     []byte
}

// Apply returns src with the splices applied. Each must lie within src
// and no two may touch the same bytes (an insertion may stand at either
// end of a replacement); otherwise Apply returns an error and no result.
// At one offset, pure insertions go before a replacement, and otherwise
// the order given is kept. A large result is copied on two cores.
func Apply(src []byte, ss []Splice) ([]byte, error) {
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
		if s.At < 0 || s.Del < 0 || s.At > len(src)-s.Del {
			return nil, fmt.Errorf("textedit: splice of %d bytes at %d is outside the %d bytes of the text", s.Del, s.At, len(src))
		}
		if s.At < prev {
			return nil, fmt.Errorf("textedit: splice at %d overlaps the one that ends at %d", s.At, prev)
		}
		parts = append(parts, src[prev:s.At], s.Ins)
		prev = s.At + s.Del
	}
	return bigmem.Concat(append(parts, src[prev:])...), nil
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
