package bigmem

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// benchSize is the ~/.claude.json of a heavy user, the size the
// machinery is for.
const benchSize = 100 << 20

func benchFile(b *testing.B) (string, []byte) {
	b.Helper()
	data := bytes.Repeat([]byte(`{"k":"0123456789abcdef"},`), benchSize/25)
	path := filepath.Join(b.TempDir(), "big.json")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		b.Fatal(err)
	}
	return path, data
}

// BenchmarkBigFile times each piece of the package against what it
// replaces, on a 100 MB file in the page cache (each case reads the file
// and compares it with its bytes, as a --check and a sync's read-back do):
//
//   - read: os.ReadFile, then bytes.Equal — what the pieces replace;
//   - halves: ReadHalves into Alloc'd memory (huge pages), then Equal on
//     two cores — a sync's read and read-back;
//   - map: Map, then Equal — a --check, which copies nothing;
//   - map+guard: the same inside WithFaults, which a mapping needs: the
//     guard must cost nothing measurable;
//   - alloc/make and alloc/Alloc: a fresh 100 MB buffer filled once, with
//     and without the huge-page advice.
func BenchmarkBigFile(b *testing.B) {
	path, data := benchFile(b)
	open := func(b *testing.B) *os.File {
		f, err := os.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		return f
	}
	b.Run("read", func(b *testing.B) {
		b.SetBytes(benchSize)
		for b.Loop() {
			got, err := os.ReadFile(path)
			if err != nil || !bytes.Equal(got, data) {
				b.Fatal("read", err)
			}
		}
	})
	b.Run("halves", func(b *testing.B) {
		b.SetBytes(benchSize)
		f := open(b)
		defer f.Close()
		for b.Loop() {
			got, ok := ReadHalves(f, len(data))
			if !ok || !Equal(got, data) {
				b.Fatal("halves")
			}
		}
	})
	mapped := func(guard bool) func(b *testing.B) {
		return func(b *testing.B) {
			b.SetBytes(benchSize)
			f := open(b)
			defer f.Close()
			for b.Loop() {
				m, err := Map(f, len(data))
				if err != nil {
					b.Skip("no mapping here:", err)
				}
				eq := false
				if guard {
					err = WithFaults(func() error { eq = Equal(m, data); return nil })
				} else {
					eq = Equal(m, data)
				}
				Unmap(m)
				if err != nil || !eq {
					b.Fatal("map", err)
				}
			}
		}
	}
	b.Run("map", mapped(false))
	b.Run("map+guard", mapped(true))
	fill := func(alloc func(int) []byte) func(b *testing.B) {
		return func(b *testing.B) {
			b.SetBytes(benchSize)
			for b.Loop() {
				buf := alloc(len(data))
				copy(buf, data)
			}
		}
	}
	b.Run("alloc/make", fill(func(n int) []byte { return make([]byte, n) }))
	b.Run("alloc/Alloc", fill(Alloc))
}
