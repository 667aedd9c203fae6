// Anthropic's server compaction through the AI SDK: @ai-sdk/anthropic gives the `compaction` block back as a
// text part whose provider metadata says {anthropic: {type: 'compaction', signature}}, and sends such a part as
// the block again (4.x with ai 7; 3.x with ai 6 reads the block but drops its signature, so it cannot send it
// back). midfold reads that part as the block: the provider reads from the last one on, so the estimate counts
// from there, micro-compaction edits nothing before it, and a fold never puts its summary before it. Requests
// go through the real provider to the strict one (tests/helpers/strict-provider.mjs), which refuses a block
// that is not the first block of the conversation (compaction_block_misplaced) or whose signature fails.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { init, estimateTokens, microCompact, planCompaction, digestSummarizer } from '../../js/hosts/node.js';
import { midfoldMiddleware, compactUIMessages, SessionState } from 'midfold/ai-sdk';
import { startStrictProvider } from '../helpers/strict-provider.mjs';
import { ANTHROPIC_VERSIONS } from '../helpers/ai-sdk-flows.mjs';
import { readWorkloadFile } from '../helpers/corpus.mjs';

const read = readWorkloadFile;
const AI7 = ANTHROPIC_VERSIONS.find((v) => v.label === 'ai 7');
let provider, ai, model, tools;

before(async () => {
  await init();
  provider = await startStrictProvider();
  ai = await import(AI7.ai);
  model = (await import(AI7.anthropic)).createAnthropic({ baseURL: `${provider.url}/v1`, apiKey: 'sk-ant-test' })('claude-opus-4-7');
  tools = { read_file: ai.tool({ description: 'Read a file of the repository', inputSchema: z.object({ path: z.string() }), execute: async ({ path }) => read(path) }) };
});
after(() => provider.close());

/** One user turn reading `files`, a step each, then an answer; returns its response messages. */
async function readTurn(history, question, files, options = {}) {
  let step = 0;
  provider.reply = () => (step < files.length
    ? [{ type: 'tool_use', id: `toolu_${provider.requests.length}`, name: 'read_file', input: { path: files[step++] } }]
    : [{ type: 'text', text: `Read ${files.join(', ')}.` }]);
  history.push({ role: 'user', content: question });
  const result = await ai.generateText({ model: options.model ?? model, tools, messages: history, stopWhen: ai.stepCountIs(files.length + 1) });
  history.push(...result.responseMessages);
}

/** Two turns of work, the server's on-demand compaction of them, and two more turns sent from the block on. */
async function compactedSession() {
  const history = [];
  await readTurn(history, 'Read the view and the plan.', ['src/view.c', 'src/compact.c']);
  await readTurn(history, 'And the micro-compaction.', ['src/micro.c']);
  const compacted = await ai.generateText({ model, messages: history, providerOptions: { anthropic: { compaction: { type: 'summarize' } } } });
  assert.equal(provider.requests.at(-1).status, 200);
  const block = compacted.responseMessages[0];
  assert.equal(block.content[0].providerOptions.anthropic.type, 'compaction', 'the SDK gives the block back as a text part');
  assert.ok(block.content[0].providerOptions.anthropic.signature);
  const full = [...history, block];
  // The provider reads from the block on, and refuses it anywhere but first: the host goes on from it.
  const live = [block];
  await readTurn(live, 'Now the format detection.', ['src/format.c', 'src/adapt_aisdk.c']);
  await readTurn(live, 'And the estimator.', ['src/estimate.c']);
  return { before: history, block, full, live };
}

test('the estimate counts from the last compaction block on, as the provider reads it', async () => {
  const { before: work, full, live } = await compactedSession();
  assert.equal(estimateTokens([...full, ...live.slice(1)], { format: 'ai-sdk' }), estimateTokens(live, { format: 'ai-sdk' }));
  assert.ok(estimateTokens(work, { format: 'ai-sdk' }) > 5000, 'what came before is large, and not counted');
});

test('micro-compaction edits nothing before the block, and a fold never puts its summary before it', async () => {
  const { full, live } = await compactedSession();
  const messages = [...full, ...live.slice(1)];
  const at = full.length - 1; // the block's message
  const report = microCompact(structuredClone(messages), { keepRecent: 1, format: 'ai-sdk' });
  assert.ok(report.edits.length > 0 && report.edits.every((e) => e.message > at), JSON.stringify(report.edits.map((e) => e.message)));
  // A tail budget that would reach back to the block.
  const plan = planCompaction(messages, { keepTailTokens: estimateTokens(live, { format: 'ai-sdk', profile: 'bareagent' }) + 10, profile: 'bareagent', format: 'ai-sdk' });
  assert.ok(plan.tailStart > at, `the cut (${plan.tailStart}) comes after the block (${at})`);
  assert.ok(plan.middle.every((i) => i >= at) && plan.middle.includes(at), 'what the provider no longer reads is not summarized again');
  assert.ok(plan.prompt.includes('Summary of'), 'the transcript carries the block\'s summary on');
});

test(`midfoldMiddleware (${AI7.label}): a fold past the threshold folds the block in, and the request is accepted`, { skip: AI7.skip }, async () => {
  const { live } = await compactedSession();
  const reports = [];
  // A tail that would hold the block: the fold must move past it, or the summary would go before the block.
  const wrapped = ai.wrapLanguageModel({ model, middleware: midfoldMiddleware({ summarize: digestSummarizer(), threshold: estimateTokens(live, { format: 'ai-sdk' }) - 500,
    keepTail: { tokens: estimateTokens(live, { format: 'ai-sdk' }) }, onReport: (r) => reports.push(r), specificationVersion: AI7.spec }) });
  const from = provider.requests.length;
  await readTurn(live, 'And the transcript.', ['src/serialize.c'], { model: wrapped });
  assert.deepStrictEqual(provider.requests.slice(from).map((q) => q.error ?? q.status), [200, 200]);
  assert.equal(reports[0].compacted, true, reports[0].reason);
  const sent = provider.requests[from].body.messages;
  assert.ok(!sent.some((m) => Array.isArray(m.content) && m.content.some((b) => b.type === 'compaction')), 'the block is folded in, not left behind the summary');
});

test('a chat UI\'s UIMessages: the estimate counts from the part that holds the block', async () => {
  const { before: work, block } = await compactedSession();
  const ui = [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Read the view and the plan.' }] },
    { id: 'a1', role: 'assistant', parts: [{ type: 'text', text: read('src/view.c') }] },
    { id: 'a2', role: 'assistant', parts: [{ type: 'text', text: block.content[0].text, providerMetadata: block.content[0].providerOptions }] },
    { id: 'u2', role: 'user', parts: [{ type: 'text', text: 'What is left?' }] }];
  assert.equal(estimateTokens(ui, { format: 'ai-sdk-ui' }), estimateTokens(ui.slice(2), { format: 'ai-sdk-ui' }));
  const { messages, report } = await compactUIMessages(ui, { compactor: { summarize: digestSummarizer(), threshold: 100_000 }, state: new SessionState() });
  assert.equal(report.tokensBefore, estimateTokens(ui.slice(2), { format: 'ai-sdk-ui', profile: 'safe' }), 'the Compactor (its profile: safe) counts from there too');
  assert.equal(messages.length, ui.length);
  assert.ok(work.length > 0);
});
