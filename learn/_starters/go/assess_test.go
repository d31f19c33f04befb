package main

// The book's seven tests (its matrix, chapter 11), with go test:
//
//	go test
//
// `toolgate learn` checks far more inputs than these; these are the book's.

import (
	"reflect"
	"testing"
)

func str(s string) *string { return &s }

func fixture() Input {
	return Input{
		Contract: Contract{Version: str("chapter-11-v1"), Tools: []Tool{
			{Name: "document_read_metadata", Version: str("v1"), EffectClass: str("read_only"), RequiredArguments: []string{"documentId"}},
			{Name: "document_update_metadata", Version: str("v1"), EffectClass: str("reversible_write"),
				RequiredArguments: []string{"documentId", "field", "value"}, ApprovalScope: str("metadata_write")},
		}},
		Request: Request{CorrelationID: "request-1", Tool: ToolRef{Name: "document_read_metadata", Version: str("v1")},
			Arguments: map[string]any{"documentId": "chapter-11"}},
		Environment: Environment{Status: str("ready")},
		Approval:    &Approval{Status: "active", Scope: str("metadata_write")},
	}
}

func TestBook(t *testing.T) {
	tests := []struct {
		name   string
		change func(*Input)
		want   Verdict
	}{
		{"unknown tool", func(in *Input) { in.Request.Tool = ToolRef{Name: "document_delete", Version: str("v1")} },
			Verdict{Status: "rejected", Code: "unknown_tool", CorrelationID: "request-1"}},
		{"invalid argument shape", func(in *Input) { in.Request.CorrelationID = "request-2"; in.Request.Arguments = map[string]any{} },
			Verdict{Status: "rejected", Code: "invalid_arguments", CorrelationID: "request-2", MissingArguments: []string{"documentId"}}},
		{"known read-only candidate", func(*Input) {},
			Verdict{Status: "allowed", Code: "admission_allowed", CorrelationID: "request-1"}},
		{"write without approval", func(in *Input) {
			in.Request = Request{CorrelationID: "request-3", Tool: ToolRef{Name: "document_update_metadata", Version: str("v1")},
				Arguments: map[string]any{"documentId": "chapter-11", "field": "status", "value": "complete"}}
			in.Approval = nil
		}, Verdict{Status: "requires_approval", Code: "approval_missing", CorrelationID: "request-3"}},
		{"correlation conflict", func(in *Input) {
			in.InvocationRecord = &InvocationRecord{CorrelationID: str("request-other"), Status: str("succeeded"), VerificationStatus: str("accepted")}
		}, Verdict{Status: "blocked", Code: "correlation_conflict", CorrelationID: "request-1"}},
		{"timed out, no read-back", func(in *Input) {
			in.InvocationRecord = &InvocationRecord{CorrelationID: str("request-1"), Status: str("timed_out"), EffectStatus: str("unknown")}
		}, Verdict{Status: "effect_unknown", Code: "timed_out_without_readback", CorrelationID: "request-1", EffectStatus: "unknown"}},
		{"succeeded, not verified", func(in *Input) {
			in.InvocationRecord = &InvocationRecord{CorrelationID: str("request-1"), Status: str("succeeded"), VerificationStatus: str("not_run")}
		}, Verdict{Status: "needs_evidence", Code: "tool_result_not_verified", CorrelationID: "request-1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := fixture()
			tt.change(&in)
			if got := assessToolInvocation(in); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}
