//go:build !windows

package fileio

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/repo-manager/repo/internal/bigmem"
)

// TestMappedFileTruncated: a mapped file that another program truncates
// faults on the next read of the lost pages; withFaults turns that into
// an error instead of a crash.
func TestMappedFileTruncated(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big.json")
	// 12 MB: compared on two cores (internal/bigmem), so the fault can
	// happen on either goroutine.
	data := bytes.Repeat([]byte("0123456789abcdef"), 12*bigmem.MapThreshold/16)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if eq, err := FileEquals(OS{}, path, data); !eq || err != nil {
		t.Fatal("fileEquals: a mapped file differs from the bytes written to it")
	}
	changed := bytes.Clone(data)
	changed[len(changed)-1] ^= 1
	if eq, _ := FileEquals(OS{}, path, changed); eq {
		t.Fatal("fileEquals: equal to different bytes")
	}
	if eq, _ := FileEquals(OS{}, path, data[:len(data)-1]); eq {
		t.Fatal("fileEquals: equal to different bytes")
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, err := bigmem.Map(f, len(data))
	if err != nil {
		t.Fatal(err)
	}
	defer bigmem.Unmap(m)
	if err := os.Truncate(path, 0); err != nil {
		t.Fatal(err)
	}
	err = WithFaults(func() error {
		_ = bigmem.Equal(m, data)
		return nil
	})
	if !errors.Is(err, ErrFault) {
		t.Fatalf("reading a truncated mapping: err = %v, want errFault", err)
	}
	// Other panics are not swallowed.
	defer func() {
		if recover() == nil {
			t.Fatal("withFaults swallowed an ordinary panic")
		}
	}()
	_ = WithFaults(func() error { panic("boom") })
}

// TestFileEqualsWindows: a file larger than one compare window is
// compared window by window, to the last byte.
func TestFileEqualsWindows(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big.json")
	data := make([]byte, 2*compareWindow+12345)
	for i := range data {
		data[i] = byte('a' + i%23)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if eq, err := FileEquals(OS{}, path, data); !eq || err != nil {
		t.Fatal("a file differs from the bytes written to it")
	}
	for _, at := range []int{0, compareWindow - 1, compareWindow, 2 * compareWindow, len(data) - 1} {
		data[at] ^= 1
		if eq, _ := FileEquals(OS{}, path, data); eq {
			t.Fatalf("a difference at %d was missed", at)
		}
		data[at] ^= 1
	}
}
