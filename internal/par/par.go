// Package par runs independent pieces of work at once.
//
// Work may read a mapped file that another program truncates, which makes
// the read fault. The caller guards against that with
// debug.SetPanicOnFault, which holds for one goroutine only; so every
// goroutine started here faults the way its caller does, and a panic on
// one of them, a fault included, is raised again in the caller once all
// are done, where the caller's recover sees it. No memory is read outside
// the caller's guard.
package par

import (
	"runtime/debug"
	"sync/atomic"

	"github.com/repo-manager/repo/internal/stackgrow"
)

// Each runs fn(0) … fn(n-1) on up to workers goroutines and returns when
// all have returned. Callers keep results by index, so what they make of
// them does not depend on the order the calls ran in. A panic in fn is
// raised again in the caller.
func Each(n, workers int, fn func(i int)) {
	workers = min(n, workers)
	if workers <= 1 {
		for i := range n {
			fn(i)
		}
		return
	}
	var next atomic.Int64
	work := func() {
		for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
			fn(i)
		}
	}
	done := make(chan any, workers-1)
	for range workers - 1 {
		goLike(work, done)
	}
	var caught any
	func() {
		defer func() { caught = recover() }()
		work()
	}()
	for range workers - 1 {
		if r := <-done; r != nil && caught == nil {
			caught = r
		}
	}
	if caught != nil {
		panic(caught)
	}
}

// Both runs a, and b on another goroutine, and returns when both are done.
// A panic in either is raised again in the caller.
func Both(a, b func()) {
	done := make(chan any, 1)
	goLike(b, done)
	var caught any
	func() {
		defer func() { caught = recover() }()
		a()
	}()
	if r := <-done; r != nil && caught == nil {
		caught = r
	}
	if caught != nil {
		panic(caught)
	}
}

// goLike runs fn on a new goroutine that faults as the calling one does,
// and sends what it panicked with (nil if nothing) to done.
func goLike(fn func(), done chan<- any) {
	onFault := debug.SetPanicOnFault(true)
	debug.SetPanicOnFault(onFault)
	go func() {
		// The work planned here goes 8–16 KB deep: one stack copy,
		// not three (internal/stackgrow).
		stackgrow.To16K()
		debug.SetPanicOnFault(onFault)
		defer func() { done <- recover() }()
		fn()
	}()
}
