// The Anthropic SDK's own loop with extended thinking, 38 steps long: while its signed tool loop runs, the
// Compactor may not edit it (the next request would fail), so `anthropicServerContext` puts Anthropic's
// context management on each request instead: the provider clears old tool results (20,000) or compacts
// (60,000) on its side, after checking every signature against what was sent (docs/provider-rules.md). Through
// the real @anthropic-ai/sdk client against the strict provider (tests/helpers/strict-provider.mjs).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import Anthropic from '@anthropic-ai/sdk';
import { init, Compactor, digestSummarizer, anthropicServerContext } from 'midfold';
import { startStrictProvider } from '../helpers/strict-provider.mjs';
import { tokensOf } from '../helpers/context-management.mjs';
import { CORE_NAMES, coreFileSize, readWorkloadFile } from '../helpers/corpus.mjs';

const FILES = CORE_NAMES.filter((f) => f.endsWith('.c') && coreFileSize(f) > 3000 && coreFileSize(f) < 13000)
  .sort().map((f) => `src/${f}`);
const read = readWorkloadFile;
const READS = 37;
const system = 'You are a coding agent in the midfold repository. Read before you answer.';
const tools = [{ name: 'read_file', description: 'Read a file of the repository',
  input_schema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } }];

let provider;
let client;
before(async () => {
  await init();
  provider = await startStrictProvider();
  client = new Anthropic({ baseURL: provider.url, apiKey: 'sk-ant-test', maxRetries: 0 });
});
after(() => provider.close());

/** The documented loop (docs/anthropic-sdk.md) with anthropicServerContext on each request. */
async function loop(threshold, label) {
  let step = 0;
  provider.reply = () => {
    const i = step++;
    return i < READS
      ? [{ type: 'thinking', thinking: `Step ${i}: ${FILES[i % FILES.length]} next.` },
        { type: 'tool_use', id: `toolu_${label}_${i}`, name: 'read_file', input: { path: FILES[i % FILES.length] } }]
      : [{ type: 'thinking', thinking: 'Enough.' }, { type: 'text', text: `I read ${READS} files.` }];
  };
  const compactor = new Compactor({ summarize: digestSummarizer(), threshold, instructions: 'Keep every file path read.' });
  const messages = [{ role: 'user', content: `Read the C core file by file (${label}); where are results paired with calls?` }];
  const first = provider.requests.length;
  const reports = [];
  for (let n = 0; n < 100; n++) {
    const report = await compactor.compact(messages);
    reports.push(report);
    const server = anthropicServerContext(compactor, messages, report);
    const reply = await client.beta.messages.create({ model: 'claude-opus-4-7', max_tokens: 8192, system, tools,
      thinking: { type: 'enabled', budget_tokens: 4096 }, messages: server.messages,
      ...(server.context_management ? { context_management: server.context_management } : {}), betas: server.betas });
    const u = reply.usage;
    // (a count of what the model read after the provider's own edits is not the count of what was sent)
    if (!(reply.context_management && reply.context_management.applied_edits.length))
      compactor.observeUsage({ inputTokens: u.input_tokens + (u.cache_read_input_tokens ?? 0) + (u.cache_creation_input_tokens ?? 0), messages });
    messages.push({ role: 'assistant', content: reply.content });
    if (reply.stop_reason !== 'tool_use') break;
    messages.push({ role: 'user', content: reply.content.filter((b) => b.type === 'tool_use')
      .map((b) => ({ type: 'tool_result', tool_use_id: b.id, content: read(b.input.path) })) });
  }
  return { sent: provider.requests.slice(first), reports, messages };
}

const readOf = (q) => q.read ?? tokensOf(q.body.messages);

test('at 20,000 the provider clears inside the loop: 38 requests accepted, none read more than 1.25x the threshold', async () => {
  const { sent, reports, messages } = await loop(20_000, 'clear');
  assert.equal(sent.length, READS + 1);
  assert.ok(sent.every((q) => q.status === 200));
  assert.equal(messages.at(-1).content.at(-1).text, `I read ${READS} files.`);
  assert.ok(reports.some((r) => r.reason === 'deferred-thinking') && reports.every((r) => !r.compacted && r.micro.cleared === 0));
  assert.ok(sent.some((q) => q.appliedEdits && q.appliedEdits.some((e) => e.type === 'clear_tool_uses_20250919')));
  assert.ok(Math.max(...sent.map(readOf)) <= 25_000);
  assert.ok(tokensOf(sent.at(-1).body.messages) > 3 * 20_000, 'what was sent grew with the loop');
});

