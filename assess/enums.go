package assess

import (
	"fmt"
	"strings"
)

// Status is the kind of answer: may the call go ahead, and if not, why not.
type Status uint8

// The statuses of docs/decision.md §2.
const (
	StatusAllowed Status = iota + 1
	StatusRejected
	StatusBlocked
	StatusEffectUnknown
	StatusNeedsEvidence
	StatusRequiresApproval
)

var statusNames = [...]string{
	StatusAllowed:          "allowed",
	StatusRejected:         "rejected",
	StatusBlocked:          "blocked",
	StatusEffectUnknown:    "effect_unknown",
	StatusNeedsEvidence:    "needs_evidence",
	StatusRequiresApproval: "requires_approval",
}

func (s Status) String() string {
	if int(s) < len(statusNames) && statusNames[s] != "" {
		return statusNames[s]
	}
	return fmt.Sprintf("Status(%d)", uint8(s))
}

// MarshalText writes the status's JSON name.
func (s Status) MarshalText() ([]byte, error) {
	if int(s) >= len(statusNames) || statusNames[s] == "" {
		return nil, fmt.Errorf("invalid status %d", uint8(s))
	}
	return []byte(statusNames[s]), nil
}

// UnmarshalText reads a status's JSON name.
func (s *Status) UnmarshalText(b []byte) error {
	for i, n := range statusNames {
		if n != "" && n == string(b) {
			*s = Status(i)
			return nil
		}
	}
	return fmt.Errorf("unknown status %q", b)
}

// Code says precisely which condition decided the verdict.
type Code uint8

// The codes of docs/decision.md §2, in rule order.
const (
	CodeUnknownTool Code = iota + 1
	CodeToolVersionMismatch
	CodeCorrelationConflict
	CodeInvalidArguments
	CodeEnvironmentNotReady
	CodeTimedOutWithoutReadback
	CodeToolResultNotVerified
	CodeApprovalMissing
	// CodeApprovalStatus is the book's approval_<status>: an approval
	// whose status is not "active" puts that status in the code
	// (approval_expired, approval_revoked). A Verdict carries the status.
	CodeApprovalStatus
	CodeApprovalScopeMismatch
	CodeAdmissionAllowed
)

type codeInfo struct {
	name   string
	status Status
	rule   Rule
}

var codes = [...]codeInfo{
	CodeUnknownTool:             {"unknown_tool", StatusRejected, RuleToolInContract},
	CodeToolVersionMismatch:     {"tool_version_mismatch", StatusRejected, RuleToolInContract},
	CodeCorrelationConflict:     {"correlation_conflict", StatusBlocked, RuleCorrelation},
	CodeInvalidArguments:        {"invalid_arguments", StatusRejected, RuleArguments},
	CodeEnvironmentNotReady:     {"environment_not_ready", StatusBlocked, RuleEnvironment},
	CodeTimedOutWithoutReadback: {"timed_out_without_readback", StatusEffectUnknown, RuleTimeout},
	CodeToolResultNotVerified:   {"tool_result_not_verified", StatusNeedsEvidence, RuleVerification},
	CodeApprovalMissing:         {"approval_missing", StatusRequiresApproval, RuleApproval},
	CodeApprovalStatus:          {"approval_<status>", StatusRequiresApproval, RuleApproval},
	CodeApprovalScopeMismatch:   {"approval_scope_mismatch", StatusRequiresApproval, RuleApproval},
	CodeAdmissionAllowed:        {"admission_allowed", StatusAllowed, RuleAllow},
}

// Codes lists every code in rule order.
func Codes() []Code {
	out := make([]Code, 0, len(codes)-1)
	for c := CodeUnknownTool; c <= CodeAdmissionAllowed; c++ {
		out = append(out, c)
	}
	return out
}

func (c Code) valid() bool { return c >= CodeUnknownTool && c <= CodeAdmissionAllowed }

func (c Code) String() string {
	if c.valid() {
		return codes[c].name
	}
	return fmt.Sprintf("Code(%d)", uint8(c))
}

// Status is the status that always goes with this code.
func (c Code) Status() Status {
	if c.valid() {
		return codes[c].status
	}
	return 0
}

// Rule is the rule that produces this code.
func (c Code) Rule() Rule {
	if c.valid() {
		return codes[c].rule
	}
	return 0
}

// Name is the code's JSON name; for CodeApprovalStatus, the status
// goes in it: "approval_" + status.
func (c Code) Name(status string) string {
	if c == CodeApprovalStatus {
		return approvalPrefix + status
	}
	return c.String()
}

const approvalPrefix = "approval_"

