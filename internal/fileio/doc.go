// Package fileio holds the file-system primitives the planner and the
// committer share: steady reads of target files (read.go: a changing file
// is read again, a just-changed one settles first; a big file is mapped
// for a read-only plan and read in two halves otherwise), staging a new
// version next to its file with the old one's owner, ACL and attributes
// (stage.go, xattr_*.go), and removing what ended runs staged (by their
// locks and their processes, process_*.go), the renames that put it in
// place (rename_*.go), whether this user may write a file (access_*.go),
// the workspace lock and the tools' own locks (lock.go, toollock.go), and
// each OS's differences (fs_*.go, ctime_*.go, version_*.go). faults.go
// reports a mapped file's fault as ErrUnsteady.
//
// What a commit does to the file system goes through FS (seam.go): OS in
// every run, and in tests internal/fsfault, which fails the call
// a test names (a full disk at the third write, a rename that cannot
// cross a mount) or runs a function at it (a tool saving at that
// moment).
//
// The big-file machinery itself — mapping, halves, huge pages, the fault
// guard — is internal/bigmem, with the benchmark that justifies each
// piece (BenchmarkBigFile).
package fileio
