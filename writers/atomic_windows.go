//go:build windows

package writers

import (
	"io/fs"
	"os"
)

// writeAtomic on Windows: rename over an open file is not reliable there, so
// the file is written in place (renameio exports nothing on Windows).
func writeAtomic(path string, data []byte, mode fs.FileMode) error {
	return os.WriteFile(path, data, mode)
}
