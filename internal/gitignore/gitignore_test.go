package gitignore

import "testing"

// An escaped path is matched by the user's line that escapes it the same
// way, and a line naming another file is not the same line.
func TestUserNames(t *testing.T) {
	for _, c := range []struct {
		line, path string
		want       bool
	}{
		{"/.mcp.json", ".mcp.json", true},
		{".mcp.json  ", ".mcp.json", true},
		{"**/.mcp.json", ".mcp.json", true},
		{"!.mcp.json", ".mcp.json", true},
		{".zed/settings.json", ".zed/settings.json", true},
		{"/.zed/settings.json", ".zed/settings.json", true},
		{"**/.zed/settings.json", ".zed/settings.json", false}, // any .zed folder: wider
		{"settings.json", ".zed/settings.json", false},
		{"# /.mcp.json", ".mcp.json", false},
		{"/x.mcp.json", ".mcp.json", false},
		{`/a\*b`, "a*b", true},
		{"/a*b", "a*b", false},
	} {
		if got := userNames(c.line, c.path); got != c.want {
			t.Errorf("userNames(%q, %q) = %v, want %v", c.line, c.path, got, c.want)
		}
	}
}
