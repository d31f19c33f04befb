// Package tui is toolgate's interactive trainer.
package tui

import (
	"fmt"

	"toolgate/cli"
)

// Run starts the trainer on the terminal. Placeholder until the TUI lands.
func Run(opts cli.TUIOptions) error {
	fmt.Println("toolgate: the interactive trainer is coming; use 'toolgate list' and 'toolgate trace N'")
	return nil
}
