// Format 'langchain': @langchain/core message instances, their toJSON() constructor form, stored messages and
// dict-form messages, read through plain views by src/adapt_langchain.c; edits come back as new messages of the
// same class (LangChain treats messages as immutable), ids kept.
import test from 'node:test';
import assert from 'node:assert/strict';
import {
  AIMessage, HumanMessage, SystemMessage, ToolMessage, mapChatMessagesToStoredMessages, mapStoredMessagesToChatMessages,
} from '@langchain/core/messages';
import { convertMessagesToCompletionsMessageParams } from '@langchain/openai';
import { convertPromptToAnthropic } from '@langchain/anthropic';
import { init, Compactor, detectFormat, estimateTokens, microCompact, serialize, validate } from '../../js/hosts/node.js';
import { TINY_PNG, codingSession, longLoop, richSession } from '../helpers/langchain-fixtures.mjs';

await init();

/** The dict form LangChain coerces: {type, content, ...fields}. */
const dictForm = (list) => list.map((m) => {
  const { lc_kwargs, lc_serializable, lc_namespace, ...fields } = /** @type {any} */ (m);
  return JSON.parse(JSON.stringify({ ...fields, type: m.type }));
});
const codes = (list) => validate(list).problems.map((p) => p.code);

test('detectFormat: instances, toJSON() constructor form, JSON round trip, stored and dict forms are langchain', () => {
  const list = richSession();
  assert.equal(detectFormat(list), 'langchain');
  assert.equal(detectFormat(list.map((m) => m.toJSON())), 'langchain');
  assert.equal(detectFormat(JSON.parse(JSON.stringify(list))), 'langchain');
  assert.equal(detectFormat(mapChatMessagesToStoredMessages(list)), 'langchain');
  assert.equal(detectFormat(dictForm(list)), 'langchain');
  // Mixed with another format's message: no provider takes the list. (A plain {role, content} text message
  // is one LangChain coerces too: it fits.)
  assert.equal(detectFormat([...list, { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'x', content: 'y' }] }]), 'unknown');
  assert.equal(detectFormat([...list, { role: 'user', content: 'hi' }]), 'langchain');
});

test('estimateTokens: the same conversation in OpenAI Chat form (as @langchain/openai sends it) within 1 %', () => {
  const list = codingSession();
  const chat = convertMessagesToCompletionsMessageParams({ messages: list, model: 'gpt-4o' });
  assert.equal(detectFormat(chat), 'openai');
  const lc = estimateTokens(list);
  const openai = estimateTokens(chat);
  assert.ok(Math.abs(lc - openai) / openai <= 0.01, `langchain ${lc}, openai ${openai}`);
  // The long loop too (Chinese logs, many pairs).
  const loop = longLoop(12, 3000);
  const loopChat = convertMessagesToCompletionsMessageParams({ messages: loop, model: 'gpt-4o' });
  const a = estimateTokens(loop), b = estimateTokens(loopChat);
  assert.ok(Math.abs(a - b) / b <= 0.01, `langchain ${a}, openai ${b}`);
});

test('estimateTokens: every serialized form prices as the instances; invalid_tool_calls are not sent, so not priced', () => {
  const list = richSession();
  const n = estimateTokens(list);
  assert.equal(estimateTokens(list.map((m) => m.toJSON())), n);
  assert.equal(estimateTokens(JSON.parse(JSON.stringify(list))), n);
  assert.equal(estimateTokens(mapChatMessagesToStoredMessages(list)), n);
  assert.equal(estimateTokens(dictForm(list)), n);
  const ai = list.find((m) => m.id === 'ai-2');
  const without = new AIMessage({ ...ai, invalid_tool_calls: [] });
  assert.equal(estimateTokens([without]), estimateTokens([ai]));
  // The lc envelope (lc, type, id, kwargs, additional_kwargs, response_metadata) costs nothing.
  assert.equal(estimateTokens(new HumanMessage('请帮我看看')), estimateTokens({ role: 'user', content: '请帮我看看' }));
});

test('estimateTokens: images are priced per image, never by their base64', () => {
  const small = new HumanMessage({ content: [{ type: 'image', mimeType: 'image/png', data: TINY_PNG }] });
  const huge = new HumanMessage({ content: [{ type: 'image', mimeType: 'image/png', data: 'A'.repeat(400000) }] });
  assert.equal(estimateTokens([huge]), estimateTokens([small]));
  assert.ok(estimateTokens([huge]) < 5000);
  // A PDF is priced by its decoded size, not as text either.
  const pdf = (chars) => new HumanMessage({ content: [{ type: 'file', mimeType: 'application/pdf', data: 'J'.repeat(chars) }] });
  assert.ok(estimateTokens([pdf(400000)]) > estimateTokens([pdf(4000)]));
  assert.ok(estimateTokens([pdf(400000)]) < 400000 / 4);
});

