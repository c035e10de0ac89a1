package extensions_test

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/repo-manager/repo/bench/workload"
	"github.com/repo-manager/repo/extensions"
)

// BenchmarkLoad reads and resolves N generated extensions (one server
// each): manifest, MCP file, symlink checks, templates, venv python.
func BenchmarkLoad(b *testing.B) {
	for _, n := range []int{10, 100, 1000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			f, err := workload.NewFixture(b.TempDir(), workload.Options{N: n, Seed: 1})
			if err != nil {
				b.Fatal(err)
			}
			o := extensions.Options{Root: f.Root, Home: f.Home, GOOS: runtime.GOOS}
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				ws, err := extensions.Load(o)
				if err != nil {
					b.Fatal(err)
				}
				if len(ws.Servers) != n {
					b.Fatalf("%d servers, want %d", len(ws.Servers), n)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/extension")
		})
	}
}
