// Signed thinking and the providers' own compaction, through the real @anthropic-ai/sdk client against a mock
// Anthropic server that rejects what the documentation says the API rejects (tests/helpers/strict-provider.mjs).
// The session is a Claude Code-style run built by that client: interleaved thinking in every assistant message,
// tool loops over real files of this repository, a second request whose tool loop is in flight.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import Anthropic from '@anthropic-ai/sdk';
import { init, Compactor, digestSummarizer, microCompact, anthropicCompaction, validate } from '../../js/hosts/node.js';
import { startStrictProvider } from '../helpers/strict-provider.mjs';
import { readWorkloadFile } from '../helpers/corpus.mjs';

const MODEL = 'claude-opus-4-7';
const SYSTEM = 'You are a coding agent working in the midfold repository. Read before you edit.';
const THINKING = { type: 'enabled', budget_tokens: 2048 };
const BETAS = ['compact-2026-09-04'];
const FILES = ['src/view.c', 'src/micro.c', 'src/compact.c', 'src/format.c', 'js/compaction/compactor.js', 'js/core/apply.js', 'Makefile', 'src/idset.c'];
const read = readWorkloadFile;

let provider;
let client;

/** Sends `messages` as the agent would; resolves to the SDK's response (throws the SDK's error on a 400). */
function send(messages, extra = {}) {
  return client.beta.messages.create({ model: MODEL, max_tokens: 4096, system: SYSTEM, thinking: THINKING, betas: BETAS, messages, ...extra });
}

/**
 * Runs one user request through a tool loop of `reads` file reads; stops with the loop in flight when asked:
 * after the last read's result (`stopInFlight`), or on the assistant message whose call waits for it (`stopAtCall`).
 */
async function runTurn(messages, request, reads, { stopInFlight = false, stopAtCall = false } = {}) {
  messages.push({ role: 'user', content: request });
  for (let i = 0; i <= reads.length; i++) {
    const path = reads[i];
    provider.reply = () => path
      ? [{ type: 'thinking', thinking: `I need ${path} before I can answer "${request.slice(0, 40)}".` },
        { type: 'tool_use', id: `toolu_${messages.length}_${i}`, name: 'read_file', input: { path } }]
      : [{ type: 'thinking', thinking: 'I have read enough; time to answer.' }, { type: 'text', text: `Done: ${request}. I read ${reads.join(', ')}.` }];
    const response = await send(messages);
    messages.push({ role: 'assistant', content: response.content });
    if (!path || (stopAtCall && i === reads.length - 1)) return;
    const result = { role: 'user', content: [{ type: 'tool_result', tool_use_id: response.content[1].id, content: read(path) }] };
    messages.push(result);
    if (stopInFlight && i === reads.length - 1) return;
  }
}

/**
 * A session: two finished requests, then a third whose tool loop is in flight (with `atCall`, on the assistant
 * message whose call is not answered yet).
 */
async function session({ inFlight = true, atCall = false } = {}) {
  const messages = [];
  await runTurn(messages, 'Explain how a tool result is linked to its call in the view.', FILES.slice(0, 4));
  await runTurn(messages, 'Why does micro-compaction keep the pending turn whole?', FILES.slice(4, 7));
  await runTurn(messages, 'Now check how the id map sizes its table.', FILES.slice(7), { stopInFlight: inFlight, stopAtCall: atCall });
  return messages;
}

before(async () => {
  await init();
  provider = await startStrictProvider();
  client = new Anthropic({ apiKey: 'sk-ant-test', baseURL: provider.url, maxRetries: 0 });
});
after(() => provider.close());

