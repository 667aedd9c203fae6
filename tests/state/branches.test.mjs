// SessionState's branches: conversations that share a state (they open alike, so conversationKey gives them
// one key) and the paths of a regenerated turn each keep their own remembered form, so a busy conversation
// never pushes a quieter one out of the state and makes it summarize its whole history again.

import test, { before } from 'node:test';
import assert from 'node:assert/strict';

import { init, Compactor, digestSummarizer, SessionState, compactHistory, conversationKey, memoryStateStore, MidfoldError } from '../../js/hosts/node.js';
import { longSession } from '../helpers/long-session.mjs';
import { countedCompactor as counted } from '../helpers/counted-compactor.mjs';
import { ConversationStates } from '../../js/state/conversation-states.js';
import { readWorkloadFile } from '../helpers/corpus.mjs';

before(() => init());

const reparse = (v) => JSON.parse(JSON.stringify(v));


/** A conversation replayed call by call: the whole history each call, and a stateful Compactor beside it. */
function conversation(seed, turns) {
  return { calls: longSession({ turns, format: 'openai', seed }).calls, at: 0, history: [], held: [], stateful: counted() };
}

/** A conversation of `seed` whose first `calls` calls went through one state, with the Compactor they used. */
async function remembered(seed, calls) {
  const conv = conversation(seed, 30);
  const state = new SessionState();
  const compactor = counted();
  for (let k = 0; k < calls; k++) await step(conv, compactor, state);
  return { conv, state, compactor };
}

/**
 * Sends the next call of `conv` through compactHistory on `state` and returns its report; unless `forgotten`,
 * checks that what it sends is what the stateful Compactor holds.
 */
async function step(conv, compactor, state, forgotten = false) {
  const added = conv.calls[conv.at++];
  conv.history.push(...reparse(added));
  conv.held.push(...reparse(added));
  await conv.stateful.compact(conv.held);
  const { messages, report } = await compactHistory(compactor, reparse(conv.history), { state });
  if (!forgotten) assert.equal(JSON.stringify(messages), JSON.stringify(conv.held), 'the stateful Compactor\'s array');
  return report;
}

test('two conversations that open alike share one key; the quiet one still continues after eight turns of the busy one', async () => {
  const busy = conversation(41, 80);
  const quiet = conversation(42, 20);
  assert.equal(await conversationKey(busy.calls.flat()), await conversationKey(quiet.calls.flat()), 'one state key for both');
  const state = new SessionState();
  const compactor = counted();
  const quietCalls = [];
  while (quiet.at < quiet.calls.length) {
    for (let k = 0; k < 8 && busy.at < busy.calls.length; k++) await step(busy, compactor, state);
    const report = await step(quiet, compactor, state);
    quietCalls.push(report.session);
  }
  // Until its first edit a conversation has nothing to remember; from then on every call continues. Before
  // branches, the busy conversation's snapshots pushed the quiet one's out (4 in all) and each of its calls
  // planned afresh, folding its whole history again.
  const first = quietCalls.findIndex((s) => s.saved);
  assert.ok(first >= 0 && first < quietCalls.length - 10, `first remembered at call ${first}`);
  assert.deepEqual(quietCalls.slice(first + 1).filter((s) => s.matched === 0), [], 'every later call continued');
  assert.equal(compactor.summaries, busy.stateful.summaries + quiet.stateful.summaries,
    `${compactor.summaries} summaries, ${busy.stateful.summaries} + ${quiet.stateful.summaries} by two stateful Compactors`);
  const branches = new Set(state.toJSON().snapshots.map((s) => s.branch));
  assert.equal(branches.size, 2);
});

