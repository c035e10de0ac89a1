package gittrack

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/repo-manager/repo/internal/bigmem"
	"github.com/repo-manager/repo/internal/cleanpath"
	"github.com/repo-manager/repo/internal/fileio"
	"github.com/repo-manager/repo/internal/regfile"
)

// A pre-commit hook's check asks git once which files it tracks (Session),
// and that git process was a third of the check (bench/startup.sh, gitcheck):
// about 1 ms in a small work tree, 11 to 25 ms in one of 100,000 files. The
// answer is in the index file, which git reads for it. fromIndex reads that
// file itself when it can be sure that git would read the same file the
// same way, and leaves the question to git otherwise:
//
//   - the repository git would read (repository): GIT_DIR, or top/.git,
//     a folder or a linked worktree's .git file naming one, with the common
//     folder it shares with the other worktrees; git takes it for a
//     repository (gitDirectory), and this user owns each of them and top
//     (git refuses a repository of another owner unless safe.directory
//     allows it);
//   - no environment variable that makes git read another work tree,
//     index or configuration, or match pathspecs otherwise (gitEnv), but
//     for GIT_DIR and GIT_INDEX_FILE, which hooks see and fromIndex follows;
//   - a repository configuration that changes nothing git reads here: no
//     [extensions] (a SHA-256 repository's index has longer entries, a
//     worktree's own configuration is an extension), no core.worktree (a
//     submodule's), not bare, no includes (plainConfig);
//   - an index of version 2, 3 or 4 without a split (link) or sparse (sdir)
//     part and with no extension that git must understand to read it, whose
//     every entry and extension is where the format says (indexNames).
//
// The answer is then git's: the names of the index's entries — every
// stage, intent-to-add and skip-worktree entries, links and submodules —
// that a literal pathspec of the question lists, as `git ls-files
// --full-name -- :(literal)…` lists them. TestIndexAsGit compares the two
// on indexes that git writes in each of these shapes, and on those it
// leaves to git; TestIndexInAWorktree in a linked worktree, as its hooks
// see it. A missing index is an empty one, as for git; an index that
// cannot be read is git's to report.

// gitEnv are the variables with which git would read another work tree,
// index or configuration than fromIndex reads, or match a pathspec other
// than literally. GIT_TEST_* (git's own test switches) count too. GIT_DIR
// is followed (repository), as GIT_INDEX_FILE is.
var gitEnv = []string{"GIT_WORK_TREE", "GIT_COMMON_DIR", "GIT_OBJECT_DIRECTORY", "GIT_CONFIG", "GIT_CONFIG_COUNT",
	"GIT_ICASE_PATHSPECS", "GIT_GLOB_PATHSPECS", "GIT_NOGLOB_PATHSPECS", "GIT_LITERAL_PATHSPECS"}

// fromIndex is listed answered from top's index file, or ok false when git
// is to be asked (see above).
func fromIndex(top string, rels []string) (names map[string]bool, ok bool) {
	if !plainEnv() {
		return nil, false
	}
	if fi, err := os.Stat(top); err != nil || !ownedByUs(fi) {
		return nil, false
	}
	dir, common, ok := repository(top)
	if !ok || !gitDirectory(dir, common) || !plainConfig(cleanpath.Join(common, "config")) {
		return nil, false
	}
	index := cleanpath.Join(dir, "index")
	if v, set := os.LookupEnv("GIT_INDEX_FILE"); set {
		// git runs in top (git -C top), where a relative name starts
		// (an empty one names top itself, not an index file).
		index = v
		if !filepath.IsAbs(v) {
			index = filepath.Join(top, v)
		}
	}
	return readIndex(index, newSpecSet(rels))
}

