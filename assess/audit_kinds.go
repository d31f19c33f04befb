package assess

import "strings"

// AuditKind is a kind of finding of an audit, in the order reports list
// them.
type AuditKind uint8

// The kinds of finding: a batch with none is clean.
const (
	AuditClean AuditKind = iota
	AuditUnknown
	AuditDuplicate
	AuditMissing
	AuditPending
	numAuditKinds
)

var auditKindNames = [numAuditKinds]string{"clean", "unknown", "duplicate", "missing", "pending"}

// AuditKinds are every kind, in order.
func AuditKinds() []AuditKind {
	return []AuditKind{AuditClean, AuditUnknown, AuditDuplicate, AuditMissing, AuditPending}
}

// String is the kind's name: a diagnostic's prefix for unknown, duplicate
// and missing.
func (k AuditKind) String() string {
	if k < numAuditKinds {
		return auditKindNames[k]
	}
	return ""
}

// Kinds are the kinds of finding in r, each once, in order: AuditClean
// alone when there is none.
func (r AuditResult) Kinds() []AuditKind {
	var has [numAuditKinds]bool
	for _, d := range r.Diagnostics {
		prefix, _, _ := strings.Cut(d, ":")
		for k := AuditUnknown; k <= AuditMissing; k++ {
			if prefix == auditKindNames[k] {
				has[k] = true
			}
		}
	}
	has[AuditPending] = len(r.Pending) > 0
	var kinds []AuditKind
	for k := AuditUnknown; k < numAuditKinds; k++ {
		if has[k] {
			kinds = append(kinds, k)
		}
	}
	if kinds == nil {
		return []AuditKind{AuditClean}
	}
	return kinds
}
