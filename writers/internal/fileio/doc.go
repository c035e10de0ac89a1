// Package fileio holds the file-system primitives the planner and the
// committer share: steady reads of target files (read.go: a changing file
// is read again, a just-changed one settles first; big files are mapped
// and read in two halves), the memory-fault guard for mapped files
// (faults.go), staging a new version next to its file (stage.go), the
// renames that put it in place (rename_*.go), the workspace lock and the
// tools' own locks (lock.go, toollock.go), and each OS's differences
// (fs_*.go, ctime_*.go, version_*.go, mmap_*.go).
//
// The benchmarks that justify the big-file machinery — mapping, halves,
// the fault guard, huge pages (internal/bigmem) — are in
// writers/writers_bench_test.go.
package fileio
