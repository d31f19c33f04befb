package assess

// AuditWithHash is the audit of Audit with the hash given, so that a test
// can make IDs collide.
func AuditWithHash(in AuditInput, hash func(string) uint64) (AuditResult, error) {
	return auditWithHash(in, hash)
}
