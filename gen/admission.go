package gen

import (
	"math/rand/v2"
	"slices"
	"strings"
)

// Admission is a random admission input (docs/decision.md §1) as JSON text, one line:
// about two thirds of them pass the input check (§1), their verdicts
// spread over all 8 rules of §2, every code among them; the other third
// are refused, by every refusal class of §1 (see Refusal).
func Admission(r *rand.Rand) []byte {
	switch {
	case r.IntN(3) == 0:
		return Refusal(r)
	case r.IntN(4) == 0:
		return randomAdmission(r).text(r) // no rule aimed at: where it falls
	default:
		return Decision(r, 1+r.IntN(8))
	}
}

// Decision is a random admission input that passes the input check and
// whose verdict rule (1 to 8, docs/decision.md §2) decides: every rule before it
// passes, and it fires. Rule 1 gives unknown_tool or tool_version_mismatch,
// rule 7 each of its codes, approval_<status> with several statuses. It
// panics if rule is not between 1 and 8.
func Decision(r *rand.Rand, rule int) []byte {
	if rule < 1 || rule > 8 {
		panic("gen.Decision: rule must be between 1 and 8")
	}
	a := randomAdmission(r)
	a.steer(r, rule)
	return a.text(r)
}

// Refusal is a random admission input that the input check (docs/decision.md §1)
// refuses, for one reason chosen evenly among its classes: not JSON (bad
// syntax, bad UTF-8, an unpaired surrogate escape), not an object, a member
// name twice in some object (request.arguments and its values included),
// an unknown member (mostly a misspelt one), a value of the wrong JSON
// type, null where a string is expected, a required member absent, and an
// approval whose status is absent or "".
func Refusal(r *rand.Rand) []byte {
	a := randomAdmission(r)
	if chance(r, 0.5) {
		a.steer(r, 1+r.IntN(8))
	}
	root := a.tree()
	if chance(r, 0.1) {
		shuffle(r, root)
	}
	c := &collection{}
	c.collect(root, admissionShape, "")
	switch r.IntN(8) {
	case 0:
		return corrupt(r, write(r, root))
	case 1:
		return notObject(r, write(r, root))
	case 2:
		c.duplicate(r)
	case 3:
		c.unknown(r)
	case 4:
		c.wrongType(r)
	case 5:
		c.nullString(r)
	case 6:
		c.required(r)
	default:
		approvalStatus(r, root)
	}
	return write(r, root)
}

// ------------------------------------------------------------- the model

// opt is a string member that may be absent.
type opt struct {
	set bool
	s   string
}

func some(s string) opt { return opt{set: true, s: s} }

var none opt

// presence is how an optional object is given.
type presence uint8

const (
	absent presence = iota
	null
	present
)

type tool struct {
	name                                string
	version, effectClass, approvalScope opt
	required                            []string
}

// admission is an input that passes the input check, before it is
// written; steer moves it to a rule, tree writes it as a JSON tree.
type admission struct {
	contractVersion opt
	tools           []tool
	correlationID   string
	toolName        string
	toolVersion     opt
	args            presence
	argMembers      []member
	envStatus       opt
	approval        presence
	approvalStatus  string
	approvalScope   opt
	record          presence
	recordID        opt
	recordStatus    opt
	recordEffect    opt
	recordCheck     opt // verificationStatus
}

// The pools: small, so that equal and near-equal values meet often.
var (
	toolNames = []string{"document_read_metadata", "document_update_metadata", "", "工具", "t😀",
		"Document_read_metadata", "document_read_metadata "}
	versions       = []string{"v1", "v1", "v2", "", "V1"}
	effectClasses  = []string{"read_only", "read_only", "reversible_write", "irreversible_write", "", "Read_Only", "read_only ", "READ_ONLY"}
	scopes         = []string{"metadata_write", "metadata_write", "", "other_scope", "Metadata_write"}
	argNames       = []string{"documentId", "documentId", "field", "value", "", "名前", "k😀", "__proto__", "toString", " documentId"}
	correlationIDs = []string{"request-1", "request-1", "request-2", "", "请求-1", "r😀", "request-1 ", "Request-1", "__proto__"}
	approvalStates = []string{"expired", "revoked", "Active", "pending", "ACTIVE", " active", "active ", "已批准", "undefined"}
	recordStates   = []string{"timed_out", "timed_out", "succeeded", "succeeded", "failed", "", "Succeeded", "running", "TIMED_OUT"}
	effectStates   = []string{"unknown", "unknown", "none", "Unknown", "", "applied", "unknown "}
	checkStates    = []string{"accepted", "accepted", "not_run", "rejected", "Accepted", "", "accepted "}
	envStates      = []string{"", "Ready", "down", " ready", "ready ", "ready\u200b", "READY", "degraded"}

	// nearToolNames are toolNames and names no contract of the pools has,
	// one of them with a zero-width space.
	nearToolNames = append(slices.Clone(toolNames), "document_delete", "document_read_metadata\u200b")

	// jsTrim is String.prototype.trim's set (docs/decision.md §2); notTrim are
	// characters some other definitions of white space include.
	jsTrim = []rune("\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff")
	// goodValues are non-blank strings, some of them only non-trim white space.
	goodValues = []string{"chapter-11", "status", "complete", "x", "名", "😀", " a ", "\u0085", "\u180e", "\u200b",
		"\u0085\u180e\u200b", "a\u3000", "0", "\u00a0b\u00a0", "\u1680\u180e"}
)

