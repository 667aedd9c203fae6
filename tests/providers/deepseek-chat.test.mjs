// A DeepSeek V4 tool loop in thinking mode, kept as raw Chat Completions messages (what an agent on the
// `openai` SDK pointed at api.deepseek.com holds): every assistant turn carries `reasoning_content`, which
// DeepSeek requires back in every later request of a tool-calling turn and reads as input. midfold prices
// it, shows it in the transcript, never drops it from a kept turn, and what it sends passes DeepSeek's rules
// (tests/helpers/deepseek-rules.mjs) on a Chat Completions server on 127.0.0.1, through the real `openai`
// client.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { init, estimateTokens, microCompact, serialize, validate, detectFormat, Compactor, digestSummarizer } from '../../js/hosts/node.js';
import { startMockLLM } from '../helpers/mock-llm.mjs';
import { deepseekRejection } from '../helpers/deepseek-rules.mjs';
import { CORE_NAMES, readWorkloadFile } from '../helpers/corpus.mjs';

const read = readWorkloadFile;
const FILES = CORE_NAMES.filter((f) => f.endsWith('.c')).sort().slice(0, 24).map((f) => `src/${f}`);

/** The loop as the agent keeps it: a question, then per file the model's reasoning, its read and the result. */
function toolLoop() {
  const messages = [
    { role: 'system', content: 'You are a careful coding agent. Read before you answer.' },
    { role: 'user', content: '工具结果是在哪里和调用配对的？请读源码确认。' },
  ];
  FILES.forEach((path, i) => {
    messages.push({
      role: 'assistant', content: '',
      reasoning_content: `第 ${i + 1} 步：${path} 可能处理配对。I will read it and check whether it pairs tool_use ids with their results; ` +
        'if not, the next file in name order is the candidate, since the view is built per adapter.',
      tool_calls: [{ id: `call_${i}`, type: 'function', function: { name: 'read_file', arguments: JSON.stringify({ path }) } }],
    });
    messages.push({ role: 'tool', tool_call_id: `call_${i}`, content: read(path) });
  });
  return messages;
}

let llm;
before(async () => {
  await init();
  llm = await startMockLLM({
    respond: ({ body }) => {
      const problem = deepseekRejection(body);
      if (problem) return { status: 400, json: { error: { message: problem, type: 'invalid_request_error', param: null, code: 'invalid_request_error' } } };
      return { text: 'Pairing happens in src/view.c.' };
    },
  });
});
after(() => llm.close());

test('reasoning_content is priced as thinking, told apart as Chat Completions, and shown in the transcript', () => {
  const messages = toolLoop();
  assert.equal(detectFormat(messages), 'openai');
  const without = messages.map(({ reasoning_content, ...m }) => m);
  for (const profile of ['bareagent', 'deepseek', 'safe']) {
    const reasoning = messages.filter((m) => m.reasoning_content).map((m) => estimateTokens(m.reasoning_content, { profile }));
    const added = estimateTokens(messages, { profile }) - estimateTokens(without, { profile });
    const sum = reasoning.reduce((a, b) => a + b, 0);
    // Each string's estimate is rounded up on its own; the conversation's once.
    assert.ok(added <= sum && added > sum - reasoning.length, `${profile}: ${added} tokens added, the reasoning alone ${sum}`);
  }
  assert.match(serialize(messages), /\[assistant\]\n\[thinking\] 第 1 步：src\/adapt_aisdk\.c 可能处理配对。/);
  assert.equal(validate(messages).ok, true);
});

test('micro-compaction clears old results and leaves every reasoning_content as it was', () => {
  const messages = toolLoop();
  const before = messages.map((m) => m.reasoning_content);
  const report = microCompact(messages, { keepRecent: 3 });
  assert.equal(report.cleared, FILES.length - 3);
  assert.deepEqual(messages.map((m) => m.reasoning_content), before);
  assert.equal(deepseekRejection({ model: 'deepseek-v4-flash', messages }), null);
});

test('a /compact keeps the tail\'s reasoning verbatim, and the openai client\'s request is accepted', async () => {
  const messages = toolLoop();
  const original = structuredClone(messages);
  // A /compact: micro-compaction alone would get this loop under any threshold.
  const report = await new Compactor({ summarize: digestSummarizer(), pricing: 'deepseek', keepTail: { tokens: 6000 } }).compact(messages, { force: true });
  assert.equal(report.compacted, true);
  assert.ok(report.summarizedMessages > 10);
  // Every kept tool-calling turn is one of the originals, its reasoning_content included.
  const kept = messages.filter((m) => m.tool_calls);
  assert.ok(kept.length > 0);
  for (const m of kept) assert.deepStrictEqual(m, original.find((o) => o.tool_calls && o.tool_calls[0].id === m.tool_calls[0].id));
  const client = new OpenAI({ baseURL: llm.url, apiKey: 'sk-test', maxRetries: 0 });
  const answer = await client.chat.completions.create({ model: 'deepseek-v4-flash', messages });
  assert.equal(answer.choices[0].message.content, 'Pairing happens in src/view.c.');
  assert.equal(llm.requests.at(-1).path, '/chat/completions');
  assert.deepStrictEqual(llm.requests.at(-1).body.messages, messages);
});

test('validate warns where a host dropped a tool call\'s reasoning_content, the 400 DeepSeek would answer', async () => {
  const messages = toolLoop();
  delete messages[4].reasoning_content; // the second step's, as a client that keeps only role, content and tool_calls
  const report = validate(messages);
  assert.equal(report.ok, true, 'a warning: other OpenAI-compatible providers take it');
  assert.deepEqual(report.problems.map((p) => [p.code, p.index, p.severity]), [['missing-reasoning', 4, 'warning']]);
  assert.match(report.problems[0].message, /DeepSeek's thinking mode rejects it/);
  const client = new OpenAI({ baseURL: llm.url, apiKey: 'sk-test', maxRetries: 0 });
  await assert.rejects(client.chat.completions.create({ model: 'deepseek-v4-flash', messages }),
    (e) => e.status === 400 && /reasoning_content in the thinking mode must be passed back/.test(e.message));
});
