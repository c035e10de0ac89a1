//go:build windows

package bigmem

import (
	"errors"
	"os"
)

// MapThreshold: see map_unix.go.
const MapThreshold = 1 << 20

// Map and MapRange are not used on Windows: files are read.
func Map(f *os.File, size int) ([]byte, error) { return nil, errors.ErrUnsupported }

func MapRange(f *os.File, off, size int) ([]byte, error) { return nil, errors.ErrUnsupported }

// Unmap releases a mapping made by Map or MapRange.
func Unmap(b []byte) {}
