package fileio

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/repo-manager/repo/internal/bigmem"
)

// TestReadFileHalves: a file above the threshold is read in two halves,
// byte for byte, and one that changed size since Stat is read whole again.
func TestReadFileHalves(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big.json")
	data := make([]byte, splitReadMin+12345)
	for i := range data {
		data[i] = byte('a' + i%26)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	got, _, _, err := ReadTarget(path, false, new([]func()))
	if err != nil || !bytes.Equal(got, data) {
		t.Fatalf("readTarget: %v, %d bytes, equal %v", err, len(got), bytes.Equal(got, data))
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, ok := bigmem.ReadHalves(f, len(data)-1); ok {
		t.Fatal("readHalves accepted a file longer than its size")
	}
	if _, ok := bigmem.ReadHalves(f, len(data)+1); ok {
		t.Fatal("readHalves accepted a file shorter than its size")
	}
	if b, ok := bigmem.ReadHalves(f, len(data)); !ok || !bytes.Equal(b, data) {
		t.Fatal("readHalves of the right size")
	}
}
