//go:build windows

package fileio

import (
	"errors"
	"os"
)

const MapThreshold = 1 << 20

// mapFile and mapRange are not used on Windows: files are read.
func mapFile(f *os.File, size int) ([]byte, error) { return nil, errors.ErrUnsupported }

func mapRange(f *os.File, off, size int) ([]byte, error) { return nil, errors.ErrUnsupported }

func unmapFile(b []byte) {}
