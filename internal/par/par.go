// Package par runs independent pieces of work at once.
package par

import "sync/atomic"

// Each runs fn(0) … fn(n-1) on up to workers goroutines and returns when
// all have returned. Callers keep results by index, so what they make of
// them does not depend on the order the calls ran in.
func Each(n, workers int, fn func(i int)) {
	workers = min(n, workers)
	if workers <= 1 {
		for i := range n {
			fn(i)
		}
		return
	}
	var next atomic.Int64
	done := make(chan struct{})
	for range workers {
		go func() {
			for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
				fn(i)
			}
			done <- struct{}{}
		}()
	}
	for range workers {
		<-done
	}
}
