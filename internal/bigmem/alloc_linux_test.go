package bigmem

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"testing"
	"unsafe"
)

// TestAllocGetsHugePages: where the system offers transparent huge pages
// (always, or on request), a large Alloc is backed by some once written.
func TestAllocGetsHugePages(t *testing.T) {
	mode, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil || strings.Contains(string(mode), "[never]") {
		t.Skip("no transparent huge pages on this system")
	}
	b := Alloc(64 << 20)
	for i := range b {
		b[i] = 1
	}
	kb, err := anonHugeKB(uintptr(unsafe.Pointer(&b[0])))
	if err != nil {
		t.Fatal(err)
	}
	if kb == 0 {
		t.Fatalf("no huge pages behind a 64 MB Alloc (THP: %s)", strings.TrimSpace(string(mode)))
	}
	t.Logf("%d kB of huge pages behind a 64 MB Alloc", kb)
}

// anonHugeKB sums AnonHugePages over the mappings of this process that
// hold addr or start after it within 64 MB.
func anonHugeKB(addr uintptr) (int, error) {
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		return 0, err
	}
	defer f.Close()
	total, in := 0, false
	s := bufio.NewScanner(f)
	for s.Scan() {
		line := s.Text()
		var lo, hi uintptr
		if n, _ := fmt.Sscanf(line, "%x-%x", &lo, &hi); n == 2 && strings.Contains(line, " ") {
			in = hi > addr && lo < addr+64<<20
			continue
		}
		var kb int
		if n, _ := fmt.Sscanf(line, "AnonHugePages: %d kB", &kb); n == 1 && in {
			total += kb
		}
	}
	return total, s.Err()
}

func TestAllocSizes(t *testing.T) {
	for _, n := range []int{0, 1, splitMin - 1, splitMin, splitMin + 12345, 5*hugePage + 1} {
		b := Alloc(n)
		if len(b) != n {
			t.Fatalf("Alloc(%d) has length %d", n, len(b))
		}
		for i, c := range b {
			if c != 0 {
				t.Fatalf("Alloc(%d)[%d] = %d, want 0", n, i, c)
			}
		}
	}
}
