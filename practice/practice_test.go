package practice

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"toolgate/assess"
	"toolgate/decode"
	"toolgate/gen"
	"toolgate/progress"
	"toolgate/scenarios"
	"toolgate/walk"
)

// seeds and perSeed bound the reachability test: worksheets of seeds 1
// to seeds, perSeed cases each, as `toolgate practice --seed N --count
// perSeed` writes them.
const (
	seeds   = 60
	perSeed = 20
)

// sheets is every case of the worksheets of seeds 1 to seeds.
func sheets(t *testing.T) []Case {
	t.Helper()
	bases := Bases(scenarios.Builtin())
	require.NotEmpty(t, bases)
	var all []Case
	for seed := uint64(1); seed <= seeds; seed++ {
		all = append(all, Sheet(seed, perSeed, bases)...)
	}
	return all
}

// TestCasesAgreeWithAssess: every case, written as JSON, passes the input
// check, and what it states — the scenario's expected verdict and the
// case's Verdict — is what assess.Assess answers for the input read back.
// The expectation is assess's alone: nothing of practice computes it here.
func TestCasesAgreeWithAssess(t *testing.T) {
	for i, c := range sheets(t) {
		raw, err := decode.Encode(c.Input())
		require.NoError(t, err)
		back, err := decode.Input(raw)
		require.NoError(t, err, "case %d (%s) does not pass the input check: %s", i, c.Scenario.ID, raw)
		v := assess.Assess(&back)

		ac, ok := c.Scenario.Case.(scenarios.AdmissionCase)
		require.True(t, ok, "case %d is an admission case", i)
		want := ac.Expect
		require.Equal(t, v.Status, want.Status, "case %d: %s", i, raw)
		require.Equal(t, v.Code, want.Code, "case %d: %s", i, raw)
		require.Equal(t, v.ApprovalStatus, want.ApprovalStatus, "case %d: %s", i, raw)
		require.Equal(t, v.EffectStatus, want.EffectStatus, "case %d: %s", i, raw)
		require.Equal(t, fmt.Sprint(v.MissingArguments), fmt.Sprint(want.MissingArguments), "case %d: %s", i, raw)
		require.Equal(t, v.CodeName(), c.Verdict.CodeName(), "case %d: %s", i, raw)
		require.Equal(t, v.Status, c.Verdict.Status, "case %d: %s", i, raw)
		if i%50 == 0 {
			w := walk.Of(c.Scenario, assess.Chinese)
			require.Equal(t, int(v.Code.Rule()), w.Decisive, "the trainer walks case %d to its rule", i)
		}
		require.NotEqual(t, c.Change.Was, c.Change.Now, "case %d changes something", i)
	}
}

// TestEveryRuleAndCodeIsReachable: the worksheets of seeds 1 to 60 have
// a case decided by every rule, a case answering every code, and
// approval_<status> with every status gen draws ("expired", "revoked",
// near misses of "active", others).
func TestEveryRuleAndCodeIsReachable(t *testing.T) {
	codes := map[assess.Code]int{}
	statuses := map[string]bool{}
	rules := map[assess.Rule]bool{}
	for _, c := range sheets(t) {
		codes[c.Verdict.Code]++
		rules[c.Verdict.Code.Rule()] = true
		if c.Verdict.Code == assess.CodeApprovalStatus {
			statuses[c.Verdict.ApprovalStatus] = true
		}
	}
	for _, c := range assess.Codes() {
		assert.Positive(t, codes[c], "no case answers %s", c)
	}
	for r := assess.RuleToolInContract; r <= assess.RuleAllow; r++ {
		assert.True(t, rules[r], "no case is decided by rule %d", r)
	}
	for _, s := range gen.ApprovalStatuses() {
		assert.True(t, statuses[s], "no case answers approval_%s", s)
	}
	assert.True(t, statuses["expired"] && statuses["revoked"])
}

// TestChangesAreGensEdges: the value a case sets in a field is one gen
// draws for that field, and the edges the differential tests explore are
// among the cases: a blank of trim's set beyond ASCII, a second tool of a
// name put in before the first, "" against absent.
func TestChangesAreGensEdges(t *testing.T) {
	g := rand.New(rand.NewPCG(9, 9))
	pool := func(draw func(*rand.Rand) gen.Opt) map[string]bool {
		m := map[string]bool{absent: true}
		for range 5000 {
			if s, ok := draw(g).Get(); ok {
				m[strconv.Quote(s)] = true
			}
		}
		return m
	}
	pools := map[string]map[string]bool{
		"request.tool.version":          pool(gen.Version),
		"environment.status":            pool(gen.EnvironmentStatus),
		"approval.scope":                pool(gen.ApprovalScope),
		"invocationRecord.status":       pool(gen.RecordStatus),
		"approval.status":               {strconv.Quote("active"): true},
		"request.tool.name":             {},
		"invocationRecord.effectStatus": pool(gen.EffectStatus),
	}
	for _, s := range gen.ApprovalStatuses() {
		pools["approval.status"][strconv.Quote(s)] = true
	}
	for range 5000 {
		pools["request.tool.name"][strconv.Quote(gen.ToolName(g))] = true
	}

	var blankBeyondASCII, firstBefore, emptyVersion, absentVersion bool
	for i, c := range sheets(t) {
		ch := c.Change
		if p, ok := pools[ch.Path]; ok {
			assert.True(t, p[ch.Now], "case %d sets %s to %s, which gen never draws", i, ch.Path, ch.Now)
		}
		if strings.HasPrefix(ch.Path, "request.arguments.") && c.Verdict.Code == assess.CodeInvalidArguments {
			if s, err := strconv.Unquote(ch.Now); err == nil && s != "" && strings.TrimLeft(s, " \t\n\v\f\r") != "" {
				blankBeyondASCII = true
			}
		}
		if ch.Op == OpInsert && c.Verdict.Code == assess.CodeToolVersionMismatch {
			firstBefore = true
		}
		if strings.HasSuffix(ch.Path, ".version") {
			emptyVersion = emptyVersion || ch.Now == `""`
			absentVersion = absentVersion || ch.Now == absent
		}
	}
	assert.True(t, blankBeyondASCII, "a blank argument of trim's set beyond ASCII")
	assert.True(t, firstBefore, "a second tool of a name, put in first, changes rule 1's answer")
	assert.True(t, emptyVersion && absentVersion, "a version \"\" and a version left out")
}