describe('the strict provider rejects what Anthropic documents it rejects', () => {
  test('a modified thinking block in the latest assistant message', async () => {
    const messages = await session();
    const copy = structuredClone(messages);
    const last = copy.findLastIndex((m) => m.role === 'assistant');
    copy[last].content[0] = { ...copy[last].content[0], thinking: copy[last].content[0].thinking + ' (edited)' };
    await assert.rejects(send(copy), (e) => e.status === 400 && /unmodified/.test(e.message));
  });

  test('a prefix-bound signature after an edited prefix (or dropped with block_binding drop_block)', async () => {
    const messages = await session();
    const copy = structuredClone(messages);
    copy[2].content[0].content = '[truncated: read_file result, 99 chars]';
    await assert.rejects(send(copy), (e) => e.status === 400 && /prefix_binding_mismatch/.test(e.message));
    const dropped = await send(copy, { thinking: { ...THINKING, block_binding: { prefix_mismatch_behavior: 'drop_block' } } });
    assert.ok(dropped.input_transformations.length > 0);
    assert.ok(dropped.input_transformations.every((t) => t.reason === 'prefix_binding_mismatch'));
  });

  test('an in-flight assistant message that does not start with thinking', async () => {
    const copy = structuredClone(await session());
    const last = copy.findLastIndex((m) => m.role === 'assistant');
    copy[last].content = copy[last].content.filter((b) => b.type !== 'thinking');
    await assert.rejects(send(copy), (e) => e.status === 400 && /must start with a `thinking`/.test(e.message));
  });

  test('a tool_use without its tool_result, and a tool_result without its tool_use', async () => {
    const copy = structuredClone(await session());
    const orphanCall = copy.slice(0, 2);
    orphanCall.push({ role: 'user', content: 'go on' });
    await assert.rejects(send(orphanCall), (e) => e.status === 400 && /without `tool_result`/.test(e.message));
    const orphanResult = [{ role: 'user', content: 'hi' }, { role: 'assistant', content: 'hello' }, copy[2]];
    await assert.rejects(send(orphanResult), (e) => e.status === 400 && /unexpected `tool_use_id`/.test(e.message));
  });

  test('a misplaced, an edited and a second compaction block', async () => {
    const block = provider.signCompaction('The user asked about the view; the agent read four files.');
    const turn = [{ role: 'user', content: 'and then?' }];
    await send([{ role: 'assistant', content: [block] }, ...turn]);
    await assert.rejects(send([{ role: 'user', content: 'first' }, { role: 'assistant', content: [block] }, ...turn]),
      (e) => e.status === 400 && e.errorCode === 'compaction_block_misplaced' && e.constructor.name === 'CompactionBlockMisplacedError');
    await assert.rejects(send([{ role: 'assistant', content: [{ ...block, content: block.content + '!' }] }, ...turn]),
      (e) => e.errorCode === 'compaction_content_mismatch');
    await assert.rejects(send([{ role: 'assistant', content: [block, provider.signCompaction('another')] }, ...turn]),
      (e) => e.errorCode === 'compaction_block_ambiguous');
  });
});

