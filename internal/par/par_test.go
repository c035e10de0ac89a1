package par

import (
	"sync/atomic"
	"testing"
)

func TestEachRunsEveryIndexOnce(t *testing.T) {
	for _, n := range []int{0, 1, 2, 7, 100} {
		for _, workers := range []int{0, 1, 2, 8, 200} {
			counts := make([]atomic.Int32, n)
			Each(n, workers, func(i int) { counts[i].Add(1) })
			for i := range counts {
				if c := counts[i].Load(); c != 1 {
					t.Fatalf("n=%d workers=%d: fn(%d) ran %d times", n, workers, i, c)
				}
			}
		}
	}
}
