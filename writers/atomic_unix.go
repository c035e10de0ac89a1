//go:build !windows

package writers

import (
	"io/fs"

	"github.com/google/renameio/v2"
)

// writeAtomic replaces path with data through a temporary file in the same
// folder, fsynced, then renamed over it. renameio keeps an existing file's
// permissions; mode applies to a new file. path must already be the
// symlink-resolved target, or the rename would replace the link itself.
func writeAtomic(path string, data []byte, mode fs.FileMode) error {
	return renameio.WriteFile(path, data, mode)
}
