package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/repo-manager/repo/internal/runner"
	"github.com/repo-manager/repo/writers"
)

// A signal never half-applies a sync. SIGINT (Ctrl-C), SIGTERM (a hook's
// timeout, an editor or a service manager stopping repo), SIGHUP (the
// terminal closed), and on Windows the console's Ctrl-C, Ctrl-Break and
// close events, which Go delivers as os.Interrupt and SIGTERM, are caught
// from the moment a run may write (Factory.catchSignals, before it takes
// the workspace lock) and handled here, in three phases of the run:
//
//   - Before the run replaces files (loading, planning, waiting for
//     the workspace lock): nothing is written or staged, so repo ends at
//     once, saying "interrupted: nothing written". The workspace lock is
//     a flock, which goes with the process. (A run that writes nothing —
//     version, --check, --dry-run, doctor — catches nothing: the signal
//     ends it, as it ends any program, with nothing to put back.)
//   - During it: the first signal closes Interrupt.Stop. The run puts
//     back what it replaced and removes what it staged, unless every tool
//     config is already replaced, in which case it finishes (records,
//     folder fsyncs). A second signal closes Interrupt.Abort: no more
//     waiting for tools' locks or fsyncs, only the renames that leave
//     every file whole. repo does not end in the middle of them: the
//     tools' lock folders (Claude Code's) would stay behind, and the set
//     would be half old, half new. (SIGKILL cannot be caught: a later
//     run removes what a killed one staged, see fileio.RemoveStale.)
//   - After it, with the files written: the run prints what it wrote and
//     ends saying "interrupted after the commit: all written"; a second
//     signal ends it at once with that line.
//
// The exit status is 128 + the signal's number (130 for SIGINT, 143 for
// SIGTERM), as a shell reports a process a signal ended. A signal repo was
// started ignoring (nohup's SIGHUP, a background job's SIGINT) stays
// ignored.

// interrupts is Main's signal handling for one run.
type interrupts struct {
	errOut io.Writer
	exit   func(code int)

	mu       sync.Mutex
	applying bool
	written  bool      // the run has written files
	sig      os.Signal // the first signal, nil until one comes
	stop     chan struct{}
	abort    chan struct{}
	aborted  bool
	signals  chan os.Signal
}

// catchInterrupts handles the signals that stop a run from now until the
// process exits.
func catchInterrupts(errOut io.Writer, exit func(code int)) *interrupts {
	in := &interrupts{errOut: errOut, exit: exit, stop: make(chan struct{}), abort: make(chan struct{}), signals: make(chan os.Signal, 4)}
	for _, sig := range caughtSignals {
		// A signal repo was started ignoring stays ignored: nohup's
		// SIGHUP, the SIGINT a shell ignores for a background job.
		// (Notify would make it count again.)
		if !signal.Ignored(sig) {
			signal.Notify(in.signals, sig)
		}
	}
	go func() {
		for sig := range in.signals {
			in.handle(sig)
		}
	}()
	return in
}

// handle is what one signal does, by the phase of the run.
func (in *interrupts) handle(sig os.Signal) {
	in.mu.Lock()
	defer in.mu.Unlock()
	first := in.sig == nil
	if first {
		in.sig = sig
	}
	switch {
	case in.applying && first:
		close(in.stop)
	case in.applying:
		if !in.aborted {
			in.aborted = true
			close(in.abort)
		}
	case !in.written:
		// Nothing written or staged. The lock stays held (in.mu) until
		// the process has ended, so the run cannot start to apply.
		in.end(errInterrupted{sig: in.sig})
	case !first:
		in.end(errInterrupted{sig: in.sig, written: true})
	}
}

// end prints err and ends the process with its status.
func (in *interrupts) end(err errInterrupted) {
	fmt.Fprintf(in.errOut, "repo: %s\n", err.Error())
	in.exit(err.code())
}

// committing is told by a run when it starts to replace files and when it
// is done (wrote: files hold what it wrote): the phases that decide what
// a signal does.
func (in *interrupts) committing(start, wrote bool) {
	in.mu.Lock()
	defer in.mu.Unlock()
	in.applying = start
	in.written = in.written || wrote
}

// stopped is the error of a run the first signal stopped in its commit
// (the files were put back), as Main ends with it; other errors are as
// they are. Not wrapped: a changed file must not make the caller plan
// again.
func (in *interrupts) stopped(err error) error {
	var ri *runner.Interrupted
	if in == nil || !errors.As(err, &ri) {
		return err
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.sig == nil {
		return err
	}
	return errInterrupted{sig: in.sig, written: in.written, putBack: ri.PutBack}
}

// stopContext is done when the first signal comes in a commit.
type stopContext struct {
	context.Context
	stop <-chan struct{}
}

func (c stopContext) Done() <-chan struct{} { return c.stop }

func (c stopContext) Err() error {
	select {
	case <-c.stop:
		return context.Canceled
	default:
		return nil
	}
}

// interrupted is the error a run that ended normally after a signal ends
// with; nil when no signal came.
func (in *interrupts) interrupted() error {
	if in == nil {
		return nil
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.sig == nil {
		return nil
	}
	return errInterrupted{sig: in.sig, written: in.written}
}

// errInterrupted ends a run that a signal stopped: what was written, and
// the exit status (exitcode.go).
type errInterrupted struct {
	sig     os.Signal
	written bool
	putBack int // files replaced, then put back
}

func (e errInterrupted) Error() string {
	switch {
	case e.written:
		return "interrupted after the commit: all written"
	case e.putBack > 0:
		return fmt.Sprintf("interrupted: nothing written (the %d file(s) already replaced were put back)", e.putBack)
	}
	return "interrupted: nothing written"
}

// code is the exit status: 128 + the signal's number, as shells report
// a process a signal ended.
func (e errInterrupted) code() int {
	if s, ok := e.sig.(syscall.Signal); ok {
		return ExitSignal + int(s)
	}
	return ExitSignal + int(syscall.SIGINT)
}

// runContext fills in what a run through writers.Run takes from the
// factory — the environment, the working directory, the lock timeout,
// what a wait for another run prints, and the signals (see above) — and
// returns the context it runs in. An unusable REPO_LOCK_TIMEOUT is an
// error for a run that writes (one that only looks takes no lock).
func (f *Factory) runContext(o *writers.Options, writing bool) (context.Context, error) {
	timeout, err := lockTimeout(f)
	if err != nil && writing {
		return nil, err
	}
	o.Getenv, o.Getwd, o.LockTimeout = f.Getenv, f.Getwd, timeout
	o.Waiting = func(message string) { fmt.Fprintf(f.IO.ErrOut, "repo: %s\n", message) }
	if writing {
		f.catchSignals()
	}
	in := f.interrupts
	if in == nil {
		return context.Background(), nil
	}
	o.Abort, o.Committing = in.abort, in.committing
	return stopContext{Context: context.Background(), stop: in.stop}, nil
}

// locking and interrupt are runner's terms for the same (repo mcp import
// runs its own plan through package runner).
func (f *Factory) locking(timeout time.Duration) runner.Locking {
	return runner.Locking{Timeout: timeout, Waiting: func(message string) { fmt.Fprintf(f.IO.ErrOut, "repo: %s\n", message) }}
}

func (f *Factory) interrupt(writing bool) runner.Interrupt {
	if writing {
		f.catchSignals()
	}
	if f.interrupts == nil {
		return runner.Interrupt{}
	}
	return runner.Interrupt{Stop: f.interrupts.stop, Abort: f.interrupts.abort, Committing: f.interrupts.committing}
}
