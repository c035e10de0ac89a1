package extensions

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"syscall"

	"github.com/repo-manager/repo/internal/cleanpath"
	"github.com/repo-manager/repo/internal/par"
	"github.com/repo-manager/repo/internal/regfile"
	"github.com/repo-manager/repo/internal/termtext"
)

// RepoDir is the folder that marks a workspace root.
const RepoDir = ".repository"

// ErrNoRoot is returned when no workspace root is found.
var ErrNoRoot = errors.New("no .repository folder found here or in any parent; run inside a workspace or pass --root")

// FindRoot walks up from dir to the first folder holding .repository/.
// Only a folder known to hold none is walked past: one that cannot be
// looked into (a path too long to stat, no permission) may be the
// workspace, and walking on would sync the one that encloses it.
func FindRoot(dir string) (string, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for {
		fi, err := os.Stat(cleanpath.Join(dir, RepoDir))
		switch {
		case err == nil && fi.IsDir():
			return dir, nil
		case err != nil && !NotThere(err):
			return "", fmt.Errorf("%s: cannot tell whether it is in a workspace: %s; run repo from a shorter path, or pass --root", termtext.Safe(dir), describe(err))
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", ErrNoRoot
		}
		dir = parent
	}
}

// Extension is one installed extension.
type Extension struct {
	Name     string
	Version  string
	Dir      string // absolute
	Manifest string // relative to the root, slash-separated
	MCPFile  string // relative to the root; empty when the extension ships no MCP server
	Venv     string // absolute virtualenv folder
	Python   string // absolute venv python
	Servers  []Server
}

// Workspace is everything repo read from the extensions.
type Workspace struct {
	Root       string
	Extensions []Extension
	Servers    []Server // every server, by extension name then file order
}

// Options says where to look and what to fill in.
type Options struct {
	Root string // absolute
	Home string
	GOOS string
}

