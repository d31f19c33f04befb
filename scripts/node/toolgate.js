// toolgate's contract in Node, written from docs/decision.md (§1 the input
// check, §2 the decision, §4 the audit) as an independent check: it was written
// from the specification alone, not from toolgate's Go code nor from the
// book's JavaScript file. It is the second implementation
// that the differential tests (difftest/, gen/) compare toolgate with, and
// the Node baseline of scripts/perf.sh, so it reads and writes in big chunks.
//
//   node scripts/node/toolgate.js assess [FILE|-]   admission inputs, JSON Lines
//   node scripts/node/toolgate.js audit [FILE|-]    audit batches, JSON Lines
//
// For each non-blank line (blank: only spaces, tabs and CRs) one output line:
//   assess: {"status","code","correlationId","missingArguments"?,"effectStatus"?}
//   audit:  {"diagnostics":[...],"pending":[...]}
//   either, when the input check refuses the line:
//           {"error":"line N: <path>: <message>","layer":"input"}
// Exit status: 0 every line answered, 1 some refused, 2 usage or I/O trouble.
//
// Readings of the specification that it leaves open, taken here:
// - JSON text is UTF-8 (RFC 8259 §8.1): a line that is not, or a string with
//   an unpaired surrogate escape ("\ud800"), is refused as not JSON — its
//   strings cannot be read as written by a program that holds Unicode text.
// - Only request.arguments, approval and invocationRecord take null for
//   absent; any other null is a wrong type (or, where a string goes, "null
//   where a string is expected"). In an audit, closed: null is refused.
// - An audit's pending IDs are sorted as its diagnostics are (UTF-16 units).
'use strict';
const fs = require('fs');

// ---------------------------------------------------------------- refusals

class Refusal {
  constructor(path, message) {
    this.path = path;
    this.message = message;
  }
}
const ROOT = 'input';
const refuse = (path, message) => { throw new Refusal(path || ROOT, message); };
const join = (path, name) => (path ? `${path}.${name}` : name);

function kindOf(v) {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v; // object, string, number, boolean
}

// at is the path of member name (when given) of path, then of its element
// index (when given). Paths are built only for a refusal: the check of an
// accepted input allocates none.
function at(path, name, index) {
  const p = name === undefined ? path : join(path, name);
  return index === undefined ? p : `${p}[${index}]`;
}

// want refuses v unless it is of JSON type kind; v is at(path, name, index).
function want(v, kind, path, name, index) {
  const got = kindOf(v);
  if (got === kind) return v;
  if (got === 'null' && kind === 'string') refuse(at(path, name, index), 'null where a string is expected: leave the member out instead');
  refuse(at(path, name, index), `want ${kind}, got ${got}`);
}

// need returns o[name], refusing it when absent or not of JSON type kind.
function need(o, name, kind, path) {
  const v = o[name];
  if (v === undefined) refuse(at(path, name), `required (${kind === 'array' ? 'an array, [] for none' : kind === 'object' ? 'an object' : 'a string'})`);
  return want(v, kind, path, name);
}

// optString refuses o[name] unless it is absent or a string.
function optString(o, name, path) {
  const v = o[name];
  if (v !== undefined && typeof v !== 'string') want(v, 'string', path, name);
}

// optObject returns o[name] when it is an object, undefined when it is
// absent or null (the members where null means absent).
function optObject(o, name, path) {
  const v = o[name];
  if (v === undefined || v === null) return undefined;
  return want(v, 'object', path, name);
}

// members refuses a member of o not in known, suggesting the nearest known one.
function members(o, path, known) {
  for (const name of Object.keys(o)) {
    if (known.includes(name)) continue;
    let best = '', dist = Infinity;
    for (const k of known) {
      const d = distance(name.toLowerCase(), k.toLowerCase());
      if (d < dist) { dist = d; best = k; }
    }
    const hint = dist <= Math.max(2, best.length >> 2) ? `; did you mean "${best}"?` : `; known: ${known.join(', ')}`;
    refuse(join(path, name), `unknown member${hint}`);
  }
}

