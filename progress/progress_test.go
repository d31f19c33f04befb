package progress_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"toolgate/progress"
)

func fixedNow() time.Time { return time.Date(2026, 11, 30, 6, 15, 0, 0, time.UTC) }

func TestSaveAndLoad(t *testing.T) {
	s := progress.Store{Path: filepath.Join(t.TempDir(), "deep", "progress.json"), Now: fixedNow}
	p, notice, err := s.Load()
	require.NoError(t, err)
	assert.Empty(t, notice)
	assert.Equal(t, progress.New(), p, "no file is fresh progress")

	p.MarkWalked("demo")
	p.MarkWalked("audit-empty")
	p.MarkWalked("demo")
	p.Record("unknown-tool", progress.Answer{Said: "rule 1, unknown_tool", Right: true, Decided: "rule 1, unknown_tool"})
	p.Record("write-without-approval", progress.Answer{Said: "rule 4", Decided: "rule 7, approval_missing"})
	p.Last, p.Lang = "demo", "zh"
	require.NoError(t, s.Merge(progress.New(), p))

	back, notice, err := s.Load()
	require.NoError(t, err)
	assert.Empty(t, notice)
	assert.Equal(t, p, back)
	assert.Equal(t, []string{"audit-empty", "demo"}, back.Walked)
	assert.Equal(t, 1, back.Right)
	assert.Equal(t, 2, back.Asked)
	info, err := os.Stat(filepath.Dir(s.Path))
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o700), info.Mode().Perm())
}

func TestCorruptFileIsKeptAside(t *testing.T) {
	for name, content := range map[string]string{
		"half a file":   `{"version":1,"walked":["de`,
		"wrong version": `{"version":99}`,
		"not JSON":      "\x00\x01garbage",
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			s := progress.Store{Path: filepath.Join(dir, "progress.json"), Now: fixedNow}
			require.NoError(t, os.WriteFile(s.Path, []byte(content), 0o600))
			p, notice, err := s.Load()
			require.NoError(t, err)
			assert.Equal(t, progress.New(), p)
			aside := s.Path + ".corrupt-20261130-061500"
			assert.Contains(t, notice, "kept it as "+aside)
			kept, err := os.ReadFile(aside)
			require.NoError(t, err)
			assert.Equal(t, content, string(kept), "the unreadable file is kept whole")
			_, err = os.Stat(s.Path)
			assert.True(t, os.IsNotExist(err), "and moved, not copied")
		})
	}
}

func TestReadOnlyDirectory(t *testing.T) {
	if runtime.GOOS == "windows" || os.Geteuid() == 0 {
		// root writes anywhere; make the directory a file instead, which
		// fails for everyone.
		dir := t.TempDir()
		blocker := filepath.Join(dir, "state")
		require.NoError(t, os.WriteFile(blocker, []byte("x"), 0o600))
		s := progress.Store{Path: filepath.Join(blocker, "toolgate", "progress.json")}
		err := s.Merge(progress.New(), progress.New())
		require.Error(t, err)
		assert.Contains(t, err.Error(), "saving progress")
		return
	}
	dir := t.TempDir()
	require.NoError(t, os.Chmod(dir, 0o500))
	t.Cleanup(func() { os.Chmod(dir, 0o700) })
	s := progress.Store{Path: filepath.Join(dir, "progress.json")}
	err := s.Merge(progress.New(), progress.New())
	require.Error(t, err)
	assert.Contains(t, err.Error(), "saving progress")
}

func TestNoSaveKeepsNothing(t *testing.T) {
	s := progress.Store{}
	require.NoError(t, s.Merge(progress.New(), progress.New()))
	p, _, err := s.Load()
	require.NoError(t, err)
	assert.Equal(t, progress.New(), p)
}