test('retention is per branch: maxSnapshots of each, maxBranches in all (the least recently extended goes), the newest always', async () => {
  const state = new SessionState({ maxSnapshots: 2, maxBranches: 3 });
  const compactor = counted();
  const convs = [51, 52, 53, 54].map((seed) => conversation(seed, 30));
  // Conversations 0..2 run until each is remembered, 1 and 2 go on, then 3 starts: 0 is the least recently
  // extended, so it is the one forgotten.
  const saved = new Set();
  while (saved.size < 3) {
    for (const [k, c] of convs.slice(0, 3).entries()) if ((await step(c, compactor, state)).session.saved) saved.add(k);
  }
  for (const c of [convs[1], convs[2]]) assert.ok((await step(c, compactor, state)).session.saved);
  for (let k = 0; k < 24; k++) await step(convs[3], compactor, state);
  const snapshots = state.toJSON().snapshots;
  assert.equal(snapshots.filter((s) => s.branch === snapshots[0].branch).length, 2, 'the fourth conversation was remembered');
  const per = new Map();
  for (const s of snapshots) per.set(s.branch, (per.get(s.branch) || 0) + 1);
  assert.ok(per.size <= 3 && [...per.values()].every((n) => n <= 2), JSON.stringify([...per]));
  assert.equal(snapshots[0].count, convs[3].history.length, 'the newest is the last call\'s');
  const report = await step(convs[0], compactor, state, true);
  assert.equal(report.session.matched, 0, 'the least recently extended branch was forgotten');
  // Its fresh plan is a branch again, which leaves out the least recently extended one of the rest (1, since
  // 2 went on after it): 2 still continues.
  const again = await step(convs[2], compactor, state);
  assert.ok(again.session.matched > 0, 'a kept branch continues');
});

test('maxBytes drops each branch\'s earlier snapshots before any branch\'s newest', async () => {
  const convs = [61, 62].map((seed) => conversation(seed, 40));
  const roomy = new SessionState();
  const compactor = counted();
  for (let round = 0; round < 30; round++) for (const c of convs) await step(c, compactor, roomy);
  const full = roomy.toJSON();
  assert.ok(full.snapshots.length > 2 && new Set(full.snapshots.map((s) => s.branch)).size === 2);
  // A cap that holds two snapshots but not all of them: each branch keeps its newest.
  const heads = full.snapshots.filter((s, i) => full.snapshots.findIndex((t) => t.branch === s.branch) === i);
  const capped = new SessionState({ maxBytes: JSON.stringify({ ...full, snapshots: heads }).length + 64 });
  const c2 = counted();
  for (const c of convs) { c.at = 0; c.history = []; c.held = []; c.stateful = counted(); }
  for (let round = 0; round < 30; round++) for (const c of convs) await step(c, c2, capped);
  const kept = capped.toJSON().snapshots;
  assert.deepEqual(new Set(kept.map((s) => s.branch)).size, 2, 'both conversations are still remembered');
  assert.ok(JSON.stringify(capped.toJSON()).length <= capped.maxBytes);
  for (const c of convs) assert.ok((await step(c, c2, capped)).session.matched > 0);
});

test('a state written before branches and byte lengths is one branch and continues; a field that is no whole number is refused', async () => {
  const { conv, state, compactor } = await remembered(71, 25);
  const old = state.toJSON();
  assert.ok(old.snapshots.every((s) => Number.isInteger(s.bytes) && s.bytes > 0));
  for (const s of old.snapshots) { delete s.branch; delete s.bytes; }
  const restored = SessionState.from(JSON.stringify(old));
  assert.ok(restored.toJSON().snapshots.every((s) => s.branch === 0 && s.bytes === undefined));
  // (a provider's count, carried by a snapshot, is read back as written)
  const anchored = { ...old, snapshots: old.snapshots.map((s) => ({ ...s, anchor: { inputTokens: 1200, count: 2 } })) };
  assert.ok(SessionState.from(anchored).toJSON().snapshots.every((s) => s.anchor.inputTokens === 1200 && s.anchor.count === 2));
  assert.ok((await step(conv, compactor, restored)).session.matched > 0);

  for (const [field, value] of [['branch', -1], ['branch', 1.5], ['branch', '0'], ['branch', null], ['bytes', -1], ['bytes', '12'],
    ['anchor', 5], ['anchor', { inputTokens: 1200 }], ['anchor', { inputTokens: -1, count: 2 }], ['anchor', { inputTokens: 1200, count: 1.5 }]]) {
    const bad = JSON.stringify({ version: 1, messages: [], snapshots: [{ settings: 'x', count: 2, prefix: 'a'.repeat(64), items: [[0, 2]], [field]: value }] });
    assert.throws(() => SessionState.from(bad), (e) => e instanceof MidfoldError && e.code === 'invalid-state' && e.message.includes(field), bad);
  }
});