// distance is the Levenshtein distance of a and b.
function distance(a, b) {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length];
}

// -------------------------------------------------- duplicate member names

// scanText refuses a member name given twice in one object, anywhere in the
// text, and a string holding an unpaired surrogate escape. JSON.parse keeps
// the last of two names silently, so this reads the text itself. The text
// is valid JSON (JSON.parse took it): the scan only tells keys from values
// and finds where strings end. It is linear in the text: an object's names
// are compared one by one up to SMALL of them, then kept in a Set.
const SMALL = 16;
// The scan's state, reused from line to line: per open container (depth
// d) whether it is an object, its current member name or element index,
// where its names start in names, and its Set once it has many.
const isObject = [], frameKey = [], frameIndex = [], frameStart = [], frameSet = [];
const names = [];
let nameCount = 0; // names in use: names[frameStart[d]:nameCount] are frame d's

function scanText(s) {
  const n = s.length;
  let depth = 0;
  let expectKey = false;
  nameCount = 0;
  let backslash = s.indexOf('\\');
  if (backslash < 0) backslash = n;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x22) { // "
      let end = s.indexOf('"', i + 1);
      let escaped = false;
      if (backslash < i) { backslash = s.indexOf('\\', i); if (backslash < 0) backslash = n; }
      if (backslash < end) { // the string has escapes: walk it
        escaped = true;
        let j = i + 1;
        for (;;) {
          const d = s.charCodeAt(j);
          if (d === 0x22) break;
          j += d === 0x5c ? 2 : 1;
        }
        end = j;
      }
      if (expectKey || escaped) {
        const text = escaped ? JSON.parse(s.slice(i, end + 1)) : s.slice(i + 1, end);
        if (escaped && !text.isWellFormed()) {
          refuse(pathOf(depth, expectKey ? text : null), 'not JSON: a string holds an unpaired surrogate escape (not Unicode text)');
        }
        if (expectKey) {
          const f = depth - 1;
          if (seenBefore(f, text)) refuse(join(pathOf(f, null), text), 'member name twice in one object (JSON.parse would keep the last one silently)');
          frameKey[f] = text;
          expectKey = false;
        }
      }
      i = end;
    } else if (c === 0x7b) { // {
      isObject[depth] = true;
      frameKey[depth] = '';
      frameStart[depth] = nameCount;
      frameSet[depth] = null;
      depth++;
      expectKey = true;
    } else if (c === 0x5b) { // [
      isObject[depth] = false;
      frameIndex[depth] = 0;
      depth++;
    } else if (c === 0x7d || c === 0x5d) { // } ]
      depth--;
      if (isObject[depth]) { nameCount = frameStart[depth]; frameSet[depth] = null; }
      expectKey = false;
    } else if (c === 0x2c) { // ,
      if (isObject[depth - 1]) expectKey = true;
      else frameIndex[depth - 1]++;
    }
  }
}

// seenBefore says whether object frame f has had the name already, and
// records it. Frame f is the innermost open container.
function seenBefore(f, name) {
  const set = frameSet[f];
  if (set !== null) {
    if (set.has(name)) return true;
    set.add(name);
    return false;
  }
  for (let k = frameStart[f]; k < nameCount; k++) if (names[k] === name) return true;
  names[nameCount++] = name;
  if (nameCount - frameStart[f] > SMALL) frameSet[f] = new Set(names.slice(frameStart[f], nameCount));
  return false;
}

// pathOf names the place the scan is at, in the first `depth` containers;
// key, when not null, stands for the innermost object's current name.
function pathOf(depth, key) {
  let p = '';
  for (let k = 0; k < depth; k++) {
    if (!isObject[k]) p += `[${frameIndex[k]}]`;
    else p = join(p, k === depth - 1 && key !== null ? key : frameKey[k]);
  }
  return p;
}

