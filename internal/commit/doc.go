// Package commit writes a plan (package internal/plan) all or nothing:
// Apply stages every changed file next to its original, then replaces
// them one by one — tool configs first, ownership records last — each only
// if it still holds what was planned from, under the tools' own locks;
// if one fails, the files already replaced are put back. A host stops it
// with ApplyInterruptible's channels (the package installs no signal
// handler): everything is put back, or, once every tool config is
// replaced, the run finishes. The end-to-end
// tests of planning and applying live here too. docs/coexistence.md tells
// why each step is there.
package commit
