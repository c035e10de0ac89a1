//go:build race

package ordered

// raceEnabled: the race detector changes what allocates, so exact
// allocation counts are not checked under it.
const raceEnabled = true
