// Package stackgrow grows a goroutine's stack once, before deep work,
// instead of letting it double its way up.
//
// A goroutine starts with a 2 KB stack. Each time a call needs more, the
// runtime allocates one twice as large and copies the stack across,
// adjusting every frame's pointers, which means decoding each frame's
// tables; the deeper the goroutine is, the more each copy costs. A no-op
// `repo sync --check` made 13 copies: the main goroutine went 2 → 4 → 8 →
// 16 → 32 KB on its way down through cobra, writers and plan, and each
// worker of internal/par went to 16 KB three copies at a time. One call
// with a large frame at the top, where the stack is shallow, makes the
// runtime size the stack for it in one copy (BenchmarkGrow; bench/RESULTS.md,
// "Sixth round"). This package's init does it for the main goroutine, and
// par's workers call To16K first: 13 copies became 4.
package stackgrow

// To16K makes the calling goroutine's stack at least 16 KB.
//
//go:noinline
func To16K() {
	if touch {
		var frame [12 << 10]byte
		keep(&frame)
	}
}

// To32K makes the calling goroutine's stack at least 32 KB.
//
//go:noinline
func To32K() {
	if touch {
		var frame [24 << 10]byte
		keep(&frame)
	}
}

// touch is never true. The frames above are declared in a branch the
// compiler cannot drop, so each function's frame is large — the stack
// check at its entry makes the runtime grow the stack — yet the frame is
// never zeroed: the new stack's pages are touched only when deeper calls
// use them (a shallow worker of commit's staging never does).
var touch bool

// keep makes the frame live, so the compiler keeps it on the stack.
//
//go:noinline
func keep[T any](*T) {}

// The main goroutine runs every package's initialisation and then main,
// where a run goes deepest. This package imports nothing, so it is among
// the first to be initialised: growing here, the stack is copied while it
// is two frames deep, and neither the other packages' initialisation nor
// main copy it again (repo version made four copies before).
func init() { To32K() }