// repository is the folder git reads as the repository of the work tree
// at top (git -C top), and the common folder it shares with the other
// worktrees of the repository (its commondir file; itself when it has
// none). It is GIT_DIR (a name relative to top) when that is set, as it is
// in a linked worktree's hooks; else top/.git: a folder, or a file naming
// one ("gitdir: …", relative to top), as a linked worktree's is. Each must
// be a folder this user owns (git checks the .git file too); ok is false
// otherwise, or where a file is not as git writes it.
func repository(top string) (dir, common string, ok bool) {
	if v, set := os.LookupEnv("GIT_DIR"); set {
		if dir = v; !filepath.IsAbs(v) {
			dir = filepath.Join(top, v)
		}
		if !ownedFolder(dir) {
			return "", "", false
		}
	} else if dir, ok = dotGit(top); !ok {
		return "", "", false
	}
	common = dir
	if _, err := os.Lstat(cleanpath.Join(dir, "commondir")); err == nil {
		if common, ok = pointer(cleanpath.Join(dir, "commondir"), ""); !ok {
			return "", "", false
		}
		if !filepath.IsAbs(common) {
			common = filepath.Join(dir, common)
		}
		if !ownedFolder(common) {
			return "", "", false
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return "", "", false
	}
	return dir, common, true
}

// dotGit is the repository top/.git names: the folder itself, or the
// folder a linked worktree's .git file names ("gitdir: …", relative to
// top). This user must own the .git folder or file, and the folder it
// names; ok is false otherwise, or for anything else at top/.git.
func dotGit(top string) (dir string, ok bool) {
	dir = cleanpath.Join(top, ".git")
	fi, err := os.Lstat(dir)
	if err != nil || !ownedByUs(fi) {
		return "", false
	}
	switch {
	case fi.IsDir():
		return dir, true
	case !fi.Mode().IsRegular():
		return "", false
	}
	if dir, ok = pointer(dir, "gitdir: "); !ok {
		return "", false
	}
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(top, dir)
	}
	return dir, ownedFolder(dir)
}

// pointer is the path a small file of git's holds after prefix, on one
// line; ok is false for anything else.
func pointer(path, prefix string) (string, bool) {
	data, err := regfile.ReadFile(path)
	if err != nil || len(data) > 4096 {
		return "", false
	}
	p, ok := strings.CutPrefix(strings.TrimSuffix(string(data), "\n"), prefix)
	if !ok || p == "" || strings.ContainsAny(p, "\r\n\x00") {
		return "", false
	}
	return p, true
}

// ownedFolder reports whether path is a folder this user owns.
func ownedFolder(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir() && ownedByUs(fi)
}

// ownedByUs reports whether this user owns the file fi describes, as git
// requires of a repository's folders before it reads them (safe.directory
// aside, which git itself decides). Where fileio.Owner knows no owner
// (Windows, where git compares security identifiers), it is false, and git
// is asked.
func ownedByUs(fi fs.FileInfo) bool {
	uid, _ := fileio.Owner(fi)
	return uid >= 0 && uid == os.Geteuid()
}

// gitDirectory reports whether dir looks like a repository to git
// (setup.c, is_git_directory): a HEAD that names a branch or a commit, and
// objects and refs folders in its common folder. git passes over a .git
// folder that does not, to look for a repository further up; repo leaves
// that to git.
func gitDirectory(dir, common string) bool {
	for _, sub := range []string{"objects", "refs"} {
		if fi, err := os.Stat(cleanpath.Join(common, sub)); err != nil || !fi.IsDir() {
			return false
		}
	}
	head, err := regfile.ReadFile(cleanpath.Join(dir, "HEAD"))
	if err != nil {
		return false
	}
	if ref, ok := strings.CutPrefix(string(head), "ref: "); ok {
		return strings.HasPrefix(ref, "refs/")
	}
	h := strings.TrimSuffix(string(head), "\n")
	return len(h) == 2*hashSize && strings.Trim(h, "0123456789abcdef") == ""
}

// plainEnv reports whether no variable of gitEnv is set, nor a GIT_TEST_
// one, and whether the -c settings git passes on (GIT_CONFIG_PARAMETERS)
// leave the repository's layout and format alone.
func plainEnv() bool {
	for _, name := range gitEnv {
		if _, set := os.LookupEnv(name); set {
			return false
		}
	}
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "GIT_TEST_") {
			return false
		}
	}
	params := strings.ToLower(os.Getenv("GIT_CONFIG_PARAMETERS"))
	for _, key := range []string{"core.bare", "core.worktree", "extensions.", "include"} {
		if strings.Contains(params, key) {
			return false
		}
	}
	return true
}

