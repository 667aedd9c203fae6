// The Node that runs the suites, and the SDK majors that declare Node >= 22 (ai 7 with LanguageModelV4, openai 7):
// they load and run there, and what they produce is read by midfold. `make test-js` runs the suites on a pinned
// Node 24 (Makefile NODE_VERSION); on an older node (make test-js NODE=node) the ai 7 checks are skipped with
// the reason. openai 7, the suites' main openai, declares 22 too but loads and passes on Node 20, so its check
// runs everywhere.

import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';

import { detectFormat, estimateTokens, init, serialize, validate } from '../../js/hosts/node.js';
import { startMockLLM } from '../helpers/mock-llm.mjs';

const major = Number(process.versions.node.split('.')[0]);
const tooOld = major < 22 && `ai 7 needs Node >= 22; this is ${process.version} (make test-js installs Node 24)`;

before(() => init());

test('ai 7 (LanguageModelV4): a generateText tool loop gives ModelMessages midfold reads', { skip: tooOld }, async () => {
  const { generateText, tool, isStepCount } = await import('ai-v7');
  const { MockLanguageModelV4 } = await import('ai-v7/test');
  const { z } = await import('zod');
  const usage = { inputTokens: { total: 40, noCache: 40, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 12, text: 12, reasoning: 0 } };
  const model = new MockLanguageModelV4({
    doGenerate: [
      {
        content: [{ type: 'tool-call', toolCallId: 'call_weather_1', toolName: 'weather', input: '{"city":"Lisbon"}' }],
        finishReason: { unified: 'tool-calls', raw: 'tool_use' }, usage, warnings: [],
      },
      {
        content: [{ type: 'text', text: 'It is 21 °C and sunny in Lisbon.' }],
        finishReason: { unified: 'stop', raw: 'end_turn' }, usage, warnings: [],
      },
    ],
  });
  const prompt = [{ role: 'user', content: 'What is the weather in Lisbon?' }];
  const result = await generateText({
    model, messages: prompt, stopWhen: isStepCount(2),
    tools: {
      weather: tool({
        description: 'Current weather for a city',
        inputSchema: z.object({ city: z.string() }),
        execute: async ({ city }) => ({ city, tempC: 21, sky: 'sunny' }),
      }),
    },
  });
  assert.equal(result.text, 'It is 21 °C and sunny in Lisbon.');
  // ai 7 gives each step's own messages (ai 6's response.messages held them all).
  const messages = [...prompt, ...result.steps.flatMap((step) => step.response.messages)];
  assert.deepEqual(messages.map((m) => m.role), ['user', 'assistant', 'tool', 'assistant']);
  assert.equal(detectFormat(messages), 'ai-sdk');
  assert.deepEqual(validate(messages).problems, []);
  const transcript = serialize(messages);
  assert.match(transcript, /\[tool_use:weather\] \{"city": ?"Lisbon"\}/);
  assert.match(transcript, /\[tool_result:weather\][^\n]*"tempC": ?21/);
  assert.ok(estimateTokens(messages) > estimateTokens(prompt));
});

let llm;
after(() => llm && llm.close());

test('openai 7: a Chat Completions tool call from the real client is a conversation midfold reads', async () => {
  const { default: OpenAI } = await import('openai');
  llm = await startMockLLM();
  llm.respondWith({
    json: {
      id: 'chatcmpl-1', object: 'chat.completion', created: 1764547200, model: 'gpt-4.1-mini',
      choices: [{
        index: 0, finish_reason: 'tool_calls', logprobs: null,
        message: {
          role: 'assistant', content: null, refusal: null,
          tool_calls: [{ id: 'call_ls_1', type: 'function', function: { name: 'list_files', arguments: '{"dir":"src"}' } }],
        },
      }],
      usage: { prompt_tokens: 52, completion_tokens: 9, total_tokens: 61 },
    },
  });
  const client = new OpenAI({ apiKey: 'sk-test', baseURL: `${llm.url}/v1`, maxRetries: 0 });
  const messages = [
    { role: 'system', content: 'You are a coding agent.' },
    { role: 'user', content: 'What is in src/?' },
  ];
  const completion = await client.chat.completions.create({ model: 'gpt-4.1-mini', messages });
  assert.equal(llm.requests.length, 1);
  assert.equal(llm.requests[0].body.model, 'gpt-4.1-mini');
  messages.push(completion.choices[0].message);
  messages.push({ role: 'tool', tool_call_id: 'call_ls_1', content: 'core.c\nformat.c\nmidfold.h\n' });
  assert.equal(detectFormat(messages), 'openai');
  assert.deepEqual(validate(messages).problems, []);
  assert.match(serialize(messages), /\[tool_use:list_files\] \{"dir": ?"src"\}[\s\S]*\[tool_result:list_files\] core\.c/);
});