// TestStoryNeverGivesTheAnswer: in neither language does a case's story
// (nor its title) hold its answer's code, its rule's number as a rule
// ("rule 3", "规则 3"), the rule's title or its id.
func TestStoryNeverGivesTheAnswer(t *testing.T) {
	for i, c := range sheets(t) {
		rule := c.Verdict.Code.Rule()
		n := strconv.Itoa(int(rule))
		banned := []string{c.Verdict.CodeName(), c.Verdict.Code.String(), rule.ID(),
			strings.ToLower(rule.Title(assess.English)), rule.Title(assess.Chinese),
			"rule " + n, "rule" + n, "规则 " + n, "规则" + n, "第 " + n + " 条", "第" + n + "条"}
		for _, text := range []string{c.Scenario.Story.En, c.Scenario.Story.Zh, c.Scenario.Title.En, c.Scenario.Title.Zh} {
			lower := strings.ToLower(text)
			for _, b := range banned {
				if !strings.Contains(lower, strings.ToLower(b)) {
					continue
				}
				t.Errorf("case %d: %q gives the answer away (%q)", i, text, b)
			}
		}
		assert.Contains(t, c.Scenario.Story.En, c.Change.Path)
		assert.Contains(t, c.Scenario.Story.Zh, c.Change.Path)
		assert.Contains(t, c.Scenario.Story.En, "Scenario "+strconv.Itoa(c.Base.Number)+",")
	}
}

// TestSameSeedSameCases: a seed always gives the same cases; another seed
// others.
func TestSameSeedSameCases(t *testing.T) {
	bases := Bases(scenarios.Builtin())
	a, b := Sheet(42, 20, bases), Sheet(42, 20, bases)
	assert.Equal(t, a, b)
	ids := func(cs []Case) []string {
		var out []string
		for _, c := range cs {
			out = append(out, c.Scenario.ID)
		}
		return out
	}
	assert.NotEqual(t, ids(a), ids(Sheet(43, 20, bases)))
	assert.True(t, slices.Equal(ids(a), ids(b)))
}

// TestDrawsLeanTowardMistakes: with every box mastered but rule 4's and
// environment_not_ready's (just missed), rule 4 is drawn far more often
// than its share.
func TestDrawsLeanTowardMistakes(t *testing.T) {
	p := progress.New()
	for _, c := range assess.Codes() {
		for range 5 {
			p.RecordPractice(CodeKey(c), true)
			p.RecordPractice(RuleKey(c.Rule()), true)
		}
	}
	p.RecordPractice(RuleKey(assess.RuleEnvironment), false)
	p.RecordPractice(CodeKey(assess.CodeEnvironmentNotReady), false)
	r := rand.New(rand.NewPCG(1, 25))
	n := 0
	const draws = 300
	for range draws {
		if Next(p, scenarios.Builtin(), r).Verdict.Code == assess.CodeEnvironmentNotReady {
			n++
		}
	}
	// Its weight is 25 against 1 for each of the 10 others: about 70%.
	assert.Greater(t, n, draws/2, "environment_not_ready drawn %d of %d", n, draws)
}

// TestRecordMovesTheBoxes: a right answer moves the rule and the code up
// a box, the right rule with the wrong code moves the code back to 1, a
// wrong rule both; the mastery shows it.
func TestRecordMovesTheBoxes(t *testing.T) {
	c := Next(progress.New(), scenarios.Builtin(), rand.New(rand.NewPCG(3, 25)))
	rule := int(c.Verdict.Code.Rule())
	p := progress.New()
	right, half := Record(&p, c, rule, c.Verdict.CodeName())
	assert.True(t, right)
	assert.False(t, half)
	assert.Equal(t, 2, p.Practice[RuleKey(c.Verdict.Code.Rule())].Box)
	assert.Equal(t, 2, p.Practice[CodeKey(c.Verdict.Code)].Box)
	right, half = Record(&p, c, rule, "not_a_code")
	assert.False(t, right)
	assert.True(t, half)
	assert.Equal(t, 3, p.Practice[RuleKey(c.Verdict.Code.Rule())].Box)
	assert.Equal(t, 1, p.Practice[CodeKey(c.Verdict.Code)].Box)
	Record(&p, c, rule%8+1, c.Verdict.CodeName())
	assert.Equal(t, 1, p.Practice[RuleKey(c.Verdict.Code.Rule())].Box)
	assert.Len(t, Rules(p), 8)
	assert.Contains(t, HeaderText(p, assess.English), "0/8 mastered")
}