// plainConfig reports whether the repository configuration at path leaves
// the index as fromIndex reads it: no [extensions] section, no include,
// no core.worktree, core.bare false and a format version of 0 or 1. A
// missing file is an empty configuration, as for git; one that cannot be
// read, or a setting on its section's line, is left to git. A value this
// reading takes otherwise than git (quoted, continued on the next line,
// with a comment) is never taken for one that changes nothing.
func plainConfig(path string) bool {
	data, err := regfile.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return true
	}
	if err != nil {
		return false
	}
	section := ""
	for line := range strings.Lines(string(data)) {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		if line[0] == '[' {
			end := strings.IndexByte(line, ']')
			if end < 0 {
				return false
			}
			if rest := strings.TrimSpace(line[end+1:]); rest != "" && rest[0] != '#' && rest[0] != ';' {
				return false
			}
			name, _, _ := strings.Cut(strings.ToLower(strings.TrimSpace(line[1:end])), " ")
			section, _, _ = strings.Cut(name, "\"")
			if section == "extensions" || strings.HasPrefix(section, "include") {
				return false
			}
			continue
		}
		if section != "core" {
			continue
		}
		key, value, _ := strings.Cut(line, "=")
		key = strings.ToLower(strings.TrimSpace(key))
		value = strings.ToLower(strings.TrimSpace(value))
		switch key {
		case "worktree":
			return false
		case "bare":
			if value != "false" && value != "no" && value != "off" && value != "0" {
				return false
			}
		case "repositoryformatversion":
			if value != "0" && value != "1" {
				return false
			}
		}
	}
	return true
}

// readIndex reads the index file at path, opened once (regfile.Open: a
// regular file only): a small one whole, a large one mapped (the page
// cache's own pages: an index of 100,000 files is some 10 MB). A missing
// file is an empty index.
func readIndex(path string, specs *specSet) (names map[string]bool, ok bool) {
	f, fi, err := regfile.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]bool{}, true
	}
	if err != nil {
		return nil, false
	}
	defer f.Close()
	size := fi.Size()
	if size > 1<<30 {
		return nil, false
	}
	if size < bigmem.MapThreshold {
		data := make([]byte, size)
		if _, err := io.ReadFull(f, data); err != nil {
			return nil, false
		}
		return indexNames(data, specs)
	}
	data, err := bigmem.Map(f, int(size))
	if err != nil {
		return nil, false
	}
	defer bigmem.Unmap(data)
	// The index is replaced, never rewritten in place, by git; a file cut
	// short under the mapping faults, and git answers instead.
	if err := bigmem.WithFaults(func() error {
		names, ok = indexNames(data, specs)
		return nil
	}); err != nil {
		return nil, false
	}
	return names, ok
}

// hashSize is the length of an object name in the index: SHA-1's. A
// SHA-256 repository says so in [extensions], which plainConfig leaves to
// git.
const hashSize = 20

// indexNames returns the names of the entries of data, an index file, that
// specs lists, or ok false when data is not an index that this reading is
// sure to read as git does (see fromIndex). The format is git's
// Documentation/gitformat-index.txt.
func indexNames(data []byte, specs *specSet) (names map[string]bool, ok bool) {
	if len(data) < 12+hashSize || string(data[:4]) != "DIRC" {
		return nil, false
	}
	e := entries{
		version: binary.BigEndian.Uint32(data[4:8]),
		body:    data[:len(data)-hashSize], // the checksum last
		off:     12,
	}
	if e.version < 2 || e.version > 4 {
		return nil, false
	}
	names, ok = e.listed(binary.BigEndian.Uint32(data[8:12]), specs)
	if !ok || !extensionsReadable(e.body[e.off:]) {
		return nil, false
	}
	return names, true
}

// entries is an index's entries as they are read: body is the index
// without its checksum, off where the next entry starts.
type entries struct {
	version uint32
	body    []byte
	off     int
	prev    []byte // version 4: the name before, which the next one starts from
}

