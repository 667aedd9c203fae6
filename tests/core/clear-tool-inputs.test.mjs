// clearToolInputs: the call of each result micro-compaction clears keeps its shape and loses its bulk. A coding
// agent wrote two files in parallel (a C file of the repository and a Chinese design note), read one back, and
// the user asks a new question: the old write_file calls' `content` becomes "[truncated: write_file input, N
// chars]" (N its code points) while `path` stays, in every format, and the request each format makes is accepted
// by the provider's own checks through the real SDK clients: Anthropic's tool_use.input stays an object, Chat
// Completions' function.arguments and a Responses function_call's arguments stay strings of JSON, the AI SDK's
// tool-call input passes generateText's message schema, a UIMessage passes validateUIMessages, a LangChain
// AIMessage keeps its class and tool_calls.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { generateText, validateUIMessages, convertToModelMessages } from 'ai';
import { createAnthropic } from '@ai-sdk/anthropic';
import { AIMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { init, microCompact, estimateTokens, validate } from '../../js/hosts/node.js';
import { startStrictProvider } from '../helpers/strict-provider.mjs';
import { startMockResponses } from '../helpers/mock-responses.mjs';
import { startMockLLM } from '../helpers/mock-llm.mjs';

const C_FILE = readFileSync(new URL('../../src/micro.c', import.meta.url), 'utf8');
const NOTE = '## 设计说明\n微压缩把旧的工具结果替换成一行标记，保留发生了什么以及它有多大。' +
  '待处理的轮次永远不会被编辑；系统消息从不被总结。\n'.repeat(40);
const cp = (s) => [...s].length;
const inputMarker = (chars) => `[truncated: write_file input, ${chars} chars]`;
const WROTE = 'wrote 1 file';

let anthropic, responses, chat;
before(async () => {
  await init();
  anthropic = await startStrictProvider();
  responses = await startMockResponses();
  chat = await startMockLLM({ strictChat: true, respond: { text: 'ok' } });
});
after(async () => { await anthropic.close(); await responses.close(); await chat.close(); });

/** Two parallel write_file calls and a read_file of the C file, then a new question (the pending turn). */
function anthropicConversation() {
  return [
    { role: 'user', content: 'Copy src/micro.c to backup/micro.c and write the design note in Chinese.' },
    { role: 'assistant', content: [
      { type: 'text', text: 'Writing both files.' },
      { type: 'tool_use', id: 'toolu_w1', name: 'write_file', input: { path: 'backup/micro.c', content: C_FILE, mode: 420 } },
      { type: 'tool_use', id: 'toolu_w2', name: 'write_file', input: { path: 'docs/设计.md', content: NOTE } }] },
    { role: 'user', content: [
      { type: 'tool_result', tool_use_id: 'toolu_w1', content: `${WROTE} (${C_FILE.length} bytes)\n${C_FILE.slice(0, 1500)}` },
      { type: 'tool_result', tool_use_id: 'toolu_w2', content: `${WROTE}\n${NOTE}` }] },
    { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_r1', name: 'read_file', input: { path: 'backup/micro.c' } }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_r1', content: C_FILE }] },
    { role: 'assistant', content: 'Both files are written and the copy reads back the same.' },
    { role: 'user', content: '现在请解释 pending_from 做什么。' },
  ];
}