test('a snapshot is told apart by its byte length only when that differs: an equal length is still hashed, a wrong one never matches', async () => {
  const { conv, state } = await remembered(72, 25);
  const json = state.toJSON();
  const newest = json.snapshots[0];
  // Another conversation's snapshot of the same count and byte length (another prefix), newest: hashed, refused.
  const twin = { ...newest, prefix: 'b'.repeat(64), branch: 9, items: [[0, 1]] };
  const next = (snapshots) => SessionState.from({ ...json, snapshots });
  const history = reparse(conv.history);
  const got = await compactHistory(counted(), history, { state: next([twin, ...json.snapshots]) });
  assert.equal(got.report.session.matched, newest.count, 'its own snapshot, past the twin');
  // Its own snapshot with a byte length that is not its prefix's: skipped (a fresh plan, never a wrong prefix).
  const skewed = await compactHistory(counted(), history, { state: next([{ ...newest, bytes: newest.bytes + 1 }]) });
  assert.equal(skewed.report.session.matched, 0);
});

test('a turn regenerated twelve times falls back to the same earlier snapshot every time: the branch it forks from stays', async () => {
  const { conv, state, compactor } = await remembered(81, 40);
  const lastUser = conv.history.findLastIndex((m) => m.role === 'user');
  const matched = [];
  for (let k = 0; k < 12; k++) {
    const regenerated = [...reparse(conv.history.slice(0, lastUser)), { role: 'user', content: `Try another way (${k + 1}): keep the rounding, add the test first.` }];
    const got = await compactHistory(compactor, regenerated, { state });
    assert.ok(got.report.session.saved, `regeneration ${k + 1} is remembered`);
    matched.push(got.report.session.matched);
  }
  // Each regeneration is a branch of its own; the one it forks from is used by each, so it is never the least
  // recently extended (before, the fallback was pushed out after four regenerations, then after eight).
  assert.ok(matched.every((m) => m > 0 && m === matched[0]), matched.join(' '));
});

test('a call that waited for its summary while another conversation under the key saved keeps what the other saved', async () => {
  // As the proxy runs it: a new SessionState over the store per request, so nothing but the store is shared.
  const store = memoryStateStore();
  const key = await conversationKey(longSession({ turns: 1, format: 'openai' }).calls.flat());
  const stateOf = () => new SessionState({ store, key });
  const a = conversation(91, 40);
  const b = conversation(92, 40);
  const compactor = counted();
  for (let k = 0; k < 24; k++) { await step(a, compactor, stateOf()); await step(b, compactor, stateOf()); }

  // A's next call folds (forced), and its summary is held back until B's next call has saved.
  let release;
  const held = new Promise((resolve) => { release = resolve; });
  const digest = digestSummarizer();
  const slow = new Compactor({ threshold: 8000, summarize: async (r) => { await held; return digest(r); } });
  a.history.push(...reparse(a.calls[a.at++]));
  const pending = compactHistory(slow, reparse(a.history), { state: stateOf(), force: true });
  const bReport = await step(b, compactor, stateOf());
  assert.ok(bReport.session.saved && bReport.session.matched > 0);
  release();
  const aResult = await pending;
  assert.ok(aResult.report.compacted && aResult.report.session.saved);

  // Both are remembered: B's next call continues the snapshot B saved while A waited, and A's continues its fold.
  const bNext = await compactHistory(counted(), reparse(b.history), { state: stateOf() });
  assert.equal(bNext.report.session.matched, b.history.length, 'B\'s snapshot survived A\'s save');
  const aNext = await compactHistory(counted(), reparse(a.history), { state: stateOf() });
  assert.equal(aNext.report.session.matched, a.history.length);
  assert.equal(JSON.stringify(aNext.messages), JSON.stringify(aResult.messages));
});

