// Package usage marks the errors that the caller's request causes — an
// unknown tool id, a scope a tool lacks, a root that is no workspace — as
// opposed to what the workspace or the files hold. The command line says
// them with a pointer to the command's help and exits 2; package writers
// lets a host tell them apart (writers.ErrOptions).
package usage

import (
	"errors"
	"fmt"
)

// ErrUsage is what every Error is (errors.Is).
var ErrUsage = errors.New("the request asks for what cannot be")

// Error is a mistake in what the caller asked for.
type Error struct{ Err error }

func (e Error) Error() string { return e.Err.Error() }

func (e Error) Unwrap() error { return e.Err }

// Is makes every Error an ErrUsage.
func (e Error) Is(target error) bool { return target == ErrUsage }

// Errorf is fmt.Errorf marked as a usage error.
func Errorf(format string, args ...any) error { return Error{fmt.Errorf(format, args...)} }
