//go:build race

package yamledit

// allocSlack scales allocation bounds in tests: the race detector moves
// values that would live on the stack to the heap, so the same work
// allocates about three times as much (30 MB becomes 88 MB for the
// billion-laughs refusal).
const allocSlack = 4