test('an integration set up once remembers 36 conversations that all open alike, not 32: each call continues its own fold', async () => {
  // As midfoldMiddleware, compactStep and compactionFilter keep them: ConversationStates finds the state by
  // conversationKey, so every conversation here (one system prompt, one first request) shares one state.
  const states = new ConversationStates();
  const compactor = counted();
  const convs = Array.from({ length: 36 }, (_, k) => conversation(300 + k, 24));
  const keys = new Set(await Promise.all(convs.map((c) => conversationKey(c.calls.flat()))));
  assert.equal(keys.size, 1, 'one key for all');
  const sessions = [];
  for (let round = 0; round < 20; round++) {
    for (const c of convs) {
      const added = c.calls[c.at++];
      c.history.push(...reparse(added));
      c.held.push(...reparse(added));
      await c.stateful.compact(c.held);
      const { messages, report } = await compactHistory(compactor, reparse(c.history), { state: await states.of(c.history) });
      assert.ok(JSON.stringify(messages) === JSON.stringify(c.held), `conversation ${convs.indexOf(c)}, round ${round}: the stateful Compactor's array`);
      sessions.push({ c, ...report.session });
    }
  }
  // Before, past a SessionState's 32 branches the least recently extended conversation was forgotten each
  // round, so every call of every conversation planned afresh and folded the whole history again.
  const remembered = new Set();
  const fresh = [];
  for (const s of sessions) {
    if (remembered.has(s.c) && s.matched === 0) fresh.push(convs.indexOf(s.c));
    if (s.saved) remembered.add(s.c);
  }
  assert.equal(remembered.size, convs.length);
  assert.deepEqual(fresh, [], 'no remembered conversation planned afresh');
  const stateful = convs.reduce((n, c) => n + c.stateful.summaries, 0);
  assert.equal(compactor.summaries, stateful, `${compactor.summaries} summaries, ${stateful} by 36 stateful Compactors`);
});

test('ConversationStates keeps `max` conversations in all, however they open: the least recently used states go first', async () => {
  const states = new ConversationStates(6);
  const compactor = counted();
  // Four conversations that open alike, then three of their own openings, one after another.
  const alike = [311, 312, 313, 314].map((seed) => conversation(seed, 24));
  const own = [0, 1, 2].map((k) => {
    const c = conversation(320 + k, 24);
    c.calls[0] = c.calls[0].map((m) => (m.role === 'system' ? { ...m, content: `${m.content} (team ${k})` } : m));
    return c;
  });
  const run = async (c, calls) => {
    for (let i = 0; i < calls; i++) {
      c.history.push(...reparse(c.calls[c.at++]));
      await compactHistory(compactor, reparse(c.history), { state: await states.of(c.history) });
    }
  };
  for (const c of alike) await run(c, 18);
  const alikeState = await states.of(alike[0].history);
  assert.equal(alikeState.branchCount(), 4);
  for (const c of own) await run(c, 18);
  // 4 + 3 > 6: the alike conversations' state was the least recently used, so it went as a whole.
  assert.notEqual(await states.of(alike[0].history), alikeState, 'the least recently used state was forgotten');
  assert.equal(states.states.size, 4);
  let total = 0;
  for (const state of states.states.values()) total += Math.max(1, state.branchCount());
  assert.ok(total <= 6, `${total} conversations remembered`);
});

