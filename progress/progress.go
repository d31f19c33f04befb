// Package progress keeps a learner's self-study progress between runs: the
// scenarios walked to their verdict, quiz answers and the score, the last
// scenario open and the language. It is a small JSON file in the XDG state
// directory, written whole or not at all. Two trainers open at once (two
// terminals, one learner) share it: each save is merged with what is on
// disk under a lock file, so neither loses the other's walks.
package progress

import (
	"context"
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
	"github.com/gofrs/flock"

	"toolgate/safefile"
)

// Version is the file format's version.
const Version = 1

// MaxFileSize is the largest progress file read: a learner's progress is
// a few kilobytes; a larger file is not progress and is kept aside.
const MaxFileSize = 1 << 20

// lockWait is how long a save waits for another trainer's save.
const lockWait = 10 * time.Second

// Answer is one quiz answer for one scenario: what the learner said and
// whether it was right.
type Answer struct {
	// Said is the answer as shown, e.g. "rule 4, environment_not_ready"
	// or "not_found".
	Said  string `json:"said"`
	Right bool   `json:"right"`
	// Half is the right rule with the wrong code: half a point.
	Half bool `json:"half,omitempty"`
	// Decided is what really decided it, e.g. "rule 7, approval_missing".
	Decided string `json:"decided"`
	// Caveat is the answer to "which of these does the verdict NOT
	// prove?": "right", "wrong", or "" when it was not asked.
	Caveat string `json:"caveat,omitempty"`
}

