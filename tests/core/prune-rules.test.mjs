// dropToolCalls and reasoning: micro-compaction's pruneMessages-style rules. On AI SDK messages they do what
// the AI SDK's own pruneMessages does; in every other format they keep each call with its results (parallel
// calls: one goes, its sibling stays), never touch the pending turn, keep what the provider needs (a Responses
// call right after its reasoning item), and wait while a signed tool loop is in flight. Each result is sent
// through the real SDK client to the strict mock of its provider.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { pruneMessages } from 'ai';
import { init, microCompact, validate, Compactor, digestSummarizer } from '../../js/hosts/node.js';
import { startStrictProvider } from '../helpers/strict-provider.mjs';
import { startMockResponses } from '../helpers/mock-responses.mjs';
import { startMockLLM } from '../helpers/mock-llm.mjs';

const C_FILE = readFileSync(new URL('../../src/micro.c', import.meta.url), 'utf8');
const GREP = 'src/micro.c:57:static size_t pending_from(const mf_view *view)\nsrc/micro.c:171:    size_t limit = protected_from(&view, options->keep_recent);\n' +
  'docs/设计.md:3:待处理的轮次永远不会被编辑\n';
const RULES = { dropToolCalls: { tools: ['grep'], beforeLast: 4 }, reasoning: 'before-last-message' };

let anthropic, responses, chat;
before(async () => {
  await init();
  anthropic = await startStrictProvider();
  responses = await startMockResponses();
  chat = await startMockLLM({ strictChat: true, respond: { text: 'ok' } });
});
after(async () => { await anthropic.close(); await responses.close(); await chat.close(); });

function aiSdkConversation() {
  return [
    { role: 'user', content: [{ type: 'text', text: 'Where is the pending turn found?' }] },
    { role: 'assistant', content: [{ type: 'reasoning', text: 'Search first, then read.' }, { type: 'text', text: 'Searching.' },
      { type: 'tool-call', toolCallId: 'g1', toolName: 'grep', input: { pattern: 'pending_from' } },
      { type: 'tool-call', toolCallId: 'r1', toolName: 'read_file', input: { path: 'src/micro.c' } }] },
    { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'g1', toolName: 'grep', output: { type: 'text', value: GREP } },
      { type: 'tool-result', toolCallId: 'r1', toolName: 'read_file', output: { type: 'text', value: C_FILE } }] },
    { role: 'assistant', content: [{ type: 'reasoning', text: '找到了。' }, { type: 'text', text: 'In pending_from, src/micro.c.' }] },
    { role: 'user', content: [{ type: 'text', text: '那 protected_from 呢？' }] },
    { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'g2', toolName: 'grep', input: { pattern: 'protected_from' } }] },
    { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'g2', toolName: 'grep', output: { type: 'text', value: GREP } }] },
    { role: 'assistant', content: [{ type: 'text', text: 'It counts the kept turns.' }] },
    { role: 'user', content: [{ type: 'text', text: 'Thanks. Summarize both.' }] },
  ];
}

test("AI SDK: the rules leave what the AI SDK's pruneMessages leaves", () => {
  const messages = aiSdkConversation();
  const expected = pruneMessages({ messages: structuredClone(messages), reasoning: 'before-last-message',
    toolCalls: [{ type: 'before-last-4-messages', tools: ['grep'] }], emptyMessages: 'remove' });
  const report = microCompact(messages, { keepRecent: 5, ...RULES });
  assert.deepEqual(messages, expected);
  assert.deepEqual(report.pruned, { calls: 1, messages: 0, reasoning: 2 });
  assert.equal(report.cleared, 0);
  assert.ok(validate(messages).ok);
});

test('the pending turn is never pruned: a grep call of a tool loop in flight stays, with its reasoning', () => {
  const messages = aiSdkConversation().slice(0, 7); // ends with the g2 result: the loop is in flight
  const pending = structuredClone(messages.slice(5));
  microCompact(messages, { keepRecent: 5, dropToolCalls: { tools: ['grep'], beforeLast: 0 }, reasoning: 'before-last-message' });
  assert.deepEqual(messages.slice(-2), pending);
  assert.equal(messages[1].content.some((p) => p.type === 'tool-call' && p.toolCallId === 'g1'), false, 'the older grep goes');
});

