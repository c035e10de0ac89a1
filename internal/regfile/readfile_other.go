//go:build !unix

package regfile

import "bytes"

// ReadFile is os.ReadFile for regular files only (see Open).
func ReadFile(path string) ([]byte, error) {
	f, fi, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var buf bytes.Buffer
	buf.Grow(int(min(fi.Size(), 1<<30)) + 512)
	_, err = buf.ReadFrom(f)
	return buf.Bytes(), err
}
