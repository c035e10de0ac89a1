//go:build !windows

package par

import (
	"os"
	"path/filepath"
	"runtime/debug"
	"syscall"
	"testing"
)

var sink byte // keeps the reads of the mapping from being optimised away

// TestFaultReachesCaller plays another program truncating a file that repo
// has mapped while a worker goroutine reads it: the fault (SIGBUS) must be
// recovered in the caller, which is the only goroutine that guards,
// whichever goroutine faulted, and never kill the process.
func TestFaultReachesCaller(t *testing.T) {
	const size = 1 << 20
	path := filepath.Join(t.TempDir(), "mapped")
	if err := os.WriteFile(path, make([]byte, size), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, err := syscall.Mmap(int(f.Fd()), 0, size, syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Munmap(m)
	if err := os.Truncate(path, 0); err != nil {
		t.Fatal(err)
	}
	touch := func() {
		for i := 0; i < size; i += 4096 {
			sink += m[i]
		}
	}
	idle := func() {}
	for name, run := range map[string]func(){
		"Each worker": func() {
			Each(4, 2, func(i int) {
				if i == 3 {
					touch()
				}
			})
		},
		"Both second": func() { Both(idle, touch) },
		"Both first":  func() { Both(touch, idle) },
	} {
		faulted := func() (faulted bool) {
			defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
			defer func() {
				r := recover()
				_, faulted = r.(interface{ Addr() uintptr })
			}()
			run()
			return false
		}()
		if !faulted {
			t.Errorf("%s: the fault did not reach the caller", name)
		}
	}
}