test('serialize: calls, results, Chinese text and thinking; no signature, no base64, an error result marked', () => {
  const t = serialize(richSession());
  assert.match(t, /\[tool_use:read_file\] \{"path": "package.json"\}/);
  assert.match(t, /\[tool_use:read_file\] \{"path": "src\/ledger.ts"\}/);
  assert.match(t, /请帮我看看 ledger-service/);
  assert.match(t, /\[thinking\] The screenshot shows/);
  assert.match(t, /\[image\]/);
  assert.ok(!t.includes('EqQBCkYIBxgCKkD'));
  assert.ok(!t.includes(TINY_PNG.slice(0, 20)));
  assert.match(t, /\[tool_result:bash\]|\[tool_error:bash\]/);
  assert.equal(serialize(richSession().map((m) => m.toJSON())), t);
});

test('validate: a clean session is ok; missing results, orphaned results and results for invalid calls are errors', () => {
  assert.deepEqual(validate(richSession()), { ok: true, format: 'langchain', problems: [] });
  const list = codingSession();
  const missing = list.filter((m) => m.id !== 't-2'); // one of the parallel results
  assert.ok(codes(missing).includes('call-without-result'));
  const orphan = [...list.slice(0, 3), ...list.slice(5)]; // the AI message with the calls folded away, results kept
  assert.ok(codes(list.filter((m) => m.id !== 'ai-1')).includes('result-without-call'));
  assert.ok(codes(orphan).includes('call-without-result') || codes(orphan).includes('result-without-call'));
  // The providers drop invalid_tool_calls: a ToolMessage answering one answers nothing that was sent.
  const answered = [...list.slice(0, 7), new ToolMessage({ content: 'ran', tool_call_id: 'call_bad' }), ...list.slice(7)];
  assert.ok(codes(answered).includes('result-without-call'));
});

test('microCompact: cleared results become new ToolMessages (ids, tool_call_id, name, status kept); the rest keep their identity', () => {
  const original = codingSession();
  const list = original.slice();
  const report = microCompact(list, { keepRecent: 1 });
  assert.equal(report.cleared, 2);
  for (let i = 0; i < list.length; i++) {
    if (i === 3 || i === 4) continue;
    assert.equal(list[i], original[i], `message ${i} is the caller's own`);
  }
  for (const i of [3, 4]) {
    assert.notEqual(list[i], original[i]);
    assert.ok(list[i] instanceof ToolMessage);
    assert.equal(list[i].id, original[i].id);
    assert.equal(list[i].tool_call_id, original[i].tool_call_id);
    assert.equal(list[i].name, 'read_file');
    assert.match(list[i].content, /^\[truncated: read_file result, \d+ chars\]$/);
  }
  // The originals are untouched (immutable), and the error result was the kept one.
  assert.ok(original[4].content.length > 1000);
  assert.equal(list[6].status, 'error');
  assert.equal(validate(list).ok, true);
  // Idempotent.
  assert.equal(microCompact(list, { keepRecent: 1 }).cleared, 0);
});