describe('the thinking policy', () => {
  test("prefix-bound (default): with a signed tool loop in flight, micro-compaction waits and says so; the next request is accepted", async () => {
    const messages = await session();
    const copy = structuredClone(messages);
    const report = microCompact(messages, { keepRecent: 1 });
    assert.equal(report.cleared, 0);
    assert.equal(report.deferred, 'in-flight-thinking');
    assert.deepStrictEqual(messages, copy);
    await send(messages);
  });

  test('unbound: the same clearing lands before the in-flight thinking, and the provider that binds rejects it', async () => {
    const messages = await session();
    const report = microCompact(messages, { keepRecent: 1, thinking: 'unbound' });
    assert.ok(report.cleared > 0);
    await assert.rejects(send(messages), (e) => e.status === 400 && /prefix_binding_mismatch/.test(e.message));
  });

  test('the Compactor defers a forced compaction while the loop is in flight, and the report says so', async () => {
    const messages = await session();
    const copy = structuredClone(messages);
    const report = await new Compactor({ summarize: digestSummarizer() }).compact(messages, { force: true });
    assert.equal(report.compacted, false);
    assert.equal(report.reason, 'deferred-thinking');
    assert.equal(report.deferred, 'in-flight-thinking');
    assert.deepStrictEqual(messages, copy);
  });

  test('a loop whose last call is not answered yet is in flight too: a forced fold with a small tail waits, its thinking stays byte for byte, and the request after the result is accepted', async () => {
    const messages = await session({ atCall: true });
    const last = messages.at(-1);
    assert.deepStrictEqual(last.content.map((b) => b.type), ['thinking', 'tool_use']);
    const bytes = JSON.stringify(last);
    const copy = structuredClone(messages);
    const report = await new Compactor({ summarize: digestSummarizer(), keepTail: { tokens: 50 } }).compact(messages, { force: true });
    assert.equal(report.compacted, false);
    assert.equal(report.reason, 'deferred-thinking');
    assert.equal(report.deferred, 'in-flight-thinking');
    assert.deepStrictEqual(messages, copy);
    assert.equal(JSON.stringify(messages.at(-1)), bytes);
    const micro = microCompact(messages, { keepRecent: 0 });
    assert.equal(micro.cleared, 0);
    assert.equal(micro.deferred, 'in-flight-thinking');
    // The host runs the tool and sends the result: Anthropic checks the thinking against the prefix it was made on.
    const call = last.content[1];
    messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: read(call.input.path) }] });
    provider.reply = () => [{ type: 'thinking', thinking: 'The table is sized to twice the ids.' }, { type: 'text', text: 'It doubles the capacity.' }];
    assert.equal((await send(messages)).stop_reason, 'end_turn');
  });

  test('a call left unanswered at the end, a forced fold keeping 50 tokens: nothing changes', async () => {
    const messages = [
      { role: 'user', content: 'Run the tests and fix what fails. The date helper broke after last week\'s timezone refactor; keep its public API as it is and add a regression test for UTC midnight.' },
      { role: 'assistant', content: [{ type: 'thinking', thinking: 'Start with the suite.', signature: 'EqQBCkgIARABGAIiQL2v' }, { type: 'tool_use', id: 'toolu_01', name: 'bash', input: { command: 'npm test' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: 'FAIL test/date.test.js\n  ✕ formats UTC midnight (12 ms)\nTests: 1 failed, 14 passed, 15 total' }] },
      { role: 'assistant', content: [{ type: 'thinking', thinking: 'The date helper is off by the offset; read it.', signature: 'EqQBCkgIARABGAIiQM9x' }, { type: 'tool_use', id: 'toolu_02', name: 'read_file', input: { path: 'src/date.js' } }] },
    ];
    const copy = structuredClone(messages);
    const report = await new Compactor({ summarize: async () => 'The suite fails on UTC midnight.', keepTail: { tokens: 50 } }).compact(messages, { force: true });
    assert.equal(report.reason, 'deferred-thinking');
    assert.deepStrictEqual(messages, copy);
    // 'unbound' (a model that checks only the last message): the fold goes ahead and keeps that message whole.
    const unbound = await new Compactor({ summarize: async () => 'The suite fails on UTC midnight.', keepTail: { tokens: 50 }, thinking: 'unbound' })
      .compact(messages, { force: true });
    assert.equal(unbound.compacted, true);
    assert.deepStrictEqual(messages.at(-1), copy.at(-1));
  });

  test('at the turn boundary a fold drops the kept turns\' thinking, and the provider accepts the next request', async () => {
    const messages = await session({ inFlight: false });
    messages.push({ role: 'user', content: 'Summarize what you found in one paragraph.' });
    const pending = structuredClone(messages.at(-1));
    const report = await new Compactor({ summarize: digestSummarizer(), keepTail: { tokens: 3000 } }).compact(messages, { force: true });
    assert.equal(report.compacted, true);
    assert.ok(report.thinkingRemoved > 0);
    assert.ok(!messages.some((m) => Array.isArray(m.content) && m.content.some((b) => b.type === 'thinking')));
    assert.deepStrictEqual(messages.at(-1), pending);
    assert.deepStrictEqual(validate(messages).problems, []);
    const response = await send(messages);
    assert.equal(response.stop_reason, 'end_turn');
  });

  test('at the turn boundary a clearing drops the thinking of the turns after its first edit; the provider accepts the next request', async () => {
    const messages = await session({ inFlight: false });
    messages.push({ role: 'user', content: 'Summarize what you found in one paragraph.' });
    const unbound = structuredClone(messages);
    const report = microCompact(messages, { keepRecent: 2 });
    assert.ok(report.cleared > 0);
    const first = Math.min(...report.edits.map((e) => e.message));
    assert.ok(report.thinkingRemoved > 0);
    const thinkingAt = (list) => list.flatMap((m, i) => (m.role === 'assistant' && m.content.some((b) => b.type === 'thinking') ? [i] : []));
    assert.ok(thinkingAt(messages).length > 0 && thinkingAt(messages).every((i) => i < first), 'only the turns before the first edit keep theirs');
    assert.equal(messages.length, unbound.length, 'micro-compaction keeps the array\'s length');
    assert.equal((await send(messages)).stop_reason, 'end_turn');
    // 'unbound' keeps them, and the provider that binds rejects the request.
    microCompact(unbound, { keepRecent: 2, thinking: 'unbound' });
    await assert.rejects(send(unbound), (e) => e.status === 400 && /prefix_binding_mismatch/.test(e.message));
  });

  test("the Compactor's batched clearing does the same, and its report counts what went", async () => {
    const messages = await session({ inFlight: false });
    messages.push({ role: 'user', content: 'Summarize what you found in one paragraph.' });
    const report = await new Compactor({ summarize: digestSummarizer(), threshold: 1_000_000, microTrigger: 1000, clearAtLeast: 1000 }).compact(messages);
    assert.equal(report.reason, 'below-threshold');
    assert.ok(report.micro.cleared > 0);
    assert.ok(report.thinkingRemoved > 0);
    assert.equal((await send(messages)).stop_reason, 'end_turn');
  });

  test("without dropping them ('unbound'), the same fold leaves thinking the binding provider rejects", async () => {
    const messages = await session({ inFlight: false });
    messages.push({ role: 'user', content: 'Summarize what you found in one paragraph.' });
    const report = await new Compactor({ summarize: digestSummarizer(), keepTail: { tokens: 3000 }, thinking: 'unbound' }).compact(messages, { force: true });
    assert.equal(report.compacted, true);
    assert.ok(messages.some((m) => Array.isArray(m.content) && m.content.some((b) => b.type === 'thinking')));
    await assert.rejects(send(messages), (e) => e.status === 400 && /prefix_binding_mismatch/.test(e.message));
  });

  test('a bad thinking option is a MidfoldError', () => {
    assert.throws(() => microCompact([], { thinking: 'sometimes' }), (e) => e.code === 'invalid-option');
    assert.throws(() => new Compactor({ summarize: digestSummarizer(), thinking: true }), (e) => e.code === 'invalid-option');
  });
});

