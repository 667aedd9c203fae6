// SessionState's maxBytes is a hard cap on what it writes: a store such as a key-value Durable Object (128 KiB a
// value, Cloudflare's documented limit) refuses anything larger. A snapshot too large to fit on its own is not
// stored; the call still returns its compacted messages, and the report and the onWarn hook say why.

import test, { before } from 'node:test';
import assert from 'node:assert/strict';

import { init, Compactor, SessionState, compactHistory } from '../../js/hosts/node.js';

before(() => init());

const CAP = 120 * 1024; // what the edge proxy gives its Durable Object
const DO_VALUE_LIMIT = 128 * 1024;

/** A store shaped like a key-value Durable Object's storage: it refuses a value over 128 KiB, as Cloudflare does. */
function durableObjectLikeStore() {
  const map = new Map();
  const writes = [];
  return {
    map,
    writes,
    async get(key) { return map.has(key) ? map.get(key) : null; },
    async put(key, value) {
      const size = Buffer.byteLength(value);
      writes.push(size);
      if (size > DO_VALUE_LIMIT) throw new RangeError(`Values cannot be larger than ${DO_VALUE_LIMIT} bytes. A value of size ${size} was provided.`);
      map.set(key, value);
    },
  };
}

/**
 * An agent debugging a flaky payment test: OpenAI messages, tool results of `lines` lines in English and Chinese.
 * A fold must leave less than it folds (or it is skipped as no-gain): the tests whose summary is oversized fold
 * a middle larger still.
 */
function debuggingSession(turns, lines = 40) {
  return [
    { role: 'system', content: 'You are a coding agent in the payments repository.' },
    { role: 'user', content: '支付测试偶尔失败，请找出原因并修复 src/refund.ts。' },
    ...testRuns(0, turns, lines),
    { role: 'user', content: 'Now fix the rounding and rerun the suite.' },
  ];
}

/** `turns` test runs of the refund suite, the first numbered `from`: assistant calls and their results. */
function testRuns(from, turns, lines) {
  const messages = [];
  for (let i = from; i < from + turns; i++) {
    messages.push({ role: 'assistant', content: `Checking step ${i + 1}.`,
      tool_calls: [{ id: `call_${i}`, type: 'function', function: { name: 'bash', arguments: JSON.stringify({ command: `npm test -- refund ${i}` }) } }] });
    messages.push({ role: 'tool', tool_call_id: `call_${i}`,
      content: Array.from({ length: lines }, (_, j) => `  ✓ refund case ${i}.${j} (${(i * 7 + j) % 90} ms) 退款金额四舍五入 ok`).join('\n') });
  }
  return messages;
}

/** A summarizer that answers `text` (a model that echoed its transcript rather than summarize it). */
const answering = (text) => async () => text;
const hugeSummary = () => Array.from({ length: 1400 }, (_, i) =>
  `- step ${i}: npm test -- refund ${i % 40} printed 40 passing cases; refund.ts rounds with Math.round(amount * 100) / 100`).join('\n');

test('a snapshot over maxBytes on its own is not stored: the call returns its fold, the report says too-large, the store keeps what it had', async () => {
  const store = durableObjectLikeStore();
  const warnings = [];
  const state = () => new SessionState({ store, key: 'payments', maxBytes: CAP, onWarn: (m) => warnings.push(m) });
  const history = debuggingSession(12, 400);

  // A first fold with a summary of ordinary size is stored.
  const first = await compactHistory(new Compactor({ summarize: answering('The refund suite passes except rounding; see refund.ts.') }),
    history, { state: state(), force: true });
  assert.equal(first.report.compacted, true);
  assert.equal(first.report.session.saved, true);
  const stored = store.map.get('payments');

  // The next fold's summary is 150 KB: its snapshot cannot fit in 120 KiB whatever else is dropped.
  // (it folds twelve more runs of the suite: a fold must leave less than it folds, or it is skipped as no-gain)
  const longer = [...history, { role: 'assistant', content: 'Rounding is off by one cent on half-cent refunds.' },
    ...testRuns(12, 12, 400), { role: 'user', content: '继续，把修复也写上测试。' }];
  const summary = hugeSummary();
  assert.ok(Buffer.byteLength(summary) > CAP);
  const second = await compactHistory(new Compactor({ summarize: answering(summary) }), longer, { state: state(), force: true });
  assert.equal(second.report.compacted, true, 'the call itself succeeds');
  assert.ok(second.messages.some((m) => typeof m.content === 'string' && m.content.includes(summary)), 'and returns its fold');
  assert.equal(second.report.session.saved, false);
  assert.equal(second.report.session.unsaved, 'too-large');
  assert.equal(store.map.get('payments'), stored, 'the stored state is as it was');
  assert.ok(store.writes.every((n) => n <= CAP), `writes of ${store.writes.join(', ')} bytes, none over ${CAP}`);
  assert.match(warnings.join('\n'), /over maxBytes \(122880\).*not stored/);

  // What was stored before still serves: the next call continues the first fold.
  const third = await compactHistory(new Compactor({ summarize: answering('unused') }), longer, { state: state() });
  assert.equal(third.report.session.matched, history.length);
});

test('without a store, toJSON() stays within maxBytes and keeps the snapshots that fit', async () => {
  const state = new SessionState({ maxBytes: CAP });
  const history = debuggingSession(12, 400);
  await compactHistory(new Compactor({ summarize: answering('Rounding in refund.ts is the cause.') }), history, { state, force: true });
  const before = JSON.stringify(state.toJSON());
  const longer = [...history, { role: 'assistant', content: 'Fixed.' }, ...testRuns(12, 12, 400), { role: 'user', content: 'Run it again.' }];
  const r = await compactHistory(new Compactor({ summarize: answering(hugeSummary()) }), longer, { state, force: true });
  assert.equal(r.report.session.unsaved, 'too-large');
  assert.equal(JSON.stringify(state.toJSON()), before);
  assert.ok(Buffer.byteLength(JSON.stringify(state.toJSON())) <= CAP);
});

test('a Chinese summary is measured in UTF-8 bytes: 45,000 characters (135 KB) do not fit in 120 KiB', async () => {
  const store = durableObjectLikeStore();
  const state = new SessionState({ store, key: 'payments', maxBytes: CAP });
  const summary = '退款金额在半分时四舍五入错误。'.repeat(3000);
  assert.ok(summary.length < CAP && Buffer.byteLength(summary) > CAP);
  const r = await compactHistory(new Compactor({ summarize: answering(summary) }), debuggingSession(24, 400), { state, force: true });
  assert.equal(r.report.compacted, true);
  assert.equal(r.report.session.unsaved, 'too-large');
  assert.equal(store.map.size, 0);
  assert.deepEqual(store.writes, []);
});
