//go:build !unix

package regfile

// ReadFile is os.ReadFile for regular files only (see Open).
func ReadFile(path string) ([]byte, error) { return readFileOS(path) }
