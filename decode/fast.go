package decode

import "toolgate/internal/fastlane"

// Fast decodes admission and audit inputs in one pass over the text,
// without reflection: the fast lane of the input check
// (internal/fastlane). It accepts only inputs that Input and Audit
// accept, and reads them to the same values; on anything else it says no,
// and the caller runs Input or Audit, whose error is the one every
// message and position comes from. A Fast is not safe for concurrent use.
type Fast = fastlane.Fast

// AuditText is an audit input as Fast reads it: its IDs are spans of
// Text (assess.AuditSpans).
type AuditText = fastlane.AuditText
