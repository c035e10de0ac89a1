package gates

import (
	"slices"
	"testing"

	"github.com/repo-manager/repo/internal/ordered"
)

// TestAmpSpecHash pins the hash Amp binds an approval to. Each want is what
// Amp 0.0.1790142911-g7618fb wrote to amp.mcpTrustedServers when `amp mcp
// approve` approved that entry, as repo sync wrote it to .amp/settings.json.
func TestAmpSpecHash(t *testing.T) {
	cases := []struct {
		name  string
		entry ordered.Object
		want  string
	}{
		{"args with quotes, a backslash, non-ASCII and a control character; env keys that JavaScript orders numerically first, then by code unit", ordered.Object{
			{Key: "command", Value: "srv"},
			{Key: "args", Value: []string{"--x", "q\"u\\o", "é\u0001"}},
			{Key: "env", Value: ordered.Object{{Key: "b", Value: "2"}, {Key: "A", Value: "${HOME}"}, {Key: "10", Value: "n"}, {Key: "9", Value: "m"}}},
		}, "af432ce7ffb417a44d60d4040115d68732c4405f158b79d1a76e38a8cc536c40"},
		{"a command alone", ordered.Object{{Key: "command", Value: "srv"}},
			"d4f933cb48358a2eb3dff70ec0bb55eb7b53e754107dab9272f825f6c062784d"},
		{"a remote server", ordered.Object{
			{Key: "url", Value: "https://x.invalid/mcp"},
			{Key: "headers", Value: ordered.Object{{Key: "Z", Value: "1"}, {Key: "a", Value: "${T}"}}},
		}, "d97d32daf1025d6abe555001dac8c1493d8056f0c6963ce5d3865aa2c1e00e88"},
		// From the run in which the approval format was found: {"command": "/bin/cat", "args": ["x"]}.
		{"an absolute command", ordered.Object{{Key: "command", Value: "/bin/cat"}, {Key: "args", Value: []string{"x"}}},
			"43746138d67d454c3168a82287373ced6fe1cc111981290e2520628fa951d1b2"},
	}
	for _, c := range cases {
		got, err := ampSpecHash(c.entry)
		if err != nil || got != c.want {
			t.Errorf("%s: ampSpecHash = %s, %v; want %s", c.name, got, err, c.want)
		}
	}
}

func TestJSKeyOrder(t *testing.T) {
	// Array indices first, numerically; then UTF-16 code units, in which
	// U+FF5E sorts after U+1F600 (a surrogate pair, 0xD83D…).
	keys := []string{"b", "\uff5e", "😀", "10", "A", "9", "01", "4294967295"}
	want := []string{"9", "10", "01", "4294967295", "A", "b", "😀", "\uff5e"}
	slices.SortFunc(keys, jsKeyOrder)
	for i := range want {
		if keys[i] != want[i] {
			t.Fatalf("order = %q, want %q", keys, want)
		}
	}
}