describe('anthropicCompaction: Anthropic writes the signed summary, midfold picks the cut', () => {
  const summarizer = () => anthropicCompaction({ apiKey: 'sk-ant-test', baseURL: provider.url, model: MODEL });

  test('the signed block goes first, unmodified; the tail stays verbatim; the next request is accepted', async () => {
    const messages = await session({ inFlight: false });
    messages.push({ role: 'user', content: 'Next: write the fix.' });
    const tailCopy = structuredClone(messages.slice(-3));
    const sent = provider.requests.length;
    const report = await new Compactor({ summarize: summarizer(), keepTail: { tokens: 3000 } }).compact(messages, { force: true });
    assert.equal(report.compacted, true, report.reason);
    const request = provider.requests[sent];
    assert.deepStrictEqual(request.body.compaction, { type: 'summarize' });
    assert.match(request.headers['anthropic-beta'], /compact-2026-09-04/);
    assert.ok(request.body.messages.length <= report.summarizedMessages);
    assert.ok(!request.body.messages.some((m) => Array.isArray(m.content) && m.content.some((b) => b.type === 'thinking')));
    const first = messages[0];
    assert.equal(first.role, 'assistant');
    assert.equal(first.content[0].type, 'compaction');
    assert.equal(report.summary, first.content[0].content);
    // (a tail that starts with the assistant's message follows the block in its turn: one assistant turn, as the
    // API returns a compaction with what comes after it, not two assistant messages in a row)
    assert.deepStrictEqual(validate(messages).problems, []);
    assert.deepStrictEqual(messages.at(-1), tailCopy.at(-1));
    const response = await send(messages);
    assert.equal(response.stop_reason, 'end_turn');
  });

  test('a second compaction folds the first one in: the provider adopts the earlier summary', async () => {
    const messages = await session({ inFlight: false });
    messages.push({ role: 'user', content: 'Next: write the fix.' });
    const compactor = new Compactor({ summarize: summarizer(), keepTail: { tokens: 3000 } });
    const first = await compactor.compact(messages, { force: true });
    await runTurn(messages, 'Check the Makefile as well.', ['Makefile', 'src/view.c']);
    messages.push({ role: 'user', content: 'And now the tests.' });
    const second = await compactor.compact(messages, { force: true });
    assert.equal(second.compacted, true, second.reason);
    assert.match(second.summary, /earlier summary: Summary of/);
    assert.ok(second.summary.includes(first.summary.slice(0, 40)));
    assert.equal(messages.filter((m) => Array.isArray(m.content) && m.content.some((b) => b.type === 'compaction')).length, 1);
    await send(messages);
  });

  for (const [what, reply] of [
    ['a compaction_* error', { status: 400, body: { type: 'error', error: { type: 'invalid_request_error', message: 'nothing', details: { error_code: 'compaction_nothing_to_summarize' } } } }],
    ['an overload (529)', { status: 529, body: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } } }],
    ['an empty response', { status: 200, body: { type: 'message', role: 'assistant', content: [], stop_reason: 'compaction' } }],
    ['another stop reason', { status: 200, body: { type: 'message', role: 'assistant', content: [{ type: 'text', text: 'hi' }], stop_reason: 'end_turn' } }],
  ]) {
    test(`${what} leaves the conversation exactly as it was; fallback: 'digest' still folds it`, async () => {
      const messages = await session({ inFlight: false });
      messages.push({ role: 'user', content: 'Next: write the fix.' });
      const copy = structuredClone(messages);
      provider.override = (record) => (record.body.compaction ? reply : null);
      const failing = summarizer();
      const warnings = [];
      const report = await new Compactor({ summarize: failing, keepTail: { tokens: 3000 }, onWarn: (m) => warnings.push(m) }).compact(messages, { force: true });
      assert.equal(report.compacted, false);
      assert.deepStrictEqual(messages, copy);
      assert.equal(warnings.length, 1);
      const withDigest = await new Compactor({ summarize: failing, keepTail: { tokens: 3000 }, fallback: 'digest' }).compact(messages, { force: true });
      provider.override = null;
      assert.equal(withDigest.reason, 'compacted-with-digest');
      await send(messages);
    });
  }
});