// pickOpt is absent with probability pAbsent, else one of xs.
func pickOpt(r *rand.Rand, pAbsent float64, xs ...string) opt {
	if chance(r, pAbsent) {
		return none
	}
	return some(pick(r, xs...))
}

// blank is a string that String.prototype.trim empties: "" or one to three
// characters of its set.
func blank(r *rand.Rand) string {
	n := r.IntN(4)
	var b strings.Builder
	for range n {
		b.WriteRune(pick(r, jsTrim...))
	}
	return b.String()
}

// nonString is a JSON value that is not a string, built fresh (the
// refusals mutate objects in place).
func nonString(r *rand.Rand) any {
	switch r.IntN(12) {
	case 0:
		return number(pick(r, "0", "-1.5", "12345678901234567890", "-0", "1E2", "0.1"))
	case 1:
		return number("1e400")
	case 2:
		return true
	case 3:
		return false
	case 4, 5:
		return nil
	case 6:
		return []any{}
	case 7:
		return []any{pick(r, goodValues...), number("1")}
	case 8:
		return &object{}
	case 9:
		return obj("a", "b", "n", obj("k", []any{nil}))
	default:
		return number(pick(r, "1", "42"))
	}
}

// badArgument is what rule 3 calls missing: no member (omit), or a member
// that is not a string or is blank.
func badArgument(r *rand.Rand) (v any, omit bool) {
	switch r.IntN(3) {
	case 0:
		return nil, true
	case 1:
		return blank(r), false
	default:
		return nonString(r), false
	}
}

func randomTool(r *rand.Rand, name string) tool {
	t := tool{
		name:          name,
		version:       pickOpt(r, 0.15, versions...),
		effectClass:   pickOpt(r, 0.15, effectClasses...),
		approvalScope: pickOpt(r, 0.35, scopes...),
	}
	for range r.IntN(4) {
		t.required = append(t.required, pick(r, argNames...))
	}
	if len(t.required) > 0 && chance(r, 0.15) { // a name listed twice
		t.required = append(t.required, pick(r, t.required...))
	}
	return t
}

func randomAdmission(r *rand.Rand) *admission {
	a := &admission{contractVersion: pickOpt(r, 0.3, "chapter-11-v1", "", "v2")}
	names := make([]string, 1+r.IntN(3))
	for i := range names {
		names[i] = pick(r, toolNames...)
	}
	if !chance(r, 0.03) {
		for range 1 + r.IntN(4) {
			a.tools = append(a.tools, randomTool(r, pick(r, names...)))
		}
	}
	if len(a.tools) > 0 && chance(r, 0.3) { // two tools of one name, other versions
		t := randomTool(r, pick(r, a.tools...).name)
		i := r.IntN(len(a.tools) + 1)
		a.tools = slices.Insert(a.tools, i, t)
	}

	a.correlationID = CorrelationID(r)
	if len(a.tools) > 0 && chance(r, 0.85) {
		a.toolName = pick(r, a.tools...).name
		if chance(r, 0.7) {
			a.toolVersion = a.tools[a.first(a.toolName)].version
		} else {
			a.toolVersion = pickOpt(r, 0.2, versions...)
		}
	} else {
		a.toolName = pick(r, toolNames...)
		a.toolVersion = pickOpt(r, 0.2, versions...)
	}
	a.args = pick(r, absent, null, present, present, present, present, present, present, present, present)
	if a.args == present && len(a.tools) > 0 {
		a.arguments(r, a.tools[r.IntN(len(a.tools))].required, 0.25)
	}

	a.envStatus = none
	if !chance(r, 0.1) {
		a.envStatus = some("ready")
		if chance(r, 0.3) {
			a.envStatus = some(pick(r, envStates...))
		}
	}

	a.approval = pick(r, absent, absent, absent, null, present, present, present, present, present, present)
	a.approvalStatus = ApprovalStatus(r)
	a.approvalScope = ApprovalScope(r)

	a.record = pick(r, absent, absent, absent, absent, null, null, present, present, present, present)
	a.recordID = RecordCorrelationID(r, a.correlationID)
	a.recordStatus = RecordStatus(r)
	a.recordEffect = EffectStatus(r)
	a.recordCheck = VerificationStatus(r)
	return a
}

