// Package cleanpath is path/filepath's Join, Rel, Clean and Dir, with a shortcut for
// the paths a run mostly holds: absolute and already clean (RealPath's,
// the root's, a profile's expanded path). filepath cleans every argument
// and every result again, and a no-op `repo sync --check` of the example
// workspace spent 8 % of its instructions in filepath.Clean, over some
// 1,400 calls of Join, Rel and Dir (bench/RESULTS.md, "Sixth round"). The
// shortcut gives filepath's result exactly (FuzzJoin, FuzzRel, FuzzCleanDir); anything
// else goes to filepath.
package cleanpath

import (
	"path/filepath"
	"strings"
)

// slash is true where the shortcut applies: the separator is '/' and a
// path has no volume name.
const slash = filepath.Separator == '/'

// Join is filepath.Join.
func Join(elem ...string) string {
	if slash && len(elem) == 2 && absClean(elem[0]) && relClean(elem[1]) {
		if elem[0] == "/" {
			return "/" + elem[1]
		}
		return elem[0] + "/" + elem[1]
	}
	return filepath.Join(elem...)
}

// Rel is filepath.Rel.
func Rel(basepath, targpath string) (string, error) {
	if slash && absClean(basepath) && absClean(targpath) {
		switch {
		case targpath == basepath:
			return ".", nil
		case basepath == "/":
			return targpath[1:], nil
		case strings.HasPrefix(targpath, basepath) && targpath[len(basepath)] == '/':
			return targpath[len(basepath)+1:], nil
		}
	}
	return filepath.Rel(basepath, targpath)
}

// Clean is filepath.Clean.
func Clean(p string) string {
	if slash && absClean(p) {
		return p
	}
	return filepath.Clean(p)
}

// Dir is filepath.Dir.
func Dir(p string) string {
	if slash && absClean(p) {
		if i := strings.LastIndexByte(p, '/'); i > 0 {
			return p[:i]
		}
		return "/"
	}
	return filepath.Dir(p)
}

// absClean reports whether p is absolute and filepath.Clean(p) == p.
func absClean(p string) bool {
	return p != "" && p[0] == '/' && (p == "/" || elemsClean(p[1:]))
}

// relClean reports whether p is relative, filepath.Clean(p) == p, and
// not "." (which Join drops).
func relClean(p string) bool {
	return p != "" && p[0] != '/' && elemsClean(p)
}

// elemsClean reports whether p is one or more elements joined by single
// slashes, none of them "." or "..", with no slash at either end.
func elemsClean(p string) bool {
	for {
		i := strings.IndexByte(p, '/')
		e := p
		if i >= 0 {
			e = p[:i]
		}
		if e == "" || e == "." || e == ".." {
			return false
		}
		if i < 0 {
			return true
		}
		p = p[i+1:]
	}
}
