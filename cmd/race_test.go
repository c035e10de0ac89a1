//go:build race

package cmd

// raceEnabled: these tests run under the race detector (make test runs
// the concurrency tests so), and buildRepo builds repo with it too, so that
// the processes the tests run side by side are checked as well.
const raceEnabled = true