test('microCompact: a constructor-form list gets constructor-form copies; a stored list stored copies', () => {
  const json = codingSession().map((m) => m.toJSON());
  const before = JSON.stringify(json);
  const list = json.slice();
  microCompact(list, { keepRecent: 1 });
  assert.equal(JSON.stringify(json), before, 'the caller\'s objects are not written');
  assert.equal(list[3].lc, 1);
  assert.deepEqual(list[3].id, ['langchain_core', 'messages', 'ToolMessage']);
  assert.match(list[3].kwargs.content, /^\[truncated: read_file result/);
  assert.equal(list[3].kwargs.tool_call_id, 'call_pkg');
  const revived = mapStoredMessagesToChatMessages(mapChatMessagesToStoredMessages(codingSession()));
  const stored = mapChatMessagesToStoredMessages(revived);
  microCompact(stored, { keepRecent: 1 });
  assert.match(stored[4].data.content, /^\[truncated: read_file result/);
  assert.ok(mapStoredMessagesToChatMessages(stored)[4] instanceof ToolMessage);
});

test('microCompact: nothing is cleared while a tool loop whose AI message carries signed thinking is in flight', () => {
  const list = longLoop(4, 3000);
  list.pop();
  list.push(new HumanMessage('继续'));
  list.push(new AIMessage({ id: 'ai-live', content: [{ type: 'thinking', thinking: 'check m9', signature: 'sig-live' }],
    tool_calls: [{ id: 'call_live', name: 'bash', args: { command: 'cat logs/m9.log' }, type: 'tool_call' }] }));
  list.push(new ToolMessage({ content: 'ok', tool_call_id: 'call_live', name: 'bash' }));
  const copy = list.slice();
  const report = microCompact(copy, { keepRecent: 1 });
  assert.equal(report.deferred, 'in-flight-thinking');
  assert.ok(copy.every((m, i) => m === list[i]));
});

test('Compactor: folds into a HumanMessage summary; kept messages keep identity and ids; pairs intact; providers accept it', async () => {
  const original = longLoop(20, 4000);
  const list = original.slice();
  let seen;
  const c = new Compactor({ threshold: 8000, keepTail: { tokens: 2000 }, summarize: async (r) => { seen = r.messages; return '各模块日志检查完毕,全部正常。'; } });
  const report = await c.compact(list);
  assert.equal(report.compacted, true);
  assert.ok(report.tokensAfter < 8000);
  assert.ok(seen.every((m) => m instanceof HumanMessage || m instanceof AIMessage || m instanceof ToolMessage), 'the summarizer reads LangChain messages');
  assert.ok(list[0] instanceof SystemMessage && list[0] === original[0]);
  assert.ok(list[1] instanceof HumanMessage);
  assert.match(list[1].content, /^\[Context Compressed\]\n各模块日志检查完毕/);
  assert.equal(list[list.length - 1], original[original.length - 1]);
  for (const m of list.slice(2)) {
    const from = original.find((o) => o.id === m.id);
    if (m instanceof ToolMessage) assert.ok(from, 'kept tool messages keep their ids');
    assert.equal(m.constructor, from ? from.constructor : m.constructor);
  }
  assert.equal(validate(list).ok, true);
  assert.equal(detectFormat(list), 'langchain');
  // What @langchain/openai and @langchain/anthropic send from it.
  const chat = convertMessagesToCompletionsMessageParams({ messages: list, model: 'gpt-4o' });
  assert.equal(validate(chat).ok, true);
  const anthropic = convertPromptToAnthropic({ messages: list, toChatMessages: () => list, toString: () => '' });
  assert.equal(validate(anthropic.messages, { format: 'anthropic' }).ok, true);
  assert.equal(anthropic.messages[0].role, 'user');
});

test('Compactor: a failed summary leaves the array exactly as it was; messages appended meanwhile survive a fold', async () => {
  const original = longLoop(20, 4000);
  const list = original.slice();
  const failing = new Compactor({ threshold: 8000, summarize: async () => { throw new Error('503'); }, onWarn: () => {} });
  const report = await failing.compact(list);
  assert.equal(report.compacted, false);
  assert.equal(report.reason, 'summarizer-error');
  assert.equal(list.length, original.length);
  assert.ok(list.every((m, i) => m === original[i]));

  const late = new HumanMessage({ id: 'late', content: '还有一件事' });
  const c = new Compactor({ threshold: 8000, keepTail: { tokens: 2000 }, summarize: async () => { list.push(late); return 'summary'; } });
  const done = await c.compact(list);
  assert.equal(done.compacted, true);
  assert.equal(list[list.length - 1], late);
  assert.equal(list[list.length - 2], original[original.length - 1]);
});

test('Compactor: a constructor-form list folds into constructor-form messages that LangChain revives', async () => {
  const json = JSON.parse(JSON.stringify(longLoop(20, 4000)));
  const c = new Compactor({ threshold: 8000, keepTail: { tokens: 2000 }, summarize: async () => 'summary' });
  const report = await c.compact(json);
  assert.equal(report.compacted, true);
  assert.deepEqual(json[1].id, ['langchain_core', 'messages', 'HumanMessage']);
  assert.match(json[1].kwargs.content, /^\[Context Compressed\]/);
  const { load } = await import('@langchain/core/load');
  const revived = await Promise.all(json.map((m) => load(JSON.stringify(m))));
  assert.ok(revived[1] instanceof HumanMessage);
  assert.equal(validate(revived).ok, true);
});
