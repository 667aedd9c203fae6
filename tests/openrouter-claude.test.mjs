// Claude with extended thinking through OpenRouter's Chat Completions: each turn's signed thinking comes back
// as `reasoning_details`, which OpenRouter gives back to Anthropic, whose newer models bind each signature to the
// conversation before it. midfold's thinking policy ('prefix-bound') must see those signatures: while such a tool
// loop is in flight nothing is cleared or folded, and after a fold the kept turns lose theirs. The mock
// (tests/helpers/openrouter-claude.mjs) rejects a changed prefix under a signed entry with a 400; requests reach
// it through the real `openai` client and through the AI SDK's OpenRouter provider (@openrouter/ai-sdk-provider
// 2.10.0, ai 6).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import OpenAI from 'openai';
import { z } from 'zod';
import { init, estimateTokens, detectFormat, microCompact, Compactor, digestSummarizer } from '../js/hosts/node.js';
import { midfoldMiddleware } from 'midfold/ai-sdk';
import { startMockLLM } from './helpers/mock-llm.mjs';
import { deepseekRejection } from './helpers/deepseek-rules.mjs';
import { providerError, signedDetails, signedReasoningRejection } from './helpers/openrouter-claude.mjs';

const read = (path) => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8');
const FILES = readdirSync(new URL('../src/', import.meta.url)).filter((f) => f.endsWith('.c')).sort().slice(0, 10).map((f) => `src/${f}`);
const MODEL = 'anthropic/claude-sonnet-4.5';

let llm;
before(async () => {
  await init();
  llm = await startMockLLM({
    respond: ({ body }) => {
      const problem = deepseekRejection(body) || signedReasoningRejection(body.messages);
      if (problem) return { status: 400, json: providerError(problem) };
      const messages = body.messages;
      const lastTool = messages.findLast((m) => m.role === 'tool');
      const lastUser = messages.findLastIndex((m) => m.role === 'user');
      const step = lastTool && messages.lastIndexOf(lastTool) > lastUser ? Number(lastTool.tool_call_id.split('_').pop()) + 1 : 0;
      const turn = messages.filter((m) => m.role === 'user').length;
      const thinking = step < FILES.length ? `Turn ${turn}, step ${step}: ${FILES[step]} may pair the results.` : 'Every file is read.';
      const message = step < FILES.length
        ? { role: 'assistant', content: '', tool_calls: [{ id: `call_${turn}_${step}`, type: 'function', function: { name: 'read_file', arguments: JSON.stringify({ path: FILES[step] }) } }] }
        : { role: 'assistant', content: 'Pairing happens in src/view.c.' };
      return {
        json: {
          id: `gen-${turn}-${step}`, object: 'chat.completion', created: 1764547200, model: body.model, provider: 'Anthropic',
          choices: [{ index: 0, finish_reason: message.tool_calls ? 'tool_calls' : 'stop',
            message: { ...message, reasoning: thinking, reasoning_details: signedDetails(messages, thinking) } }],
          usage: { prompt_tokens: estimateTokens(messages, { profile: 'claude', format: 'openai' }), completion_tokens: 50, total_tokens: 0 },
        },
      };
    },
  });
});
after(() => llm.close());

/** One user turn of the agent: calls the model until it answers, the Compactor before each call. */
async function agentTurn(client, messages, compactor, reports) {
  for (;;) {
    reports.push(await compactor.compact(messages));
    const answer = await client.chat.completions.create({ model: MODEL, messages });
    const message = answer.choices[0].message; // reasoning and reasoning_details included, as OpenRouter sends them
    messages.push(message);
    if (!message.tool_calls) return message.content;
    for (const call of message.tool_calls) messages.push({ role: 'tool', tool_call_id: call.id, content: read(JSON.parse(call.function.arguments).path) });
  }
}