describe('anthropicCompaction with preservedThinking: the kept turns keep their thinking, and a fold may land mid-loop', () => {
  // "Compaction and preserved thinking" (docs/provider-rules.md): when the API wrote the summary, the prefix check
  // accepts the replacement, so thinking in the turns kept after the block stays valid while they follow the
  // summarized messages verbatim and system and tools stay the same.
  const preserved = (extra = {}) => anthropicCompaction({ apiKey: 'sk-ant-test', baseURL: provider.url, model: MODEL, system: SYSTEM, preservedThinking: true, ...extra });
  const hasThinking = (m) => Array.isArray(m.content) && m.content.some((b) => b.type === 'thinking');

  test('the strict provider: kept thinking verifies after its own block, not after a client summary or another system prompt', async () => {
    const messages = await session({ inFlight: false });
    const cut = messages.findIndex((m) => m.content === 'Now check how the id map sizes its table.');
    const compacted = await send(messages.slice(0, cut), { compaction: { type: 'summarize' } });
    assert.equal(compacted.stop_reason, 'compaction');
    const kept = messages.slice(cut);
    assert.ok(kept.some(hasThinking));
    await send([{ role: 'assistant', content: compacted.content }, ...kept]);
    await assert.rejects(send([{ role: 'user', content: `Summary: ${compacted.content[0].content}` }, { role: 'assistant', content: 'Understood.' }, ...kept]),
      /prefix_binding_mismatch/);
    await assert.rejects(send([{ role: 'assistant', content: compacted.content }, ...kept], { system: `${SYSTEM} Be brief.` }), /prefix_binding_mismatch/);
  });

  test('at the turn boundary the fold keeps the kept turns as they were, thinking included, and the next request is accepted', async () => {
    const messages = await session({ inFlight: false });
    messages.push({ role: 'user', content: 'Next: write the fix.' });
    const before = structuredClone(messages);
    const report = await new Compactor({ summarize: preserved(), keepTail: { tokens: 3000 } }).compact(messages, { force: true });
    assert.equal(report.compacted, true, report.reason);
    assert.equal(report.thinkingRemoved, undefined);
    assert.equal(messages[0].content[0].type, 'compaction');
    const tail = messages.slice(1);
    assert.deepStrictEqual(tail, before.slice(before.length - tail.length));
    assert.ok(tail.some(hasThinking), 'the kept turns still carry their signed thinking');
    const request = provider.requests.findLast((r) => r.body.compaction);
    assert.ok(request.body.messages.some(hasThinking), 'the folded messages went as they were');
    assert.equal(request.body.system, SYSTEM);
    await send(messages);
  });

  test('with a signed tool loop in flight the fold goes ahead (no clearing), the loop goes on and finishes', async () => {
    const messages = await session({ inFlight: true });
    const before = structuredClone(messages);
    const report = await new Compactor({ summarize: preserved(), keepTail: { tokens: 1500 } }).compact(messages, { force: true });
    assert.equal(report.compacted, true, report.reason);
    assert.equal(report.deferred, undefined);
    assert.equal(report.micro.cleared, 0);
    assert.deepStrictEqual(messages.slice(-2), before.slice(-2), 'the in-flight assistant message and its results are as they were');
    provider.reply = () => [{ type: 'thinking', thinking: 'The table doubles when it is half full.' }, { type: 'text', text: 'It doubles at half load.' }];
    const response = await send(messages);
    assert.equal(response.stop_reason, 'end_turn');
    messages.push({ role: 'assistant', content: response.content }, { role: 'user', content: 'Thanks. Now the tests.' });
    await send(messages);
  });

  test('a fold with the tool loop in flight writes one assistant turn, the block then the loop\'s thinking and call, as the API returns a compaction', async () => {
    // The tail is the loop in flight alone: [assistant: thinking, tool_use], [user: tool_result]. Written as two
    // assistant messages ([compaction], then [thinking, tool_use]) the request asks the API to combine them and
    // validate warns; the API's own answer is one message whose content starts with the block.
    const messages = await session({ inFlight: true });
    const [loop, results] = structuredClone(messages.slice(-2));
    assert.ok(loop.role === 'assistant' && loop.content[0].type === 'thinking' && loop.content.some((b) => b.type === 'tool_use'));
    const report = await new Compactor({ summarize: preserved(), keepTail: { tokens: 100 } }).compact(messages, { force: true });
    assert.equal(report.compacted, true, report.reason);
    assert.equal(messages.length, 2, messages.map((m) => `${m.role}: ${m.content.map((b) => b.type)}`).join(' | '));
    assert.equal(messages[0].role, 'assistant');
    assert.equal(messages[0].content[0].type, 'compaction');
    assert.deepStrictEqual(messages[0].content.slice(1), loop.content, 'the loop\'s thinking and calls follow the block, byte for byte');
    assert.deepStrictEqual(messages[1], results);
    assert.deepStrictEqual(validate(messages).problems, []);
    provider.reply = () => [{ type: 'thinking', thinking: 'The table doubles when it is half full.' }, { type: 'text', text: 'It doubles at half load.' }];
    assert.equal((await send(messages)).stop_reason, 'end_turn');
  });

  test('the strict provider combines consecutive messages of one role as the API does, and refuses what the combined turn breaks', async () => {
    const messages = await session({ inFlight: true });
    const [loop, results] = messages.slice(-2);
    // A text message between the loop's call and its results: the combined user turn starts with text.
    await assert.rejects(send([...messages.slice(0, -1), { role: 'user', content: 'Take your time.' }, results]),
      (e) => e.status === 400 && /tool_result/.test(e.message) && /combined into one turn/.test(e.message));
    // The loop's message split in two: the combined turn is the one the model wrote, and it is accepted.
    const split = [...messages.slice(0, -2), { role: 'assistant', content: loop.content.slice(0, 1) }, { role: 'assistant', content: loop.content.slice(1) }, results];
    assert.deepStrictEqual(validate(split).problems.map((p) => [p.code, p.severity]), [['consecutive-role', 'warning']]);
    provider.reply = () => [{ type: 'text', text: 'Done.' }];
    assert.equal((await send(split)).stop_reason, 'end_turn');
  });

  test('without preservedThinking the same in-flight call waits, as before', async () => {
    const messages = await session({ inFlight: true });
    const report = await new Compactor({ summarize: preserved({ preservedThinking: false }), keepTail: { tokens: 1500 } }).compact(messages, { force: true });
    assert.equal(report.reason, 'deferred-thinking');
  });

  test('a failure mid-loop leaves the conversation as it was: the digest fallback waits for the turn boundary', async () => {
    const messages = await session({ inFlight: true });
    const copy = structuredClone(messages);
    provider.override = (record) => (record.body.compaction ? { status: 529, body: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } } } : null);
    try {
      const report = await new Compactor({ summarize: preserved(), keepTail: { tokens: 1500 }, fallback: 'digest', onWarn: () => {} }).compact(messages, { force: true });
      assert.equal(report.compacted, false);
      assert.equal(report.reason, 'summarizer-error');
    } finally {
      provider.override = null;
    }
    assert.deepStrictEqual(messages, copy);
    await send(messages);
  });

  test('preservedThinking must be a boolean', () => {
    assert.throws(() => anthropicCompaction({ apiKey: 'k', model: MODEL, preservedThinking: 'yes' }), /preservedThinking" must be a boolean, got string/);
    assert.equal(preserved().preservesThinking, true);
    assert.equal(anthropicCompaction({ apiKey: 'k', model: MODEL }).preservesThinking, false);
  });
});