// ------------------------------------------------------ §1.1 the input check

const TOP = ['contract', 'request', 'environment', 'approval', 'invocationRecord'];
const CONTRACT = ['version', 'tools'];
const TOOL = ['name', 'version', 'effectClass', 'requiredArguments', 'approvalScope'];
const REQUEST = ['correlationId', 'tool', 'arguments'];
const REQUEST_TOOL = ['name', 'version'];
const ENVIRONMENT = ['status'];
const APPROVAL = ['status', 'scope'];
const RECORD = ['correlationId', 'status', 'effectStatus', 'verificationStatus'];

// checkAdmission refuses what the book's function would crash on, read
// other than as written, or answer with a JavaScript artefact (docs/decision.md §1).
function checkAdmission(v) {
  if (kindOf(v) !== 'object') refuse(ROOT, `not an object: got ${kindOf(v)}`);
  members(v, '', TOP);

  const contract = need(v, 'contract', 'object', '');
  members(contract, 'contract', CONTRACT);
  optString(contract, 'version', 'contract');
  const tools = need(contract, 'tools', 'array', 'contract');
  for (let i = 0; i < tools.length; i++) {
    const tool = tools[i];
    const p = `contract.tools[${i}]`;
    want(tool, 'object', 'contract.tools', undefined, i);
    members(tool, p, TOOL);
    need(tool, 'name', 'string', p);
    optString(tool, 'version', p);
    optString(tool, 'effectClass', p);
    optString(tool, 'approvalScope', p);
    const required = need(tool, 'requiredArguments', 'array', p);
    for (let j = 0; j < required.length; j++) {
      if (typeof required[j] !== 'string') want(required[j], 'string', p, 'requiredArguments', j);
    }
  }

  const request = need(v, 'request', 'object', '');
  members(request, 'request', REQUEST);
  need(request, 'correlationId', 'string', 'request');
  const tool = need(request, 'tool', 'object', 'request');
  members(tool, 'request.tool', REQUEST_TOOL);
  need(tool, 'name', 'string', 'request.tool');
  optString(tool, 'version', 'request.tool');
  optObject(request, 'arguments', 'request'); // any members, any values

  const environment = need(v, 'environment', 'object', '');
  members(environment, 'environment', ENVIRONMENT);
  optString(environment, 'status', 'environment');

  const approval = optObject(v, 'approval', '');
  if (approval) {
    members(approval, 'approval', APPROVAL);
    if (approval.status === undefined) refuse('approval.status', 'absent from an approval (the book would answer "approval_undefined")');
    want(approval.status, 'string', 'approval', 'status');
    if (approval.status === '') refuse('approval.status', 'empty in an approval (the book would answer "approval_")');
    optString(approval, 'scope', 'approval');
  }

  const record = optObject(v, 'invocationRecord', '');
  if (record) {
    members(record, 'invocationRecord', RECORD);
    for (const name of RECORD) optString(record, name, 'invocationRecord');
  }
}

// ------------------------------------------------------ §1.2 the decision

// BLANK matches a string that String.prototype.trim empties: exactly its
// set (docs/decision.md §2), written out so that no engine's Unicode tables move it.
const BLANK = /^[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]*$/;
const own = Object.prototype.hasOwnProperty;