test('at 60,000 the provider compacts inside the loop, and the loop goes on from its block: every request accepted, none over 1.25x', async () => {
  const { sent, messages } = await loop(60_000, 'compact');
  assert.equal(sent.length, READS + 1);
  assert.ok(sent.every((q) => q.status === 200), sent.map((q) => q.error && q.error.message).filter(Boolean).join('\n'));
  assert.equal(messages.at(-1).content.at(-1).text, `I read ${READS} files.`);
  const at = sent.findIndex((q) => q.appliedEdits && q.appliedEdits.some((e) => e.type === 'compact_20260112'));
  assert.ok(at > 0, 'the provider compacted');
  assert.equal(sent[at].edits[0].instructions, 'Keep every file path read.');
  assert.ok(sent.slice(at + 1).every((q) => q.body.messages[0].content[0].type === 'compaction'), 'sent from the block on');
  assert.ok(Math.max(...sent.map(readOf)) <= 75_000);
});

test('the strict provider refuses what the API documents it refuses about context management', async () => {
  const base = { model: 'claude-opus-4-7', max_tokens: 1024, messages: [{ role: 'user', content: 'hi' }] };
  const clear = { edits: [{ type: 'clear_tool_uses_20250919' }] };
  // (the beta header goes with any edit; compact_20260112 needs its own beside it, and a trigger of 50,000 or more)
  await assert.rejects(client.messages.create({ ...base, context_management: clear }), (e) => e.status === 400 && /context-management-2025-06-27/.test(e.message));
  await client.beta.messages.create({ ...base, context_management: clear, betas: ['context-management-2025-06-27'] });
  const compact = (value) => ({ edits: [{ type: 'compact_20260112', trigger: { type: 'input_tokens', value } }] });
  await assert.rejects(client.beta.messages.create({ ...base, context_management: compact(60_000), betas: ['context-management-2025-06-27'] }),
    (e) => e.status === 400 && /compact-2026-01-12/.test(e.message));
  await assert.rejects(client.beta.messages.create({ ...base, context_management: compact(49_999), betas: ['context-management-2025-06-27', 'compact-2026-01-12'] }),
    (e) => e.status === 400 && /at least 50000/.test(e.message));
  await client.beta.messages.create({ ...base, context_management: compact(50_000), betas: ['context-management-2025-06-27', 'compact-2026-01-12'] });
  await assert.rejects(client.beta.messages.create({ ...base, context_management: clear, compaction: { type: 'summarize' },
    betas: ['context-management-2025-06-27', 'compact-2026-09-04'] }), (e) => e.status === 400 && /cannot be combined/.test(e.message));
  // An unsigned block is accepted only with the content a threshold compaction of this server wrote.
  await assert.rejects(client.beta.messages.create({ ...base, messages: [{ role: 'assistant', content: [{ type: 'compaction', content: 'I summarized nothing.' }] }, ...base.messages],
    betas: ['compact-2026-01-12'] }), (e) => e.status === 400 && e.errorCode === 'compaction_signature_invalid');
});

test('anthropicServerContext: nothing to ask below the threshold; the messages from the last block on, the caller\'s list untouched', () => {
  const compactor = new Compactor({ summarize: digestSummarizer(), threshold: 20_000 });
  const messages = [{ role: 'user', content: 'hi' }, { role: 'assistant', content: [{ type: 'text', text: 'hello' }] }];
  assert.deepStrictEqual(anthropicServerContext(compactor, messages, { reason: 'below-threshold' }), { messages, betas: [] });
  const asked = anthropicServerContext(compactor, messages, { reason: 'deferred-thinking' });
  assert.deepStrictEqual(asked.betas, ['context-management-2025-06-27']);
  assert.deepStrictEqual(asked.context_management.edits[0].keep, { type: 'tool_uses', value: 3 });
  const block = { type: 'compaction', content: 'Earlier: the user asked about pairing.' };
  const later = [...messages, { role: 'assistant', content: [{ type: 'text', text: 'more' }, block, { type: 'text', text: 'and on' }] }, { role: 'user', content: 'go on' }];
  const copy = structuredClone(later);
  const cut = anthropicServerContext(new Compactor({ summarize: digestSummarizer(), threshold: 60_000 }), later, { reason: 'below-threshold' });
  assert.deepStrictEqual(cut.messages, [{ role: 'assistant', content: [block, { type: 'text', text: 'and on' }] }, later[3]]);
  assert.strictEqual(cut.messages[1], later[3]);
  assert.deepStrictEqual(later, copy);
  // (a block that leads the conversation at a compacting threshold keeps compaction on, with its beta header)
  assert.deepStrictEqual(cut.betas, ['context-management-2025-06-27', 'compact-2026-01-12']);
  assert.equal(cut.context_management.edits[0].type, 'compact_20260112');
});