// arguments sets request.arguments to an object with a member for each
// name of required — a bad one (badArgument) with probability pBad — and
// up to two other members.
func (a *admission) arguments(r *rand.Rand, required []string, pBad float64) {
	a.args = present
	a.argMembers = nil
	var seen []string
	add := func(name string, v any) {
		if !slices.Contains(seen, name) {
			seen = append(seen, name)
			a.argMembers = append(a.argMembers, member{name: name, value: v})
		}
	}
	for _, name := range required {
		if slices.Contains(seen, name) {
			continue
		}
		if chance(r, pBad) {
			v, omit := badArgument(r)
			if omit {
				seen = append(seen, name)
				continue
			}
			add(name, v)
		} else {
			add(name, pick(r, goodValues...))
		}
	}
	for range r.IntN(3) {
		name := pick(r, append(argNames, "note", "extra", "名前2")...)
		if chance(r, 0.5) {
			add(name, pick(r, goodValues...))
		} else {
			add(name, nonString(r))
		}
	}
	r.Shuffle(len(a.argMembers), func(i, j int) { a.argMembers[i], a.argMembers[j] = a.argMembers[j], a.argMembers[i] })
}

// first is the index of the first tool called name, or -1.
func (a *admission) first(name string) int {
	return slices.IndexFunc(a.tools, func(t tool) bool { return t.name == name })
}

// steer changes a so that every rule before rule passes and rule fires.
func (a *admission) steer(r *rand.Rand, rule int) {
	// Rule 1: the first tool of the request's name, and its version.
	if len(a.tools) == 0 {
		a.tools = append(a.tools, randomTool(r, pick(r, toolNames...)))
	}
	i := a.first(pick(r, a.tools...).name)
	if rule == 1 {
		if chance(r, 0.5) {
			a.toolName = a.unknownName(r)
		} else {
			a.toolName = a.tools[i].name
			a.toolVersion = a.otherVersion(r, i)
		}
		return
	}
	a.toolName, a.toolVersion = a.tools[i].name, a.tools[i].version
	t := &a.tools[i]

	// Rule 2: a record about another call.
	if rule == 2 {
		a.record = present
		for a.recordID.set && a.recordID.s == a.correlationID {
			a.recordID = pickOpt(r, 0.3, append(correlationIDs, "request-other")...)
		}
		return
	}
	a.recordID = some(a.correlationID)

	// Rule 3: a required argument missing, not a string or blank.
	if rule == 3 {
		if len(t.required) == 0 {
			t.required = []string{pick(r, argNames...)}
			if chance(r, 0.3) {
				t.required = append(t.required, pick(r, argNames...))
			}
		}
		if chance(r, 0.15) {
			a.args, a.argMembers = pick(r, absent, null), nil
			return
		}
		for {
			a.arguments(r, t.required, 0.5)
			if a.hasMissing(t.required) {
				return
			}
		}
	}
	if len(t.required) > 0 || a.args == present {
		a.arguments(r, t.required, 0)
	}

	// Rule 4: the environment.
	if rule == 4 {
		a.envStatus = EnvironmentStatus(r)
		return
	}
	a.envStatus = some("ready")

	// Rule 5: timed out, its effect unknown.
	if rule == 5 {
		a.record, a.recordStatus, a.recordEffect = present, some("timed_out"), some("unknown")
		return
	}
	if a.recordStatus == some("timed_out") && a.recordEffect == some("unknown") {
		for a.recordEffect == some("unknown") {
			a.recordEffect = EffectStatus(r)
		}
	}

	// Rule 6: succeeded, its result not accepted.
	if rule == 6 {
		a.record, a.recordStatus = present, some("succeeded")
		for a.recordCheck == some("accepted") {
			a.recordCheck = pickOpt(r, 0.3, checkStates...)
		}
		return
	}
	if a.recordStatus == some("succeeded") {
		a.recordCheck = some("accepted")
	}

	// Rule 7: a write-class tool without an active approval of its scope.
	if rule == 7 {
		for t.effectClass == some("read_only") {
			t.effectClass = EffectClass(r)
		}
		switch r.IntN(4) {
		case 0:
			a.approval = pick(r, absent, null)
		case 1:
			a.approval, a.approvalStatus = present, pick(r, approvalStates...)
		default:
			a.approval, a.approvalStatus = present, "active"
			if chance(r, 0.3) {
				t.approvalScope = none
			}
			for a.approvalScope == t.approvalScope {
				a.approvalScope = ApprovalScope(r)
			}
		}
		return
	}

	// Rule 8: a read_only tool, or an active approval of its scope.
	if t.effectClass != some("read_only") {
		a.approval, a.approvalStatus = present, "active"
		if chance(r, 0.3) {
			t.approvalScope = none
		}
		a.approvalScope = t.approvalScope
	}
}

