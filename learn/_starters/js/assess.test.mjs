// assess.test.mjs — the book's seven tests (its matrix, chapter 11), with
// Node's built-in runner, as the book runs them:
//
//   node --test
//
// `toolgate learn` checks far more inputs than these; these are the book's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assessToolInvocation } from './assess.mjs';

const contract = {
  version: 'chapter-11-v1',
  tools: [
    { name: 'document_read_metadata', version: 'v1', effectClass: 'read_only', requiredArguments: ['documentId'] },
    {
      name: 'document_update_metadata', version: 'v1', effectClass: 'reversible_write',
      requiredArguments: ['documentId', 'field', 'value'], approvalScope: 'metadata_write',
    },
  ],
};
const request = {
  correlationId: 'request-1',
  tool: { name: 'document_read_metadata', version: 'v1' },
  arguments: { documentId: 'chapter-11' },
};
const base = { contract, request, environment: { status: 'ready' }, approval: { status: 'active', scope: 'metadata_write' } };

test('unknown tool', () => {
  const v = assessToolInvocation({ ...base, request: { ...request, tool: { name: 'document_delete', version: 'v1' } } });
  assert.deepEqual(v, { status: 'rejected', code: 'unknown_tool', correlationId: 'request-1' });
});

test('invalid argument shape', () => {
  const v = assessToolInvocation({ ...base, request: { ...request, correlationId: 'request-2', arguments: {} } });
  assert.deepEqual(v, { status: 'rejected', code: 'invalid_arguments', correlationId: 'request-2', missingArguments: ['documentId'] });
});

test('known read-only candidate', () => {
  const v = assessToolInvocation(base);
  assert.deepEqual(v, { status: 'allowed', code: 'admission_allowed', correlationId: 'request-1' });
});

test('write without approval', () => {
  const v = assessToolInvocation({
    ...base,
    request: {
      correlationId: 'request-3',
      tool: { name: 'document_update_metadata', version: 'v1' },
      arguments: { documentId: 'chapter-11', field: 'status', value: 'complete' },
    },
    approval: null,
  });
  assert.deepEqual(v, { status: 'requires_approval', code: 'approval_missing', correlationId: 'request-3' });
});

test('correlation conflict', () => {
  const v = assessToolInvocation({
    ...base,
    invocationRecord: { correlationId: 'request-other', status: 'succeeded', verificationStatus: 'accepted' },
  });
  assert.deepEqual(v, { status: 'blocked', code: 'correlation_conflict', correlationId: 'request-1' });
});

test('timed out, no read-back', () => {
  const v = assessToolInvocation({
    ...base,
    invocationRecord: { correlationId: 'request-1', status: 'timed_out', effectStatus: 'unknown' },
  });
  assert.deepEqual(v, { status: 'effect_unknown', code: 'timed_out_without_readback', correlationId: 'request-1', effectStatus: 'unknown' });
});

test('succeeded, not verified', () => {
  const v = assessToolInvocation({
    ...base,
    invocationRecord: { correlationId: 'request-1', status: 'succeeded', verificationStatus: 'not_run' },
  });
  assert.deepEqual(v, { status: 'needs_evidence', code: 'tool_result_not_verified', correlationId: 'request-1' });
});
