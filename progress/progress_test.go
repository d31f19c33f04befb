package progress_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
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
	require.NoError(t, s.Save(p))

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
		err := s.Save(progress.New())
		require.Error(t, err)
		assert.Contains(t, err.Error(), "saving progress")
		return
	}
	dir := t.TempDir()
	require.NoError(t, os.Chmod(dir, 0o500))
	t.Cleanup(func() { os.Chmod(dir, 0o700) })
	s := progress.Store{Path: filepath.Join(dir, "progress.json")}
	err := s.Save(progress.New())
	require.Error(t, err)
	assert.Contains(t, err.Error(), "saving progress")
}

func TestNoSaveKeepsNothing(t *testing.T) {
	s := progress.Store{}
	require.NoError(t, s.Save(progress.New()))
	p, _, err := s.Load()
	require.NoError(t, err)
	assert.Equal(t, progress.New(), p)
}

// TestConcurrentSaves has two processes save many times at once: whatever
// is on disk afterwards is one of the writes, whole.
func TestConcurrentSaves(t *testing.T) {
	if os.Getenv("TOOLGATE_SAVE_HELPER") != "" {
		s := progress.Store{Path: os.Getenv("TOOLGATE_SAVE_HELPER")}
		writer := os.Getenv("TOOLGATE_SAVE_WRITER")
		for i := range 200 {
			p := progress.New()
			p.Last = fmt.Sprintf("%s-%d", writer, i)
			// A long field so that a torn write would show.
			p.Walked = []string{strings.Repeat(writer, 5000)}
			if err := s.Save(p); err != nil {
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
	writer := p.Last[:1]
	assert.Equal(t, writer+"-199", p.Last, "the last write of one of them")
	assert.Equal(t, []string{strings.Repeat(writer, 5000)}, p.Walked)
	entries, _ := os.ReadDir(filepath.Dir(path))
	assert.Len(t, entries, 1, "no temporary file left behind")
}

func TestSerialDropsOvertakenSaves(t *testing.T) {
	s := progress.Store{Path: filepath.Join(t.TempDir(), "progress.json")}
	save := s.Serial()
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
