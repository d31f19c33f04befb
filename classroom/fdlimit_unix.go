//go:build unix

package classroom

import (
	"math"
	"syscall"
)

// fdLimit is the process's open file limit (the runtime has already
// raised the soft limit to the hard one).
func fdLimit() int {
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &rl); err != nil || rl.Cur > math.MaxInt32 {
		return math.MaxInt32
	}
	return int(rl.Cur)
}
