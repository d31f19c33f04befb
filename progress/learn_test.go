package progress_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"toolgate/progress"
)

// TestLearnAndPracticeAreKeptAndMerged: the exercise track's runs (by
// language) and the practice's boxes survive a save and a load, and two
// runs saving at once keep both: runs and answers counted on, the best
// rules kept, each language's last run its own.
func TestLearnAndPracticeAreKeptAndMerged(t *testing.T) {
	s := progress.Store{Path: filepath.Join(t.TempDir(), "progress.json"), Now: fixedNow}
	stages := map[string]progress.Stage{"rule 1": {Agree: 18, Total: 18}, "rule 2": {Agree: 3, Total: 9}}

	a, _, err := s.Load()
	require.NoError(t, err)
	b := a.Clone()
	saveA, saveB := s.Serial(a), s.Serial(b)

	a.RecordLearn("js", stages, 1, false)
	a.RecordPractice("rule/3", true)
	a.Seq++
	require.NoError(t, saveA(a.Clone()))

	b.RecordLearn("js", map[string]progress.Stage{"rule 1": {Agree: 2, Total: 18}}, 0, false)
	b.RecordLearn("py", stages, 8, true)
	b.RecordPractice("rule/3", false)
	b.RecordPractice("code/approval_missing", true)
	b.Seq++
	require.NoError(t, saveB(b.Clone()))

	got, notice, err := s.Load()
	require.NoError(t, err)
	assert.Empty(t, notice)
	js := got.Learn["js"]
	assert.Equal(t, 2, js.Runs, "one run in each")
	assert.Equal(t, 1, js.Rules, "the best of the two")
	assert.Equal(t, 2, js.Stages["rule 1"].Agree, "the last run saved")
	assert.True(t, got.Learn["py"].Green)
	assert.Equal(t, progress.Box{Box: 1, Right: 1, Wrong: 1}, got.Practice["rule/3"], "the last answer's box, both counted")
	assert.Equal(t, 2, got.Practice["code/approval_missing"].Box)

	// The clone shares nothing: changing it leaves the original.
	c := got.Clone()
	c.Learn["js"].Stages["rule 1"] = progress.Stage{}
	c.Practice["rule/3"] = progress.Box{Box: 5}
	assert.Equal(t, 2, got.Learn["js"].Stages["rule 1"].Agree)
	assert.Equal(t, 1, got.Practice["rule/3"].Box)
}

// TestImpossibleLearnCountsAreKeptAside: a file with counts no run writes
// is set aside like any unreadable one.
func TestImpossibleLearnCountsAreKeptAside(t *testing.T) {
	for name, content := range map[string]string{
		"agree above total": `{"version":1,"walked":[],"quiz":{},"right":0,"asked":0,"learn":{"js":{"stages":{"rule 1":{"agree":9,"total":3}},"rules":1,"runs":1}}}`,
		"box 9":             `{"version":1,"walked":[],"quiz":{},"right":0,"asked":0,"practice":{"rule/1":{"box":9,"right":0,"wrong":0}}}`,
		"rules 12":          `{"version":1,"walked":[],"quiz":{},"right":0,"asked":0,"learn":{"go":{"stages":{},"rules":12,"runs":1}}}`,
	} {
		t.Run(name, func(t *testing.T) {
			s := progress.Store{Path: filepath.Join(t.TempDir(), "progress.json"), Now: fixedNow}
			require.NoError(t, os.WriteFile(s.Path, []byte(content), 0o600))
			p, notice, err := s.Load()
			require.NoError(t, err)
			assert.Equal(t, progress.New(), p)
			assert.Contains(t, notice, "kept it as")
		})
	}
}