// TestConcurrentSaves has two processes — two trainers of one learner —
// save many times at once, each its own walks and answers: afterwards the
// file holds every walk and answer of both, and the score counts all.
func TestConcurrentSaves(t *testing.T) {
	if os.Getenv("TOOLGATE_SAVE_HELPER") != "" {
		s := progress.Store{Path: os.Getenv("TOOLGATE_SAVE_HELPER")}
		writer := os.Getenv("TOOLGATE_SAVE_WRITER")
		loaded, _, err := s.Load()
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		save := s.Serial(loaded)
		p := loaded.Clone()
		for i := range 100 {
			id := fmt.Sprintf("%s-%03d", writer, i)
			p.MarkWalked(id)
			p.Record(id, progress.Answer{Said: "x", Right: i%2 == 0, Decided: "x"})
			p.Last = id
			p.Seq++
			if err := save(p.Clone()); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
		}
		os.Exit(0)
	}
	path := filepath.Join(t.TempDir(), "progress.json")
	var wg sync.WaitGroup
	for _, writer := range []string{"a", "b"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.Command(os.Args[0], "-test.run", "^TestConcurrentSaves$")
			cmd.Env = append(os.Environ(), "TOOLGATE_SAVE_HELPER="+path, "TOOLGATE_SAVE_WRITER="+writer)
			out, err := cmd.CombinedOutput()
			assert.NoError(t, err, string(out))
		}()
	}
	wg.Wait()
	p, notice, err := progress.Store{Path: path}.Load()
	require.NoError(t, err)
	require.Empty(t, notice, "the file must be whole")
	assert.Len(t, p.Walked, 200, "both trainers' walks are kept")
	assert.Len(t, p.Quiz, 200)
	assert.Equal(t, 200, p.Asked)
	assert.Equal(t, 100, p.Right)
	assert.Contains(t, []string{"a-099", "b-099"}, p.Last)
	entries, _ := os.ReadDir(filepath.Dir(path))
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	assert.ElementsMatch(t, []string{"progress.json", "progress.json.lock"}, names, "no temporary file left behind")
}

// TestTwoTrainersMerge: two trainers started from the same file each
// save their own view; the second save keeps the first one's walk,
// answer and score (the last rename used to win, without a word).
func TestTwoTrainersMerge(t *testing.T) {
	s := progress.Store{Path: filepath.Join(t.TempDir(), "progress.json")}
	start := progress.New()
	start.MarkWalked("demo")
	start.Record("demo", progress.Answer{Said: "rule 8", Right: true, Decided: "rule 8"})
	require.NoError(t, s.Merge(progress.New(), start))

	loaded, _, err := s.Load()
	require.NoError(t, err)
	one, two := s.Serial(loaded), s.Serial(loaded)
	a, b := loaded.Clone(), loaded.Clone()
	a.MarkWalked("unknown-tool")
	a.Record("unknown-tool", progress.Answer{Said: "rule 1", Right: true, Decided: "rule 1"})
	a.Seq = 1
	b.MarkWalked("audit-empty")
	b.Record("audit-empty", progress.Answer{Said: "none", Right: false, Decided: "no diagnostics"})
	b.Last, b.Seq = "audit-empty", 1
	require.NoError(t, one(a))
	require.NoError(t, two(b))
	a.MarkWalked("demo-2")
	a.Seq = 2
	require.NoError(t, one(a), "a second save of the first trainer counts only what is new")

	p, _, err := s.Load()
	require.NoError(t, err)
	assert.Equal(t, []string{"audit-empty", "demo", "demo-2", "unknown-tool"}, p.Walked)
	assert.Len(t, p.Quiz, 3)
	assert.Equal(t, 3, p.Asked)
	assert.Equal(t, 2, p.Right)
	assert.Equal(t, "audit-empty", p.Last, "the first trainer did not change Last")
}

func TestSerialDropsOvertakenSaves(t *testing.T) {
	s := progress.Store{Path: filepath.Join(t.TempDir(), "progress.json")}
	save := s.Serial(progress.New())
	newer := progress.New()
	newer.Last, newer.Seq = "newer", 2
	older := progress.New()
	older.Last, older.Seq = "older", 1
	require.NoError(t, save(newer))
	require.NoError(t, save(older), "an overtaken save is dropped, not an error")
	p, _, err := s.Load()
	require.NoError(t, err)
	assert.Equal(t, "newer", p.Last)
}

