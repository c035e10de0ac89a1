// Package plan turns targets (package internal/target) into the new bytes
// of every file a sync touches, in memory, and writes nothing: Build reads
// each file steadily (internal/fileio), has its editor
// (internal/jsonedit, tomledit, yamledit, through the contract of
// internal/editor; FormatFor picks one per target) find the
// entries at the target's key, and compares them with the entries wanted
// and with the ownership record — what repo wrote there, by digest
// (package internal/record) — to decide each Change: add, update,
// adopt, remove or forget, never touching an entry of the user's
// (decide.go). The plan also holds the ownership records themselves, the
// .gitignore block of machine-specific files (package
// internal/gitignore), and the removals for tools that left the
// list (LeavingTargets) or for an old path to the workspace (alias.go).
// Diff shows a planned file; package internal/commit writes a plan.
package plan
