// A stop reaches compactStep's summary. Neither ai 6 nor ai 7 hands prepareStep the call's abort signal (ai 6:
// {model, steps, stepNumber, messages, experimental_context}; ai 7 adds instructions, initialMessages,
// responseMessages, runtimeContext, toolsContext: node_modules/ai*/dist/index.d.ts, PrepareStepFunction), so a
// step that folds waited for the whole summary after the user pressed stop. The call's signal goes to compactStep
// as an option (`compactStep({…, signal: abortSignal})`, built inside the call): the summary is aborted with it, the
// step changes nothing, and the call ends. Through the real SDKs and @ai-sdk/anthropic over HTTP to the strict mock.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { init } from '../../js/hosts/node.js';
import { compactStep, conversationStates } from '../../js/integrations/ai-sdk.js';
import { startStrictProvider } from '../helpers/strict-provider.mjs';
import { ANTHROPIC_VERSIONS } from '../helpers/ai-sdk-flows.mjs';
import { CORE_NAMES, readWorkloadFile } from '../helpers/corpus.mjs';

const SRC = CORE_NAMES.filter((f) => f.endsWith('.c')).sort().map((f) => `src/${f}`);
const read = readWorkloadFile;
/** How long the slow summarizer takes when nobody stops it. */
const SLOW_MS = 5000;

let provider;
before(async () => { await init(); provider = await startStrictProvider(); });
after(() => provider.close());

/** A history over the threshold: six files of the C core read, then a new question. */
function longHistory() {
  const history = [{ role: 'user', content: 'Review the C core file by file.' }];
  SRC.slice(0, 6).forEach((path, i) => {
    history.push({ role: 'assistant', content: [{ type: 'tool-call', toolCallId: `call_${i}`, toolName: 'read_file', input: { path } }] });
    history.push({ role: 'tool', content: [{ type: 'tool-result', toolCallId: `call_${i}`, toolName: 'read_file', output: { type: 'text', value: read(path) } }] });
  });
  history.push({ role: 'assistant', content: 'I have read six files.' }, { role: 'user', content: '哪个文件决定折叠的位置？' });
  return history;
}

/** A summarizer that answers after SLOW_MS unless its request's signal aborts first; `started` resolves when it is called. */
function slowSummarizer() {
  let begin;
  const seen = { started: new Promise((resolve) => { begin = resolve; }), aborted: false, abortedAfter: null };
  const summarize = (request) => new Promise((resolve, reject) => {
    const t0 = performance.now();
    begin();
    const timer = setTimeout(() => resolve('The reviewer read six files.'), SLOW_MS);
    request.signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      seen.aborted = true;
      seen.abortedAfter = performance.now() - t0;
      reject(request.signal.reason);
    }, { once: true });
  });
  return { summarize, seen };
}

for (const v of ANTHROPIC_VERSIONS) {
  test(`${v.label}: streamText stopped while compactStep writes its summary ends at once, the summary aborted and nothing changed`, { skip: v.skip }, async (t) => {
    conversationStates.clear();
    const ai = await import(v.ai);
    const model = (await import(v.anthropic)).createAnthropic({ baseURL: `${provider.url}/v1`, apiKey: 'sk-ant-test' })('claude-sonnet-4-6');
    const tools = { read_file: ai.tool({ description: 'Read a file', inputSchema: z.object({ path: z.string() }), execute: async ({ path }) => read(path) }) };
    provider.reply = () => [{ type: 'text', text: 'src/compact.c.' }];
    const { summarize, seen } = slowSummarizer();
    const reports = [];
    const controller = new AbortController();
    const from = provider.requests.length;
    const t0 = performance.now();
    let stepSettled = null;
    const inner = compactStep({ summarize, threshold: 8000, signal: controller.signal, onReport: (r) => reports.push(r) });
    const prepareStep = async (step) => { try { return await inner(step); } finally { stepSettled ??= performance.now() - t0; } };
    const result = ai.streamText({ model, tools, messages: longHistory(), abortSignal: controller.signal, prepareStep, stopWhen: ai.stepCountIs(2) });
    const consumed = result.consumeStream({ onError: () => {} });
    await seen.started;
    const stoppedAt = performance.now() - t0;
    controller.abort();
    await consumed;
    const ended = performance.now() - t0;
    assert.ok(seen.aborted, 'the summarizer saw the abort');
    assert.equal(reports.length, 1);
    assert.equal(reports[0].reason, 'aborted', 'the step changed nothing');
    assert.equal(reports[0].compacted, false);
    // A logical check, not a timing target: the step was over before the summary could have been written.
    assert.ok(stepSettled !== null && stepSettled < stoppedAt + SLOW_MS / 2, `the step settled ${stepSettled - stoppedAt} ms after the stop`);
    assert.ok(ended < stoppedAt + SLOW_MS / 2, `the call ended ${ended - stoppedAt} ms after the stop`);
    assert.equal(provider.requests.length, from, 'no request went out after the stop');
    t.diagnostic(`stop → summarizer aborted ${seen.abortedAfter.toFixed(0)} ms into the summary; step settled ${(stepSettled - stoppedAt).toFixed(1)} ms and call ended ${(ended - stoppedAt).toFixed(1)} ms after the stop`);
  });
}

test('compactStep refuses a signal that is no AbortSignal, and leaves it out of the scope its states are found by', async () => {
  assert.throws(() => compactStep({ summarize: async () => 'x', signal: 'stop' }), (e) => e.code === 'invalid-option' && /signal/.test(e.message));
  conversationStates.clear();
  const history = longHistory();
  const reports = [];
  const summarize = async () => 'The reviewer read six files of the C core.';
  const run = (signal) => compactStep({ summarize, threshold: 8000, signal, onReport: (r) => reports.push(r) })({ messages: history, steps: [] });
  await run(new AbortController().signal);
  assert.equal(reports[0].compacted, true);
  await run(new AbortController().signal);
  assert.equal(reports[1].session.matched, history.length, 'a per-call signal does not start another plan');
});
