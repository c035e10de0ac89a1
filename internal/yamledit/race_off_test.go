//go:build !race

package yamledit

// allocSlack scales allocation bounds in tests; see race_on_test.go.
const allocSlack = 1