test('Anthropic: the cleared calls keep path and mode, their content is a marker; the request is accepted', async () => {
  const messages = anthropicConversation();
  const pending = structuredClone(messages.at(-1));
  const report = microCompact(messages, { keepRecent: 1, clearToolInputs: true });
  assert.equal(report.cleared, 2, 'both write results cleared; the read kept (keepRecent 1)');
  assert.equal(report.inputsCleared, 2);
  assert.deepEqual(report.edits.filter((e) => e.input).map((e) => [e.message, e.part, e.chars]), [[1, 1, cp(C_FILE)], [1, 2, cp(NOTE)]]);
  const [, w1, w2] = messages[1].content;
  assert.deepEqual(w1.input, { path: 'backup/micro.c', content: inputMarker(cp(C_FILE)), mode: 420 });
  assert.deepEqual(w2.input, { path: 'docs/设计.md', content: inputMarker(cp(NOTE)) });
  assert.deepEqual(messages[3].content[0].input, { path: 'backup/micro.c' }, "the kept turn's call is whole");
  assert.equal(messages[4].content[0].content, C_FILE);
  assert.deepEqual(messages.at(-1), pending, 'the pending turn is untouched');
  assert.equal(report.tokensAfter, estimateTokens(messages), 'the report prices what is left');
  assert.ok(validate(messages).ok);
  const client = new Anthropic({ baseURL: anthropic.url, apiKey: 'sk-ant-test', maxRetries: 0 });
  const reply = await client.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 512, messages });
  assert.equal(reply.type, 'message');
  assert.equal(anthropic.requests.at(-1).status, 200);
  // idempotent: nothing more to clear
  const again = microCompact(messages, { keepRecent: 1, clearToolInputs: true });
  assert.equal(again.cleared + (again.inputsCleared ?? 0), 0);
});

test('Anthropic: an input that is not an object is refused by the strict provider (the check the edit keeps)', async () => {
  const messages = anthropicConversation();
  messages[1].content[1] = { ...messages[1].content[1], input: '{"path":"backup/micro.c"}' };
  const client = new Anthropic({ baseURL: anthropic.url, apiKey: 'sk-ant-test', maxRetries: 0 });
  await assert.rejects(client.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 512, messages }), /tool_use\.input: Input should be a valid dictionary/);
});

test('without clearToolInputs the calls stay whole (the default)', () => {
  const messages = anthropicConversation();
  const report = microCompact(messages, { keepRecent: 1 });
  assert.equal(report.cleared, 2);
  assert.equal(report.inputsCleared, undefined);
  assert.equal(messages[1].content[1].input.content, C_FILE);
});

test('results cleared on an earlier call get their inputs cleared when clearToolInputs is turned on later', () => {
  const messages = anthropicConversation();
  microCompact(messages, { keepRecent: 1 });
  const report = microCompact(messages, { keepRecent: 1, clearToolInputs: true });
  assert.equal(report.cleared, 0);
  assert.equal(report.inputsCleared, 2);
  assert.equal(messages[1].content[2].input.content, inputMarker(cp(NOTE)));
});

test('excluded tools keep their inputs as they keep their results', () => {
  const messages = anthropicConversation();
  const report = microCompact(messages, { keepRecent: 1, clearToolInputs: true, excludeTools: ['write_file'] });
  assert.equal(report.cleared + (report.inputsCleared ?? 0), 0);
});

/** The same conversation as Chat Completions messages. */
function chatConversation() {
  return [
    { role: 'user', content: 'Copy src/micro.c to backup/micro.c and write the design note in Chinese.' },
    { role: 'assistant', content: 'Writing both files.', tool_calls: [
      { id: 'call_w1', type: 'function', function: { name: 'write_file', arguments: JSON.stringify({ path: 'backup/micro.c', content: C_FILE, mode: 420 }) } },
      { id: 'call_w2', type: 'function', function: { name: 'write_file', arguments: JSON.stringify({ path: 'docs/设计.md', content: NOTE }) } }] },
    { role: 'tool', tool_call_id: 'call_w1', content: `${WROTE}\n${C_FILE.slice(0, 1500)}` },
    { role: 'tool', tool_call_id: 'call_w2', content: `${WROTE}\n${NOTE}` },
    { role: 'assistant', content: null, tool_calls: [{ id: 'call_r1', type: 'function', function: { name: 'read_file', arguments: '{"path":"backup/micro.c"}' } }] },
    { role: 'tool', tool_call_id: 'call_r1', content: C_FILE },
    { role: 'assistant', content: 'Both files are written.' },
    { role: 'user', content: '现在请解释 pending_from 做什么。' },
  ];
}