test('the mock rejects a changed prefix under a signed reasoning entry, and what midfold does without the policy', async () => {
  const client = new OpenAI({ baseURL: llm.url, apiKey: 'sk-or-test', maxRetries: 0 });
  const messages = [{ role: 'user', content: 'Where are tool results paired with their calls?' }];
  for (let i = 0; i < 4; i++) {
    const message = (await client.chat.completions.create({ model: MODEL, messages })).choices[0].message;
    messages.push(message);
    for (const call of message.tool_calls) messages.push({ role: 'tool', tool_call_id: call.id, content: read(JSON.parse(call.function.arguments).path) });
  }
  assert.equal(detectFormat(messages), 'openai');
  assert.equal(microCompact(structuredClone(messages), { keepRecent: 1 }).deferred, 'in-flight-thinking');
  const unbound = structuredClone(messages);
  assert.ok(microCompact(unbound, { keepRecent: 1, thinking: 'unbound' }).cleared > 0);
  await assert.rejects(client.chat.completions.create({ model: MODEL, messages: unbound }),
    (e) => e.status === 400 && /Provider returned error/.test(e.message));
  assert.match(signedReasoningRejection(unbound), /prefix_binding_mismatch/);
});

test('through the openai client: a tool loop past the threshold is left alone while in flight, folded at the turn boundary, every request accepted', async () => {
  const client = new OpenAI({ baseURL: llm.url, apiKey: 'sk-or-test', maxRetries: 0 });
  const compactor = new Compactor({ summarize: digestSummarizer(), threshold: 8000, keepTail: { tokens: 3000 } });
  const messages = [{ role: 'system', content: 'You are a careful coding agent.' }, { role: 'user', content: 'Where are tool results paired with their calls?' }];
  const reports = [];
  assert.equal(await agentTurn(client, messages, compactor, reports), 'Pairing happens in src/view.c.');
  assert.ok(estimateTokens(messages, { profile: 'safe' }) > 20000, 'the loop went well past the threshold');
  const inLoop = reports.slice(1);
  assert.ok(inLoop.some((r) => r.reason === 'deferred-thinking'), 'the Compactor waited for the turn boundary');
  assert.ok(inLoop.every((r) => !r.compacted && r.micro.cleared === 0));

  // The next user turn: the fold lands, and the kept turns' signed reasoning goes (their prefix changed).
  messages.push({ role: 'user', content: '再确认一下 src/view.c 里的配对逻辑。' });
  const next = [];
  assert.equal(await agentTurn(client, messages, compactor, next), 'Pairing happens in src/view.c.');
  assert.equal(next[0].compacted, true);
  assert.ok(next[0].thinkingRemoved > 0, 'the kept turns lost their signatures');
});

test('through the AI SDK OpenRouter provider (ai 6): midfoldMiddleware waits for the turn boundary; every request is accepted', async () => {
  const ai = await import('ai');
  const { createOpenRouter } = await import('@openrouter/ai-sdk-provider');
  const openrouter = createOpenRouter({ baseURL: llm.url, apiKey: 'sk-or-test' });
  const reports = [];
  const model = ai.wrapLanguageModel({ model: openrouter.chat(MODEL), middleware: midfoldMiddleware({ summarize: digestSummarizer(), threshold: 8000, onReport: (r) => reports.push(r) }) });
  const tools = { read_file: ai.tool({ description: 'Read a file of the repository', inputSchema: z.object({ path: z.string() }), execute: async ({ path }) => read(path) }) };
  const from = llm.requests.length;
  const result = await ai.generateText({ model, tools, stopWhen: ai.stepCountIs(FILES.length + 1), messages: [{ role: 'user', content: 'Where are tool results paired with their calls?' }] });
  assert.equal(result.text, 'Pairing happens in src/view.c.'); // a 400 would have thrown
  assert.equal(llm.requests.length - from, FILES.length + 1);
  const sent = llm.requests.at(-1).body.messages;
  assert.ok(sent.filter((m) => Array.isArray(m.reasoning_details) && m.reasoning_details.some((d) => d.signature)).length >= FILES.length - 1,
    'the provider sent the signed reasoning back');
  assert.ok(reports.some((r) => r.reason === 'deferred-thinking'));
  assert.ok(reports.every((r) => !r.compacted && r.micro.cleared === 0));
});
