package cmd

import (
	"bytes"
	"os"
	"syscall"
	"testing"

	"github.com/repo-manager/repo/writers"
)

// What a signal does depends on where the run is (interrupt.go): before
// the commit it ends the run at once; in the commit the first stops it
// and the second aborts it, never ending the process; after files were
// written the run reports them, and a second signal ends it at once. Each
// end says what was written, with 128 + the signal as its status.
// (TestSignalledSyncsAreAllOrNothing plays the same with real signals.)
func TestInterruptPhases(t *testing.T) {
	type ended struct {
		code int
		say  string
	}
	newIn := func() (*interrupts, *bytes.Buffer, *[]ended) {
		var errOut bytes.Buffer
		var ends []ended
		in := &interrupts{errOut: &errOut, stop: make(chan struct{}), abort: make(chan struct{})}
		in.exit = func(code int) { ends = append(ends, ended{code, errOut.String()}); errOut.Reset() }
		return in, &errOut, &ends
	}
	closed := func(c chan struct{}) bool {
		select {
		case <-c:
			return true
		default:
			return false
		}
	}

	// Planning, loading, --check: nothing written, it ends at once.
	in, _, ends := newIn()
	in.handle(syscall.SIGTERM)
	if len(*ends) != 1 || (*ends)[0] != (ended{143, "repo: interrupted: nothing written\n"}) {
		t.Errorf("before the commit: ended %v, want at once with 143, nothing written", *ends)
	}

	// In the commit: stop, then abort; the run itself ends.
	in, _, ends = newIn()
	in.applying = true
	in.handle(os.Interrupt)
	if !closed(in.stop) || closed(in.abort) || len(*ends) != 0 {
		t.Errorf("first signal in the commit: stop %v, abort %v, ended %v; want stop only", closed(in.stop), closed(in.abort), *ends)
	}
	in.handle(syscall.SIGTERM)
	in.handle(syscall.SIGTERM)
	if !closed(in.abort) || len(*ends) != 0 {
		t.Errorf("more signals in the commit: abort %v, ended %v; want abort, no end", closed(in.abort), *ends)
	}
	if err := in.interrupted(); err == nil || exitCode(err, &bytes.Buffer{}, "repo sync") != 130 {
		t.Errorf("the run's end: %v, want the first signal's status, 130", err)
	}

	// Files written, the run reporting them: it finishes, then says so.
	in, _, ends = newIn()
	in.written = true
	in.handle(os.Interrupt)
	if len(*ends) != 0 {
		t.Errorf("first signal after the commit ended the run: %v", *ends)
	}
	var errOut bytes.Buffer
	if code := exitCode(in.interrupted(), &errOut, "repo sync"); code != 130 || errOut.String() != "repo: interrupted after the commit: all written\n" {
		t.Errorf("after the commit: exit %d, %q", code, errOut.String())
	}
	in.handle(syscall.SIGTERM)
	if len(*ends) != 1 || (*ends)[0] != (ended{130, "repo: interrupted after the commit: all written\n"}) {
		t.Errorf("second signal after the commit: ended %v, want at once, all written", *ends)
	}

	// Put back: the count of files is said.
	if got := (errInterrupted{sig: os.Interrupt, putBack: 3}).Error(); got != "interrupted: nothing written (the 3 file(s) already replaced were put back)" {
		t.Errorf("put back: %q", got)
	}
}

// Signals are caught from the moment a run may write, and only then: a run
// that writes nothing (repo version, --check, --dry-run) starts no signal
// handling, which was a tenth of repo version's start-up; a writing run
// starts it once, before it takes the lock, and gets its channels.
// (TestSignalledSyncsAreAllOrNothing checks what a real writing run does
// with a signal.)
func TestSignalsCaughtByWritingRunsOnly(t *testing.T) {
	newF := func() (*Factory, *int) {
		f := newFactory()
		f.Getenv = func(string) string { return "" }
		caught := 0
		f.catch = func() *interrupts {
			caught++
			return &interrupts{stop: make(chan struct{}), abort: make(chan struct{})}
		}
		return f, &caught
	}
	f, caught := newF()
	var o writers.Options
	if _, err := f.runContext(&o, false); err != nil {
		t.Fatal(err)
	}
	if ri := f.interrupt(false); *caught != 0 || f.interrupts != nil || o.Abort != nil || ri.Stop != nil {
		t.Fatalf("a run that writes nothing caught signals (%d times)", *caught)
	}
	ctx, err := f.runContext(&o, true)
	if err != nil {
		t.Fatal(err)
	}
	if *caught != 1 || o.Abort == nil || o.Committing == nil || ctx.Done() == nil {
		t.Fatalf("a writing run: caught %d times, abort %v, done %v; want once, with the run's channels", *caught, o.Abort, ctx.Done())
	}
	if ri := f.interrupt(true); *caught != 1 || ri.Stop == nil {
		t.Fatalf("a second writing step: caught %d times (want 1), stop %v", *caught, ri.Stop)
	}
	f, caught = newF()
	if ri := f.interrupt(true); *caught != 1 || ri.Stop == nil || ri.Abort == nil {
		t.Fatalf("mcp import's run: caught %d times, stop %v", *caught, ri.Stop)
	}
	// Tests that run commands in their own process catch nothing.
	f, _ = newF()
	f.catch = nil
	if f.catchSignals(); f.interrupts != nil {
		t.Fatal("caught signals without Main")
	}
}
