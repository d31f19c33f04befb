package tui

import tea "charm.land/bubbletea/v2"

// Run starts the trainer on the terminal and returns when the user quits.
func Run(opts Options) error {
	_, err := tea.NewProgram(New(opts)).Run()
	return err
}
