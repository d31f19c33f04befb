package learn

import (
	"os"
	"os/signal"
	"syscall"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
)

// Run starts the watch view on the terminal: a run at start and one after
// every burst of saves to the learner's files, until the learner quits or
// a signal ends it; the terminal is restored either way.
func Run(o Options) error {
	p := tea.NewProgram(New(o), tea.WithColorProfile(lipgloss.Writer.Profile))
	stop, err := Watch(o.Dir, o.Lang, Quiet, func() { p.Send(changedMsg{}) })
	if err != nil {
		return err
	}
	defer stop()
	// Bubble Tea quits on SIGINT and SIGTERM; a closed terminal sends
	// SIGHUP, which would leave it in the alternate screen.
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGHUP, syscall.SIGQUIT)
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
	_, err = p.Run()
	return err
}
