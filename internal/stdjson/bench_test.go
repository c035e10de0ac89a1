package stdjson

import "testing"

// benchStrs are the kinds of strings a sync quotes: names, paths and
// command lines are plain ASCII; a few texts carry escapes or are not
// ASCII.
var benchStrs = []struct{ name, s string }{
	{"short", "github"},
	{"path", "/home/someone/projects/workspace/.repo/extensions/x/run.js"},
	{"cmdline", "npx -y @modelcontextprotocol/server-filesystem --root /home/someone/projects/workspace --read-only --log-level=info"},
	{"escapes", "line one\nline \"two\"\tand C:\\path\\to <file> & more text after"},
	{"nonascii", "café – naïve façade, 東京 and Zürich: ünïcödé text"},
}

func BenchmarkAppendString(b *testing.B) {
	for _, mode := range []struct {
		name   string
		append func([]byte, string) []byte
	}{{"html", AppendString}, {"nohtml", AppendStringNoHTML}} {
		for _, c := range benchStrs {
			b.Run(mode.name+"/"+c.name, func(b *testing.B) {
				buf := make([]byte, 0, 4*len(c.s)+2)
				b.SetBytes(int64(len(c.s)))
				for i := 0; i < b.N; i++ {
					buf = mode.append(buf[:0], c.s)
				}
			})
		}
	}
}
