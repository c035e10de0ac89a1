package fileio

import (
	"os"
	"os/exec"
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
