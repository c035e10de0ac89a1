package fileio

import (
	"errors"
	"fmt"

	"github.com/repo-manager/repo/internal/bigmem"
)

// ErrFault is a read of a mapped file that faulted: the file was truncated
// while repo was reading it.
var ErrFault = fmt.Errorf("it shrank while repo was reading it: %w", ErrUnsteady)

// WithFaults is bigmem.WithFaults, its fault reported as ErrFault (an
// ErrUnsteady: the run is planned again).
func WithFaults(fn func() error) error {
	err := bigmem.WithFaults(fn)
	if errors.Is(err, bigmem.ErrFault) {
		return ErrFault
	}
	return err
}
