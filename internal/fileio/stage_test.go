package fileio

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// A process id tells a staged file's process only if that process
// started before the file last changed: the id of a process that started
// later was reused, and the file's own process has ended. Staged files
// are removed at once on that (RemoveStale), so a wrong answer either
// removes a running sync's file or keeps a killed one's.
func TestProcessGone(t *testing.T) {
	if _, ok := processStart(os.Getpid()); !ok {
		t.Skipf("process start times are not told on %s", runtime.GOOS)
	}
	if processGone(os.Getpid(), time.Now()) {
		t.Error("this process counts as gone for a file it changed just now")
	}
	child := exec.Command("sleep", "5")
	before := time.Now()
	if err := child.Start(); err != nil {
		t.Skipf("cannot start a process: %v", err)
	}
	defer func() { child.Process.Kill(); child.Wait() }()
	if start, ok := processStart(child.Process.Pid); !ok || start.Before(before.Add(-2*startSlack)) || start.After(time.Now().Add(2*startSlack)) {
		t.Errorf("the process started at %v by processStart, between %v and now by the clock", start, before)
	}
	if !processGone(child.Process.Pid, time.Now().Add(-time.Hour)) {
		t.Error("a process that started after the file last changed counts as the one that changed it (a reused id)")
	}
	if processGone(child.Process.Pid, time.Now()) {
		t.Error("a running process counts as gone")
	}
	child.Process.Kill()
	child.Wait()
	if !processGone(child.Process.Pid, time.Now()) {
		t.Error("a process that ended counts as running")
	}
}

// TestFileEqualsInPieces: a file read back in pieces of the reused buffer
// is equal to its own bytes only, whatever its size against the buffer's
// and wherever a difference is: at the start, on either side of a
// piece's end, at the end; and a file one byte longer or shorter is not.
func TestFileEqualsInPieces(t *testing.T) {
	piece := 64 << 10
	dir := t.TempDir()
	for _, size := range []int{0, 1, piece - 1, piece, piece + 1, 3*piece + 7} {
		data := make([]byte, size)
		for i := range data {
			data[i] = byte('a' + i%26)
		}
		path := filepath.Join(dir, fmt.Sprintf("f%d", size))
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		if eq, err := FileEquals(OS{}, path, data); !eq || err != nil {
			t.Fatalf("size %d: not equal to its own bytes (%v)", size, err)
		}
		for _, at := range []int{0, piece - 1, piece, size - 1} {
			if at < 0 || at >= size {
				continue
			}
			changed := bytes.Clone(data)
			changed[at] ^= 1
			if eq, _ := FileEquals(OS{}, path, changed); eq {
				t.Errorf("size %d: equal with byte %d changed", size, at)
			}
		}
		if eq, _ := FileEquals(OS{}, path, append(bytes.Clone(data), 'x')); eq {
			t.Errorf("size %d: equal to a byte more", size)
		}
		if size > 0 {
			if eq, _ := FileEquals(OS{}, path, data[:size-1]); eq {
				t.Errorf("size %d: equal to a byte less", size)
			}
		}
	}
}
