// Calls on one SessionState that overlap. A server that sets an integration up once keeps one state per
// conversation key, and conversations that open alike (the same system prompt and a first "Hi") share it: a
// call for one of them must not wait while another's summary is written, which can take a model call's
// seconds. A call that repeats the whole history of a call in flight (a duplicate request, the next step sent
// before the last one's result was recorded) is the one exception: it waits, and continues that call's fold
// instead of writing a second summary of the same messages. Shown on SessionState itself, then through the real
// packages: one midfoldMiddleware over @ai-sdk/anthropic (ai 6 and 7) and one compactionFilter in an
// @openai/agents Runner, each serving two users over HTTP to the strict mock provider.
//
// A call that waits where it must not never settles here, so each such test has a timeout: it fails, it does
// not hang. Nothing is timed.
import test, { before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';

import { init, Compactor, digestSummarizer, SessionState, compactHistory, conversationKey, memoryStateStore } from '../../js/hosts/node.js';
import { midfoldMiddleware } from 'midfold/ai-sdk';
import { compactionFilter } from 'midfold/openai-agents';
import { longSession } from '../helpers/long-session.mjs';
import { countedCompactor as counted } from '../helpers/counted-compactor.mjs';
import { startStrictProvider } from '../helpers/strict-provider.mjs';
import { ANTHROPIC_VERSIONS } from '../helpers/ai-sdk-flows.mjs';
import { readWorkloadFile } from '../helpers/corpus.mjs';

const reparse = (v) => JSON.parse(JSON.stringify(v));
const NEVER_WAITS = { timeout: 20_000 };

let provider;
before(async () => { await init(); provider = await startStrictProvider(); });
after(() => provider.close());

/** A summarizer that writes the digest once `open()` is called; `entered` resolves when it is first asked. */
function heldSummarizer() {
  let open, enter;
  const gate = new Promise((resolve) => { open = resolve; });
  const entered = new Promise((resolve) => { enter = resolve; });
  const digest = digestSummarizer();
  const held = { calls: 0, open, entered };
  held.summarize = async (request) => { held.calls++; enter(); await gate; return digest(request); };
  return held;
}

/** The first `calls` calls of a generated OpenAI-format coding session of `seed`, as one history (past the
 * threshold of 3,000 tokens the held Compactors use even after micro-compaction: each folds). */
const historyOf = (seed, calls) => longSession({ turns: 40, format: 'openai', seed }).calls.slice(0, calls).flat();

test('while one conversation\'s summary is written, another that opens alike and shares its state is served', NEVER_WAITS, async () => {
  const a = historyOf(101, 30);
  const b = historyOf(102, 30);
  assert.equal(await conversationKey(a), await conversationKey(b), 'one key, so one state, as an integration keeps them');
  const state = new SessionState();
  const held = heldSummarizer();
  const slow = new Compactor({ threshold: 3000, summarize: held.summarize });
  const pending = compactHistory(slow, reparse(a), { state });
  await held.entered;
  // B folds too (its own summary, not held), and is remembered, while A's summary is still being written.
  const other = counted({ threshold: 3000 });
  const bResult = await compactHistory(other, reparse(b), { state });
  assert.ok(bResult.report.compacted && bResult.report.session.saved, JSON.stringify(bResult.report.session));
  assert.equal(other.summaries, 1);
  held.open();
  const aResult = await pending;
  assert.ok(aResult.report.compacted && aResult.report.session.saved);
  // Both are remembered, each as its own branch, and each next call continues its own fold.
  assert.equal(new Set(state.toJSON().snapshots.map((s) => s.branch)).size, 2);
  for (const [history, result, compactor] of [[a, aResult, slow], [b, bResult, other]]) {
    const next = await compactHistory(compactor, reparse(history), { state });
    assert.equal(next.report.session.matched, history.length);
    assert.equal(JSON.stringify(next.messages), JSON.stringify(result.messages));
  }
  assert.equal(held.calls, 1);
});

test('a duplicate request while the first is being folded waits for it and sends its fold: one summary, not two', NEVER_WAITS, async () => {
  const history = historyOf(103, 30);
  const state = new SessionState();
  const held = heldSummarizer();
  const compactor = new Compactor({ threshold: 3000, summarize: held.summarize });
  const first = compactHistory(compactor, reparse(history), { state });
  await held.entered;
  const second = compactHistory(compactor, reparse(history), { state });
  held.open();
  const [one, two] = await Promise.all([first, second]);
  assert.equal(held.calls, 1, 'one summary');
  assert.ok(one.report.compacted);
  assert.equal(two.report.session.matched, history.length, 'the second continued the first\'s fold');
  assert.equal(JSON.stringify(two.messages), JSON.stringify(one.messages));
});

test('a duplicate request aborted while it waits for the first one\'s fold stops waiting, and the first still lands', NEVER_WAITS, async () => {
  const history = historyOf(107, 30);
  const state = new SessionState();
  const held = heldSummarizer();
  const compactor = new Compactor({ threshold: 3000, summarize: held.summarize });
  const first = compactHistory(compactor, reparse(history), { state });
  await held.entered;
  const controller = new AbortController();
  const second = compactHistory(compactor, reparse(history), { state, signal: controller.signal });
  controller.abort(new Error('the user pressed stop'));
  // Settles while the first summary is still held: before, it waited for the first call to end.
  const two = await second;
  assert.equal(two.report.reason, 'aborted');
  assert.equal(two.report.session.saved, false);
  assert.equal(JSON.stringify(two.messages), JSON.stringify(history), 'nothing folded, nothing lost');
  assert.equal(held.calls, 1, 'the aborted call asked for no summary');
  held.open();
  const one = await first;
  assert.ok(one.report.compacted && one.report.session.saved);
  const next = await compactHistory(compactor, reparse(history), { state });
  assert.equal(next.report.session.matched, history.length, 'the first call\'s fold is what the state holds');
  // A signal that was aborted before the call never waits either.
  const late = heldSummarizer();
  const other = new Compactor({ threshold: 3000, summarize: late.summarize });
  const grown = historyOf(108, 30);
  const shared = new SessionState();
  const pending = compactHistory(other, reparse(grown), { state: shared });
  await late.entered;
  const aborted = AbortSignal.abort();
  assert.equal((await compactHistory(other, reparse(grown), { state: shared, signal: aborted })).report.reason, 'aborted');
  late.open();
  await pending;
});

test('the next step, sent before the last one\'s fold was recorded, continues that fold', NEVER_WAITS, async () => {
  const calls = longSession({ turns: 40, format: 'openai', seed: 104 }).calls;
  const history = calls.slice(0, 30).flat();
  const state = new SessionState();
  const held = heldSummarizer();
  const compactor = new Compactor({ threshold: 3000, summarize: held.summarize });
  const first = compactHistory(compactor, reparse(history), { state });
  await held.entered;
  const grown = [...history, ...calls[30]];
  const second = compactHistory(compactor, reparse(grown), { state });
  held.open();
  const [, two] = await Promise.all([first, second]);
  assert.equal(two.report.session.matched, history.length, 'the second continued the first\'s fold');
  // What a stateful Compactor holding its own array sends after the same two calls, with as many summaries.
  const stateful = counted({ threshold: 3000 });
  const array = reparse(history);
  await stateful.compact(array);
  array.push(...reparse(calls[30]));
  await stateful.compact(array);
  assert.equal(JSON.stringify(two.messages), JSON.stringify(array));
  assert.equal(held.calls, stateful.summaries);
  // A call that does not repeat the whole history in flight (another branch: the last turn taken back)
  // never waits: shown by the first test's conversations, which differ from their second message on.
});

test('with a store, a fold recorded after another call loaded the state again still extends its own branch', NEVER_WAITS, async () => {
  const store = memoryStateStore();
  const a = historyOf(105, 24);
  const b = historyOf(106, 24);
  const key = await conversationKey(a);
  const state = new SessionState({ store, key });
  const compactor = counted();
  await compactHistory(compactor, reparse(a), { state });
  const [from] = state.toJSON().snapshots;
  assert.ok(from && from.count === a.length, 'A is remembered');

  // A's next call folds (forced) and waits on its summary; B's call loads the store meanwhile, which reads A's
  // snapshot again as a new object.
  const more = historyOf(105, 28);
  const held = heldSummarizer();
  const pending = compactHistory(new Compactor({ threshold: 3000, summarize: held.summarize }), reparse(more), { state, force: true });
  await held.entered;
  await compactHistory(counted(), reparse(b), { state });
  held.open();
  assert.ok((await pending).report.session.saved);
  const snapshots = state.toJSON().snapshots;
  const ofA = snapshots.filter((s) => s.count === a.length || s.count === more.length);
  assert.deepEqual(ofA.map((s) => s.count), [more.length, a.length]);
  assert.equal(ofA[0].branch, from.branch, 'A\'s fold extends A\'s branch (not a new one beside it)');
  assert.deepEqual(JSON.parse(await store.get(key)).snapshots.map((s) => s.count), snapshots.map((s) => s.count), 'and the store holds it');
});

// The same through the real AI SDK: one wrapped model (Anthropic's provider, over HTTP to the strict mock)
// serving two users whose conversations open with the same "Hi".
const read = readWorkloadFile;
const FILES = ['src/view.c', 'src/compact.c', 'src/micro.c', 'src/estimate.c', 'src/serialize.c', 'src/adapt_anthropic.c'];
for (const v of ANTHROPIC_VERSIONS) {
  describe(`one midfoldMiddleware, two users who both open with "Hi" (${v.label})`, { skip: v.skip }, () => {
    test('the second user is answered while the first user\'s fold waits for its summary; both requests are accepted', NEVER_WAITS, async () => {
      const ai = await import(v.ai);
      const base = (await import(v.anthropic)).createAnthropic({ baseURL: `${provider.url}/v1`, apiKey: 'sk-ant-test' })('claude-sonnet-4-5');
      const tools = { read_file: ai.tool({ description: 'Read a file of the repository', inputSchema: z.object({ path: z.string() }), execute: async ({ path }) => read(path) }) };
      const held = heldSummarizer();
      const reports = [];
      const model = ai.wrapLanguageModel({ model: base, middleware: midfoldMiddleware({ summarize: held.summarize, threshold: 6000,
        keepTail: { tokens: 1500 }, specificationVersion: v.spec, onReport: (r) => reports.push(r) }) });
      const system = 'You are a careful code reviewer for the midfold repository.';
      const opening = [{ role: 'user', content: 'Hi' }, { role: 'assistant', content: 'Hello! What shall we look at?' }];
      // The first user has read six files: past the threshold, so the middleware folds.
      const long = [...opening, { role: 'user', content: 'Read the compaction code, file by file.' }];
      FILES.forEach((path, i) => {
        long.push({ role: 'assistant', content: [{ type: 'tool-call', toolCallId: `toolu_${i}`, toolName: 'read_file', input: { path } }] });
        long.push({ role: 'tool', content: [{ type: 'tool-result', toolCallId: `toolu_${i}`, toolName: 'read_file', output: { type: 'text', value: read(path) } }] });
      });
      long.push({ role: 'user', content: 'Where does the fold keep the pending turn?' });
      provider.reply = () => [{ type: 'text', text: 'In src/compact.c.' }];
      const first = ai.generateText({ model, system, tools, messages: long });
      await held.entered;
      const second = await ai.generateText({ model, system, tools, messages: [...opening, { role: 'user', content: 'What does micro-compaction clear?' }] });
      assert.equal(second.text, 'In src/compact.c.');
      assert.equal(reports.length, 1, 'the second user\'s call went through the middleware while the first\'s waits');
      assert.equal(reports[0].reason, 'below-threshold');
      held.open();
      assert.equal((await first).text, 'In src/compact.c.');
      assert.ok(reports[1].compacted, 'the first user\'s history was folded');
      const sent = provider.requests.slice(-2);
      assert.deepEqual(sent.map((r) => r.status), [200, 200]);
      assert.ok(JSON.stringify(sent[1].body.messages).length < JSON.stringify(long).length / 2, 'the folded request is the smaller');
    });
  });
}

// And through the real @openai/agents: one Runner and one compactionFilter, two runs that open with "Hi".
test('one compactionFilter, two Agents SDK runs that both open with "Hi": the second is answered while the first\'s fold waits', NEVER_WAITS, async () => {
  const { Agent, Runner, tool } = await import('@openai/agents');
  const { OpenAIProvider } = await import('@openai/agents-openai');
  const readFile = tool({ name: 'read_file', description: 'Read a file of the repository', parameters: z.object({ path: z.string() }), execute: async ({ path }) => read(path) });
  const agent = new Agent({ name: 'reader', instructions: 'Read the C core and answer.', tools: [readFile], model: 'gpt-5.4' });
  const runnerWith = (filter) => new Runner({
    modelProvider: new OpenAIProvider({ apiKey: 'sk-test', baseURL: `${provider.url}/v1`, useResponses: true }),
    tracingDisabled: true, callModelInputFilter: filter,
  });
  // The first user's earlier run: "Hi", then six files read (each call after its encrypted reasoning), then an answer.
  let step = 0;
  provider.reply = () => {
    const i = step++;
    return i < FILES.length
      ? [provider.signReasoning(`rs_hi${i}`, `I should read ${FILES[i]} next.`),
        { type: 'function_call', id: `fc_hi${i}`, call_id: `call_hi${i}`, name: 'read_file', arguments: JSON.stringify({ path: FILES[i] }), status: 'completed' }]
      : [{ type: 'message', id: `msg_hi${i}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'I read the compaction code.', annotations: [] }] }];
  };
  const earlier = await runnerWith(undefined).run(agent, 'Hi', { maxTurns: FILES.length + 2 });
  provider.reply = () => [{ type: 'message', id: 'msg_answer', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'In src/compact.c.', annotations: [] }] }];

  const held = heldSummarizer();
  const reports = [];
  const runner = runnerWith(compactionFilter({ summarize: held.summarize, threshold: 6000, keepTail: { tokens: 1500 }, onReport: (r) => reports.push(r) }));
  const first = runner.run(agent, [...earlier.history, { role: 'user', content: 'Where does the fold keep the pending turn?' }], { maxTurns: 2 });
  await held.entered;
  const second = await runner.run(agent, 'Hi', { maxTurns: 2 });
  assert.equal(second.finalOutput, 'In src/compact.c.');
  assert.deepEqual(reports.map((r) => r.reason), ['below-threshold'], 'the second run\'s call went through while the first\'s waits');
  held.open();
  assert.equal((await first).finalOutput, 'In src/compact.c.');
  assert.ok(reports[1].compacted, 'the first run\'s history was folded');
  assert.deepEqual(provider.requests.slice(-2).map((r) => r.status), [200, 200]);
});
