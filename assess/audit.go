package assess

import (
	"fmt"
	"hash/maphash"
	"strconv"
)

// AuditInput is a tool batch after (part of) it returned: the correlation
// IDs the harness requested, the IDs the results carry, and whether the
// batch is over (docs/decision.md §4).
type AuditInput struct {
	Requested []string `json:"requested"`
	Results   []string `json:"results"`
	// Closed says no more results will come; in JSON an absent closed
	// means true (a batch handed over whole).
	Closed bool `json:"closed"`
}

// AuditResult is what the audit finds: sorted, de-duplicated diagnostics
// ("duplicate:A", "missing:B", "unknown:C") and, while the batch is open,
// the requested IDs still pending. Both are always non-nil.
type AuditResult struct {
	Diagnostics []string `json:"diagnostics"`
	Pending     []string `json:"pending"`
}

// AuditError is an input the audit cannot answer: a request ID listed
// twice (the seed's Java throws). The empty ID "" is an ID like any other.
type AuditError struct {
	// Path names the offending element, e.g. "requested[1]".
	Path string
	ID   string
}

func (e *AuditError) Error() string {
	return fmt.Sprintf("%s: duplicate request ID %q: which request would a result answer?", e.Path, e.ID)
}

// Reason names what is wrong for a machine, in English whatever the
// language: "duplicate_request_id".
func (e *AuditError) Reason() string { return "duplicate_request_id" }

// AuditStepKind is what a step of the audit looks at.
type AuditStepKind uint8

// The steps of the audit, in order.
const (
	AuditRequests AuditStepKind = iota + 1 // the requests are unique
	AuditScan                              // one result: known? seen before?
	AuditClose                             // which requests never arrived
)

var auditStepIDs = [...]string{
	AuditRequests: "duplicate_request_id",
	AuditScan:     "result",
	AuditClose:    "batch_end",
}

// ID is the step's stable identifier, as Rule.ID is a rule's: what the
// step asks ("duplicate_request_id", "batch_end"), or "result"
// for the step that looks at one result.
func (k AuditStepKind) ID() string {
	if k >= AuditRequests && k <= AuditClose {
		return auditStepIDs[k]
	}
	return ""
}

// AuditStep is one step of the audit's trace.
type AuditStep struct {
	Kind    AuditStepKind
	Outcome Outcome
	// For AuditScan: which result, its ID, and the two checks.
	Index      int
	ID         string
	Known      bool
	SeenBefore bool
	// Added are the diagnostics this step found (before de-duplication).
	Added []string
	// For AuditClose: the requested IDs never seen, in request order;
	// missing when the batch is closed, pending while it is open.
	Unseen []string
	Closed bool
	// Requested is how many IDs were requested, for AuditRequests and
	// AuditClose: with none, there is nothing to repeat or to miss, and
	// the steps say so rather than pass vacuously.
	Requested int
	// Err is set on the step that found an input error.
	Err *AuditError
	// Reads are the input paths the step looked at.
	Reads []string
}

// Audit checks that a batch's results match its requests one to one.
// Its time is linear in the batch up to millions of IDs
// (auditPartitioned); it answers as ExplainAudit does.
func Audit(in AuditInput) (AuditResult, error) {
	// The seed changes which partition an ID falls in, never the result.
	seed := maphash.MakeSeed()
	return auditWithHash(in, func(s string) uint64 { return maphash.String(seed, s) })
}

func auditWithHash(in AuditInput, hash func(string) uint64) (AuditResult, error) {
	n := len(in.Requested)
	id := func(ref uint32) string {
		if int(ref) < n {
			return in.Requested[ref]
		}
		return in.Results[int(ref)-n]
	}
	return partitioned(n, n+len(in.Results), id, in.Closed, hash)
}

// ExplainAudit audits like Audit and also returns the steps: the request
// check, one step per result, and the close.
func ExplainAudit(in AuditInput) (AuditResult, []AuditStep, error) {
	return audit(in, true)
}

// What the audit knows of an ID, as bits of one map value.
const (
	idRequested uint8 = 1 << iota
	idSeen
	idDuplicate
)

// requestError finds the first requested ID that repeats an earlier one.
func requestError(requested []string, ids map[string]uint8) *AuditError {
	for i, id := range requested {
		if ids[id] != 0 {
			return &AuditError{Path: "requested[" + strconv.Itoa(i) + "]", ID: id}
		}
		ids[id] = idRequested
	}
	return nil
}

// see records one result ID and returns what was known of it before.
func see(ids map[string]uint8, id string) uint8 {
	before := ids[id]
	state := before | idSeen
	if before&idSeen != 0 {
		state |= idDuplicate
	}
	ids[id] = state
	return before
}

// report adds what the IDs' states say to the result, unsorted.
func report(ids map[string]uint8, closed bool, r *AuditResult) {
	for id, state := range ids {
		switch {
		case state&idRequested == 0:
			r.Diagnostics = append(r.Diagnostics, "unknown:"+id)
		case state&idSeen == 0 && closed:
			r.Diagnostics = append(r.Diagnostics, "missing:"+id)
		case state&idSeen == 0:
			r.Pending = append(r.Pending, id)
		}
		if state&idDuplicate != 0 {
			r.Diagnostics = append(r.Diagnostics, "duplicate:"+id)
		}
	}
}

func audit(in AuditInput, explain bool) (AuditResult, []AuditStep, error) {
	var steps []AuditStep
	ids := make(map[string]uint8, len(in.Requested)+len(in.Results)/4)
	if err := requestError(in.Requested, ids); err != nil {
		if explain {
			steps = append(steps, AuditStep{Kind: AuditRequests, Outcome: Fired, Err: err, Reads: []string{"requested"}})
		}
		return AuditResult{}, steps, err
	}
	if explain {
		steps = append(steps, AuditStep{Kind: AuditRequests, Outcome: Passed, Requested: len(in.Requested), Reads: []string{"requested"}})
	}
	for i, id := range in.Results {
		before := see(ids, id)
		if explain {
			step := AuditStep{Kind: AuditScan, Outcome: Passed, Index: i, ID: id,
				Known: before&idRequested != 0, SeenBefore: before&idSeen != 0,
				Reads: []string{"results[" + strconv.Itoa(i) + "]", "requested"}}
			if !step.Known {
				step.Added = append(step.Added, "unknown:"+id)
			}
			if step.SeenBefore {
				step.Added = append(step.Added, "duplicate:"+id)
			}
			if len(step.Added) > 0 {
				step.Outcome = Fired
			}
			steps = append(steps, step)
		}
	}
	result := AuditResult{Diagnostics: []string{}, Pending: []string{}}
	report(ids, in.Closed, &result)
	SortUTF16(result.Diagnostics)
	SortUTF16(result.Pending)
	if explain {
		var unseen []string
		for _, id := range in.Requested {
			if ids[id]&idSeen == 0 {
				unseen = append(unseen, id)
			}
		}
		step := AuditStep{Kind: AuditClose, Outcome: Passed, Unseen: unseen, Closed: in.Closed, Requested: len(in.Requested), Reads: []string{"closed", "requested"}}
		if in.Closed && len(unseen) > 0 {
			step.Outcome = Fired
			for _, id := range unseen {
				step.Added = append(step.Added, "missing:"+id)
			}
		}
		steps = append(steps, step)
	}
	return result, steps, nil
}
