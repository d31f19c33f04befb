//go:build unix

package learn

import (
	"os/exec"
	"syscall"
)

// killGroup makes the command the leader of a process group and, when its
// context ends, kills the whole group: a compiler's own children too.
func killGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}
