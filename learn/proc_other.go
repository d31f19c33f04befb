//go:build !unix

package learn

import "os/exec"

// killGroup kills only the command itself where there are no process
// groups.
func killGroup(*exec.Cmd) {}
