package stackgrow

import "testing"

// deep calls itself n times with a frame of about 256 bytes, as a deep
// call chain does.
//
//go:noinline
func deep(n int) byte {
	var frame [200]byte
	frame[n%len(frame)] = byte(n)
	if n == 0 {
		return frame[0]
	}
	return deep(n-1) + frame[n%len(frame)]
}

var sink byte

// BenchmarkGrow starts goroutines that go about 24 KB deep, as the main
// goroutine of a sync does: letting the stack double (2 → 4 → … → 32 KB,
// four copies, the later ones of a deep stack) against To32K first (one
// copy of a shallow stack).
func BenchmarkGrow(b *testing.B) {
	for _, c := range []struct {
		name  string
		first func()
	}{{"doubling", func() {}}, {"To32K", To32K}} {
		b.Run(c.name, func(b *testing.B) {
			done := make(chan byte)
			for b.Loop() {
				go func() {
					c.first()
					done <- deep(90)
				}()
				sink += <-done
			}
		})
	}
}

// TestGrowKeepsWorking runs deep work after each grower: the frames must
// not break the goroutine that calls them (a frame the compiler moved to
// the heap would still pass; BenchmarkGrow shows the copy saved).
func TestGrowKeepsWorking(t *testing.T) {
	for _, grow := range []func(){To16K, To32K} {
		done := make(chan byte)
		go func() {
			grow()
			done <- deep(200)
		}()
		if got, want := <-done, deep(200); got != want {
			t.Errorf("deep(200) after growing = %d, want %d", got, want)
		}
	}
}
