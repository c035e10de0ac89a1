// Package bigmem is repo's big-file machinery, in one place: it copies,
// compares, counts and reads large byte slices on two cores (halves),
// allocates them where huge pages can back them (Alloc), maps files
// (Map) and guards reads of a mapping against the fault a truncated file
// raises (WithFaults). internal/fileio decides when each is used.
//
// A sync of a 100 MB ~/.claude.json copies the file once (the edited
// result) and compares it three times (the new file read back, the file
// before and after the swap). Each is a memory-bound pass that one core
// does at a few GB/s; with a second core idle, halving it is the cheapest
// time left. Below a few MB, or with one core, everything is sequential.
//
// BenchmarkBigFile times each piece against what it replaces on a 100 MB
// file; BenchmarkLocalClaude (writers/writers_bench_test.go) times them
// together in a sync and a --check of a 100 MB ~/.claude.json.
package bigmem

import (
	"bytes"
	"runtime"

	"github.com/repo-manager/repo/internal/par"
)

// splitMin is the size from which the work is split.
const splitMin = 4 << 20

func split(n int) bool { return n >= splitMin && runtime.GOMAXPROCS(0) >= 2 }

// Equal is bytes.Equal.
func Equal(a, b []byte) bool {
	if len(a) != len(b) {
		return false
	}
	if !split(len(a)) {
		return bytes.Equal(a, b)
	}
	h := len(a) / 2
	var first, second bool
	both(func() { first = bytes.Equal(a[:h], b[:h]) }, func() { second = bytes.Equal(a[h:], b[h:]) })
	return first && second
}

// CountByte is bytes.Count of the single byte c: the line of an entry in
// the middle of a 100 MB file is the line breaks before it.
func CountByte(b []byte, c byte) int {
	sep := []byte{c}
	if !split(len(b)) {
		return bytes.Count(b, sep)
	}
	h := len(b) / 2
	var first, second int
	both(func() { first = bytes.Count(b[:h], sep) }, func() { second = bytes.Count(b[h:], sep) })
	return first + second
}

// Alloc returns n zero bytes that are about to be filled: for a large n,
// memory the system can back with huge pages (see adviseHuge).
func Alloc(n int) []byte {
	b := make([]byte, n)
	if n >= splitMin {
		adviseHuge(b)
	}
	return b
}

// Concat returns the parts joined into a new slice.
func Concat(parts ...[]byte) []byte {
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	out := Alloc(n)
	if !split(n) {
		copyRange(out, parts, 0, n)
		return out
	}
	h := n / 2
	both(func() { copyRange(out, parts, 0, h) }, func() { copyRange(out, parts, h, n) })
	return out
}

// copyRange copies bytes [lo, hi) of the parts' concatenation to out[lo:hi].
func copyRange(out []byte, parts [][]byte, lo, hi int) {
	off := 0
	for _, p := range parts {
		if s, e := max(lo, off), min(hi, off+len(p)); s < e {
			copy(out[s:e], p[s-off:e-off])
		}
		if off += len(p); off >= hi {
			return
		}
	}
}

// both is par.Both: the slices may be mapped files, and a fault on the
// second goroutine must reach the caller's guard.
func both(a, b func()) { par.Both(a, b) }
