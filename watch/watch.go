// Package watch tells when the lecturer's scenario files change, so that
// the trainer can reload them (toolgate --watch). It watches directories
// (and the directories under them) and single files with fsnotify, and
// calls back once for a burst of events: an editor's save is a write, a
// rename and a chmod within milliseconds.
package watch

import (
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
)

// Quiet is how long the files must stay unchanged before the callback.
const Quiet = 150 * time.Millisecond

// Paths watches the paths and calls changed after each burst of changes,
// until stop is called. A path that cannot be watched is an error.
func Paths(paths []string, changed func()) (stop func(), err error) {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, err
	}
	for _, p := range paths {
		if err := add(w, p); err != nil {
			_ = w.Close() // the path's error is the one to tell
			return nil, err
		}
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var timer *time.Timer
		var fire <-chan time.Time
		for {
			select {
			case <-done:
				if timer != nil {
					timer.Stop()
				}
				return
			case ev, ok := <-w.Events:
				if !ok {
					return
				}
				if ev.Has(fsnotify.Create) {
					// A new directory is watched too.
					if info, err := os.Stat(ev.Name); err == nil && info.IsDir() {
						_ = add(w, ev.Name)
					}
				}
				if timer == nil {
					timer = time.NewTimer(Quiet)
				} else {
					timer.Reset(Quiet)
				}
				fire = timer.C
			case <-fire:
				fire = nil
				changed()
			case _, ok := <-w.Errors:
				if !ok {
					return
				}
			}
		}
	}()
	return func() {
		close(done)
		// stop has no one to tell of a close that fails (the watcher's
		// own descriptor): the watches are given up either way.
		_ = w.Close()
		wg.Wait()
	}, nil
}

// add watches a file, or a directory and every directory under it.
func add(w *fsnotify.Watcher, p string) error {
	info, err := os.Stat(p)
	if err != nil {
		return err
	}
	if !info.IsDir() {
		// An editor replaces a file by a rename: watch its directory.
		return w.Add(filepath.Dir(p))
	}
	return filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // a directory that went away is not an error
		}
		if d.IsDir() {
			return w.Add(path)
		}
		return nil
	})
}
