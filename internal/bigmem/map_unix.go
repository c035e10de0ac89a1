//go:build !windows

package bigmem

import (
	"os"
	"syscall"
)

// MapThreshold is the size from which a file is mapped rather than read:
// below it a read is cheaper than setting up a mapping.
const MapThreshold = 1 << 20

// Map maps the first size bytes of f read-only. The pages are the page
// cache's own: nothing is copied, and nothing is allocated for them, which
// for a 100 MB ~/.claude.json is most of the cost of reading it. The
// mapping shows later writes to the file and faults past a truncated end:
// use it only inside WithFaults, and never as a snapshot to write from.
func Map(f *os.File, size int) ([]byte, error) {
	return MapRange(f, 0, size)
}

// MapRange maps size bytes of f from off, a multiple of the page size.
func MapRange(f *os.File, off, size int) ([]byte, error) {
	return syscall.Mmap(int(f.Fd()), int64(off), size, syscall.PROT_READ, syscall.MAP_SHARED)
}

// Unmap releases a mapping made by Map or MapRange.
func Unmap(b []byte) { _ = syscall.Munmap(b) }
