// A learner's finished gate, for the tests: the book's decision as
// docs/decision.md §2 states it. RULE3-TRIM marks the line the scripted learner first
// gets wrong.
export function assessToolInvocation({ contract, request, environment, approval, invocationRecord }) {
  const id = request.correlationId;
  const verdict = (status, code, extra) => ({ status, code, correlationId: id, ...extra });
  const tool = contract.tools.find((t) => t.name === request.tool.name);
  if (!tool) return verdict('rejected', 'unknown_tool');
  if (tool.version !== request.tool.version) return verdict('rejected', 'tool_version_mismatch');
  if (invocationRecord && invocationRecord.correlationId !== id) return verdict('blocked', 'correlation_conflict');
  const args = request.arguments || {};
  const missing = tool.requiredArguments.filter((name) => {
    const v = Object.hasOwn(args, name) ? args[name] : undefined;
    return typeof v !== 'string' || v.trim() === ''; // RULE3-TRIM
  });
  if (missing.length > 0) return verdict('rejected', 'invalid_arguments', { missingArguments: missing });
  if (!environment || environment.status !== 'ready') return verdict('blocked', 'environment_not_ready');
  if (invocationRecord && invocationRecord.status === 'timed_out' && invocationRecord.effectStatus === 'unknown') {
    return verdict('effect_unknown', 'timed_out_without_readback', { effectStatus: 'unknown' });
  }
  if (invocationRecord && invocationRecord.status === 'succeeded' && invocationRecord.verificationStatus !== 'accepted') {
    return verdict('needs_evidence', 'tool_result_not_verified');
  }
  if (tool.effectClass !== 'read_only') {
    if (!approval) return verdict('requires_approval', 'approval_missing');
    if (approval.status !== 'active') return verdict('requires_approval', `approval_${approval.status}`);
    if (approval.scope !== tool.approvalScope) return verdict('requires_approval', 'approval_scope_mismatch');
  }
  return verdict('allowed', 'admission_allowed');
}