// ParseCode reads a code's JSON name. Any "approval_" name that is not
// one of the fixed codes is CodeApprovalStatus with the rest as the
// approval's status ("approval_expired": "expired"); status is "" for
// every other code.
func ParseCode(name string) (c Code, status string, err error) {
	for i := CodeUnknownTool; i <= CodeAdmissionAllowed; i++ {
		if i != CodeApprovalStatus && codes[i].name == name {
			return i, "", nil
		}
	}
	if st, ok := strings.CutPrefix(name, approvalPrefix); ok && st != "" {
		return CodeApprovalStatus, st, nil
	}
	return 0, "", fmt.Errorf("unknown code %q", name)
}

// isCodeName reports whether name is the name of a fixed code, such as
// "approval_missing": an approval whose status is "missing" answers it
// too.
func isCodeName(name string) bool {
	c, _, err := ParseCode(name)
	return err == nil && c != CodeApprovalStatus
}

// Rule is one step of the decision order, numbered 1–8 as in docs/decision.md §2.
type Rule uint8

// The rules, in the order they are asked.
const (
	RuleToolInContract Rule = iota + 1
	RuleCorrelation
	RuleArguments
	RuleEnvironment
	RuleTimeout
	RuleVerification
	RuleApproval
	RuleAllow
)

// NumRules is the number of rules in the decision order.
const NumRules = 8

var ruleIDs = [...]string{
	RuleToolInContract: "tool_not_in_contract",
	RuleCorrelation:    "correlation_conflict",
	RuleArguments:      "arguments_unusable",
	RuleEnvironment:    "environment_not_ready",
	RuleTimeout:        "timed_out_effect_unknown",
	RuleVerification:   "success_not_verified",
	RuleApproval:       "write_not_approved",
	RuleAllow:          "admit",
}

// Valid reports whether r is one of the eight rules.
func (r Rule) Valid() bool { return r >= RuleToolInContract && r <= RuleAllow }

// ID is the rule's stable identifier, named, like its title, for the
// condition that fires it (e.g. "environment_not_ready"), so that
// "fired" always reads as "yes, this condition holds".
func (r Rule) ID() string {
	if r.Valid() {
		return ruleIDs[r]
	}
	return ""
}

func (r Rule) String() string {
	if r.Valid() {
		return fmt.Sprintf("%d %s", uint8(r), ruleIDs[r])
	}
	return fmt.Sprintf("Rule(%d)", uint8(r))
}

// Outcome is what a rule did in one walk.
type Outcome uint8

// The outcomes of a trace step.
const (
	Passed Outcome = iota + 1
	Fired
	NotReached
)

var outcomeNames = [...]string{Passed: "passed", Fired: "fired", NotReached: "not_reached"}

func (o Outcome) String() string {
	if o >= Passed && o <= NotReached {
		return outcomeNames[o]
	}
	return fmt.Sprintf("Outcome(%d)", uint8(o))
}

// MarshalText writes the outcome's JSON name.
func (o Outcome) MarshalText() ([]byte, error) {
	if o < Passed || o > NotReached {
		return nil, fmt.Errorf("invalid outcome %d", uint8(o))
	}
	return []byte(outcomeNames[o]), nil
}

// Lang is a language the texts exist in.
type Lang uint8

// The two languages of toolgate.
const (
	English Lang = iota
	Chinese
)

func (l Lang) String() string {
	if l == Chinese {
		return "zh"
	}
	return "en"
}

// ListSep joins a list in the language: "A, B" or "A、B".
func (l Lang) ListSep() string { return pick(l, ", ", "、") }

// Colon ends a label in the language: "label: text" or "标签：文字".
func (l Lang) Colon() string { return pick(l, ": ", "：") }

// ParseLang reads "en" or "zh", or a locale such as "zh_CN.UTF-8" or "en-GB".
func ParseLang(s string) (Lang, error) {
	l := strings.ToLower(s)
	for _, p := range [...]struct {
		prefix string
		lang   Lang
	}{{"en", English}, {"zh", Chinese}} {
		if l == p.prefix || strings.HasPrefix(l, p.prefix+"_") || strings.HasPrefix(l, p.prefix+"-") {
			return p.lang, nil
		}
	}
	return English, fmt.Errorf("unknown language %q (want en or zh)", s)
}

// LangFromEnv picks the language from locale variables, in POSIX
// precedence (LC_ALL, then LC_MESSAGES, then LANG): Chinese when the first
// one set names it, else English. getenv is how to read a variable, so
// that this stays free of the process's environment.
func LangFromEnv(getenv func(string) string) Lang {
	for _, name := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if v := getenv(name); v != "" {
			l, _ := ParseLang(v)
			return l
		}
	}
	return English
}
