//go:build !race

package commit

// sweepEvery: a sweep fails every call of a run (see sweep), or with
// -short every fourth.
const sweepEvery = 1
