// Package fsfault is a file system for tests (a fileio.FS) that fails
// the calls a test chooses, with the errno it chooses, or runs a function
// at them: the full disk, the immutable file, the bind mount, the rename
// that fails half-way through a run, the tool that replaces a file or
// writes into one while repo commits. Every other call is made in the
// real file system, so a test plays a commit's failures on real files,
// as any user, on any system.
//
// A call is chosen by what it does (Op), the file it is for, and its
// rank among the calls that match (Rule). The file a call is for is its
// path, or, for a staged name (fileio.TempPrefix), the file it was staged
// for: a rule on ".mcp.json" matches the write of its staged copy and the
// rename of that copy over it.
package fsfault

import (
	"io/fs"
	"os"
	"sync"
	"syscall"

	"github.com/repo-manager/repo/internal/fileio"
)

// Op is what a call does: one of fileio.FS's methods.
type Op string

const (
	Stat            Op = "stat"
	Lstat           Op = "lstat"
	Open            Op = "open"
	ReadDir         Op = "readdir"
	Mkdir           Op = "mkdir"
	Remove          Op = "remove"
	Link            Op = "link"
	Rename          Op = "rename"
	Exchange        Op = "exchange"
	RenameNoReplace Op = "renamenoreplace"
	WriteAt         Op = "writeat"
	Truncate        Op = "truncate"
	Sync            Op = "sync"
	Chmod           Op = "chmod"
	Chown           Op = "chown"
	Lock            Op = "lock"
	Listxattr       Op = "listxattr"
	Getxattr        Op = "getxattr"
	Flistxattr      Op = "flistxattr"
	Fgetxattr       Op = "fgetxattr"
	Fsetxattr       Op = "fsetxattr"
	Fremovexattr    Op = "fremovexattr"

	// Commit is not a call of its own but a kind of call: one that
	// succeeded in putting a file's new version at its name or its old
	// one aside — a rename, exchange or rename-unless-it-exists between a
	// file and a staged name of it, or a write in place. Whatever the
	// system commits with (renameat2, a rename after a hard link, a write
	// in place on Windows), the Nth commit is the Nth file committed. It
	// is known only once the call is made: a Commit rule runs only its
	// After.
	Commit Op = "commit"
)

// Rule chooses calls, and what to do at them.
type Rule struct {
	Op Op
	// File is the file the call is for (see the package doc); "" for any.
	File string
	// Nth is the rank of the call among those the rule matches, from 1;
	// 0 for every one.
	Nth int
	// Err, if not nil, is returned instead of making the call. An errno
	// (syscall.Errno) is wrapped as the os package wraps the call's own.
	Err error
	// Skip, without Err, has the call succeed without making it: an
	// fsync, for a test that makes hundreds of runs and is not about
	// durability. A rule with an Err still fails it.
	Skip bool
	// Before runs before the call; After after it, if it succeeded.
	Before, After func()

	seen int
}

// Call is a call the file system was asked to make.
type Call struct {
	Op    Op
	Paths []string // its paths, or the name of the open file it was made on
	File  string   // the file it is for
	Err   error    // what it returned
}

// FS is fileio.FS with rules. Its methods are safe to call at once (a run
// stages several files at a time); a rule's functions run outside its lock.
type FS struct {
	real  fileio.FS
	mu    sync.Mutex
	rules []*Rule
	calls []Call
}

// New is an FS that makes every call in the real file system (fileio.OS)
// until rules say otherwise.
func New() *FS { return &FS{real: fileio.OS{}} }

// Add adds a rule. Every rule that matches a call runs; the first with an
// Err fails it.
func (f *FS) Add(r Rule) *FS {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.rules = append(f.rules, &r)
	return f
}

// Fail makes the nth call of op for file (see Rule) return err.
func (f *FS) Fail(op Op, file string, nth int, err error) *FS {
	return f.Add(Rule{Op: op, File: file, Nth: nth, Err: err})
}

// Before runs fn before the nth call of op for file.
func (f *FS) Before(op Op, file string, nth int, fn func()) *FS {
	return f.Add(Rule{Op: op, File: file, Nth: nth, Before: fn})
}

// After runs fn after the nth call of op for file, if it succeeded.
func (f *FS) After(op Op, file string, nth int, fn func()) *FS {
	return f.Add(Rule{Op: op, File: file, Nth: nth, After: fn})
}

// Calls are the calls made so far, in order.
func (f *FS) Calls() []Call {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]Call(nil), f.calls...)
}

// FileOf is the file a path is for: the file a staged name was staged
// for, else the path itself.
func FileOf(path string) string {
	if file, ok := fileio.StagedOf(path); ok {
		return file
	}
	return path
}

// do makes the call op on paths through call, under the rules.
func (f *FS) do(op Op, paths []string, call func() error) error {
	c := Call{Op: op, Paths: paths, File: FileOf(paths[0])}
	v := f.match(op, paths)
	for _, fn := range v.before {
		fn()
	}
	var err error
	switch {
	case v.fault != nil:
		err = wrap(op, paths, v.fault)
	case !v.skip:
		err = call()
	}
	c.Err = err
	f.mu.Lock()
	f.calls = append(f.calls, c)
	f.mu.Unlock()
	if err != nil {
		return err
	}
	after := v.after
	if isCommit(op, paths) {
		after = append(after, f.match(Commit, paths).after...)
	}
	for _, fn := range after {
		fn()
	}
	return nil
}

// verdict is what the rules say of a call: the first fault, whether to
// skip the call, and the functions to run.
type verdict struct {
	fault         error
	skip          bool
	before, after []func()
}

// match counts the call op on paths for every rule it matches and
// returns what they say.
func (f *FS) match(op Op, paths []string) (v verdict) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, r := range f.rules {
		if r.Op != op || !matchesFile(r.File, paths) {
			continue
		}
		r.seen++
		if r.Nth != 0 && r.seen != r.Nth {
			continue
		}
		if v.fault == nil {
			v.fault = r.Err
		}
		v.skip = v.skip || r.Skip
		if r.Before != nil {
			v.before = append(v.before, r.Before)
		}
		if r.After != nil {
			v.after = append(v.after, r.After)
		}
	}
	return v
}

func matchesFile(file string, paths []string) bool {
	if file == "" {
		return true
	}
	for _, p := range paths {
		if FileOf(p) == file {
			return true
		}
	}
	return false
}

// isCommit: the call puts a file's new version at its name, or its old
// one aside (see Commit).
func isCommit(op Op, paths []string) bool {
	switch op {
	case Rename, Exchange, RenameNoReplace:
		_, fromStaged := fileio.StagedOf(paths[0])
		_, toStaged := fileio.StagedOf(paths[1])
		return fromStaged != toStaged && FileOf(paths[0]) == FileOf(paths[1])
	case WriteAt:
		_, staged := fileio.StagedOf(paths[0])
		return !staged
	}
	return false
}

// wrap gives an injected errno the wrapping the real call's error has:
// the os package's for paths and open files, none for the system calls
// made directly (renameat2, flock, the extended attributes).
func wrap(op Op, paths []string, err error) error {
	if _, ok := err.(syscall.Errno); !ok {
		return err // already as the caller wants it
	}
	switch op {
	case Exchange, RenameNoReplace, Lock, Listxattr, Getxattr, Flistxattr, Fgetxattr, Fsetxattr, Fremovexattr:
		return err
	case Rename, Link:
		return &os.LinkError{Op: string(op), Old: paths[0], New: paths[1], Err: err}
	}
	return &fs.PathError{Op: string(op), Path: paths[0], Err: err}
}
