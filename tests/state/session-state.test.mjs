// Compaction state for stateless hosts (js/state/): long sessions replayed as a framework or a proxy
// replays them — the whole original history, re-parsed, on every call — against a stateful Compactor
// that holds its own array.

import test, { before } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import {
  init, digestSummarizer, SessionState, compactHistory, memoryStateStore, conversationKey, canonicalJSON,
  MidfoldError, validate, estimateTokens,
} from '../../js/hosts/node.js';
import { longSession } from '../helpers/long-session.mjs';
import { countedCompactor as counted } from '../helpers/counted-compactor.mjs';
import { docSnippet } from '../helpers/doc-snippets.mjs';

before(() => init());

const reparse = (v) => JSON.parse(JSON.stringify(v));
const json = (v) => JSON.stringify(v);


/**
 * Replays `calls` twice: through a stateful Compactor on its own array, and through compactHistory
 * with the whole re-parsed history each call. Yields per call what both sent.
 */
async function* replay(calls, { state = new SessionState(), stateful = counted(), stateless = counted() } = {}) {
  const held = [];
  const history = [];
  for (const added of calls) {
    held.push(...structuredClone(added));
    history.push(...structuredClone(added));
    const statefulReport = await stateful.compact(held);
    const sent = reparse(history);
    const { messages, report } = await compactHistory(stateless, sent, { state });
    yield { held, history, sent, messages, report, statefulReport, stateful, stateless, state };
  }
}

for (const format of ['openai', 'anthropic']) {
  test(`${format}: 200 turns replayed statelessly send what a stateful Compactor sends, with as many summaries`, async () => {
    const { calls } = longSession({ turns: 200, format });
    let last;
    let reused = 0;
    let call = 0;
    for await (const step of replay(calls)) {
      call++;
      assert.equal(json(step.messages), json(step.held), `call ${call}: the same array as the stateful Compactor's`);
      if (call % 20 === 0) assert.equal(json(step.sent), json(step.history), 'the caller\'s array is not changed');
      if (step.report.session.matched > 0) reused++;
      last = step;
    }
    assert.ok(last.stateful.summaries >= 10, `a session long enough to compact often (${last.stateful.summaries} summaries)`);
    assert.ok(Math.abs(last.stateless.summaries - last.stateful.summaries) <= 1,
      `${last.stateless.summaries} summaries statelessly, ${last.stateful.summaries} statefully`);
    assert.equal(last.stateless.summaries, last.stateful.summaries);
    assert.ok(reused > calls.length * 0.9, `${reused} of ${calls.length} calls continued a remembered prefix`);
    assert.equal(validate(last.messages).ok, true);
    assert.ok(last.history.length > 700 && last.messages.length < 40, `${last.history.length} messages in, ${last.messages.length} out`);
    // Chinese requests were folded too: the session holds them, and a summary covers them.
    assert.ok(last.history.some((m) => typeof m.content === 'string' && /[\u4e00-\u9fff]/.test(m.content)));
  });
}

test('between compactions the forwarded prefix is byte-identical call to call; only newly cleared results change', async () => {
  const { calls } = longSession({ turns: 120, format: 'anthropic', seed: 11 });
  let previous = null;
  let stable = 0;
  let summaryKept = 0;
  for await (const step of replay(calls)) {
    const now = step.messages;
    if (previous && !step.report.compacted) {
      const cleared = new Set(step.report.micro.edits.map((e) => e.message));
      for (let i = 0; i < previous.length; i++) {
        if (cleared.has(i)) {
          assert.notEqual(json(now[i]), json(previous[i]));
          assert.match(json(now[i]), /\[truncated: \w+ result, \d+ chars\]/);
        } else {
          assert.equal(json(now[i]), json(previous[i]), `message ${i} is sent again byte for byte`);
        }
      }
      if (/\[Context Compressed\]/.test(json(previous))) summaryKept++;
      stable++;
    }
    previous = reparse(now);
  }
  assert.ok(stable > 150 && summaryKept > 100, `${stable} calls without a compaction, ${summaryKept} of them after a summary`);
});

