// The same decision as `toolgate assess` and `toolgate audit`, in the seed's
// language, for the performance comparison (scripts/perf.sh). It reads JSON
// Lines from a file or stdin and writes one line per input: the verdict
// (SPEC §1) or {"error": ...}; for audit, {"diagnostics", "pending"} (SPEC §3).
// Inputs are checked as toolgate checks them — unknown fields, wrong types,
// required fields — except that JSON.parse takes duplicate names (the last
// wins) where toolgate refuses them.
//
//   node scripts/node/toolgate.js assess inputs.jsonl > verdicts.jsonl
//   node scripts/node/toolgate.js audit batches.jsonl
'use strict';
const fs = require('fs');

const mode = process.argv[2];
const fd = process.argv[3] && process.argv[3] !== '-' ? fs.openSync(process.argv[3], 'r') : 0;

class InputError extends Error {}
const fail = (path, msg) => { throw new InputError(path ? `${path}: ${msg}` : `input: ${msg}`); };
const kind = (v) => v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v === 'object' ? 'object' : typeof v;

// object checks an object's names against known (null: any name).
function object(v, path, known) {
  if (kind(v) !== 'object') fail(path, `want object, got ${kind(v)}`);
  if (known) for (const k in v) if (!known.includes(k)) fail(path ? `${path}.${k}` : k, 'unknown field');
  return v;
}
function str(v, path) {
  if (v === undefined || v === null) return '';
  if (typeof v !== 'string') fail(path, `want string, got ${kind(v)}`);
  return v;
}
function optStr(v, path) {
  if (v === undefined || v === null) return undefined;
  return str(v, path);
}
function opt(v, path, known) {
  if (v === undefined || v === null) return undefined;
  return object(v, path, known);
}

function decodeInput(v) {
  object(v, '', ['contract', 'request', 'environment', 'approval', 'invocationRecord']);
  const errs = [];
  const c = opt(v.contract, 'contract', ['version', 'tools']);
  if (!c) errs.push('contract: required');
  const tools = [];
  if (c) {
    str(c.version, 'contract.version');
    if (c.tools === undefined || c.tools === null) errs.push('contract.tools: required (an array, may be empty)');
    else if (!Array.isArray(c.tools)) fail('contract.tools', `want array, got ${kind(c.tools)}`);
    else c.tools.forEach((t, i) => {
      const p = `contract.tools[${i}]`;
      t = opt(t, p, ['name', 'version', 'effectClass', 'requiredArguments', 'approvalScope']) || {};
      const tool = { name: str(t.name, p + '.name'), version: str(t.version, p + '.version'),
        effectClass: str(t.effectClass, p + '.effectClass'), requiredArguments: [],
        approvalScope: optStr(t.approvalScope, p + '.approvalScope') };
      if (tool.name === '') errs.push(`${p}.name: required, a non-empty string`);
      const ra = t.requiredArguments;
      if (ra !== undefined && ra !== null) {
        if (!Array.isArray(ra)) fail(p + '.requiredArguments', `want array, got ${kind(ra)}`);
        ra.forEach((a, j) => {
          a = str(a, `${p}.requiredArguments[${j}]`);
          if (a === '') errs.push(`${p}.requiredArguments[${j}]: want a non-empty string`);
          tool.requiredArguments.push(a);
        });
      }
      tools.push(tool);
    });
  }
  const r = opt(v.request, 'request', ['correlationId', 'tool', 'arguments']);
  if (!r) errs.push('request: required');
  let request;
  if (r) {
    request = { correlationId: str(r.correlationId, 'request.correlationId') };
    if (request.correlationId === '') errs.push('request.correlationId: required, a non-empty string');
    const t = opt(r.tool, 'request.tool', ['name', 'version']);
    if (!t) errs.push('request.tool: required');
    else {
      request.tool = { name: str(t.name, 'request.tool.name'), version: str(t.version, 'request.tool.version') };
      if (request.tool.name === '') errs.push('request.tool.name: required, a non-empty string');
    }
    request.arguments = opt(r.arguments, 'request.arguments', null) || {};
  }
  if (errs.length) throw new InputError(errs.join('; '));
  const env = opt(v.environment, 'environment', ['status']);
  const appr = opt(v.approval, 'approval', ['status', 'scope']);
  const rec = opt(v.invocationRecord, 'invocationRecord', ['correlationId', 'status', 'verificationStatus', 'effectStatus']);
  return {
    tools, request,
    environment: env && { status: str(env.status, 'environment.status') },
    approval: appr && { status: str(appr.status, 'approval.status'), scope: optStr(appr.scope, 'approval.scope') },
    record: rec && { correlationId: str(rec.correlationId, 'invocationRecord.correlationId'), status: str(rec.status, 'invocationRecord.status'),
      verificationStatus: optStr(rec.verificationStatus, 'invocationRecord.verificationStatus'),
      effectStatus: optStr(rec.effectStatus, 'invocationRecord.effectStatus') },
  };
}
function verdict(status, code, id, extra) {
  return Object.assign({ status, code, correlationId: id }, extra);
}

