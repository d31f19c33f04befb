package assess

// A branch is one way a rule ends: the explanation it gives, and whether
// it fired. Every explanation but NoteNone and NoteNotReached belongs to
// exactly one rule, and always passes or always fires.
var noteBranches = [...]struct {
	rule  Rule
	fires bool
}{
	NoteToolFound:               {RuleToolInContract, false},
	NoteToolUnknown:             {RuleToolInContract, true},
	NoteToolVersionMismatch:     {RuleToolInContract, true},
	NoteNoRecord:                {RuleCorrelation, false},
	NoteCorrelationMatches:      {RuleCorrelation, false},
	NoteCorrelationConflict:     {RuleCorrelation, true},
	NoteCorrelationAbsent:       {RuleCorrelation, true},
	NoteNoRequiredArguments:     {RuleArguments, false},
	NoteArgumentsPresent:        {RuleArguments, false},
	NoteArgumentsMissing:        {RuleArguments, true},
	NoteEnvironmentNoStatus:     {RuleEnvironment, true},
	NoteEnvironmentNotReady:     {RuleEnvironment, true},
	NoteEnvironmentReady:        {RuleEnvironment, false},
	NoteNoRecordNoTimeout:       {RuleTimeout, false},
	NoteRecordNotTimedOut:       {RuleTimeout, false},
	NoteTimedOutNoEffect:        {RuleTimeout, false},
	NoteTimedOutUnknown:         {RuleTimeout, true},
	NoteTimedOutReadBack:        {RuleTimeout, false},
	NoteNoRecordNoSuccess:       {RuleVerification, false},
	NoteRecordNotSucceeded:      {RuleVerification, false},
	NoteSucceededNoVerification: {RuleVerification, true},
	NoteSucceededUnverified:     {RuleVerification, true},
	NoteSucceededAccepted:       {RuleVerification, false},
	NoteReadOnly:                {RuleApproval, false},
	NoteApprovalMissing:         {RuleApproval, true},
	NoteApprovalStatus:          {RuleApproval, true},
	NoteApprovalScopeMismatch:   {RuleApproval, true},
	NoteApprovalUnscoped:        {RuleApproval, false},
	NoteApprovalActive:          {RuleApproval, false},
	NoteAdmitted:                {RuleAllow, true},
	NoteNotReached:              {},
}

// Rule is the rule that explains itself with k; 0 for NoteNone and
// NoteNotReached.
func (k NoteKey) Rule() Rule {
	if int(k) < len(noteBranches) {
		return noteBranches[k].rule
	}
	return 0
}

// Fires reports whether the rule that explains itself with k fires.
func (k NoteKey) Fires() bool { return int(k) < len(noteBranches) && noteBranches[k].fires }

// Branches are every explanation a rule can give, in rule order (the
// order of the NoteKey constants).
func Branches() []NoteKey {
	keys := make([]NoteKey, 0, NoteNotReached-1)
	for k := NoteNone + 1; k < NoteNotReached; k++ {
		keys = append(keys, k)
	}
	return keys
}
