package translator_test

import (
	"fmt"
	"testing"

	"github.com/repo-manager/repo/bench/workload"
	"github.com/repo-manager/repo/toolprofiles"
	"github.com/repo-manager/repo/translator"
)

// BenchmarkTranslate renders N generated servers for every MCP profile.
func BenchmarkTranslate(b *testing.B) {
	set, err := toolprofiles.Builtin()
	if err != nil {
		b.Fatal(err)
	}
	var profiles []*toolprofiles.Profile
	for _, p := range set.All() {
		if p.MCP {
			profiles = append(profiles, p)
		}
	}
	for _, n := range []int{10, 100, 1000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			f, err := workload.NewFixture(b.TempDir(), workload.Options{N: n, Seed: 1})
			if err != nil {
				b.Fatal(err)
			}
			entries := 0
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				entries = 0
				for _, p := range profiles {
					for _, s := range f.Servers {
						if translator.TranslateWith(s, p, translator.Options{}).Entry != nil {
							entries++
						}
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n*len(profiles)), "ns/entry")
			_ = entries
		})
	}
}
