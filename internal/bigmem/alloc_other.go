//go:build !linux

package bigmem

func adviseHuge(b []byte) {}
