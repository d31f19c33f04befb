package tui

import (
	"os"
	"os/signal"
	"syscall"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
)

// endSignals are the signals that end the trainer. Bubble Tea itself
// quits on SIGINT and SIGTERM, restoring the terminal; the others would
// kill the process with the terminal still in the alternate screen and raw
// mode (a closed ssh session sends SIGHUP), so they quit the same way.
var endSignals = []os.Signal{syscall.SIGHUP, syscall.SIGQUIT}

// Run starts the trainer on the terminal and returns when the user quits,
// or when a signal ends it; the terminal is restored either way.
func Run(opts Options) error {
	// The colour profile lipgloss detected when it started (it runs tmux
	// info), so that Bubble Tea does not ask a second time.
	p := tea.NewProgram(New(opts), tea.WithColorProfile(lipgloss.Writer.Profile))
	if opts.Watch != nil && opts.Reload != nil {
		stop, err := opts.Watch(func() { p.Send(reloadMsg{}) })
		if err != nil {
			return err
		}
		defer stop()
	}
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, endSignals...)
	defer signal.Stop(sigs)
	done := make(chan struct{})
	defer close(done)
	go func() {
		select {
		case <-sigs:
			p.Quit()
		case <-done:
		}
	}()
	_, err := p.Run()
	return err
}
