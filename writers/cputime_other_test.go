//go:build !unix

package writers_test

import "time"

// cpuTime is not measured here: the benchmarks report no cpu-ms/op.
func cpuTime() time.Duration { return 0 }