test('maxConversations sets an integration\'s budget: at 1, another conversation\'s call forgets the first; a bad value is refused', async () => {
  const { midfoldMiddleware } = await import('../../js/integrations/ai-sdk.js');
  const { compactionFilter } = await import('../../js/integrations/openai-agents.js');
  const src = (name) => readWorkloadFile(`src/${name}`);
  // A provider-level prompt (LanguageModelV3Prompt, what transformParams is given): four files read.
  const prompt = (opening) => {
    const out = [{ role: 'system', content: 'You review the midfold C core.' }, { role: 'user', content: [{ type: 'text', text: opening }] }];
    ['view.c', 'compact.c', 'micro.c', 'estimate.c'].forEach((file, i) => {
      out.push({ role: 'assistant', content: [{ type: 'tool-call', toolCallId: `call_${i}`, toolName: 'read_file', input: { path: `src/${file}` } }] });
      out.push({ role: 'tool', content: [{ type: 'tool-result', toolCallId: `call_${i}`, toolName: 'read_file', output: { type: 'text', value: src(file) } }] });
    });
    out.push({ role: 'user', content: [{ type: 'text', text: 'Which of these folds the middle?' }] });
    return out;
  };
  const sessions = async (options) => {
    const seen = [];
    const middleware = midfoldMiddleware({ summarize: digestSummarizer(), threshold: 3000, ...options, onReport: (r) => seen.push(r.session) });
    const call = (opening) => middleware.transformParams({ type: 'generate', params: { prompt: prompt(opening) }, model: {} });
    await call('Hi');
    await call('Hello there');
    await call('Hi');
    return seen;
  };
  const [first, , again] = await sessions({});
  assert.ok(first.saved, 'the first conversation is remembered');
  assert.equal(again.matched, prompt('Hi').length, 'by default it is still remembered after another one');
  const [, , forgotten] = await sessions({ maxConversations: 1 });
  assert.equal(forgotten.matched, 0, 'at maxConversations 1 the other conversation pushed it out');

  for (const make of [(o) => midfoldMiddleware(o), (o) => compactionFilter(o)]) {
    for (const bad of [0, 1.5, '256']) {
      assert.throws(() => make({ summarize: digestSummarizer(), maxConversations: bad }), (e) => e instanceof MidfoldError && e.code === 'invalid-option' && /maxConversations/.test(e.message));
    }
    assert.throws(() => make({ summarize: digestSummarizer(), maxConversations: 8, state: new SessionState() }), (e) => e.code === 'invalid-option' && /maxConversations/.test(e.message));
  }
});

/** A provider-level prompt (what transformParams is given): `opening`, four files of the C core read, a question. */
function readingPrompt(opening) {
  const src = (name) => readWorkloadFile(`src/${name}`);
  const out = [{ role: 'system', content: 'You review the midfold C core.' }, { role: 'user', content: [{ type: 'text', text: opening }] }];
  ['view.c', 'compact.c', 'micro.c', 'estimate.c'].forEach((file, i) => {
    out.push({ role: 'assistant', content: [{ type: 'tool-call', toolCallId: `call_${i}`, toolName: 'read_file', input: { path: `src/${file}` } }] });
    out.push({ role: 'tool', content: [{ type: 'tool-result', toolCallId: `call_${i}`, toolName: 'read_file', output: { type: 'text', value: src(file) } }] });
  });
  out.push({ role: 'user', content: [{ type: 'text', text: 'Which of these folds the middle?' }] });
  return out;
}