// TestImpossibleCountsAreKeptAside: counts no trainer writes are not
// trusted; the file is kept aside like a corrupt one.
func TestImpossibleCountsAreKeptAside(t *testing.T) {
	for name, content := range map[string]string{
		"negative":                `{"version":1,"walked":[],"quiz":{},"right":-1,"asked":2}`,
		"more right than asked":   `{"version":1,"walked":[],"quiz":{},"right":5,"asked":3}`,
		"more answers than asked": `{"version":1,"walked":[],"quiz":{"a":{"said":"x","right":false,"decided":"y"},"b":{"said":"x","right":false,"decided":"y"}},"right":0,"asked":1}`,
		"an empty id":             `{"version":1,"walked":[""],"quiz":{},"right":0,"asked":0}`,
	} {
		t.Run(name, func(t *testing.T) {
			s := progress.Store{Path: filepath.Join(t.TempDir(), "progress.json"), Now: fixedNow}
			require.NoError(t, os.WriteFile(s.Path, []byte(content), 0o600))
			p, notice, err := s.Load()
			require.NoError(t, err)
			assert.Equal(t, progress.New(), p)
			assert.Contains(t, notice, "kept it as "+s.Path+".corrupt-20261130-061500")
			kept, err := os.ReadFile(s.Path + ".corrupt-20261130-061500")
			require.NoError(t, err)
			assert.Equal(t, content, string(kept))
		})
	}
	// A file too large to be progress is kept aside after reading no
	// more than the limit.
	s := progress.Store{Path: filepath.Join(t.TempDir(), "progress.json"), Now: fixedNow}
	require.NoError(t, os.WriteFile(s.Path, make([]byte, progress.MaxFileSize+1), 0o600))
	_, notice, err := s.Load()
	require.NoError(t, err)
	assert.Contains(t, notice, "file is larger than 1048576 bytes")
}

// TestLeftoverTemporaryFilesAreRemoved: a save killed after creating its
// temporary file leaves it behind; the next save, holding the lock, knows
// no save is under way and removes it.
func TestLeftoverTemporaryFilesAreRemoved(t *testing.T) {
	dir := t.TempDir()
	s := progress.Store{Path: filepath.Join(dir, "progress.json")}
	require.NoError(t, s.Merge(progress.New(), progress.New()))
	require.NoError(t, os.WriteFile(filepath.Join(dir, ".progress.json8675309"), []byte(`{"half`), 0o600))
	require.NoError(t, s.Merge(progress.New(), progress.New()))
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	assert.ElementsMatch(t, []string{"progress.json", "progress.json.lock"}, names)
}

// TestAnswerHalves: a right answer is two half points, the right rule
// with the wrong code one, anything else none; Score adds them up.
func TestAnswerHalves(t *testing.T) {
	for _, tc := range []struct {
		name string
		a    progress.Answer
		want int
	}{
		{"right", progress.Answer{Right: true}, 2},
		{"right, and marked half by an old trainer", progress.Answer{Right: true, Half: true}, 2},
		{"the right rule, the wrong code", progress.Answer{Half: true}, 1},
		{"wrong", progress.Answer{}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, tc.a.Halves())
			p := progress.New()
			p.Record("a", tc.a)
			p.Record("b", progress.Answer{Right: true})
			halves, answered := p.Score()
			assert.Equal(t, tc.want+2, halves)
			assert.Equal(t, 2, answered)
		})
	}
}

// TestKeptAnswersMustFitTheCounts: a file whose kept right answers are
// more than its right count is impossible and kept aside; a save that
// merges answers in raises the counts so that they fit.
func TestKeptAnswersMustFitTheCounts(t *testing.T) {
	s := progress.Store{Path: filepath.Join(t.TempDir(), "progress.json"), Now: fixedNow}
	require.NoError(t, os.WriteFile(s.Path, []byte(`{"version":1,"walked":[],"quiz":{"a":{"said":"x","right":true,"decided":"x"}},"right":0,"asked":1}`), 0o600))
	_, notice, err := s.Load()
	require.NoError(t, err)
	assert.Contains(t, notice, "1 answers kept (1 right), but 0 right of 1 asked")

	since := progress.New()
	now := since.Clone()
	now.Quiz["a"] = progress.Answer{Right: true}
	now.Quiz["b"] = progress.Answer{}
	require.NoError(t, s.Merge(since, now), "the answers put in without Record")
	p, notice, err := s.Load()
	require.NoError(t, err)
	assert.Empty(t, notice, "the merged file passes the check")
	assert.Equal(t, []int{1, 2}, []int{p.Right, p.Asked})
}