function assess(inp) {
  const req = inp.request, id = req.correlationId;
  let tool, named = false;
  for (const t of inp.tools) {
    if (t.name !== req.tool.name) continue;
    named = true;
    if (t.version === req.tool.version) { tool = t; break; }
  }
  if (!tool) return verdict('rejected', named ? 'tool_version_mismatch' : 'unknown_tool', id);
  const rec = inp.record;
  if (rec && rec.correlationId !== id) return verdict('blocked', 'correlation_conflict', id);
  const missing = [];
  for (const name of tool.requiredArguments) {
    const a = req.arguments[name];
    if ((typeof a !== 'string' || a === '') && !missing.includes(name)) missing.push(name);
  }
  if (missing.length) return verdict('rejected', 'invalid_arguments', id, { missingArguments: missing });
  if (!inp.environment || inp.environment.status !== 'ready') return verdict('blocked', 'environment_not_ready', id);
  if (rec && rec.status === 'timed_out' && (rec.effectStatus === undefined || rec.effectStatus === 'unknown'))
    return verdict('effect_unknown', 'timed_out_without_readback', id, { effectStatus: 'unknown' });
  if (rec && rec.status === 'succeeded' && rec.verificationStatus !== 'accepted') return verdict('needs_evidence', 'tool_result_not_verified', id);
  if (tool.effectClass !== 'read_only') {
    const a = inp.approval, scope = tool.approvalScope === undefined ? tool.name : tool.approvalScope;
    if (!a) return verdict('requires_approval', 'approval_missing', id);
    if (a.status !== 'active') return verdict('requires_approval', 'approval_not_active', id);
    if (a.scope === undefined || a.scope !== scope) return verdict('requires_approval', 'approval_scope_mismatch', id);
  }
  return verdict('allowed', 'admission_allowed', id);
}

function ids(v, path) {
  if (v === undefined || v === null) fail(path, 'required (an array, may be empty)');
  if (!Array.isArray(v)) fail(path, `want array, got ${kind(v)}`);
  v.forEach((s, i) => { if (typeof s !== 'string') fail(`${path}[${i}]`, `want string, got ${kind(s)}`); });
  return v;
}

function audit(v) {
  object(v, '', ['requested', 'results', 'closed']);
  const requested = ids(v.requested, 'requested'), results = ids(v.results, 'results');
  if (v.closed !== undefined && v.closed !== null && typeof v.closed !== 'boolean') fail('closed', `want boolean, got ${kind(v.closed)}`);
  const closed = v.closed !== false;
  const state = new Map();
  requested.forEach((id, i) => {
    if (id === '') fail(`requested[${i}]`, 'empty ID');
    if (state.has(id)) fail(`requested[${i}]`, `duplicate request ID ${JSON.stringify(id)}: which request would a result answer?`);
    state.set(id, 1);
  });
  results.forEach((id, i) => {
    if (id === '') fail(`results[${i}]`, 'empty ID');
    let s = state.get(id) | 0;
    if (s & 2) s |= 4;
    state.set(id, s | 2);
  });
  const diagnostics = [], pending = [];
  for (const [id, s] of state) {
    if (!(s & 1)) diagnostics.push('unknown:' + id);
    else if (!(s & 2)) (closed ? diagnostics.push('missing:' + id) : pending.push(id));
    if (s & 4) diagnostics.push('duplicate:' + id);
  }
  diagnostics.sort(); pending.sort();
  return { diagnostics, pending };
}

const answer = mode === 'audit' ? (v) => audit(v) : (v) => assess(decodeInput(v));

let out = '', lineNo = 0, invalid = 0, total = 0;
const flush = () => { if (out) { fs.writeSync(1, out); out = ''; } };
function line(text) {
  lineNo++;
  if (text.trim() === '') return;
  total++;
  let v;
  try { v = JSON.parse(text); } catch (e) { flush(); process.stderr.write(`toolgate.js: line ${lineNo}: not JSON: ${e.message}\n`); process.exit(2); }
  try { out += JSON.stringify(answer(v)) + '\n'; } catch (e) {
    if (!(e instanceof InputError)) throw e;
    invalid++;
    out += JSON.stringify({ error: `line ${lineNo}: ${e.message}` }) + '\n';
  }
  if (out.length > 65536) flush();
}

const buf = Buffer.allocUnsafe(1 << 22);
let rest = Buffer.alloc(0);
for (;;) {
  const n = fs.readSync(fd, buf, 0, buf.length, null);
  if (n === 0) break;
  let chunk = rest.length ? Buffer.concat([rest, buf.subarray(0, n)]) : buf.subarray(0, n);
  let start = 0, nl;
  while ((nl = chunk.indexOf(10, start)) >= 0) {
    line(chunk.toString('utf8', start, nl));
    start = nl + 1;
  }
  rest = Buffer.from(chunk.subarray(start));
}
if (rest.length) line(rest.toString('utf8'));
flush();
if (invalid) { process.stderr.write(`toolgate.js: ${invalid} of ${total} inputs were invalid\n`); process.exit(1); }
