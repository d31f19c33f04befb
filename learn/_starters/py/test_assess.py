"""test_assess.py — the book's seven tests (its matrix, chapter 11), with
Python's built-in unittest:

  python3 -m unittest

`toolgate learn` checks far more inputs than these; these are the book's.
"""
import copy
import unittest

from assess import assess_tool_invocation

CONTRACT = {
    "version": "chapter-11-v1",
    "tools": [
        {"name": "document_read_metadata", "version": "v1", "effectClass": "read_only",
         "requiredArguments": ["documentId"]},
        {"name": "document_update_metadata", "version": "v1", "effectClass": "reversible_write",
         "requiredArguments": ["documentId", "field", "value"], "approvalScope": "metadata_write"},
    ],
}
REQUEST = {
    "correlationId": "request-1",
    "tool": {"name": "document_read_metadata", "version": "v1"},
    "arguments": {"documentId": "chapter-11"},
}
READY = {"status": "ready"}
APPROVAL = {"status": "active", "scope": "metadata_write"}


def request(**changes):
    r = copy.deepcopy(REQUEST)
    r.update(changes)
    return r


class BookTests(unittest.TestCase):
    def test_unknown_tool(self):
        v = assess_tool_invocation(CONTRACT, request(tool={"name": "document_delete", "version": "v1"}), READY, APPROVAL)
        self.assertEqual(v, {"status": "rejected", "code": "unknown_tool", "correlationId": "request-1"})

    def test_invalid_argument_shape(self):
        v = assess_tool_invocation(CONTRACT, request(correlationId="request-2", arguments={}), READY, APPROVAL)
        self.assertEqual(v, {"status": "rejected", "code": "invalid_arguments", "correlationId": "request-2",
                             "missingArguments": ["documentId"]})

    def test_known_read_only_candidate(self):
        v = assess_tool_invocation(CONTRACT, request(), READY, APPROVAL)
        self.assertEqual(v, {"status": "allowed", "code": "admission_allowed", "correlationId": "request-1"})

    def test_write_without_approval(self):
        r = request(correlationId="request-3", tool={"name": "document_update_metadata", "version": "v1"},
                    arguments={"documentId": "chapter-11", "field": "status", "value": "complete"})
        v = assess_tool_invocation(CONTRACT, r, READY, None)
        self.assertEqual(v, {"status": "requires_approval", "code": "approval_missing", "correlationId": "request-3"})

    def test_correlation_conflict(self):
        record = {"correlationId": "request-other", "status": "succeeded", "verificationStatus": "accepted"}
        v = assess_tool_invocation(CONTRACT, request(), READY, APPROVAL, record)
        self.assertEqual(v, {"status": "blocked", "code": "correlation_conflict", "correlationId": "request-1"})

    def test_timed_out_no_read_back(self):
        record = {"correlationId": "request-1", "status": "timed_out", "effectStatus": "unknown"}
        v = assess_tool_invocation(CONTRACT, request(), READY, APPROVAL, record)
        self.assertEqual(v, {"status": "effect_unknown", "code": "timed_out_without_readback",
                             "correlationId": "request-1", "effectStatus": "unknown"})

    def test_succeeded_not_verified(self):
        record = {"correlationId": "request-1", "status": "succeeded", "verificationStatus": "not_run"}
        v = assess_tool_invocation(CONTRACT, request(), READY, APPROVAL, record)
        self.assertEqual(v, {"status": "needs_evidence", "code": "tool_result_not_verified",
                             "correlationId": "request-1"})


if __name__ == "__main__":
    unittest.main()
