//go:build !linux

package fileio

func RenameExchange(a, b string) error      { return ErrUnsupported }
func RenameNoReplace(from, to string) error { return ErrUnsupported }
