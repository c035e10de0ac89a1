package bigmem

import (
	"bytes"
	"testing"
)

func TestEqualAndConcat(t *testing.T) {
	for _, n := range []int{0, 1, 1000, splitMin - 1, splitMin, 3*splitMin + 7} {
		a := make([]byte, n)
		for i := range a {
			a[i] = byte(i * 7)
		}
		b := bytes.Clone(a)
		if !Equal(a, b) {
			t.Fatalf("n=%d: Equal of equal slices is false", n)
		}
		for _, at := range []int{0, n / 2, n/2 - 1, n - 1} {
			if at < 0 || at >= n {
				continue
			}
			b[at] ^= 1
			if Equal(a, b) {
				t.Fatalf("n=%d: Equal missed a difference at %d", n, at)
			}
			b[at] ^= 1
		}
		if got, want := CountByte(a, 7), bytes.Count(a, []byte{7}); got != want {
			t.Fatalf("n=%d: CountByte = %d, bytes.Count = %d", n, got, want)
		}
		if n > 0 && Equal(a, b[:n-1]) {
			t.Fatalf("n=%d: Equal of different lengths", n)
		}
		// Parts of every size, split anywhere.
		parts := [][]byte{a[:n/3], []byte("inserted"), nil, a[n/3 : n/2], a[n/2:]}
		want := bytes.Join(parts, nil)
		if got := Concat(parts...); !bytes.Equal(got, want) {
			t.Fatalf("n=%d: Concat differs from bytes.Join", n)
		}
	}
}

// A panic on the second goroutine reaches the caller.
func TestBothHandsPanicsBack(t *testing.T) {
	defer func() {
		if r := recover(); r != "second" {
			t.Fatalf("recovered %v, want the second goroutine's panic", r)
		}
	}()
	both(func() {}, func() { panic("second") })
}