test('ConversationStates holds at most maxBytes of state: the least recently used conversations go first, never the one in use', async () => {
  const states = new ConversationStates(1000, 'test', { maxBytes: 8000 });
  const compactor = new Compactor({ summarize: digestSummarizer(), threshold: 3000, format: 'ai-sdk' });
  const openings = Array.from({ length: 12 }, (_, k) => `Review request #${k}: 帮我看一下 ${['view.c', 'compact.c', 'micro.c'][k % 3]}。`);
  const sizes = [];
  for (const opening of openings) {
    const prompt = readingPrompt(opening);
    const { report } = await compactHistory(compactor, prompt, { state: await states.of(prompt) });
    assert.ok(report.compacted && report.session.saved, report.reason);
    assert.ok(states.bytes <= 8000, `${states.bytes} bytes held`);
    sizes.push(states.bytes);
  }
  assert.ok(states.states.size < openings.length, `${states.states.size} states kept of ${openings.length}: the budget forgot some`);
  // The most recent conversation continues its fold; the first one was forgotten and plans afresh.
  const last = readingPrompt(openings.at(-1));
  assert.equal((await compactHistory(compactor, last, { state: await states.of(last) })).report.session.matched, last.length);
  const first = readingPrompt(openings[0]);
  assert.equal((await compactHistory(compactor, first, { state: await states.of(first) })).report.session.matched, 0);
  // One conversation larger than the whole budget drops its earlier snapshots (its newest stays).
  const tiny = new ConversationStates(10, 'test', { maxBytes: 1600 });
  const state = await tiny.of(last);
  await compactHistory(compactor, last, { state });
  const longer = [...last, { role: 'assistant', content: [{ type: 'text', text: 'src/compact.c plans it.' }] }, { role: 'user', content: [{ type: 'text', text: '那微压缩呢？' }] }];
  const { report } = await compactHistory(compactor, longer, { state: await tiny.of(longer) });
  assert.ok(report.session.matched > 0 && report.session.saved);
  assert.equal(tiny.states.size, 1, 'the state in use is never forgotten');
  assert.equal(state.snapshots.length, 1, 'its earlier snapshot went');
  assert.equal(state.snapshots[0].count, longer.length);
});

test('ConversationStates: each scope keeps its own budget, and all scopes together the map\'s', async () => {
  const states = new ConversationStates(5, 'test');
  const chat = (text) => [{ role: 'system', content: 'You are terse.' }, { role: 'user', content: text }];
  const a = [];
  for (let k = 0; k < 4; k++) a.push(await states.of(chat(`A${k}`), 'scope-a', 2));
  assert.equal(await states.of(chat('A3'), 'scope-a', 2), a[3]);
  assert.notEqual(await states.of(chat('A0'), 'scope-a', 2), a[0], 'scope a keeps its 2 most recent');
  for (let k = 0; k < 4; k++) await states.of(chat(`B${k}`), 'scope-b', 4);
  assert.ok(states.conversations <= 5, `${states.conversations} conversations in all`);
  // The same conversation in another scope is another state.
  assert.notEqual(await states.of(chat('B3'), 'scope-a', 2), await states.of(chat('B3'), 'scope-b', 4));
  states.clear();
  assert.equal(states.conversations, 0);
  assert.equal(states.bytes, 0);
});

test('a long-lived server: 300 conversations through a middleware built per call stay within the module\'s bounds', async () => {
  const { midfoldMiddleware, conversationStates } = await import('../../js/integrations/ai-sdk.js');
  conversationStates.clear();
  conversationStates.setLimits({ maxConversations: 40, maxBytes: 120_000 });
  try {
    const seen = [];
    const call = async (opening) => {
      const middleware = midfoldMiddleware({ summarize: digestSummarizer(), threshold: 3000, onReport: (r) => seen.push(r.session) });
      await middleware.transformParams({ type: 'generate', params: { prompt: readingPrompt(opening) }, model: {} });
      return seen.at(-1);
    };
    let peak = 0, peakBytes = 0;
    for (let k = 0; k < 300; k++) {
      assert.ok((await call(`Conversation ${k}: where is the fold planned?`)).saved);
      peak = Math.max(peak, conversationStates.conversations);
      peakBytes = Math.max(peakBytes, conversationStates.bytes);
    }
    assert.ok(peak <= 40 && peakBytes <= 120_000, `peak ${peak} conversations, ${peakBytes} bytes`);
    assert.equal((await call('Conversation 299: where is the fold planned?')).matched, readingPrompt('x').length, 'the latest is remembered');
    assert.equal((await call('Conversation 0: where is the fold planned?')).matched, 0, 'the oldest was forgotten');
  } finally {
    conversationStates.setLimits({ maxConversations: 4096, maxBytes: 64 * 1024 * 1024 });
    conversationStates.clear();
  }
});
