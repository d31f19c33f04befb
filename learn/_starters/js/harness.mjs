// harness.mjs — the line harness: toolgate writes one JSON input a line
// on stdin; this turns each into a call of assessToolInvocation and writes
// its answer as one JSON line on stdout. You do not need to edit it
// (except checkInput below, the optional last stage).
//
//   node harness.mjs < inputs.jsonl
import { createInterface } from 'node:readline';
import { assessToolInvocation } from './assess.mjs';

// checkInput is the optional last stage, toolgate's own input check (not
// the book's): return a message to refuse a line the book's function
// would misread or crash on, or null to let it through. It sees the raw
// text, since JSON.parse keeps only the last of two members of one name.
function checkInput(line) {
  return null;
}

// Answers go to stdout, one a line; what your code prints with console.log
// goes to stderr, where toolgate shows it, so that it never breaks a line.
const write = process.stdout.write.bind(process.stdout);
for (const name of ['log', 'info', 'debug']) console[name] = console.error;

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of lines) {
  if (line.trim() === '') continue;
  write(answer(line) + '\n');
}

function answer(line) {
  try {
    const refusal = checkInput(line);
    if (refusal) return JSON.stringify({ error: String(refusal) });
    let input;
    try {
      input = JSON.parse(line);
    } catch (e) {
      return JSON.stringify({ error: `not JSON: ${e.message}` });
    }
    if (input === null || typeof input !== 'object' || Array.isArray(input)) {
      return JSON.stringify({ error: 'not a JSON object' });
    }
    const verdict = assessToolInvocation(input);
    if (verdict === null || typeof verdict !== 'object' || Array.isArray(verdict)) {
      return JSON.stringify({ error: `no verdict: assessToolInvocation returned ${verdict === undefined ? 'undefined' : JSON.stringify(verdict)}` });
    }
    return JSON.stringify(verdict);
  } catch (e) {
    return JSON.stringify({ error: `${e && e.name}: ${e && e.message}${where(e)}` });
  }
}

// where is the first place in your files that the error's stack names,
// as " (assess.mjs:12:5)".
function where(e) {
  const places = [...String((e && e.stack) || '').matchAll(/([\w.-]+\.m?js):(\d+):(\d+)/g)];
  const mine = places.find((p) => p[1] !== 'harness.mjs') || places[0];
  return mine ? ` (${mine[1]}:${mine[2]}:${mine[3]})` : '';
}
