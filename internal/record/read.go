package record

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/repo-manager/repo/internal/regfile"
	"github.com/repo-manager/repo/internal/termtext"
)

// Read loads a record (display is its path as shown to people); a
// missing file is an empty record, and its bytes nil.
func Read(path, display string) (*Record, []byte, error) { return (*Cache)(nil).Read(path, display) }

// readBytes reads a record's bytes; a missing file is nil bytes and no
// error (see Read).
func readBytes(path, display string) ([]byte, error) {
	data, err := regfile.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		// A link to nothing is not a missing record: the record repo would
		// write could not replace it as planned, and each attempt would
		// look like another program's write.
		if fi, lerr := os.Lstat(path); lerr == nil && fi.Mode()&fs.ModeSymlink != 0 {
			dest, _ := os.Readlink(path)
			return nil, fmt.Errorf("%s: the ownership record is a symbolic link to %s, which does not exist; restore the file it points to (from version control) or remove the link, and run repo again", display, termtext.Safe(dest))
		}
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%s: cannot read the ownership record: %w", display, err)
	}
	return data, nil
}

// Parse reads the bytes of a record (display names it in an error).
func Parse(data []byte, display string) (*Record, error) {
	r, ok := readFast(data)
	if !ok {
		r = new(Record)
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		if err := dec.Decode(r); err != nil {
			return nil, fmt.Errorf("%s: the ownership record is damaged (%v); restore it from version control, or delete it and run `repo sync --adopt` to claim the entries again", display, err)
		}
	}
	if r.Version < 1 || r.Version > LatestVersion {
		return nil, fmt.Errorf("%s: ownership record version %d is not supported (this repo reads versions 1 to %d)", display, r.Version, LatestVersion)
	}
	return r, nil
}