/** Anthropic: parallel grep + read_file, then a turn with thinking, then a new question. */
function anthropicConversation(signed) {
  const think = (text) => signed ? [anthropic.signThinking({}, [], text)] : [];
  return [
    { role: 'user', content: 'Where is the pending turn found?' },
    { role: 'assistant', content: [{ type: 'text', text: 'Searching.' },
      { type: 'tool_use', id: 'toolu_g1', name: 'grep', input: { pattern: 'pending_from' } },
      { type: 'tool_use', id: 'toolu_r1', name: 'read_file', input: { path: 'src/micro.c' } }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_g1', content: GREP }, { type: 'tool_result', tool_use_id: 'toolu_r1', content: C_FILE }] },
    { role: 'assistant', content: [...think('找到了。'), { type: 'text', text: 'In pending_from.' }] },
    { role: 'user', content: '那 protected_from 呢？' },
  ];
}

test('Anthropic: a call goes with its result, its parallel sibling stays; the strict provider accepts the request', async () => {
  const messages = anthropicConversation(false);
  const report = microCompact(messages, { keepRecent: 5, dropToolCalls: { tools: ['grep'], beforeLast: 1 } });
  assert.deepEqual(report.pruned, { calls: 1, messages: 0, reasoning: 0 });
  assert.deepEqual(messages[1].content.map((b) => b.type === 'tool_use' ? b.id : b.type), ['text', 'toolu_r1']);
  assert.deepEqual(messages[2].content.map((b) => b.tool_use_id), ['toolu_r1']);
  const client = new Anthropic({ baseURL: anthropic.url, apiKey: 'sk-ant-test', maxRetries: 0 });
  anthropic.reply = () => [{ type: 'text', text: 'It counts kept turns.' }];
  assert.equal((await client.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 256, messages })).type, 'message');
});

test('Anthropic, prefix-bound: at a turn boundary the later signed thinking goes with the pruned prefix, and the request verifies', async () => {
  const messages = anthropicConversation(false);
  // sign the later turn's thinking against the conversation as it was sent
  messages[3] = { role: 'assistant', content: [anthropic.signThinking({ model: 'claude-opus-4-7', system: undefined }, messages.slice(0, 3), '找到了。'), { type: 'text', text: 'In pending_from.' }] };
  const client = new Anthropic({ baseURL: anthropic.url, apiKey: 'sk-ant-test', maxRetries: 0 });
  const send = (list) => client.messages.create({ model: 'claude-opus-4-7', max_tokens: 2048, thinking: { type: 'enabled', budget_tokens: 1024 }, messages: list });
  anthropic.reply = () => [{ type: 'thinking', thinking: 'ok' }, { type: 'text', text: 'It counts kept turns.' }];
  assert.equal((await send(messages)).type, 'message', 'the thinking verifies as it was sent');
  const thinking = messages[3].content[0];
  const report = microCompact(messages, { keepRecent: 5, dropToolCalls: { tools: ['grep'], beforeLast: 1 } });
  assert.equal(report.pruned.calls, 1);
  assert.equal(report.thinkingRemoved, 1, 'the thinking after the change no longer verifies: it goes');
  assert.deepEqual(messages[3].content.map((b) => b.type), ['text']);
  assert.equal((await send(messages)).type, 'message');
  // (kept, it would be refused: its prefix changed)
  const kept = messages.map((m, i) => (i === 3 ? { ...m, content: [thinking, ...m.content] } : m));
  await assert.rejects(send(kept), /prefix_binding_mismatch/);
});

test('Anthropic, prefix-bound: while a signed tool loop is in flight nothing is pruned (deferred)', () => {
  const messages = [
    ...anthropicConversation(false).slice(0, 3),
    { role: 'assistant', content: [{ type: 'text', text: 'Found it.' }] },
    { role: 'user', content: 'And protected_from?' },
  ];
  messages.push({ role: 'assistant', content: [anthropic.signThinking({}, messages.slice(), 'grep again'),
    { type: 'tool_use', id: 'toolu_g2', name: 'grep', input: { pattern: 'protected_from' } }] });
  messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_g2', content: GREP }] });
  const before = structuredClone(messages);
  const report = microCompact(messages, { keepRecent: 5, dropToolCalls: { tools: ['grep'], beforeLast: 0 } });
  assert.equal(report.deferred, 'in-flight-thinking');
  assert.equal(report.pruned, undefined);
  assert.deepEqual(messages, before);
  // the 'unbound' binding (a provider that checks only the message in flight) prunes the finished part
  const unbound = microCompact(messages, { keepRecent: 5, dropToolCalls: { tools: ['grep'], beforeLast: 0 }, thinking: 'unbound' });
  assert.equal(unbound.pruned.calls, 1);
  assert.equal(messages.at(-2).content[1].id, 'toolu_g2', 'the loop in flight is untouched');
});

