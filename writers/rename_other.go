//go:build !linux

package writers

func renameExchange(a, b string) error      { return errUnsupported }
func renameNoReplace(from, to string) error { return errUnsupported }