// Halves is the answer's points in half points: two for a right answer,
// one for the right rule with the wrong code.
func (a Answer) Halves() int {
	switch {
	case a.Right:
		return 2
	case a.Half:
		return 1
	}
	return 0
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
	// Learn is the exercise track's progress (toolgate learn), by
	// programming language: "js", "py", "go", "java".
	Learn map[string]Learn `json:"learn,omitempty"`
	// Practice holds the Leitner boxes of the practice, by rule
	// ("rule/3") and code ("code/invalid_arguments").
	Practice map[string]Box `json:"practice,omitempty"`
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
	cloneExtras(&c, p)
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

// Score counts the answers kept, one per scenario (a re-answer replaces
// the earlier one): halves is the points in half points — two for a
// right answer, one for the right rule with the wrong code — and answered
// is how many scenarios have an answer. Right and Asked, which count every
// answer ever given, are not the score.
func (p Progress) Score() (halves, answered int) {
	for _, a := range p.Quiz {
		halves += a.Halves()
	}
	return halves, len(p.Quiz)
}

// kept counts the answers kept, right and wrong.
func (p Progress) kept() (right, wrong int) {
	for _, a := range p.Quiz {
		if a.Right {
			right++
		} else {
			wrong++
		}
	}
	return right, wrong
}

// check reports counts that no run of the trainer can write: a file with
// them is set aside like a corrupt one rather than trusted.
func (p Progress) check() error {
	right, wrong := p.kept()
	switch {
	case p.Right < 0 || p.Asked < 0:
		return fmt.Errorf("impossible counts: %d right of %d asked", p.Right, p.Asked)
	case p.Right > p.Asked:
		return fmt.Errorf("impossible counts: %d right of only %d asked", p.Right, p.Asked)
	case right > p.Right || wrong > p.Asked-p.Right:
		return fmt.Errorf("impossible counts: %d answers kept (%d right), but %d right of %d asked", len(p.Quiz), right, p.Right, p.Asked)
	case slices.Contains(p.Walked, ""):
		return errors.New("an empty scenario id among those walked")
	}
	return p.checkExtras()
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
// cannot be read as progress — not JSON, another version, larger than
// MaxFileSize, impossible counts — is never overwritten silently: it is
// renamed aside (progress.json.corrupt-20261130-061500) and notice says so
// in one line; progress then starts fresh. A path that is not a regular
// file (a named pipe, a link to a device) is an error: it is neither read
// (a pipe would block, a device never ends) nor moved.
func (s Store) Load() (p Progress, notice string, err error) {
	if s.Path == "" {
		return New(), "", nil
	}
	p, bad, err := s.read()
	if err != nil {
		return New(), "", err
	}
	if bad == nil {
		return p, "", nil
	}
	aside, err := s.setAside(bad)
	if err != nil {
		return New(), "", err
	}
	return New(), fmt.Sprintf("progress file was unreadable (%v); kept it as %s and started fresh", bad, aside), nil
}

// read reads the file: fresh progress when there is none; bad says why a
// file that was read is not progress; err is a file that cannot be read.
func (s Store) read() (p Progress, bad, err error) {
	data, err := safefile.ReadRegular(s.Path, MaxFileSize)
	var nr *safefile.NotRegularError
	var tl *safefile.TooLargeError
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return New(), nil, nil
	case errors.As(err, &nr):
		return New(), nil, fmt.Errorf("progress file %s is %s, not a regular file: not read, and nothing is saved over it", s.Path, safefile.Kind(nr.Mode))
	case errors.As(err, &tl):
		return New(), err, nil
	case err != nil:
		return New(), nil, fmt.Errorf("progress file %s: %w", s.Path, err)
	}
	if err := json.Unmarshal(data, &p); err != nil {
		return New(), err, nil
	}
	if p.Version != Version {
		return New(), fmt.Errorf("version %d, want %d", p.Version, Version), nil
	}
	if err := p.check(); err != nil {
		return New(), err, nil
	}
	if p.Walked == nil {
		p.Walked = []string{}
	}
	if p.Quiz == nil {
		p.Quiz = map[string]Answer{}
	}
	slices.Sort(p.Walked)
	p.Walked = slices.Compact(p.Walked)
	return p, nil, nil
}

func (s Store) setAside(why error) (string, error) {
	now := time.Now
	if s.Now != nil {
		now = s.Now
	}
	aside := s.Path + ".corrupt-" + now().Format("20060102-150405")
	if err := os.Rename(s.Path, aside); err != nil {
		return "", fmt.Errorf("progress file %s is unreadable (%v) and could not be kept aside: %w", s.Path, why, err)
	}
	return aside, nil
}

// Merge saves the changes from since to now — both this run's progress,
// at its last save and at this one — into what is on disk now, which
// another trainer may have changed meanwhile: walked scenarios are
// joined, quiz answers given since are put in, the score is counted on
// from the file's, and the last scenario and the language are this run's
// if it changed them. It happens under a lock file (path + ".lock") and
// writes the file whole (safefile.WriteFile), so two trainers saving at
// once both keep what they did. Temporary files that a killed save left
// behind are removed; a file on disk that is not progress is kept aside
// first, as Load does.
func (s Store) Merge(since, now Progress) error {
	if s.Path == "" {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(s.Path), 0o700); err != nil {
		return fmt.Errorf("saving progress: %w", err)
	}
	unlock, err := s.lock()
	if err != nil {
		return fmt.Errorf("saving progress: %w", err)
	}
	defer unlock()
	left, _ := safefile.Leftovers(s.Path)
	for _, name := range left {
		_ = os.Remove(name) // no save is under way: we hold the lock
	}
	disk, bad, err := s.read()
	if err != nil {
		return fmt.Errorf("saving progress: %w", err)
	}
	if bad != nil {
		if _, err := s.setAside(bad); err != nil {
			return fmt.Errorf("saving progress: %w", err)
		}
	}
	merged := merge(disk, since, now)
	data, err := json.MarshalIndent(merged, "", "  ")
	if err != nil {
		return err
	}
	if err := safefile.WriteFile(s.Path, append(data, '\n'), 0o600); err != nil {
		return fmt.Errorf("saving progress: %w", err)
	}
	return nil
}

// merge puts the changes from since to now into disk.
func merge(disk, since, now Progress) Progress {
	out := disk.Clone()
	out.Version = Version
	out.Seq = 0
	for _, id := range now.Walked {
		out.MarkWalked(id)
	}
	for id, a := range now.Quiz {
		if old, ok := since.Quiz[id]; !ok || old != a {
			out.Quiz[id] = a
		}
	}
	out.Asked = max(disk.Asked+now.Asked-since.Asked, 0)
	out.Right = min(max(disk.Right+now.Right-since.Right, 0), out.Asked)
	if now.Last != since.Last {
		out.Last = now.Last
	}
	if now.Lang != since.Lang {
		out.Lang = now.Lang
	}
	mergeExtras(&out, disk, since, now)
	// The answers kept must fit the score: the file is read back by a
	// check that sets impossible counts aside.
	right, wrong := out.kept()
	out.Right = max(out.Right, right)
	out.Asked = max(out.Asked, out.Right+wrong)
	return out
}

// lock takes the lock file, waiting up to lockWait for another trainer.
// The kernel drops the lock of a process that dies, so a killed trainer
// never leaves it held.
func (s Store) lock() (func(), error) {
	fl := flock.New(s.Path + ".lock")
	ctx, cancel := context.WithTimeout(context.Background(), lockWait)
	defer cancel()
	ok, err := fl.TryLockContext(ctx, 20*time.Millisecond)
	if err != nil || !ok {
		return nil, fmt.Errorf("another toolgate holds %s.lock (waited %v): %v", s.Path, lockWait, err)
	}
	return func() { _ = fl.Unlock() }, nil
}

// Serial returns a save function for a run that started with loaded: it
// merges each save with the file (Merge, since the run's previous save),
// one at a time, and drops a progress older (by Seq) than one already
// written — saves may run concurrently (a program's commands run in
// goroutines), and the newest holds every change of the older ones.
func (s Store) Serial(loaded Progress) func(Progress) error {
	var mu sync.Mutex
	var written uint64
	since := loaded.Clone()
	return func(p Progress) error {
		mu.Lock()
		defer mu.Unlock()
		if p.Seq != 0 && p.Seq <= written {
			return nil
		}
		if err := s.Merge(since, p); err != nil {
			return err
		}
		written, since = p.Seq, p.Clone()
		return nil
	}
}

// Reset removes the progress file; a missing one is already reset.
func (s Store) Reset() error {
	if s.Path == "" {
		return nil
	}
	if unlock, err := s.lock(); err == nil {
		defer unlock()
	}
	if err := os.Remove(s.Path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}
