// The recall tool in the AI SDK (ai 6): compactStep made with recall clears with ids, recallTool() registers
// the tool in generateText's `tools`, and the model's recall calls are executed by the SDK; the requests go
// through @ai-sdk/anthropic to the strict mock provider (127.0.0.1), which accepts every one.
import test, { before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as ai from 'ai';
import { createAnthropic } from '@ai-sdk/anthropic';
import { init, digestSummarizer } from '../../js/hosts/node.js';
import { compactStep, midfoldMiddleware, recallTool } from '../../js/integrations/ai-sdk.js';
import { startStrictProvider } from '../helpers/strict-provider.mjs';
import { SIZED_CORE_FILES } from '../helpers/core-files.mjs';

const FILES = SIZED_CORE_FILES.slice(0, 5);
const read = (path) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

let provider;
before(async () => { await init(); provider = await startStrictProvider(); });
after(() => provider.close());

test('generateText with compactStep({recall: true}) and recallTool: the SDK executes recall calls, errors included', async () => {
  const prepareStep = compactStep({ summarize: digestSummarizer(), threshold: 200_000, microTrigger: 2000, clearAtLeast: 1, keepRecent: 1, recall: true });
  assert.ok(prepareStep.recall && prepareStep.recall.archive);
  let step = 0;
  let answered = null;
  provider.reply = (req) => {
    const i = step++;
    if (i < FILES.length) return [{ type: 'tool_use', id: `toolu_f${i}`, name: 'read_file', input: { path: FILES[i] } }];
    const id = JSON.stringify(req.body.messages).match(/· recall (r[0-9a-z]{8})\]/)[1];
    if (i === FILES.length) return [{ type: 'tool_use', id: 'toolu_back', name: 'recall', input: { id } }, { type: 'tool_use', id: 'toolu_past', name: 'recall', input: { id, page: 40 } }];
    answered = req.body.messages.at(-1).content;
    return [{ type: 'text', text: '第一个文件又读到了。' }];
  };
  const anthropic = createAnthropic({ baseURL: `${provider.url}/v1`, apiKey: 'sk-ant-test' });
  const first = provider.requests.length;
  const result = await ai.generateText({
    model: anthropic('claude-sonnet-4-5'),
    tools: {
      read_file: ai.tool({ description: 'Read a file of the repository', inputSchema: ai.jsonSchema({ type: 'object', properties: { path: { type: 'string' } }, required: ['path'] }), execute: async ({ path }) => read(path) }),
      recall: await recallTool(prepareStep),
    },
    prompt: '逐个读取 C 核心的文件，然后再看一眼第一个。',
    prepareStep,
    stopWhen: ai.stepCountIs(12),
  });
  assert.equal(result.text, '第一个文件又读到了。');
  const sent = provider.requests.slice(first);
  assert.equal(sent.length, FILES.length + 2);
  assert.ok(sent.every((q) => q.status === 200), JSON.stringify(sent.map((q) => q.error)));
  assert.ok(sent.every((q) => q.body.tools.some((t) => t.name === 'recall')));
  const [back, past] = answered;
  assert.equal(back.tool_use_id, 'toolu_back');
  assert.ok(!back.is_error);
  assert.ok(JSON.stringify(back.content).includes(JSON.stringify(read(FILES[0]).slice(0, 120)).slice(1, -1)));
  assert.equal(past.is_error, true);
  assert.match(JSON.stringify(past.content), /page 40 is past the end/);
});

test('recallTool refuses a source made without recall; the middleware carries its archive too', async () => {
  await assert.rejects(recallTool(compactStep({ summarize: digestSummarizer() })), /made with recall|recall: true/);
  const middleware = midfoldMiddleware({ summarize: digestSummarizer(), recall: true });
  assert.ok(middleware.recall.executor);
  // (recall: true in an integration: one archive for the process, so an instance built inside each call finds the last one's)
  assert.equal(compactStep({ summarize: digestSummarizer(), recall: true }).recall.archive, middleware.recall.archive);
});
