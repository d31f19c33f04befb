// Package progress keeps a learner's self-study progress between runs: the
// scenarios walked to their verdict, quiz answers and the score, the last
// scenario open and the language. It is a small JSON file in the XDG state
// directory, written whole or not at all.
package progress

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/adrg/xdg"
)

// Version is the file format's version.
const Version = 1

// Answer is one quiz answer for one scenario: what the learner said and
// whether it was right.
type Answer struct {
	// Said is the answer as shown, e.g. "rule 4, environment_not_ready"
	// or "not_found".
	Said  string `json:"said"`
	Right bool   `json:"right"`
	// Decided is what really decided it, e.g. "rule 7, approval_missing".
	Decided string `json:"decided"`
}

// Progress is what is kept.
type Progress struct {
	Version int `json:"version"`
	// Walked lists the scenario ids walked to their verdict, sorted.
	Walked []string `json:"walked"`
	// Quiz holds the latest answer per scenario id.
	Quiz map[string]Answer `json:"quiz"`
	// Right and Asked are the running score over all answers given.
	Right int `json:"right"`
	Asked int `json:"asked"`
	// Last is the id of the scenario last open.
	Last string `json:"last,omitempty"`
	// Lang is "en" or "zh".
	Lang string `json:"lang,omitempty"`
	// Seq orders the changes of one run, so that a save that was
	// overtaken by a later one is dropped; it is not saved.
	Seq uint64 `json:"-"`
}

// New is empty progress.
func New() Progress { return Progress{Version: Version, Walked: []string{}, Quiz: map[string]Answer{}} }

// Clone is a copy that shares nothing with p, to hand to a save running
// beside further changes.
func (p Progress) Clone() Progress {
	c := p
	c.Walked = slices.Clone(p.Walked)
	c.Quiz = make(map[string]Answer, len(p.Quiz))
	for k, v := range p.Quiz {
		c.Quiz[k] = v
	}
	return c
}

// MarkWalked records that a scenario was walked to its verdict.
func (p *Progress) MarkWalked(id string) {
	if i, found := slices.BinarySearch(p.Walked, id); !found {
		p.Walked = slices.Insert(p.Walked, i, id)
	}
}

// Record records a quiz answer and counts it in the score.
func (p *Progress) Record(id string, a Answer) {
	if p.Quiz == nil {
		p.Quiz = map[string]Answer{}
	}
	p.Quiz[id] = a
	p.Asked++
	if a.Right {
		p.Right++
	}
}

// Store is where progress lives: a file, or nowhere (--no-save).
type Store struct {
	// Path is the file; "" keeps everything in memory.
	Path string
	// Now tells the time for naming a file kept aside; nil is time.Now.
	Now func() time.Time
}

// DefaultPath is $XDG_STATE_HOME/toolgate/progress.json (by default
// ~/.local/state/toolgate/progress.json).
func DefaultPath() string {
	return filepath.Join(xdg.StateHome, "toolgate", "progress.json")
}

// Load reads the progress. A missing file is fresh progress. A file that
// cannot be read as progress is never overwritten silently: it is renamed
// aside (progress.json.corrupt-20261130-061500) and notice says so in one
// line; progress then starts fresh.
func (s Store) Load() (p Progress, notice string, err error) {
	if s.Path == "" {
		return New(), "", nil
	}
	data, err := os.ReadFile(s.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return New(), "", nil
	}
	if err == nil {
		err = json.Unmarshal(data, &p)
		if err == nil && p.Version != Version {
			err = fmt.Errorf("version %d, want %d", p.Version, Version)
		}
		if err == nil {
			if p.Walked == nil {
				p.Walked = []string{}
			}
			if p.Quiz == nil {
				p.Quiz = map[string]Answer{}
			}
			slices.Sort(p.Walked)
			return p, "", nil
		}
	}
	now := time.Now
	if s.Now != nil {
		now = s.Now
	}
	aside := s.Path + ".corrupt-" + now().Format("20060102-150405")
	if rerr := os.Rename(s.Path, aside); rerr != nil {
		return New(), "", fmt.Errorf("progress file %s is unreadable (%v) and could not be kept aside: %w", s.Path, err, rerr)
	}
	return New(), fmt.Sprintf("progress file was unreadable (%v); kept it as %s and started fresh", err, aside), nil
}

// Save writes the progress whole: to a temporary file in the same
// directory, synced, then renamed over the old one, so that a crash leaves
// the old file or the new one, never half of either. Two processes saving
// at once: the last rename wins, whole.
func (s Store) Save(p Progress) error {
	if s.Path == "" {
		return nil
	}
	p.Version = Version
	data, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		return err
	}
	dir := filepath.Dir(s.Path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("saving progress: %w", err)
	}
	tmp, err := os.CreateTemp(dir, ".progress-*.json")
	if err != nil {
		return fmt.Errorf("saving progress: %w", err)
	}
	defer os.Remove(tmp.Name()) // after a successful rename there is nothing to remove
	if _, err := tmp.Write(append(data, '\n')); err != nil {
		tmp.Close()
		return fmt.Errorf("saving progress: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("saving progress: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("saving progress: %w", err)
	}
	if err := os.Rename(tmp.Name(), s.Path); err != nil {
		return fmt.Errorf("saving progress: %w", err)
	}
	return nil
}

// Serial returns a save function for saves that may run concurrently (a
// program's commands run in goroutines): it writes one at a time, and a
// progress older (by Seq) than one already written is dropped, so the file
// always ends with the newest.
func (s Store) Serial() func(Progress) error {
	var mu sync.Mutex
	var written uint64
	return func(p Progress) error {
		mu.Lock()
		defer mu.Unlock()
		if p.Seq != 0 && p.Seq <= written {
			return nil
		}
		if err := s.Save(p); err != nil {
			return err
		}
		written = p.Seq
		return nil
	}
}

// Reset removes the progress file; a missing one is already reset.
func (s Store) Reset() error {
	if s.Path == "" {
		return nil
	}
	if err := os.Remove(s.Path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}
