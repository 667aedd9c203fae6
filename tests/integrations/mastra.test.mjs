// midfold/mastra's compactionProcessor inside a real Mastra Agent (@mastra/core), whose model is @ai-sdk/anthropic
// sending over HTTP to the strict mock provider on 127.0.0.1 (it refuses what the Messages API refuses: a
// tool_use without its tool_result first in the next message, a result without its call). The workload
// (tests/helpers/mastra-workload.mjs): two turns on one memory thread, each a long tool loop of parallel reads of
// the C sources with Chinese text between them. Facts asserted on the exact HTTP bodies and on memory afterwards.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { init } from 'midfold';
import { compactionProcessor, languageModelSummarizer, conversationStates } from 'midfold/mastra';
import { startStrictProvider } from '../helpers/strict-provider.mjs';
import { runTurns, models, pairProblems, toolResults, folded, textOf, read, STEPS, TURNS } from '../helpers/mastra-workload.mjs';

const OPTIONS = { threshold: 16_000, keepTail: { tokens: 4000 }, keepRecent: 2 };

let provider;
before(async () => { await init(); provider = await startStrictProvider(); });
after(() => provider.close());

/** A processor whose summaries the strict provider writes (languageModelSummarizer over @ai-sdk/anthropic). */
function processor(reports, extra = {}) {
  conversationStates.clear(); // each run plans from nothing, as a fresh server would
  return compactionProcessor({ ...OPTIONS, summarize: languageModelSummarizer(models(provider).summaryModel), onReport: (r) => reports.push(r), ...extra });
}

const sentTokens = (requests) => requests.reduce((n, r) => n + r.body.messages.reduce((k, m) => k + JSON.stringify(m.content).length, 0), 0);

test('a long tool loop of parallel calls through a Mastra Agent: every request accepted, pairs intact, the middle folded, the pending turn verbatim', async () => {
  const reports = [];
  const run = await runTurns(provider, { inputProcessors: [processor(reports)] });
  assert.deepEqual(run.errors, []);
  for (const [i, t] of TURNS.entries()) assert.ok(run.texts[i].endsWith(t.answer), run.texts[i]);
  assert.equal(run.requests.length, TURNS.length * (STEPS + 1));
  assert.deepEqual(run.requests.filter((r) => r.status !== 200).map((r) => r.error), []);
  for (const r of run.requests) assert.deepEqual(pairProblems(r.body.messages), []);
  assert.ok(run.summaries.length > 0 && run.summaries.every((r) => r.status === 200), 'the summary model was asked, and answered');
  const withFold = run.requests.filter((r) => folded(r.body.messages));
  assert.ok(withFold.length > 0, 'a request carries the summary');
  assert.ok(reports.some((r) => r.compacted));
  for (const r of withFold) {
    const summary = r.body.messages.find((m) => m.role === 'user' && textOf(m.content).startsWith('[Context Compressed]'));
    assert.ok(Array.isArray(summary.content) && summary.content.every((b) => b.type === 'text'), 'the summary is text blocks');
    assert.match(textOf(summary.content), /摘要/, 'the summary is the Chinese text the model wrote');
    assert.equal(r.body.system[0].text, '你是一名代码审查助手。用中文简短回答。', 'the system prompt is kept');
    // The pending turn: the last message answers the calls of the one before, verbatim.
    const last = r.body.messages.at(-1);
    const calls = r.body.messages.at(-2).content.filter((b) => b.type === 'tool_use');
    if (calls.length) {
      assert.equal(calls.length, 2, 'both parallel calls kept');
      for (const call of calls) {
        const result = last.content.find((b) => b.type === 'tool_result' && b.tool_use_id === call.id);
        assert.equal(textOf(result.content), read(call.input.path), 'the pending results are sent whole');
      }
    }
  }
  // A question folded into the middle went to the summarizer; the second turn's stays verbatim through its loop.
  const asked = (r, text) => JSON.stringify(r.body.messages).includes(text);
  assert.ok(run.summaries.some((r) => asked(r, TURNS[0].ask)), 'the first question was in the transcript summarized');
  const second = run.requests.slice(STEPS + 1);
  for (const r of second) assert.ok(r.body.messages.some((m) => m.role === 'user' && textOf(m.content).includes(TURNS[1].ask)));
});

