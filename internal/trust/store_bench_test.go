package trust

import (
	"fmt"
	"testing"
)

// BenchmarkOpen is what opening a workspace's trust store costs a sync,
// for a store of n trusted servers (the race workload: 20; 1,000 servers
// synced into one user file: 1,000, about 700 KB).
func BenchmarkOpen(b *testing.B) {
	for _, n := range []int{20, 1000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			state, root := b.TempDir(), b.TempDir()
			path := Path(state, root)
			s, err := Open(path, root, show)
			if err != nil {
				b.Fatal(err)
			}
			for i := range n {
				d := Define(baseServer(), nil)
				d.Args = append(d.Args, fmt.Sprintf("--instance=%d", i))
				s.Trust(fmt.Sprintf("server-%04d", i), d, d)
				s.Synced[fmt.Sprintf("server-%04d", i)] = d.Digest()
			}
			if err := s.Save(show); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				if _, err := Open(path, root, show); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkDigest is the digest of one definition: the trust gate takes
// it of every server a sync writes into a user's file.
func BenchmarkDigest(b *testing.B) {
	d := Define(baseServer(), nil)
	b.ReportAllocs()
	for range b.N {
		_ = d.Digest()
	}
}
