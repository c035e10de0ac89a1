package writers

import (
	"bytes"
	"io"
	"os"
	"runtime"

	"github.com/repo-manager/repo/internal/bigmem"
)

// splitReadMin is the size from which a file is read in two halves.
const splitReadMin = 8 << 20

// readTarget reads a target file. A large one is read as two halves on two
// cores: most of the cost of reading a 100 MB ~/.claude.json is faulting
// in the fresh memory, which the halves share; a file that shrinks or
// grows meanwhile is read again from the start, as one piece. When the
// plan is read-only (see Options.ReadOnly) a large file is mapped instead,
// and the function that releases the mapping is added to unmap (for
// Plan.Close).
func readTarget(path string, readOnly bool, unmap *[]func()) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	size := fi.Size()
	if fi.Mode().IsRegular() && size == int64(int(size)) {
		switch {
		case readOnly && size >= mapThreshold:
			if m, err := mapFile(f, int(size)); err == nil {
				*unmap = append(*unmap, func() { unmapFile(m) })
				return m, nil
			}
		case !readOnly && size >= splitReadMin && runtime.GOMAXPROCS(0) >= 2:
			if b, ok := readHalves(f, int(size)); ok {
				return b, nil
			}
			if _, err := f.Seek(0, io.SeekStart); err != nil {
				return nil, err
			}
		}
	}
	// As os.ReadFile: sized by Stat, and still right if the file grew.
	var buf bytes.Buffer
	buf.Grow(int(min(size, 1<<30)) + 512)
	_, err = buf.ReadFrom(f)
	return buf.Bytes(), err
}

// readHalves reads exactly size bytes in two concurrent halves, and
// reports false if the file is not size bytes long any more.
func readHalves(f *os.File, size int) ([]byte, bool) {
	b := bigmem.Alloc(size)
	half := size / 2
	first := make(chan error, 1)
	go func() {
		_, err := f.ReadAt(b[:half], 0)
		first <- err
	}()
	_, errSecond := f.ReadAt(b[half:], int64(half))
	errFirst := <-first
	var more [1]byte
	if n, _ := f.ReadAt(more[:], int64(size)); n > 0 || errFirst != nil || errSecond != nil {
		return nil, false
	}
	return b, true
}
