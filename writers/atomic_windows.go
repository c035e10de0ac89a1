//go:build windows

package writers

import (
	"bytes"
	"io/fs"
	"os"
)

// writeAtomic on Windows: rename over an open file is not reliable there
// (renameio exports nothing on Windows), so the file is written in place
// after checking it still holds what repo planned from.
func writeAtomic(path string, data []byte, mode fs.FileMode, expect []byte, existed bool) error {
	cur, err := os.ReadFile(path)
	switch {
	case existed && (err != nil || !bytes.Equal(cur, expect)):
		return ErrChanged
	case !existed && err == nil:
		return ErrChanged
	}
	return os.WriteFile(path, data, mode)
}
