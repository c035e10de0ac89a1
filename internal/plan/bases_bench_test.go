package plan

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/repo-manager/repo/internal/record"
	"github.com/repo-manager/repo/internal/target"
	"github.com/repo-manager/repo/toolprofiles"
)

// BenchmarkBases is what the bases of hand edits cost a sync: the store
// read and planned again unchanged (every sync after the first), and
// planned from nothing (a first sync). n bases: the race workload of
// bench/run.sh keeps about 90, 1,000 servers in one user file 1,000.
func BenchmarkBases(b *testing.B) {
	for _, n := range []int{100, 1000} {
		texts := map[string]string{}
		var digests []string
		for i := range n {
			text := fmt.Sprintf(`{"args":["<<root>>/.repository/extensions/ext-%04d/dist/server.js","--stdio"],"command":"node","env":{"API_URL":"https://api.example.test/v1?x=1&y=2","NODE_ENV":"production","TOKEN":"${TOKEN_%d}"},"type":"stdio"}`, i, i)
			d := record.CanonicalDigest([]byte(text), "")
			texts[d] = text
			digests = append(digests, d)
		}
		kept := map[string][]string{basesWorkspace: digests}
		dir := b.TempDir()
		env := target.Env{Root: filepath.Join(dir, "ws"), Env: toolprofiles.Env{Home: filepath.Join(dir, "home"), GOOS: "linux", Getenv: func(string) string { return "" }}}
		path, err := BasesPath(env)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("first/n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				bs, warning := readBases(env)
				if warning != "" {
					b.Fatal(warning)
				}
				for d, text := range texts {
					bs.add(basesWorkspace, d, text)
				}
				if out := bs.plan(kept); len(out) != 1 || out[0].After == nil {
					b.Fatalf("a first sync writes the store: %v", out)
				}
			}
		})
		data, err := json.MarshalIndent(basesFile{Version: 1, Root: env.Root, Workspace: texts}, "", "  ")
		if err != nil {
			b.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(path, append(data, '\n'), 0o600); err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("unchanged/n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				bs, warning := readBases(env)
				if warning != "" {
					b.Fatal(warning)
				}
				if out := bs.plan(kept); len(out) != 0 {
					b.Fatalf("an unchanged store is rewritten: %v", out)
				}
			}
		})
	}
}
