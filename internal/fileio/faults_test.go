package fileio

import (
	"errors"
	"testing"
)

// A fault is an unsteady read (the run is planned again), and says so.
func TestErrFaultIsUnsteady(t *testing.T) {
	if !errors.Is(ErrFault, ErrUnsteady) {
		t.Error("ErrFault is not an ErrUnsteady: a run that met a truncated file would not be planned again")
	}
	if got, want := ErrFault.Error(), "it shrank while repo was reading it: changed while repo was reading it"; got != want {
		t.Errorf("ErrFault says %q, want %q", got, want)
	}
}
