//go:build !linux

package cmd

// Without inotify, TestSignalledSyncsAreAllOrNothing signals at random
// moments only.
const (
	atStaging = 0
	atRename  = 0
)

func onFirstEvent([]string, uint32, func(string) bool, func()) (stop func(), ok bool) {
	return nil, false
}