// decide is the book's verdict on an input the check accepted: the first
// rule that fires decides. A member absent from the JSON reads as
// undefined, which equals only undefined, as docs/decision.md §2 asks.
function decide(v) {
  const request = v.request;
  const id = request.correlationId;
  const verdict = (status, code) => ({ status, code, correlationId: id });

  // 1: the first tool of the name, and its version.
  let tool;
  for (const t of v.contract.tools) if (t.name === request.tool.name) { tool = t; break; }
  if (tool === undefined) return verdict('rejected', 'unknown_tool');
  if (tool.version !== request.tool.version) return verdict('rejected', 'tool_version_mismatch');

  // 2: a record about another call.
  const record = v.invocationRecord === null ? undefined : v.invocationRecord;
  if (record !== undefined && record.correlationId !== id) return verdict('blocked', 'correlation_conflict');

  // 3: every required name, in order, duplicates kept.
  const args = request.arguments === null ? undefined : request.arguments;
  const missing = [];
  for (const name of tool.requiredArguments) {
    const a = args !== undefined && own.call(args, name) ? args[name] : undefined;
    if (typeof a !== 'string' || BLANK.test(a)) missing.push(name);
  }
  if (missing.length > 0) return { ...verdict('rejected', 'invalid_arguments'), missingArguments: missing };

  // 4: the environment.
  if (v.environment.status !== 'ready') return verdict('blocked', 'environment_not_ready');

  // 5 and 6: what the record says of the call's effect and its check.
  if (record !== undefined && record.status === 'timed_out' && record.effectStatus === 'unknown') {
    return { ...verdict('effect_unknown', 'timed_out_without_readback'), effectStatus: 'unknown' };
  }
  if (record !== undefined && record.status === 'succeeded' && record.verificationStatus !== 'accepted') {
    return verdict('needs_evidence', 'tool_result_not_verified');
  }

  // 7: a tool that is not read_only needs an active approval of its scope.
  if (tool.effectClass !== 'read_only') {
    const approval = v.approval === null ? undefined : v.approval;
    if (approval === undefined) return verdict('requires_approval', 'approval_missing');
    if (approval.status !== 'active') return verdict('requires_approval', `approval_${approval.status}`);
    if (approval.scope !== tool.approvalScope) return verdict('requires_approval', 'approval_scope_mismatch');
  }

  // 8
  return verdict('allowed', 'admission_allowed');
}

function assess(v) {
  checkAdmission(v);
  return decide(v);
}

// ------------------------------------------------------------- §3 the audit

// checkIDs returns o[name], an array of strings, or refuses it.
function checkIDs(o, name) {
  const ids = need(o, name, 'array', '');
  for (let i = 0; i < ids.length; i++) {
    if (typeof ids[i] === 'string') continue;
    if (ids[i] === null) refuse(at('', name, i), 'null element: an ID is a string');
    want(ids[i], 'string', '', name, i);
  }
  return ids;
}

// audit is the seed's Java audit, with toolgate's open batches.
function audit(v) {
  if (kindOf(v) !== 'object') refuse(ROOT, `not an object: got ${kindOf(v)}`);
  members(v, '', ['requested', 'results', 'closed']);
  const requested = checkIDs(v, 'requested');
  const results = checkIDs(v, 'results');
  if (v.closed !== undefined) want(v.closed, 'boolean', '', 'closed');
  const closed = v.closed !== false;

  const expected = new Set();
  for (let i = 0; i < requested.length; i++) {
    const id = requested[i];
    if (expected.has(id)) refuse(at('', 'requested', i), `request ID ${JSON.stringify(id)} listed twice (which request would its result answer?)`);
    expected.add(id);
  }
  const seen = new Set();
  const diagnostics = new Set();
  for (const id of results) {
    if (!expected.has(id)) diagnostics.add('unknown:' + id);
    if (seen.has(id)) diagnostics.add('duplicate:' + id);
    else seen.add(id);
  }
  const pending = [];
  for (const id of expected) {
    if (seen.has(id)) continue;
    if (closed) diagnostics.add('missing:' + id);
    else pending.push(id);
  }
  // The default sort compares UTF-16 code units, as Java's TreeSet<String>.
  return { diagnostics: [...diagnostics].sort(), pending: pending.sort() };
}

// ------------------------------------------------------------- the stream

