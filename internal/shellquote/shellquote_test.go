package shellquote

import "testing"

func TestJoin(t *testing.T) {
	for _, c := range []struct {
		words []string
		want  string
	}{
		{[]string{"amp", "mcp", "approve", "my-server"}, "amp mcp approve my-server"},
		{[]string{"chmod", "+x", "~/bin/x"}, "chmod +x '~/bin/x'"},
		{[]string{"a b", "it's", ""}, `'a b' 'it'\''s' ''`},
		{[]string{"$HOME", "x;y"}, `'$HOME' 'x;y'`},
	} {
		if got := Join(c.words); got != c.want {
			t.Errorf("Join(%q) = %s, want %s", c.words, got, c.want)
		}
	}
}
