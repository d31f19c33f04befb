package learn

import (
	"path/filepath"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
)

// Quiet is how long the learner's files must stay unchanged before the
// gate runs again: an editor's save is a write, a rename and a chmod
// within milliseconds, and one run is enough.
const Quiet = 80 * time.Millisecond

// Watch calls changed after each burst of changes to the language's
// source files in dir, until stop is called. It is told by the system
// (fsnotify), never by polling; it watches the directory, not the files,
// so that an editor that saves by renaming a new file over the old one is
// seen too. Build output goes outside dir, so a run never calls it again.
func Watch(dir string, l Lang, quiet time.Duration, changed func()) (stop func(), err error) {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, err
	}
	if err := w.Add(dir); err != nil {
		_ = w.Close() // the error that matters is Add's
		return nil, err
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		timer := time.NewTimer(time.Hour)
		timer.Stop()
		defer timer.Stop()
		for {
			select {
			case <-done:
				return
			case ev, ok := <-w.Events:
				if !ok {
					return
				}
				if l.Relevant(filepath.Base(ev.Name)) {
					timer.Reset(quiet)
				}
			case _, ok := <-w.Errors:
				if !ok {
					return
				}
			case <-timer.C:
				changed()
			}
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() {
			close(done)
			_ = w.Close() // nothing is watched after this; stop has no error to give
			wg.Wait()
		})
	}, nil
}