const mode = process.argv[2];
if ((mode !== 'assess' && mode !== 'audit') || process.argv.length > 4) {
  process.stderr.write('usage: node scripts/node/toolgate.js assess|audit [FILE|-]\n');
  process.exit(2);
}
const answer = mode === 'assess' ? assess : audit;
const file = process.argv[3] && process.argv[3] !== '-' ? process.argv[3] : null;

function die(message) {
  process.stderr.write(`toolgate.js: ${message}\n`);
  process.exit(2);
}

let out = '';
let lineNo = 0;
let refused = 0;
let answered = 0;

// writeAll writes s to stdout whole, waiting out a full non-blocking pipe.
function writeAll(s) {
  const b = Buffer.from(s, 'utf8');
  let off = 0;
  while (off < b.length) {
    try {
      off += fs.writeSync(1, b, off, b.length - off);
    } catch (e) {
      if (e.code !== 'EAGAIN') die(`write: ${e.message}`);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
    }
  }
}

function flush() {
  if (out !== '') { writeAll(out); out = ''; }
}

// BLANK_LINE: a line of JSON whitespace only (a CRLF line end included).
const BLANK_LINE = /^[ \t\r]*$/;

function line(text, badUTF8) {
  lineNo++;
  if (!badUTF8 && BLANK_LINE.test(text)) return;
  let reply;
  try {
    if (badUTF8) refuse(ROOT, 'not JSON: the line is not UTF-8');
    let v;
    try { v = JSON.parse(text); } catch (e) { refuse(ROOT, `not JSON: ${e.message}`); }
    if (v !== null && typeof v === 'object') scanText(text);
    reply = JSON.stringify(answer(v));
    answered++;
  } catch (e) {
    if (!(e instanceof Refusal)) throw e;
    refused++;
    reply = JSON.stringify({ error: `line ${lineNo}: ${e.path}: ${e.message}`, layer: 'input' });
  }
  out += reply + '\n';
  if (out.length >= 1 << 20) flush();
}

const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }); // keep a BOM: not JSON

// lines hands each line of the bytes b (whole lines, no final newline
// wanted) to line. Each line is decoded alone (faster in Node 20 than one
// big decode); one that holds a replacement character is decoded again,
// strictly, to tell bad UTF-8 from a real U+FFFD.
function lines(b) {
  let start = 0;
  for (;;) {
    const nl = b.indexOf(10, start);
    const end = nl < 0 ? b.length : nl;
    let text = b.toString('utf8', start, end);
    let bad = false;
    if (text.indexOf('\ufffd') >= 0) {
      try { text = strict.decode(b.subarray(start, end)); } catch { bad = true; }
    }
    line(text, bad);
    if (nl < 0) return;
    start = nl + 1;
  }
}

let fd = 0;
if (file !== null) {
  try { fd = fs.openSync(file, 'r'); } catch (e) { die(`${file}: ${e.message}`); }
}
// One buffer: the bytes of an unfinished line move to its front and the
// next read lands after them; a line longer than the buffer doubles it.
let buf = Buffer.allocUnsafe(1 << 22);
let have = 0;
for (;;) {
  if (have === buf.length) {
    const bigger = Buffer.allocUnsafe(2 * buf.length);
    buf.copy(bigger, 0, 0, have);
    buf = bigger;
  }
  let n;
  try {
    n = fs.readSync(fd, buf, have, buf.length - have, null);
  } catch (e) {
    if (e.code === 'EAGAIN') { Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1); continue; }
    if (e.code === 'EOF') break;
    die(`read: ${e.message}`);
  }
  if (n === 0) break;
  have += n;
  const last = buf.lastIndexOf(10, have - 1);
  if (last < 0) continue;
  lines(buf.subarray(0, last));
  buf.copy(buf, 0, last + 1, have);
  have -= last + 1;
}
if (have > 0) lines(buf.subarray(0, have));
flush();
process.exit(refused > 0 ? 1 : 0);
