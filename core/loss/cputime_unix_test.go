//go:build linux || darwin

package loss

import (
	"syscall"
	"time"
)

// cpuTime returns the process's CPU time (user + system): on a machine
// shared with other jobs it measures the work done, not the waiting.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
