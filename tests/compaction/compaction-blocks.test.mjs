// The providers' own compaction keeps its meaning (issue 19, item 1): the provider reads from the last
// Anthropic `compaction` block / OpenAI `compaction` item on, so the estimate counts from there, micro-compaction
// edits nothing before it, a midfold fold never puts its summary before one, and the fold carries the block's
// summary on (a running summary: in the transcript the summarizer reads and in the offline digest). The result is
// sent through the real @anthropic-ai/sdk client to the strict provider, which rejects a misplaced block.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import Anthropic from '@anthropic-ai/sdk';
import { init, estimateTokens, microCompact, serialize, digest, Compactor, digestSummarizer, planCompaction } from '../../js/hosts/node.js';
import { startStrictProvider } from '../helpers/strict-provider.mjs';
import { readWorkloadFile } from '../helpers/corpus.mjs';

const read = readWorkloadFile;
const SUMMARY = 'The user is moving the ledger service to Postgres 16. Done: schema migrated, tests green. Next: the staging drain.';
let provider, client;

before(async () => {
  await init();
  provider = await startStrictProvider();
  client = new Anthropic({ apiKey: 'sk-ant-test', baseURL: provider.url, maxRetries: 0 });
});
after(() => provider.close());

/** A tool turn reading a real file of this repository. */
function readTurn(id, path) {
  return [{ role: 'assistant', content: [{ type: 'text', text: `Reading ${path}.` }, { type: 'tool_use', id, name: 'read_file', input: { path } }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: read(path) }] }];
}

/** Work the provider already compacted, its block, then more work and the pending turn. */
function history() {
  return [
    { role: 'user', content: 'Move the ledger service to Postgres 16.' },
    ...readTurn('toolu_a', 'src/view.c'), ...readTurn('toolu_b', 'src/compact.c'),
    { role: 'assistant', content: [provider.signCompaction(SUMMARY)] },
    { role: 'user', content: 'Now drain staging and check the format detection.' },
    ...readTurn('toolu_c', 'src/format.c'), ...readTurn('toolu_d', 'src/micro.c'),
    { role: 'assistant', content: 'Staging is drained; format.c tells the formats apart by evidence.' },
    { role: 'user', content: 'Good. What is left?' },
  ];
}
const BLOCK = 5; // the index of the message holding the compaction block

test('Anthropic: the estimate counts from the last compaction block on', () => {
  const msgs = history();
  assert.equal(estimateTokens(msgs), estimateTokens(msgs.slice(BLOCK)));
  assert.ok(estimateTokens(msgs.slice(0, BLOCK)) > 1000, 'what came before is large, and not counted');
});

test('OpenAI Responses: the estimate counts from the last compaction item on', () => {
  const items = [
    { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Move the ledger service to Postgres 16.' }] },
    { type: 'function_call', call_id: 'call_a', name: 'read_file', arguments: JSON.stringify({ path: 'src/view.c' }) },
    { type: 'function_call_output', call_id: 'call_a', output: read('src/view.c') },
    { type: 'compaction', id: 'cmp_1', encrypted_content: 'gAAAAB' + 'x'.repeat(400) },
    { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'What is left?' }] },
  ];
  assert.equal(estimateTokens(items), estimateTokens(items.slice(3)));
});

test('micro-compaction edits nothing before the block: the provider no longer reads it', () => {
  const msgs = history();
  const report = microCompact(msgs, { keepRecent: 1 });
  assert.ok(report.edits.length > 0);
  assert.ok(report.edits.every((e) => e.message > BLOCK), JSON.stringify(report.edits.map((e) => e.message)));
  assert.equal(msgs[2].content[0].content, read('src/view.c'));
});

test('a fold never puts its summary before the block: a tail that would hold it moves past it', () => {
  const msgs = history();
  // A tail budget that would reach back to the block.
  const plan = planCompaction(msgs, { keepTailTokens: estimateTokens(msgs.slice(BLOCK)) + 10, profile: 'bareagent' });
  assert.ok(plan.tailStart > BLOCK, `the cut (${plan.tailStart}) comes after the block (${BLOCK})`);
  assert.ok(plan.middle.every((i) => i >= BLOCK), 'what the provider no longer reads is not summarized again');
  assert.ok(plan.middle.includes(BLOCK));
  assert.ok(plan.prompt.includes(SUMMARY), 'the transcript carries the provider\'s summary on');
});

test('the model-written and the offline summaries both keep the block\'s summary (a running summary)', async () => {
  const msgs = history();
  const d = digest(msgs.slice(0, -1));
  assert.ok(d.includes(SUMMARY.slice(0, 60)), d.slice(0, 400));
  const requests = [];
  const report = await new Compactor({ summarize: async (r) => { requests.push(r); return 'Earlier: Postgres 16 migration; now: staging drained.'; }, keepTail: { tokens: 200 } })
    .compact(msgs, { force: true });
  assert.equal(report.compacted, true);
  assert.ok(requests[0].prompt.includes(SUMMARY));
  assert.ok(!msgs.some((m) => Array.isArray(m.content) && m.content.some((b) => b.type === 'compaction')), 'the block is folded in, not left behind the summary');
  await client.beta.messages.create({ model: 'claude-opus-4-7', max_tokens: 512, messages: msgs, betas: ['compact-2026-09-04'] });
});

test('a block inside the pending turn leaves nothing to fold before it', async () => {
  const msgs = [...history().slice(0, BLOCK), { role: 'assistant', content: [provider.signCompaction(SUMMARY)] }, { role: 'user', content: 'What is left?' }];
  const copy = structuredClone(msgs);
  const report = await new Compactor({ summarize: digestSummarizer(), keepTail: { tokens: 0 } }).compact(msgs, { force: true });
  assert.equal(report.compacted, false);
  assert.equal(report.reason, 'nothing-to-summarize');
  assert.deepStrictEqual(msgs, copy);
  assert.ok(serialize(msgs).includes(SUMMARY));
  await client.beta.messages.create({ model: 'claude-opus-4-7', max_tokens: 512, messages: msgs.slice(BLOCK), betas: ['compact-2026-09-04'] });
});
