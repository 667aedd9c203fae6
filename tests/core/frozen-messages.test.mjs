// A chat store kept with Immer (Redux Toolkit, Zustand's immer middleware): every message it produces is
// deep-frozen. The Compactor rebuilds the array it is given in place, so a host hands it a copy of the store's
// list; the messages in it are still the store's frozen objects. Facts: a clearing and a fold go through,
// writing copies where a message cannot be written (before, dropping the kept turns' signed thinking threw a
// TypeError after the array was already rebuilt, and the summary was lost); the store's messages are never
// changed; compactHistory, which works on copies, gives the same.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { produce, isDraftable } from 'immer';
import { init, Compactor, SessionState, compactHistory, digestSummarizer, estimateTokens } from '../../js/hosts/node.js';
import { CORE_NAMES, readWorkloadFile } from '../helpers/corpus.mjs';

before(() => init());

const read = readWorkloadFile;
const FILES = CORE_NAMES.filter((f) => f.endsWith('.c')).sort().slice(0, 12).map((f) => `src/${f}`);

/** A store of three finished turns of Claude with extended thinking, each reading four files, and a new question. */
function chatStore() {
  let state = { messages: [] };
  FILES.forEach((path, i) => {
    state = produce(state, (draft) => {
      if (i % 4 === 0) draft.messages.push({ role: 'user', content: `Read the next four files, starting with ${path}.` });
      draft.messages.push({ role: 'assistant', content: [
        { type: 'thinking', thinking: `${path} is next; 先读它再回答。`, signature: `EqQBCkYIBxgCKkB${i}sig` },
        { type: 'tool_use', id: `toolu_${i}`, name: 'read_file', input: { path } }] });
      draft.messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${i}`, content: read(path) }] });
      if (i % 4 === 3) draft.messages.push({ role: 'assistant', content: [{ type: 'thinking', thinking: 'I have read them.', signature: `EqQBdone${i}` }, { type: 'text', text: 'Read.' }] });
    });
  });
  return produce(state, (draft) => { draft.messages.push({ role: 'user', content: 'Where are results paired?' }); });
}

const deepFrozen = (v) => v === null || typeof v !== 'object' || (Object.isFrozen(v) && Object.values(v).every(deepFrozen));

test('the fixture is what Immer gives a store: every message deep-frozen', () => {
  const { messages } = chatStore();
  assert.ok(isDraftable(messages[0]));
  assert.ok(messages.every(deepFrozen));
  assert.ok(Object.isFrozen(messages), 'the list too: a host hands the Compactor a copy of it');
});

test('a fold of a copy of the store\'s list: the kept turns lose their signed thinking in copies, the store is unchanged', async () => {
  const store = chatStore();
  const before = JSON.stringify(store.messages);
  const messages = [...store.messages];
  const tokens = estimateTokens(messages);
  const report = await new Compactor({ summarize: digestSummarizer(), threshold: Math.floor(tokens * 0.6), keepTail: { tokens: Math.floor(tokens * 0.3) }, keepRecent: 20 })
    .compact(messages);
  assert.equal(report.compacted, true, report.reason);
  assert.ok(report.thinkingRemoved > 0);
  assert.ok(!messages.slice(1).some((m) => Array.isArray(m.content) && m.content.some((b) => b.type === 'thinking')), 'no kept turn keeps its thinking');
  assert.equal(JSON.stringify(store.messages), before, 'the store\'s messages are unchanged');
  assert.ok(store.messages.every(deepFrozen));
});

test('a clearing of a copy of the store\'s list edits copies of the frozen messages; the store is unchanged', async () => {
  const store = chatStore();
  const before = JSON.stringify(store.messages);
  const messages = [...store.messages];
  const tokens = estimateTokens(messages);
  const report = await new Compactor({ summarize: digestSummarizer(), threshold: Math.floor(tokens * 0.9), keepRecent: 2 }).compact(messages);
  assert.equal(report.reason, 'below-threshold');
  assert.ok(report.micro.cleared >= 8, `${report.micro.cleared} results cleared`);
  assert.ok(report.tokensAfter < tokens * 0.9);
  const cleared = messages.filter((m, i) => m !== store.messages[i]);
  assert.ok(cleared.length >= report.micro.cleared, 'each edited message is a copy in the array');
  assert.equal(JSON.stringify(store.messages), before);
});

test('compactHistory on the store\'s frozen list sends what the Compactor leaves in a copy', async () => {
  const store = chatStore();
  const tokens = estimateTokens(store.messages);
  const options = { summarize: digestSummarizer(), threshold: Math.floor(tokens * 0.6), keepTail: { tokens: Math.floor(tokens * 0.3) }, keepRecent: 20 };
  const { messages, report } = await compactHistory(new Compactor(options), store.messages, { state: new SessionState() });
  assert.equal(report.compacted, true);
  const copy = [...store.messages];
  await new Compactor(options).compact(copy);
  assert.deepStrictEqual(messages, copy);
});