test('OpenAI Chat: the tool message of a dropped call goes; the sibling call keeps its answer; chat.completions accepts it', async () => {
  const messages = [
    { role: 'user', content: 'Where is the pending turn found?' },
    { role: 'assistant', content: null, tool_calls: [
      { id: 'call_g1', type: 'function', function: { name: 'grep', arguments: '{"pattern":"pending_from"}' } },
      { id: 'call_r1', type: 'function', function: { name: 'read_file', arguments: '{"path":"src/micro.c"}' } }] },
    { role: 'tool', tool_call_id: 'call_g1', content: GREP },
    { role: 'tool', tool_call_id: 'call_r1', content: C_FILE },
    { role: 'assistant', content: null, tool_calls: [{ id: 'call_g2', type: 'function', function: { name: 'grep', arguments: '{"pattern":"keep_recent"}' } }] },
    { role: 'tool', tool_call_id: 'call_g2', content: GREP },
    { role: 'assistant', content: 'In pending_from.' },
    { role: 'user', content: '那 protected_from 呢？' },
  ];
  const report = microCompact(messages, { keepRecent: 5, dropToolCalls: { tools: ['grep'], beforeLast: 1 } });
  assert.deepEqual(report.pruned, { calls: 2, messages: 3, reasoning: 0 });
  assert.deepEqual(messages.map((m) => m.role), ['user', 'assistant', 'tool', 'assistant', 'user']);
  assert.deepEqual(messages[1].tool_calls.map((c) => c.id), ['call_r1']);
  const client = new OpenAI({ baseURL: `${chat.url}/v1`, apiKey: 'sk-test', maxRetries: 0 });
  assert.equal((await client.chat.completions.create({ model: 'gpt-5.2', messages })).choices[0].message.content, 'ok');
});

test('OpenAI Responses: a call right after its reasoning item stays (the reasoning needs it); the others go; responses.create accepts it', async () => {
  const input = [
    { type: 'message', role: 'user', content: 'Where is the pending turn found?' },
    { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'gAAAAB' + 'y'.repeat(120) },
    { type: 'function_call', call_id: 'call_g1', name: 'grep', arguments: '{"pattern":"pending_from"}' },
    { type: 'function_call', call_id: 'call_g2', name: 'grep', arguments: '{"pattern":"protected_from"}' },
    { type: 'function_call_output', call_id: 'call_g1', output: GREP },
    { type: 'function_call_output', call_id: 'call_g2', output: GREP },
    { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'In pending_from.' }] },
    { type: 'message', role: 'user', content: '那 protected_from 呢？' },
  ];
  const report = microCompact(input, { keepRecent: 5, dropToolCalls: { tools: ['grep'], beforeLast: 1 } });
  assert.deepEqual(report.pruned, { calls: 1, messages: 2, reasoning: 0 });
  assert.deepEqual(input.map((i) => i.call_id ?? i.type), ['message', 'reasoning', 'call_g1', 'call_g1', 'message', 'message']);
  const client = new OpenAI({ baseURL: `${responses.url}/v1`, apiKey: 'sk-test', maxRetries: 0 });
  assert.equal((await client.responses.create({ model: 'gpt-5.2', input })).object, 'response');
});

test('the Compactor runs the rules with its clearing, and says what they did', async () => {
  const messages = aiSdkConversation();
  const compactor = new Compactor({ summarize: digestSummarizer(), policy: 'every-turn', keepRecent: 5, ...RULES });
  const report = await compactor.compact(messages);
  assert.equal(report.compacted, false);
  assert.deepEqual(report.pruned, { calls: 1, messages: 0, reasoning: 2 });
  assert.ok(report.tokensAfter < report.tokensBefore);
  assert.ok(validate(messages).ok);
});

test('ill-typed rules are refused with their path', () => {
  const cases = [
    [{ dropToolCalls: { tools: ['grep'] } }, 'dropToolCalls.beforeLast'],
    [{ dropToolCalls: { tools: 'grep', beforeLast: 2 } }, 'dropToolCalls.tools'],
    [{ dropToolCalls: { tools: ['grep', 3], beforeLast: 2 } }, 'dropToolCalls.tools[1]'],
    [{ dropToolCalls: { tools: ['grep'], beforeLast: 2, type: 'all' } }, 'dropToolCalls.type'],
    [{ dropToolCalls: { tools: ['grep'], beforeLast: -1 } }, 'dropToolCalls.beforeLast'],
    [{ reasoning: 'all' }, 'reasoning'],
  ];
  for (const [options, path] of cases) {
    assert.throws(() => microCompact(aiSdkConversation(), options), (e) => e.code === 'invalid-option' && e.path === path, path);
    assert.throws(() => new Compactor({ summarize: digestSummarizer(), ...options }), (e) => e.code === 'invalid-option' && e.path === path, path);
  }
});

test('a frozen array that the rules would shorten is refused before anything changes', () => {
  const messages = Object.freeze(aiSdkConversation().slice(0, 4).concat([{ role: 'user', content: [{ type: 'text', text: 'next' }] }]));
  const chatLike = Object.freeze([
    { role: 'user', content: 'q' },
    { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'grep', arguments: '{}' } }] },
    { role: 'tool', tool_call_id: 'c1', content: GREP },
    { role: 'user', content: 'next' },
  ]);
  assert.throws(() => microCompact(chatLike, { keepRecent: 5, dropToolCalls: { tools: ['grep'], beforeLast: 1 } }), (e) => e.code === 'read-only-input');
  assert.equal(chatLike.length, 4);
  void messages;
});
