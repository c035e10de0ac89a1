package plan

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/repo-manager/repo/internal/fileio"
	"github.com/repo-manager/repo/internal/gitignore"
	"github.com/repo-manager/repo/internal/regfile"
	"github.com/repo-manager/repo/internal/target"
	"github.com/repo-manager/repo/toolprofiles"
)

// The workspace's .gitignore, with a block of lines that repo keeps: the
// machine-specific files it writes. The block itself — what it lists, how
// it is found among the user's lines and rewritten — is package
// internal/gitignore; a plan reads the file, checks that it may
// be written, and plans the block's bytes (Options.Ignore). The names
// below keep that package's where importers of plan found them.

// IgnoreFile is the .gitignore repo keeps its block in, relative to the
// workspace root (gitignore.File).
const IgnoreFile = gitignore.File

// The block's marker lines (see gitignore.MarkerStart).
const (
	IgnoreMarkerStart  = gitignore.MarkerStart
	IgnoreMarkerEnd    = gitignore.MarkerEnd
	IgnoreMarkerPrefix = gitignore.MarkerPrefix
)

// Reasons for changes to the .gitignore.
const (
	ReasonNotIgnored   Reason = gitignore.ReasonNotIgnored
	ReasonNoLongerOurs Reason = gitignore.ReasonNoLongerOurs
	ReasonUserLine     Reason = gitignore.ReasonUserLine
	ReasonIgnoreBlock  Reason = gitignore.ReasonIgnoreBlock
	ReasonStaged       Reason = gitignore.ReasonStaged
)

// IgnoreBlock is what repo's block in the .gitignore is to list (see
// Options.Ignore): gitignore.Block.
type IgnoreBlock = gitignore.Block

// IgnoredFiles is what the .gitignore block lists for targets
// (gitignore.Paths).
func IgnoredFiles(env target.Env, targets []*target.Target) []string {
	return gitignore.Paths(env.Root, targets)
}

// planIgnore plans the workspace's .gitignore: repo's block made to list
// the paths of b (gitignore.Block.Rewrite). The file is refused as a
// tool's file would be (checkWritable), read only if it is a regular
// file, and left as it is when the block already is as planned.
func planIgnore(env target.Env, root realRoot, b *IgnoreBlock) (*FilePlan, error) {
	path := filepath.Join(env.Root, IgnoreFile)
	t := &target.Target{Path: path, Display: IgnoreFile, Scope: toolprofiles.ScopeProject}
	file := &fileGroup{path: path}
	if real, err := filepath.EvalSymlinks(path); err == nil {
		file.path, file.real = real, true
	} else if !fileio.IsMissing(err) {
		return nil, &FileError{File: IgnoreFile, Err: err}
	}
	if err := checkWritable(env, root, file, t); err != nil {
		return nil, err
	}
	fp := &FilePlan{Path: file.path, Display: IgnoreFile, Scope: ScopeGitignore, Mode: newFileMode(true)}
	data, err := regfile.ReadFile(file.path)
	switch {
	case err == nil:
		fp.Existed, fp.Before = true, data
	case errors.Is(err, fs.ErrNotExist):
	default:
		return nil, &FileError{File: IgnoreFile, Err: fmt.Errorf("cannot read: %w", fileio.UnwrapPath(err))}
	}
	after, changes, err := b.Rewrite(data)
	var lerr *gitignore.LineError
	if errors.As(err, &lerr) {
		return nil, &FileError{File: IgnoreFile, Line: lerr.Line, Col: 1, Err: lerr.Err}
	}
	if err != nil {
		return nil, err
	}
	fp.After = after
	if !fp.Existed && len(after) == 0 {
		fp.After = nil
	}
	if !fp.Changed() {
		fp.After = fp.Before
		return fp, nil
	}
	for _, c := range changes {
		action := map[gitignore.Kind]Action{gitignore.Added: ActionAdd, gitignore.Removed: ActionRemove, gitignore.Rewritten: ActionUpdate}[c.Kind]
		fp.Changes = append(fp.Changes, Change{Action: action, Entry: c.Line, Reason: Reason(c.Reason)})
	}
	return fp, nil
}