test("memory keeps the whole history: the stored messages hold every tool result whole and no summary", async () => {
  const reports = [];
  const run = await runTurns(provider, { inputProcessors: [processor(reports)] });
  assert.ok(reports.some((r) => r.compacted));
  const parts = run.stored.flatMap((m) => (m.content && Array.isArray(m.content.parts) ? m.content.parts : []));
  // (the C sources read mention midfold's markers, so a marker is looked for where midfold writes one: at the start)
  assert.deepEqual(parts.filter((p) => p.type === 'text' && /^\[(Context Compressed|truncated:)/.test(p.text)), [], 'no summary stored');
  const results = parts
    .filter((p) => p.type === 'tool-invocation' && p.toolInvocation.state === 'result');
  assert.equal(results.length, TURNS.length * STEPS * 2, 'every parallel call is stored with its result');
  for (const p of results) assert.equal(p.toolInvocation.result, read(p.toolInvocation.args.path));
  assert.ok(run.stored.some((m) => JSON.stringify(m.content).includes(TURNS[0].ask)), 'the first question is stored');
});

test('the fold sends less than the same workload without the processor, and the second turn starts from the remembered fold', async () => {
  const plain = await runTurns(provider, { thread: 'plain' });
  const reports = [];
  const run = await runTurns(provider, { inputProcessors: [processor(reports)], thread: 'folded' });
  assert.deepEqual(plain.requests.filter((r) => r.status !== 200), []);
  assert.ok(sentTokens(run.requests) < sentTokens(plain.requests) * 0.7, `${sentTokens(run.requests)} vs ${sentTokens(plain.requests)}`);
  // The second turn's first request: the history comes back from memory, its folded prefix from the state.
  const first = reports[STEPS + 1];
  assert.ok(first.session && first.session.matched > 0, 'the second turn matched the remembered prefix');
  assert.ok(folded(run.requests[STEPS + 1].body.messages));
});

test('a failing summarizer changes nothing: the requests are what the agent sends without the processor', async () => {
  const plain = await runTurns(provider, { thread: 'plain-2' });
  const reports = [];
  const warnings = [];
  provider.override = (record) => (record.body && !record.body.tools ? { status: 400, body: { type: 'error', error: { type: 'invalid_request_error', message: 'max_tokens: too large for this model' } } } : null);
  let run;
  try {
    // Micro-compaction, which needs no model, never clears read_file's results here: only the fold could change a request.
    run = await runTurns(provider, { inputProcessors: [processor(reports, { excludeTools: ['read_file'], onWarn: (m) => warnings.push(m) })], thread: 'plain-2' });
  } finally {
    provider.override = null;
  }
  assert.ok(run.summaries.length > 0 && run.summaries.every((r) => r.status === 400), 'the summary was asked for and refused');
  assert.ok(warnings.length > 0, 'the failure was reported');
  assert.ok(reports.every((r) => !r.compacted));
  assert.deepEqual(run.texts, plain.texts);
  assert.deepEqual(run.requests.map((r) => r.body.messages), plain.requests.map((r) => r.body.messages));
});

test('the processor is a plain object of Mastra\'s Processor shape; no midfold entry imports @mastra/core', () => {
  const p = compactionProcessor({ summarize: async () => 's' });
  assert.equal(p.id, 'midfold');
  assert.equal(typeof p.processLLMRequest, 'function');
  assert.equal(typeof p.processLLMResponse, 'function');
  assert.equal(p.processInput, undefined, 'memory\'s messages are not touched');
  const files = (dir) => readdirSync(new URL(`../../${dir}/`, import.meta.url), { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? files(`${dir}/${e.name}`) : e.name.endsWith('.js') ? [`${dir}/${e.name}`] : []));
  const importing = files('js').filter((f) => /from\s+['"]@mastra\//.test(readFileSync(new URL(`../../${f}`, import.meta.url), 'utf8')));
  assert.deepEqual(importing, []);
  assert.throws(() => compactionProcessor(), /compactionProcessor: options/);
  assert.throws(() => compactionProcessor({ summarize: async () => 's', specificationVersion: 'v4' }), /compactionProcessor: specificationVersion/);
  assert.throws(() => compactionProcessor({ summarize: async () => 's', maxConversations: 0 }), /^MidfoldError: compactionProcessor: maxConversations must be/);
  assert.throws(() => compactionProcessor({ summarize: async () => 's', threshold: -1 }), /threshold/);
});

test("the provider's input count in each answer (processLLMResponse) anchors the next call's estimate", async () => {
  const anchored = [];
  const run = await runTurns(provider, { inputProcessors: [processor(anchored)], thread: 'anchored' });
  const estimated = [];
  const { processLLMResponse, ...requestOnly } = processor(estimated);
  assert.equal(typeof processLLMResponse, 'function');
  await runTurns(provider, { inputProcessors: [requestOnly], thread: 'estimated' });
  assert.deepEqual(run.requests.filter((r) => r.status !== 200), []);
  // The first call has no count before it: both plan on the estimate alone.
  assert.equal(anchored[0].tokensBefore, estimated[0].tokensBefore);
  // The second call is planned on the first one's count (what the mock provider said it read) plus the new messages.
  assert.notEqual(anchored[1].tokensBefore, estimated[1].tokensBefore);
});

test('with signed thinking, nothing is edited while a turn\'s loop is in flight; the next turn folds at its boundary, and the provider accepts every request', async () => {
  const reports = [];
  const run = await runTurns(provider, { inputProcessors: [processor(reports)], thread: 'thinking', thinking: true });
  assert.deepEqual(run.errors, []);
  assert.deepEqual(run.requests.filter((r) => r.status !== 200).map((r) => r.error), []);
  for (const r of run.requests) assert.deepEqual(pairProblems(r.body.messages), []);
  const first = run.requests.slice(0, STEPS + 1);
  // Inside the first loop every assistant message still carries the thinking the provider signed over its prefix.
  assert.ok(first.every((r) => !folded(r.body.messages) && toolResults(r.body.messages).cleared === 0), 'no fold, no cleared result');
  assert.ok(first.at(-1).body.messages.filter((m) => m.role === 'assistant').every((m) => m.content[0].type === 'thinking'));
  assert.ok(reports.slice(0, STEPS + 1).some((r) => r.reason === 'deferred-thinking'), 'an edit waited for the turn boundary');
  assert.ok(run.requests.slice(STEPS + 1).some((r) => folded(r.body.messages)), 'the second turn folded');
});

test('agent.stream gets the same: every request accepted, the middle folded, the count of each answer anchoring the next', async () => {
  const reports = [];
  const run = await runTurns(provider, { inputProcessors: [processor(reports)], thread: 'streamed', stream: true });
  assert.deepEqual(run.errors, []);
  for (const [i, t] of TURNS.entries()) assert.ok(run.texts[i].endsWith(t.answer), run.texts[i]);
  assert.deepEqual(run.requests.filter((r) => r.status !== 200).map((r) => r.error), []);
  assert.ok(run.requests.every((r) => r.body.stream === true), 'streamed requests');
  assert.ok(run.requests.some((r) => folded(r.body.messages)));
  const generated = [];
  await runTurns(provider, { inputProcessors: [processor(generated)], thread: 'generated' });
  assert.deepEqual(reports.map((r) => [r.reason, r.tokensBefore, r.tokensAfter]), generated.map((r) => [r.reason, r.tokensBefore, r.tokensAfter]),
    'stream and generate plan alike');
});

test("the run's abortSignal aborts a summary being written: the report says 'aborted' and the turn ends without a fold", async () => {
  const controller = new AbortController();
  const reports = [];
  let aborted = false;
  // A summarizer that answers only when aborted: the run is stopped while it writes.
  const summarize = (request) => new Promise((_, reject) => {
    request.signal.addEventListener('abort', () => { aborted = true; reject(request.signal.reason); });
    controller.abort(new Error('the user pressed stop'));
  });
  const run = await runTurns(provider, { inputProcessors: [processor(reports, { summarize })], thread: 'aborted', abortSignal: controller.signal, turns: TURNS.slice(0, 1) });
  assert.ok(aborted, 'the summarizer saw the run\'s signal abort');
  assert.ok(reports.some((r) => r.reason === 'aborted'), reports.map((r) => r.reason).join());
  assert.ok(run.requests.every((r) => !folded(r.body.messages)));
});
