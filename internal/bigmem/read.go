package bigmem

import (
	"os"

	"github.com/repo-manager/repo/internal/par"
)

// ReadHalves reads exactly size bytes in two concurrent halves, and
// reports false if the file is not size bytes long any more.
func ReadHalves(f *os.File, size int) ([]byte, bool) {
	b := Alloc(size)
	half := size / 2
	var errFirst, errSecond error
	par.Both(func() { _, errFirst = f.ReadAt(b[:half], 0) }, func() { _, errSecond = f.ReadAt(b[half:], int64(half)) })
	var more [1]byte
	if n, _ := f.ReadAt(more[:], int64(size)); n > 0 || errFirst != nil || errSecond != nil {
		return nil, false
	}
	return b, true
}