// Load reads every extension under root/.repository/extensions and resolves
// its servers. Any problem is an error: a half-read workspace would make
// sync remove the servers it failed to read.
func Load(o Options) (*Workspace, error) {
	ws := &Workspace{Root: o.Root}
	extRoot := cleanpath.Join(o.Root, RepoDir, "extensions")
	entries, err := os.ReadDir(extRoot)
	if errors.Is(err, fs.ErrNotExist) {
		return ws, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", rel(o.Root, extRoot), err)
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
	// Resolved once: an extension folder that is not a link is then known
	// to be really at realExtRoot/<name>, without resolving every folder
	// above it again for each extension.
	realExtRoot, err := filepath.EvalSymlinks(extRoot)
	if err != nil {
		realExtRoot = "" // each extension resolves its own folder, and reports what fails
	}
	// Extensions are loaded at once, each on its own, and taken in folder
	// order: the first error in that order is the one reported, as when
	// they were loaded one by one.
	type loaded struct {
		ext *Extension // nil: not an extension
		err error
	}
	results := make([]loaded, len(entries))
	par.Each(len(entries), runtime.GOMAXPROCS(0), func(i int) {
		results[i].ext, results[i].err = loadEntry(o, extRoot, realExtRoot, entries[i])
	})
	owner := map[string]*Server{}
	for _, r := range results {
		if r.err != nil {
			return nil, r.err
		}
		if r.ext == nil {
			continue
		}
		for i := range r.ext.Servers {
			s := &r.ext.Servers[i]
			if prev, ok := owner[s.Name]; ok {
				return nil, &Error{File: s.Source, Line: s.Line, Extension: s.Extension, Server: s.Name,
					Msg: fmt.Sprintf("server name is also declared by extension %s (%s:%d); rename one of them", prev.Extension, prev.Source, prev.Line)}
			}
			owner[s.Name] = s
		}
		ws.Extensions = append(ws.Extensions, *r.ext)
	}
	for _, ext := range ws.Extensions {
		ws.Servers = append(ws.Servers, ext.Servers...)
	}
	return ws, nil
}

// loadEntry loads the extension in the folder entry e of extRoot; a nil
// Extension (and error) when e is not one.
func loadEntry(o Options, extRoot, realExtRoot string, e fs.DirEntry) (*Extension, error) {
	if strings.HasPrefix(e.Name(), ".") {
		return nil, nil
	}
	dir := cleanpath.Join(extRoot, e.Name())
	if err := termtext.Check(e.Name()); err != nil {
		// Its name is printed in every message about it, and in repo mcp
		// list: a carriage return or an escape sequence would act on the
		// terminal, a newline start a workflow command in a CI log.
		return nil, &Error{File: rel(o.Root, dir), Msg: "an extension folder's name must be printable: " + err.Error() + "; rename the folder"}
	}
	fi, err := os.Stat(dir)
	if err != nil {
		// A folder repo cannot look into (a symlink loop, a dangling
		// link, no permission) may be an extension: skipping it would
		// make sync remove its servers everywhere.
		return nil, &Error{File: rel(o.Root, dir), Extension: e.Name(), Msg: "cannot read the extension folder: " + describe(err)}
	}
	if !fi.IsDir() {
		return nil, nil // a stray file is not an extension
	}
	manifest := cleanpath.Join(dir, "extension.toml")
	if _, err := os.Lstat(manifest); errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	realDir := ""
	if realExtRoot != "" && e.Type()&fs.ModeSymlink == 0 {
		realDir = cleanpath.Join(realExtRoot, e.Name())
	}
	return loadExtension(o, dir, realDir, e.Name())
}

// loadExtension reads the extension in dir. realDir is where dir really
// is, if the caller knows; else it is resolved here.
func loadExtension(o Options, dir, realDir, folder string) (*Extension, error) {
	manifestPath := cleanpath.Join(dir, "extension.toml")
	mrel := rel(o.Root, manifestPath)
	data, err := regfile.ReadFile(manifestPath)
	if err != nil {
		return nil, &Error{File: mrel, Extension: folder, Msg: "cannot read: " + describe(err)}
	}
	m, err := decodeManifest(data, mrel, folder)
	if err != nil {
		return nil, err
	}
	if realDir == "" {
		if realDir, err = filepath.EvalSymlinks(dir); err != nil {
			return nil, &Error{File: mrel, Extension: folder, Msg: "cannot resolve the extension folder: " + describe(err)}
		}
	}
	venv, err := inside(dir, m.Runtime.Python)
	if err != nil {
		return nil, &Error{File: mrel, Extension: folder, Field: "runtime.python", Msg: err.Error()}
	}
	ctx := Context{Root: o.Root, Home: o.Home, GOOS: o.GOOS, ExtDir: dir, Venv: m.Runtime.Python}
	ext := &Extension{Name: m.Name, Version: m.Version, Dir: dir, Manifest: mrel, Venv: venv, Python: ctx.Python()}
	if m.Provides.MCP == "" {
		return ext, nil
	}
	mcpPath, err := inside(dir, m.Provides.MCP)
	if err != nil {
		return nil, &Error{File: mrel, Extension: folder, Field: "provides.mcp", Msg: err.Error()}
	}
	ext.MCPFile = rel(o.Root, mcpPath)
	// The file itself must not lead out of the extension through a symlink.
	realMCP, err := resolveUnder(dir, realDir, mcpPath)
	if err != nil {
		return nil, &Error{File: mrel, Extension: folder, Field: "provides.mcp", Msg: fmt.Sprintf("%s: %s", m.Provides.MCP, describe(err))}
	}
	if !within(realDir, realMCP) {
		return nil, &Error{File: mrel, Extension: folder, Field: "provides.mcp",
			Msg: fmt.Sprintf("%s is a link to %s, outside the extension folder; the MCP file must stay inside it", m.Provides.MCP, realMCP)}
	}
	data, err = regfile.ReadFile(realMCP)
	if err != nil {
		return nil, &Error{File: ext.MCPFile, Extension: folder, Msg: "cannot read: " + describe(err)}
	}
	decls, err := parseMCPFile(data, ext.MCPFile, folder)
	if err != nil {
		return nil, err
	}
	for _, d := range decls {
		s, err := Resolve(d, ctx, m.Name, ext.MCPFile)
		if err != nil {
			return nil, err
		}
		ext.Servers = append(ext.Servers, s)
	}
	return ext, nil
}

// resolveUnder is filepath.EvalSymlinks(p) for a path p inside dir, given
// realDir, where dir really is. When no folder or file of p below dir is a
// link, that is p's part below dir joined to realDir: found with one Lstat
// for each of those parts, rather than for every folder of the whole path.
// Otherwise, or when a part cannot be read, EvalSymlinks decides (and
// words the error).
func resolveUnder(dir, realDir, p string) (string, error) {
	rest, err := cleanpath.Rel(dir, p)
	if err != nil || rest == "." || !filepath.IsLocal(rest) {
		return filepath.EvalSymlinks(p)
	}
	real := realDir
	for _, part := range strings.Split(rest, string(filepath.Separator)) {
		real = cleanpath.Join(real, part)
		if fi, err := os.Lstat(real); err != nil || fi.Mode()&fs.ModeSymlink != 0 {
			return filepath.EvalSymlinks(p)
		}
	}
	return real, nil
}

// inside joins a manifest path to dir, refusing absolute paths and paths
// that climb out of dir.
func inside(dir, p string) (string, error) {
	if p == "" {
		return "", fmt.Errorf("must not be empty")
	}
	if filepath.IsAbs(p) || strings.HasPrefix(p, "/") || strings.HasPrefix(p, `\`) || filepath.VolumeName(p) != "" {
		return "", fmt.Errorf("%q is absolute; give a path inside the extension folder", p)
	}
	joined := cleanpath.Join(dir, filepath.FromSlash(p))
	if !within(dir, joined) {
		return "", fmt.Errorf("%q leads outside the extension folder; give a path inside it", p)
	}
	return joined, nil
}

func within(dir, p string) bool {
	r, err := cleanpath.Rel(dir, p)
	return err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator))
}

func rel(root, p string) string {
	if r, err := cleanpath.Rel(root, p); err == nil && !strings.HasPrefix(r, "..") {
		return filepath.ToSlash(r)
	}
	return filepath.ToSlash(p)
}

// NotThere reports whether err says that a path does not exist: it, or
// a folder on its way (ENOTDIR: a file where a folder would be).
func NotThere(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)
}

// describe shortens *PathError texts: the path is already in the message.
func describe(err error) string {
	var perr *fs.PathError
	if errors.As(err, &perr) {
		return perr.Err.Error()
	}
	return err.Error()
}
