package fileio

import (
	"errors"

	"github.com/repo-manager/repo/internal/bigmem"
)

// ErrFault is a read of a mapped file that faulted: the file was truncated
// while repo was reading it. An ErrUnsteady (errors.Is). Not fmt.Errorf:
// calling it here was the costliest work of every run before main, the
// first use of fmt (bench/startup.sh); this literal costs nothing.
var ErrFault error = &faultError{}

type faultError struct{}

func (*faultError) Error() string {
	return "it shrank while repo was reading it: " + ErrUnsteady.Error()
}
func (*faultError) Unwrap() error { return ErrUnsteady }

// WithFaults is bigmem.WithFaults, its fault reported as ErrFault (an
// ErrUnsteady: the run is planned again).
func WithFaults(fn func() error) error {
	err := bigmem.WithFaults(fn)
	if errors.Is(err, bigmem.ErrFault) {
		return ErrFault
	}
	return err
}