// hasMissing says whether rule 3 fires on a's arguments for required.
func (a *admission) hasMissing(required []string) bool {
	for _, name := range required {
		i := slices.IndexFunc(a.argMembers, func(m member) bool { return m.name == name })
		if i < 0 {
			return true
		}
		s, ok := a.argMembers[i].value.(string)
		if !ok || strings.TrimFunc(s, func(c rune) bool { return slices.Contains(jsTrim, c) }) == "" {
			return true
		}
	}
	return false
}

// unknownName is a tool name no tool of the contract has, often a near miss.
func (a *admission) unknownName(r *rand.Rand) string {
	for range 8 {
		name := ToolName(r)
		if a.first(name) < 0 {
			return name
		}
	}
	name := "document_delete"
	for a.first(name) >= 0 {
		name += "_"
	}
	return name
}

// otherVersion is a version other than tool i's: often the version of a
// later tool of the same name, which rule 1 never consults.
func (a *admission) otherVersion(r *rand.Rand, i int) opt {
	t := a.tools[i]
	var later []opt
	for _, u := range a.tools[i+1:] {
		if u.name == t.name && u.version != t.version {
			later = append(later, u.version)
		}
	}
	if len(later) > 0 && chance(r, 0.6) {
		return pick(r, later...)
	}
	v := t.version
	for v == t.version {
		v = Version(r)
	}
	return v
}

func setOpt(o *object, name string, v opt) {
	if v.set {
		o.set(name, v.s)
	}
}

// tree is a's JSON tree, members in the order docs/decision.md §1 names them.
func (a *admission) tree() *object {
	tools := make([]any, len(a.tools))
	for i, t := range a.tools {
		o := obj("name", t.name)
		setOpt(o, "version", t.version)
		setOpt(o, "effectClass", t.effectClass)
		required := make([]any, len(t.required))
		for j, name := range t.required {
			required[j] = name
		}
		o.set("requiredArguments", required)
		setOpt(o, "approvalScope", t.approvalScope)
		tools[i] = o
	}
	contract := &object{}
	setOpt(contract, "version", a.contractVersion)
	contract.set("tools", tools)

	requestTool := obj("name", a.toolName)
	setOpt(requestTool, "version", a.toolVersion)
	request := obj("correlationId", a.correlationID, "tool", requestTool)
	switch a.args {
	case absent: // left out
	case null:
		request.set("arguments", nil)
	case present:
		request.set("arguments", &object{members: slices.Clone(a.argMembers)})
	}
	environment := &object{}
	setOpt(environment, "status", a.envStatus)
	root := obj("contract", contract, "request", request, "environment", environment)

	switch a.approval {
	case absent: // left out
	case null:
		root.set("approval", nil)
	case present:
		approval := obj("status", a.approvalStatus)
		setOpt(approval, "scope", a.approvalScope)
		root.set("approval", approval)
	}
	switch a.record {
	case absent: // left out
	case null:
		root.set("invocationRecord", nil)
	case present:
		record := &object{}
		setOpt(record, "correlationId", a.recordID)
		setOpt(record, "status", a.recordStatus)
		setOpt(record, "effectStatus", a.recordEffect)
		setOpt(record, "verificationStatus", a.recordCheck)
		root.set("invocationRecord", record)
	}
	return root
}

// text is a written as one line of JSON, its members now and then reordered.
func (a *admission) text(r *rand.Rand) []byte {
	root := a.tree()
	if chance(r, 0.1) {
		shuffle(r, root)
	}
	return write(r, root)
}