// listed reads count entries from e.off, and returns the names among them
// that specs lists, or ok false when an entry is not laid out as the
// format says or is a folder (a sparse index's). One call reads them all:
// a call per entry made a large index a tenth slower to read.
func (e *entries) listed(count uint32, specs *specSet) (names map[string]bool, ok bool) {
	// ctime, mtime, dev, ino, mode, uid, gid, size; the object name; flags.
	const fixed = 40 + hashSize + 2
	names = map[string]bool{}
	for range count {
		body, off := e.body, e.off
		if len(body)-off < fixed {
			return nil, false
		}
		if mode := binary.BigEndian.Uint32(body[off+24:]); mode&0o170000 == 0o040000 {
			return nil, false // a folder: a sparse index
		}
		flags := binary.BigEndian.Uint16(body[off+40+hashSize:])
		p := off + fixed
		if flags&0x4000 != 0 { // a second flags word (skip-worktree, intent-to-add)
			if e.version < 3 || len(body)-p < 2 {
				return nil, false
			}
			p += 2
		}
		n := int(flags & 0xfff)
		var name []byte
		if e.version == 4 {
			if name, ok = e.prefixed(p); !ok {
				return nil, false
			}
		} else {
			// The flags hold the name's length below 0xfff: no need to
			// look for its end, only to find it there. The entry is
			// NUL-padded to a multiple of eight bytes, one NUL at least.
			end := n
			if end == 0xfff {
				end = bytes.IndexByte(body[p:], 0)
			}
			if end < 0 || len(body)-p <= end || body[p+end] != 0 {
				return nil, false
			}
			name = body[p : p+end]
			if e.off += (p - off + end + 8) &^ 7; e.off > len(body) {
				return nil, false
			}
		}
		if len(name) == 0 || n < 0xfff && n != len(name) {
			return nil, false
		}
		if specs.lists(name) {
			names[string(name)] = true
		}
	}
	return names, true
}

// prefixed reads a version 4 name at p: how many bytes of the name before
// to drop, then the rest of the name and a NUL.
func (e *entries) prefixed(p int) (name []byte, ok bool) {
	strip, q, ok := varint(e.body, p)
	if !ok || strip > len(e.prev) {
		return nil, false
	}
	end := bytes.IndexByte(e.body[q:], 0)
	if end < 0 {
		return nil, false
	}
	e.prev = append(e.prev[:len(e.prev)-strip], e.body[q:q+end]...)
	e.off = q + end + 1
	return e.prev, true
}

// extensionsReadable reports whether rest, what follows an index's entries
// up to its checksum, is a run of extensions, each a signature, a size and
// that many bytes, none of which git must understand to read the index.
func extensionsReadable(rest []byte) bool {
	for off := 0; off < len(rest); {
		if len(rest)-off < 8 {
			return false
		}
		sig := rest[off : off+4]
		size := binary.BigEndian.Uint32(rest[off+4:])
		// A signature that does not start with a capital letter is one git
		// must understand to read the index: a split index's (link, its
		// entries are in another file) and a sparse one's (sdir) are such.
		if sig[0] < 'A' || sig[0] > 'Z' {
			return false
		}
		off += 8
		if uint64(size) > uint64(len(rest)-off) {
			return false
		}
		off += int(size)
	}
	return true
}

// varint decodes git's offset varint (varint.c) at b[i:]: the value and
// where the bytes after it start.
func varint(b []byte, i int) (v int, next int, ok bool) {
	if i >= len(b) {
		return 0, 0, false
	}
	c := b[i]
	i++
	v = int(c & 0x7f)
	for c&0x80 != 0 {
		if i >= len(b) || v >= 1<<24 {
			return 0, 0, false
		}
		c = b[i]
		i++
		v = (v+1)<<7 | int(c&0x7f)
	}
	return v, i, true
}

// specSet is a question's literal pathspecs (paths relative to the top,
// "." for all of it): a name is listed when a pathspec is the name or a
// folder above it.
type specSet struct {
	all   bool
	specs map[string]bool
	first map[string]bool // the first part of each: most names are ruled out by theirs
	// The last name's first part and whether first holds it: an index is
	// sorted, and runs of names share their first part.
	lastFirst []byte
	lastIn    bool
}

func newSpecSet(rels []string) *specSet {
	s := &specSet{specs: make(map[string]bool, len(rels)), first: make(map[string]bool, len(rels))}
	for _, rel := range rels {
		if rel == "." {
			s.all = true
		}
		s.specs[rel] = true
		first, _, _ := strings.Cut(rel, "/")
		s.first[first] = true
	}
	return s
}

func (s *specSet) lists(name []byte) bool {
	if s.all {
		return true
	}
	if n := len(s.lastFirst); n > 0 && len(name) > n && name[n] == '/' && bytes.Equal(name[:n], s.lastFirst) {
		if !s.lastIn {
			return false
		}
	} else {
		first := name
		if i := bytes.IndexByte(name, '/'); i >= 0 {
			first = name[:i]
		}
		s.lastFirst, s.lastIn = append(s.lastFirst[:0], first...), s.first[string(first)]
		if !s.lastIn {
			return false
		}
	}
	if s.specs[string(name)] {
		return true
	}
	for i, c := range name {
		if c == '/' && s.specs[string(name[:i])] {
			return true
		}
	}
	return false
}