test('micro-compaction made in an earlier call is reproduced from the state, not redone', async () => {
  const { calls } = longSession({ turns: 12, format: 'openai', seed: 3 });
  const history = calls.slice(0, 16).flat();
  const state = new SessionState();
  const big = counted({ threshold: 1_000_000, policy: 'every-turn' }); // micro-compaction only, every turn
  const first = await compactHistory(big, reparse(history), { state });
  assert.ok(first.report.micro.edits.length > 0);
  const saved = state.toJSON();
  const stored = saved.snapshots[0].items.filter((x) => !Array.isArray(x));
  assert.equal(stored.length, new Set(first.report.micro.edits.map((e) => e.message)).size, 'each cleared message is remembered');
  for (const item of stored) assert.match(json(saved.messages[item.ref]), /\[truncated:/);
  const again = await compactHistory(big, reparse([...history, { role: 'user', content: 'And now?' }]), { state });
  assert.equal(again.report.session.matched, history.length);
  assert.equal(json(again.messages.slice(0, history.length)), json(first.messages));
});

test('a diverging history gets a fresh plan: an edited folded message, a truncation, another conversation', async () => {
  const { calls } = longSession({ turns: 40, format: 'openai', seed: 5 });
  const state = new SessionState();
  const c = counted();
  const history = [];
  let last;
  for (const added of calls) {
    history.push(...reparse(added));
    last = await compactHistory(c, reparse(history), { state });
  }
  assert.ok(state.toJSON().snapshots.length > 0 && /\[Context Compressed\]/.test(json(last.messages)));

  /** What a brand-new state gives for `messages`: the fresh plan. */
  const fresh = async (messages) => (await compactHistory(counted(), reparse(messages), { state: new SessionState() })).messages;

  const edited = reparse(history);
  edited[5].content = `${edited[5].content} (edited)`; // long folded into a summary
  let got = await compactHistory(counted(), edited, { state });
  assert.equal(got.report.session.matched, 0);
  assert.equal(json(got.messages), json(await fresh(edited)));
  assert.ok(!json(got.messages).includes(json(last.messages[1]).slice(1, -1)), 'the old summary is not reused');

  const truncated = history.slice(0, 9);
  got = await compactHistory(counted(), reparse(truncated), { state });
  assert.equal(got.report.session.matched, 0);
  assert.equal(json(got.messages), json(await fresh(truncated)));

  const other = longSession({ turns: 30, format: 'openai', seed: 99 }).calls.flat();
  got = await compactHistory(counted(), reparse(other), { state });
  assert.equal(got.report.session.matched, 0);
  assert.equal(json(got.messages), json(await fresh(other)));

  const reordered = reparse(history);
  [reordered[3], reordered[4]] = [reordered[4], reordered[3]];
  got = await compactHistory(counted(), reordered, { state });
  assert.equal(got.report.session.matched, 0);
});

test('a host that keeps its message objects (prepareStep) and edits some in place gets what a re-parsing host gets, reading only what is new', async () => {
  const { calls } = longSession({ turns: 40, format: 'openai', seed: 12 });
  const kept = { c: counted(), state: new SessionState(), history: [] };
  const parsed = { c: counted(), state: new SessionState(), history: [] };
  let estimatedLate = Infinity;
  for (let k = 0; k < calls.length; k++) {
    kept.history.push(...structuredClone(calls[k]));
    parsed.history.push(...structuredClone(calls[k]));
    // in place, on the kept objects, as a host fixing an old message would; the re-parsing host sees the same edit
    const edit = (h) => {
      if (k === 20) h[3].content = `${h[3].content} (corrected)`;
      if (k === 30) { const call = h.find((m) => Array.isArray(m.tool_calls)); call.tool_calls[0].function.arguments = '{"path":"src/other.ts"}'; }
    };
    edit(kept.history);
    edit(parsed.history);
    const a = await compactHistory(kept.c, kept.history, { state: kept.state });
    const b = await compactHistory(parsed.c, reparse(parsed.history), { state: parsed.state });
    assert.equal(json(a.messages), json(b.messages), `call ${k}`);
    assert.equal(a.report.session.matched, b.report.session.matched, `call ${k}`);
    assert.equal(a.report.tokensBefore, b.report.tokensBefore, `call ${k}`);
    if (k === 20 || k === 30) assert.equal(a.report.session.matched, 0, 'an edited message changes the prefix hash');
    if (k > 32) estimatedLate = Math.min(estimatedLate, kept.c.estimates.lastEstimated);
  }
  assert.equal(kept.c.summaries, parsed.c.summaries);
  assert.ok(kept.c.summaries > 0);
  assert.ok(estimatedLate <= 8, `a later call estimated ${estimatedLate} messages`);
});

test('a regenerated last turn falls back to an earlier remembered prefix, never to the replaced one', async () => {
  const { calls } = longSession({ turns: 30, format: 'openai', seed: 8 });
  const state = new SessionState();
  const c = counted();
  const history = [];
  const counts = [];
  for (const added of calls) {
    history.push(...reparse(added));
    const r = await compactHistory(c, reparse(history), { state });
    if (r.report.session.saved) counts.push(history.length);
  }
  // The user edits the last request and sends again.
  const regenerated = reparse(history);
  const lastUser = regenerated.map((m) => m.role).lastIndexOf('user');
  regenerated.length = lastUser;
  regenerated.push({ role: 'user', content: 'Actually, leave the rounding alone and only add the test.' });
  const got = await compactHistory(counted(), regenerated, { state });
  assert.ok(got.report.session.matched > 0 && got.report.session.matched <= lastUser, `matched ${got.report.session.matched}`);
  assert.ok(counts.includes(got.report.session.matched));
  assert.equal(json(got.messages.at(-1)), json(regenerated.at(-1)));
  assert.equal(validate(got.messages).ok, true);
});

test('a state survives JSON: toJSON, text, SessionState.from, and the next call continues the same', async () => {
  const { calls } = longSession({ turns: 60, format: 'anthropic', seed: 2 });
  const history = calls.slice(0, -1).flat();
  const state = new SessionState();
  const c = counted();
  let acc = [];
  for (const added of calls.slice(0, -1)) { acc = [...acc, ...reparse(added)]; await compactHistory(c, reparse(acc), { state }); }
  const text = JSON.stringify(state);
  const restored = SessionState.from(text);
  assert.deepEqual(restored.toJSON(), state.toJSON());
  assert.deepEqual(SessionState.from(JSON.parse(text)).toJSON(), state.toJSON());
  const next = [...history, ...calls.at(-1)];
  const a = await compactHistory(counted(), reparse(next), { state });
  const b = await compactHistory(counted(), reparse(next), { state: restored });
  assert.equal(json(a.messages), json(b.messages));
  assert.ok(b.report.session.matched > 0);
  // A few kilobytes, however long the session: the summary, cleared markers and index ranges.
  assert.ok(text.length < 32 * 1024, `${text.length} bytes for ${history.length} messages`);

  for (const bad of ['{', '[]', '{"version":2,"snapshots":[]}', '{"version":1}',
    '{"version":1,"snapshots":[{"settings":"x","count":2,"prefix":"00","items":[]}]}',
    JSON.stringify({ version: 1, snapshots: [{ settings: 'x', count: 2, prefix: 'a'.repeat(64), items: [[0, 3]] }] }),
    JSON.stringify({ version: 1, messages: [], snapshots: [{ settings: 'x', count: 2, prefix: 'a'.repeat(64), items: [{ ref: 0 }] }] }),
    JSON.stringify({ version: 1, messages: ['x'], snapshots: [] })]) {
    assert.throws(() => SessionState.from(bad), (e) => e instanceof MidfoldError && e.code === 'invalid-state', bad);
  }
});

test('a count a snapshot carries prices only calls under the context it was counted under, and the context survives JSON', async () => {
  // The provider's count covers the system prompt and tools too; the integrations pass a hash of them as
  // `context`. A call under other tools that continues the same record must not be priced at that count.
  const { calls } = longSession({ turns: 30, format: 'openai', seed: 5 });
  const state = new SessionState();
  const c = counted();
  let acc = [];
  let i = 0;
  for (; i < calls.length; i++) {
    acc = [...acc, ...reparse(calls[i])];
    if ((await compactHistory(c, reparse(acc), { state })).report.compacted) break;
  }
  assert.ok(i < calls.length, 'the session folded');
  // What that fold returned was sent, and the provider counted 6,000 tokens under context A.
  acc = [...acc, ...reparse(calls[++i])];
  const anchored = await compactHistory(c, reparse(acc), { state, usage: { inputTokens: 6000 }, context: 'tools-A' });
  assert.equal(anchored.report.reason, 'below-threshold');
  assert.equal(state.toJSON().snapshots.find((s) => s.count === acc.length).anchor.context, 'tools-A');

  // The next turn comes with no count of its own.
  acc = [...acc, ...reparse(calls[++i])];
  const restored = SessionState.from(JSON.stringify(state));
  const priced = async (context, st = state) => (await compactHistory(c, reparse(acc), { state: st, context })).report;
  const same = await priced('tools-A');
  assert.ok(same.tokensBefore > 6000, `under its context the count prices it (${same.tokensBefore})`);
  assert.equal((await priced('tools-A', restored)).tokensBefore, same.tokensBefore, 'read back from JSON, the same');
  for (const context of ['tools-B', undefined]) {
    const { messages, report } = await compactHistory(c, reparse(acc), { state, context });
    assert.equal(report.session.matched, acc.length, 'it continued the record');
    assert.equal(report.tokensBefore, estimateTokens(messages, { profile: 'safe' }), `under ${context ?? 'no context'} the estimate alone prices it`);
  }

  await assert.rejects(compactHistory(c, reparse(acc), { state, context: 7 }), (e) => e instanceof MidfoldError && e.code === 'invalid-option');
  const bad = state.toJSON();
  bad.snapshots.find((s) => s.anchor).anchor.context = 7;
  assert.throws(() => SessionState.from(bad), (e) => e instanceof MidfoldError && e.code === 'invalid-state' && /anchor/.test(e.message));
});

/** A KV-like async store: JSON text values, every call a macrotask later, every write counted. */
function slowStore() {
  const inner = memoryStateStore();
  const later = () => new Promise((r) => setTimeout(r, 1));
  return {
    map: inner.map, writes: 0,
    async get(key) { await later(); return inner.get(key); },
    async put(key, value) { assert.equal(typeof value, 'string'); this.writes++; await later(); return inner.put(key, value); },
  };
}

test('an async store shared by two SessionState objects (two isolates) keeps the stateful result', async () => {
  const { calls } = longSession({ turns: 50, format: 'openai', seed: 4 });
  const store = slowStore();
  const key = await conversationKey(calls[0]);
  const isolates = [new SessionState({ store, key }), new SessionState({ store, key })];
  const held = [];
  const history = [];
  const stateful = counted();
  const stateless = counted();
  for (let i = 0; i < calls.length; i++) {
    held.push(...reparse(calls[i]));
    history.push(...reparse(calls[i]));
    await stateful.compact(held);
    const { messages } = await compactHistory(stateless, reparse(history), { state: isolates[i % 2] });
    assert.equal(json(messages), json(held));
  }
  assert.equal(stateless.summaries, stateful.summaries);
  assert.ok(store.writes > 0 && store.writes <= calls.length);
  assert.deepEqual([...store.map.keys()], [key], 'one value per conversation key');
  assert.equal(key, await conversationKey(reparse(history)), 'the key stays the same as the conversation grows');
});

test('concurrent calls: one SessionState runs them in turn; two on one store key overlap, last writer wins, no wrong prefix', async () => {
  const { calls } = longSession({ turns: 40, format: 'openai', seed: 6 });
  const early = calls.slice(0, 50).flat();
  const late = calls.flat();
  const state = new SessionState();
  const c = counted();
  const [a, b] = await Promise.all([compactHistory(c, reparse(early), { state }), compactHistory(c, reparse(late), { state })]);
  assert.ok(b.report.session.matched >= early.length, 'the second call saw the first one\'s result');
  assert.equal(validate(a.messages).ok && validate(b.messages).ok, true);

  const store = slowStore();
  const one = new SessionState({ store, key: 'k' });
  const two = new SessionState({ store, key: 'k' });
  const [x, y] = await Promise.all([compactHistory(counted(), reparse(early), { state: one }),
    compactHistory(counted(), reparse(late), { state: two })]);
  assert.equal(validate(x.messages).ok && validate(y.messages).ok, true);
  // Whichever write won, the next call's prefix is checked against its own messages.
  const next = [...late, { role: 'user', content: 'Summarize what changed.' }];
  const z = await compactHistory(counted(), reparse(next), { state: new SessionState({ store, key: 'k' }) });
  const expected = await compactHistory(counted(), reparse(next), { state: SessionState.from(store.map.get('k')) });
  assert.equal(json(z.messages), json(expected.messages));
  assert.equal(json(z.messages.at(-1)), json(next.at(-1)));
  assert.equal(validate(z.messages).ok, true);
});

test('a failing summarizer changes nothing: the state stays as it was, the messages are the stateful ones', async () => {
  const { calls } = longSession({ turns: 60, format: 'anthropic', seed: 9 });
  // Every other summary fails, for both Compactors alike (each counts its own attempts).
  const flaky = () => {
    const digest = digestSummarizer();
    let attempts = 0;
    return (r) => { if (attempts++ % 2 === 0) throw new Error('upstream 503'); return digest(r); };
  };
  const state = new SessionState();
  const stateful = counted({ summarize: flaky() });
  const stateless = counted({ summarize: flaky() });
  const held = [];
  const history = [];
  let failures = 0;
  for (let i = 0; i < calls.length; i++) {
    held.push(...reparse(calls[i]));
    history.push(...reparse(calls[i]));
    const before = json(state);
    const sr = await stateful.compact(held);
    const { messages, report } = await compactHistory(stateless, reparse(history), { state });
    assert.equal(report.reason, sr.reason);
    assert.equal(json(messages), json(held));
    if (report.reason === 'summarizer-error') {
      failures++;
      assert.equal(json(state), before, 'the state is untouched');
      assert.equal(report.session.saved, false);
    }
  }
  assert.ok(failures >= 2, `${failures} failed summaries`);
});

test('the caller\'s array and objects are never changed, and an identity result writes nothing', async () => {
  const history = longSession({ turns: 30, format: 'openai', seed: 1 }).calls.flat();
  const frozen = structuredClone(history);
  const deepFreeze = (v) => { if (v && typeof v === 'object') { Object.freeze(v); Object.values(v).forEach(deepFreeze); } return v; };
  deepFreeze(frozen);
  const store = slowStore();
  const { messages, report } = await compactHistory(counted(), frozen, { state: new SessionState({ store, key: 'k' }) });
  assert.equal(json(frozen), json(history));
  assert.ok(report.compacted && messages !== frozen);

  const small = [{ role: 'user', content: '你好，帮我看看这个报错。' }];
  const r = await compactHistory(counted(), small, { state: new SessionState({ store, key: 'small' }) });
  assert.equal(r.report.session.changed, false);
  assert.equal(r.report.session.saved, false);
  assert.equal(store.map.has('small'), false);
});

test('other settings continue the remembered form; an unreadable stored value or no state at all give a fresh plan, never an error', async () => {
  const history = longSession({ turns: 30, format: 'openai', seed: 12 }).calls.flat();
  const state = new SessionState();
  await compactHistory(counted(), reparse(history), { state });
  const more = [...history, { role: 'user', content: 'Next?' }];
  const same = await compactHistory(counted(), reparse(more), { state });
  assert.ok(same.report.session.matched > 0);
  // A Compactor with other settings (a redeploy with another threshold) goes on from the form last sent, as a
  // stateful Compactor whose options changed would: no summary of the whole history again.
  const changed = counted({ threshold: 9000 });
  const other = await compactHistory(changed, reparse(more), { state });
  assert.equal(other.report.session.matched, more.length);
  assert.equal(changed.summaries, 0);
  assert.equal(json(other.messages), json(same.messages));
  // With a snapshot of its own settings, a call takes that one first.
  const again = await compactHistory(counted(), reparse([...more, { role: 'assistant', content: 'Done.' }]), { state });
  assert.equal(again.report.session.matched, more.length);

  const warnings = [];
  const store = memoryStateStore({ k: 'not json' });
  const r = await compactHistory(counted(), reparse(history), { state: new SessionState({ store, key: 'k', onWarn: (m) => warnings.push(m) }) });
  assert.equal(r.report.session.matched, 0);
  assert.match(warnings[0], /unreadable/);
  assert.doesNotThrow(() => SessionState.from(store.map.get('k')));

  const plain = await compactHistory(counted(), reparse(history));
  assert.equal(plain.report.session.matched, 0);
  assert.equal(plain.report.session.saved, false);

  await assert.rejects(compactHistory({}, []), (e) => e.code === 'invalid-option');
  await assert.rejects(compactHistory(counted(), 'hi'), (e) => e.code === 'invalid-input');
  await assert.rejects(compactHistory(counted(), [], { state: {} }), (e) => e.code === 'invalid-option');
  assert.throws(() => new SessionState({ store: memoryStateStore() }), (e) => e.code === 'invalid-option');
});

test('content hashes ignore key order and re-parsing, and see every change', async () => {
  assert.equal(canonicalJSON({ b: 1, a: [1, { d: undefined, c: 'x' }] }), '{"a":[1,{"c":"x"}],"b":1}');
  assert.equal(canonicalJSON([undefined, () => 1]), '[null,null]');
  const m = { role: 'user', content: [{ type: 'text', text: '东北区少了一笔' }] };
  const k1 = await conversationKey([m]);
  assert.equal(k1, await conversationKey([{ content: [{ text: '东北区少了一笔', type: 'text' }], role: 'user' }]));
  assert.notEqual(k1, await conversationKey([{ role: 'user', content: [{ type: 'text', text: '东北区少了两笔' }] }]));
  assert.match(k1, /^[0-9a-f]{64}$/);
  const loop = { role: 'user' };
  loop.self = loop;
  assert.throws(() => canonicalJSON(loop), (e) => e.code === 'invalid-input');
});

test('binary data is hashed by its bytes, as base64, not as an object of one key per byte', async () => {
  const bytes = Uint8Array.from([137, 80, 78, 71, 13, 10, 26, 10]); // a PNG signature
  const canonical = '{"$bytes":"iVBORw0KGgo="}';
  assert.equal(canonicalJSON(bytes), canonical);
  assert.equal(canonicalJSON(Buffer.from(bytes)), canonical, 'a Buffer, whose toJSON would list its bytes');
  assert.equal(canonicalJSON(new DataView(bytes.buffer)), canonical);
  assert.equal(canonicalJSON(bytes.buffer), canonical);
  assert.equal(canonicalJSON(new Uint8Array([0, ...bytes, 0]).subarray(1, 9)), canonical, 'a view: its bytes only');
  // A screenshot of 1 MiB in an AI SDK prompt: 1.4 MB of text (JSON.stringify's form is 11 MB).
  const shot = new Uint8Array(1 << 20).map((_, i) => (i * 7919) & 255);
  const message = { role: 'user', content: [{ type: 'file', mediaType: 'image/png', data: shot }, { type: 'text', text: 'What is wrong here?' }] };
  assert.ok(canonicalJSON(message).length < 1.5e6);
  const other = shot.slice();
  other[12345] ^= 1;
  assert.notEqual(await conversationKey([message]), await conversationKey([{ ...message, content: [{ ...message.content[0], data: other }, message.content[1]] }]));
});

test('an integration\'s default states: one per conversation (by its opening), the least recently used forgotten first', async () => {
  const { ConversationStates } = await import('../../js/state/conversation-states.js');
  const states = new ConversationStates(2);
  const chat = (text) => [{ role: 'system', content: 'You are terse.' }, { role: 'user', content: text }];
  const a = await states.of(chat('Fix the parser.'));
  assert.ok(a instanceof SessionState);
  assert.equal(await states.of([...chat('Fix the parser.'), { role: 'assistant', content: 'Done.' }]), a, 'a later turn of the same conversation');
  const b = await states.of(chat('Plan the trip.'));
  assert.notEqual(b, a);
  await states.of(chat('Fix the parser.')); // a is now the most recently used
  await states.of(chat('Write the report.')); // a third: b goes
  assert.equal(await states.of(chat('Fix the parser.')), a);
  assert.notEqual(await states.of(chat('Plan the trip.')), b);
});

test('base64 without Buffer (a browser, workerd) is the same as with it', async () => {
  const { base64 } = await import('../../js/state/hash.js');
  const samples = [0, 1, 2, 3, 0x8000, 0x8001, 100_003].map((n) => new Uint8Array(n).map((_, i) => (i * 2654435761) >>> 24));
  const expected = samples.map((b) => Buffer.from(b).toString('base64'));
  const saved = globalThis.Buffer;
  try {
    globalThis.Buffer = undefined;
    assert.deepEqual(samples.map(base64), expected);
  } finally {
    globalThis.Buffer = saved;
  }
});

test('a store that fails to read or write costs the memory, never the call', async () => {
  const history = longSession({ turns: 30, format: 'openai', seed: 13 }).calls.flat();
  const warnings = [];
  const broken = {
    async get() { throw new Error('KV unavailable'); },
    async put() { throw new Error('KV unavailable'); },
  };
  const state = new SessionState({ store: broken, key: 'k', onWarn: (m) => warnings.push(m) });
  const c = counted();
  const expected = await compactHistory(counted(), reparse(history));
  const { messages, report } = await compactHistory(c, reparse(history), { state });
  assert.equal(json(messages), json(expected.messages));
  assert.equal(report.compacted, true);
  assert.equal(report.session.saved, false);
  assert.equal(warnings.length, 2);
  assert.match(warnings[0], /failed to read/);
  assert.match(warnings[1], /failed to write/);
});

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

test('TypeScript: compactHistory keeps the caller\'s message type; SessionState and stores are typed (tsc --strict)', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'midfold-state-types-'));
  try {
    await mkdir(path.join(dir, 'node_modules'));
    await symlink(ROOT, path.join(dir, 'node_modules', 'midfold'));
    await writeFile(path.join(dir, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { target: 'es2022', module: 'nodenext', moduleResolution: 'nodenext', lib: ['es2022', 'dom'],
        types: [], strict: true, noEmit: true },
      files: ['check.mts'],
    }));
    await writeFile(path.join(dir, 'check.mts'), `
import { Compactor, digestSummarizer, SessionState, compactHistory, memoryStateStore, conversationKey,
  type SessionStateJSON, type StateStore, type HistoryReport } from 'midfold';

type ChatMessage = { role: 'system' | 'user' | 'assistant' | 'tool'; content: string; tool_call_id?: string };
const history: ChatMessage[] = [{ role: 'user', content: '你好' }];
const compactor = new Compactor({ summarize: digestSummarizer(), threshold: 8000 });
const kv: StateStore = { get: async (k: string) => (k ? null : null), put: async () => {} };
const state = new SessionState({ store: kv, key: await conversationKey(history), maxBytes: 120_000 });
const { messages, report } = await compactHistory(compactor, history, { state });
const first: ChatMessage | undefined = messages[0];
const r: HistoryReport = report;
const matched: number = report.session.matched;
const saved: SessionStateJSON = SessionState.from(JSON.stringify(new SessionState())).toJSON();
const store = memoryStateStore({ a: '{}' });
const size: number = store.map.size;
// @ts-expect-error: the state option is a SessionState
await compactHistory(compactor, history, { state: {} });
// @ts-expect-error: a store's put takes JSON text
const bad: StateStore = { get: async () => null, put: async (k: string, v: number) => {} };
void [first, r, matched, saved, size, bad];
`);
    const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc', { paths: [ROOT] });
    try {
      await promisify(execFile)(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: dir, timeout: 120000 });
    } catch (e) {
      assert.fail(`tsc failed:\n${e.stdout}${e.stderr}`);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test("docs/state.md's snippet runs as written and sends what a stateful Compactor sends", async () => {
  const block = [null, `${docSnippet('state-across-calls')}\n`];
  const dir = await mkdtemp(path.join(os.tmpdir(), 'midfold-state-readme-'));
  try {
    await mkdir(path.join(dir, 'node_modules'));
    await symlink(ROOT, path.join(dir, 'node_modules', 'midfold'));
    await writeFile(path.join(dir, 'snippet.mjs'), block[1]);
    const { toSend } = await import(path.join(dir, 'snippet.mjs'));
    const { calls } = longSession({ turns: 40, format: 'anthropic', seed: 17 });
    const stateful = counted();
    const held = [];
    const history = [];
    let continued = 0;
    for (const added of calls) {
      held.push(...reparse(added));
      history.push(...reparse(added));
      await stateful.compact(held);
      const sent = reparse(history);
      const out = await toSend(sent);
      assert.equal(json(out.messages), json(held));
      assert.equal(json(sent), json(history));
      if (out.continued) continued++;
    }
    assert.ok(stateful.summaries >= 2 && continued > calls.length / 2, `${stateful.summaries} summaries, ${continued} continued`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
