//go:build race

package commit

// sweepEvery: under the race detector a sweep fails every fourth call
// only (see sweep): each run is several times slower, and the detector is
// there for the runs' goroutines, which every run has.
const sweepEvery = 4
