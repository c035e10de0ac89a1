// Package lazy holds package-level values that are computed on first use,
// not at start-up. Every run pays for every package's variable initialisers
// before main, whichever command it is, and a pre-commit hook runs repo on
// every commit (bench/startup.sh). A Value or a Regexp is a plain composite
// literal, which the compiler lays out in the binary: nothing of it runs,
// and nothing is allocated, until its first Get — unlike sync.OnceValue,
// whose call allocates at start-up.
package lazy

import (
	"regexp"
	"sync"
)

// Value is a value computed by New on the first Get, once.
type Value[T any] struct {
	// New computes the value. It must not panic: a panic reaches the first
	// Get's caller, and later Gets return the zero value.
	New func() T

	once sync.Once
	v    T
}

// Get returns the value, computing it on the first call.
func (l *Value[T]) Get() T {
	l.once.Do(func() { l.v = l.New() })
	return l.v
}

// Regexp is a regular expression compiled on the first Get, once.
type Regexp struct {
	// Expr is the expression; compiling it must not fail (regexp.MustCompile).
	Expr string

	once sync.Once
	re   *regexp.Regexp
}

// Get returns the compiled expression, compiling it on the first call.
func (r *Regexp) Get() *regexp.Regexp {
	r.once.Do(func() { r.re = regexp.MustCompile(r.Expr) })
	return r.re
}
