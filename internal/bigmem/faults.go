package bigmem

import (
	"errors"
	"runtime/debug"
)

// ErrFault is a read of a mapped file that faulted: the file was truncated
// while it was being read.
var ErrFault = errors.New("a mapped file faulted")

// WithFaults runs fn with memory faults turned into errors: a mapped file
// that another program truncates makes the next read of the lost pages
// fault (SIGBUS), which would otherwise kill the process.
func WithFaults(fn func() error) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			if _, isFault := r.(interface{ Addr() uintptr }); !isFault {
				panic(r)
			}
			err = ErrFault
		}
	}()
	return fn()
}