test('OpenAI Chat: function.arguments stays a string of JSON with the marker in it; chat.completions accepts it', async () => {
  const messages = chatConversation();
  const report = microCompact(messages, { keepRecent: 1, clearToolInputs: true });
  assert.equal(report.cleared, 2);
  assert.equal(report.inputsCleared, 2);
  const [c1, c2] = messages[1].tool_calls;
  assert.equal(typeof c1.function.arguments, 'string');
  assert.deepEqual(JSON.parse(c1.function.arguments), { path: 'backup/micro.c', content: inputMarker(cp(C_FILE)), mode: 420 });
  assert.deepEqual(JSON.parse(c2.function.arguments), { path: 'docs/设计.md', content: inputMarker(cp(NOTE)) });
  assert.equal(messages[4].tool_calls[0].function.arguments, '{"path":"backup/micro.c"}');
  assert.equal(report.tokensAfter, estimateTokens(messages));
  const client = new OpenAI({ baseURL: `${chat.url}/v1`, apiKey: 'sk-test', maxRetries: 0 });
  const reply = await client.chat.completions.create({ model: 'gpt-5.2', messages });
  assert.equal(reply.choices[0].message.content, 'ok');
  // the mock refuses what the API refuses: arguments that are not a string
  const broken = structuredClone(messages);
  broken[1].tool_calls[0].function.arguments = JSON.parse(broken[1].tool_calls[0].function.arguments);
  await assert.rejects(client.chat.completions.create({ model: 'gpt-5.2', messages: broken }), /function\.arguments': expected a string/);
});

test('OpenAI Responses: a function_call keeps string arguments (a reasoning item before it untouched); responses.create accepts it', async () => {
  const input = [
    { type: 'message', role: 'user', content: 'Copy src/micro.c to backup/micro.c.' },
    { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'gAAAAB' + 'x'.repeat(200) },
    { type: 'function_call', call_id: 'call_w1', name: 'write_file', arguments: JSON.stringify({ path: 'backup/micro.c', content: C_FILE }) },
    { type: 'function_call_output', call_id: 'call_w1', output: `${WROTE}\n${C_FILE.slice(0, 2000)}` },
    { type: 'function_call', call_id: 'call_w2', name: 'write_file', arguments: JSON.stringify({ path: 'docs/设计.md', content: NOTE }) },
    { type: 'function_call_output', call_id: 'call_w2', output: `${WROTE}\n${NOTE}` },
    { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Done.' }] },
    { type: 'message', role: 'user', content: '解释 pending_from。' },
  ];
  const reasoning = structuredClone(input[1]);
  const report = microCompact(input, { keepRecent: 0, clearToolInputs: true });
  assert.equal(report.cleared, 2);
  assert.equal(report.inputsCleared, 2);
  assert.deepEqual(JSON.parse(input[2].arguments), { path: 'backup/micro.c', content: inputMarker(cp(C_FILE)) });
  assert.deepEqual(input[1], reasoning);
  const client = new OpenAI({ baseURL: `${responses.url}/v1`, apiKey: 'sk-test', maxRetries: 0 });
  const reply = await client.responses.create({ model: 'gpt-5.2', input });
  assert.equal(reply.object, 'response');
  const broken = structuredClone(input);
  broken[2].arguments = { path: 'x' };
  await assert.rejects(client.responses.create({ model: 'gpt-5.2', input: broken }), /arguments': expected a string/);
});

test('AI SDK ModelMessages: tool-call input stays an object; generateText (its message schema) and the provider accept it', async () => {
  const messages = [
    { role: 'user', content: 'Copy src/micro.c and write the note.' },
    { role: 'assistant', content: [
      { type: 'tool-call', toolCallId: 'w1', toolName: 'write_file', input: { path: 'backup/micro.c', content: C_FILE } },
      { type: 'tool-call', toolCallId: 'w2', toolName: 'write_file', input: { path: 'docs/设计.md', content: NOTE } }] },
    { role: 'tool', content: [
      { type: 'tool-result', toolCallId: 'w1', toolName: 'write_file', output: { type: 'text', value: `${WROTE}\n${C_FILE.slice(0, 2000)}` } },
      { type: 'tool-result', toolCallId: 'w2', toolName: 'write_file', output: { type: 'text', value: `${WROTE}\n${NOTE}` } }] },
    { role: 'assistant', content: [{ type: 'text', text: 'Done.' }] },
    { role: 'user', content: [{ type: 'text', text: '解释 pending_from。' }] },
  ];
  const report = microCompact(messages, { keepRecent: 0, clearToolInputs: true });
  assert.equal(report.inputsCleared, 2);
  assert.deepEqual(messages[1].content[1].input, { path: 'docs/设计.md', content: inputMarker(cp(NOTE)) });
  anthropic.reply = () => [{ type: 'text', text: 'pending_from finds the pending turn.' }];
  const model = createAnthropic({ baseURL: `${anthropic.url}/v1`, apiKey: 'sk-ant-test' })('claude-sonnet-4-6');
  const result = await generateText({ model, messages });
  assert.equal(result.text, 'pending_from finds the pending turn.');
  const sent = anthropic.requests.at(-1).body.messages[1].content;
  assert.deepEqual(sent.map((b) => b.input && b.input.content), [inputMarker(cp(C_FILE)), inputMarker(cp(NOTE))]);
});

test('AI SDK UIMessages: the tool part keeps its input object and state; validateUIMessages accepts it', async () => {
  const messages = [
    { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Copy src/micro.c.' }] },
    { id: 'a1', role: 'assistant', parts: [
      { type: 'step-start' },
      { type: 'tool-write_file', toolCallId: 'w1', state: 'output-available', input: { path: 'backup/micro.c', content: C_FILE }, output: `${WROTE}\n${C_FILE.slice(0, 2000)}` },
      { type: 'tool-write_file', toolCallId: 'w2', state: 'output-available', input: { path: 'docs/设计.md', content: NOTE }, output: `${WROTE}\n${NOTE}` },
      { type: 'text', text: 'Done.' }] },
    { id: 'u2', role: 'user', parts: [{ type: 'text', text: '解释 pending_from。' }] },
  ];
  const report = microCompact(messages, { keepRecent: 0, clearToolInputs: true });
  assert.equal(report.inputsCleared, 2);
  const part = messages[1].parts[1];
  assert.equal(part.state, 'output-available');
  assert.deepEqual(part.input, { path: 'backup/micro.c', content: inputMarker(cp(C_FILE)) });
  const valid = await validateUIMessages({ messages });
  const model = await convertToModelMessages(valid);
  assert.equal(model[1].content.find((p) => p.type === 'tool-call').input.path, 'backup/micro.c');
});

test('LangChain: the AIMessage keeps its class, id and tool_calls, the args an object with the marker', () => {
  const messages = [
    new HumanMessage('Copy src/micro.c and write the note.'),
    new AIMessage({ id: 'ai-1', content: '', tool_calls: [
      { id: 'w1', name: 'write_file', args: { path: 'backup/micro.c', content: C_FILE }, type: 'tool_call' },
      { id: 'w2', name: 'write_file', args: { path: 'docs/设计.md', content: NOTE }, type: 'tool_call' }] }),
    new ToolMessage({ tool_call_id: 'w1', name: 'write_file', content: `${WROTE}\n${C_FILE.slice(0, 2000)}` }),
    new ToolMessage({ tool_call_id: 'w2', name: 'write_file', content: `${WROTE}\n${NOTE}` }),
    new AIMessage('Done.'),
    new HumanMessage('解释 pending_from。'),
  ];
  const report = microCompact(messages, { keepRecent: 0, clearToolInputs: true });
  assert.equal(report.cleared, 2);
  assert.equal(report.inputsCleared, 2);
  const ai = messages[1];
  assert.ok(ai instanceof AIMessage);
  assert.equal(ai.id, 'ai-1');
  assert.deepEqual(ai.tool_calls.map((c) => [c.id, c.args]), [
    ['w1', { path: 'backup/micro.c', content: inputMarker(cp(C_FILE)) }], ['w2', { path: 'docs/设计.md', content: inputMarker(cp(NOTE)) }]]);
  assert.ok(messages[2] instanceof ToolMessage);
  assert.match(messages[2].content, /^\[truncated: write_file result/);
});

test('clearToolInputs must be a boolean', () => {
  assert.throws(() => microCompact(anthropicConversation(), { clearToolInputs: 'yes' }),
    (e) => e.code === 'invalid-option' && e.path === 'clearToolInputs' && /true or false/.test(e.message));
});
