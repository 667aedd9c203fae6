// openAIResponsesCompaction: OpenAI's /responses/compact writes the compacted window while midfold picks the cut
// and keeps the tail verbatim. A Responses-API run with reasoning items, built through the real `openai` client
// against the strict mock server on 127.0.0.1, is compacted; the next request, sent through the same client, is
// accepted (every output has its call, reasoning items stay with their calls, the compaction item is intact).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { init, Compactor, openAIResponsesCompaction, detectFormat } from '../../js/hosts/node.js';
import { startStrictProvider } from '../helpers/strict-provider.mjs';
import { readWorkloadFile } from '../helpers/corpus.mjs';

const FILES = ['src/view.c', 'src/micro.c', 'src/compact.c', 'src/format.c', 'src/estimate.c'];
const read = readWorkloadFile;
let provider, client;

before(async () => {
  await init();
  provider = await startStrictProvider();
  client = new OpenAI({ apiKey: 'sk-test', baseURL: `${provider.url}/v1`, maxRetries: 0 });
});
after(() => provider.close());

/** A run as a client that keeps its own input list builds it: reasoning + a call per step, then an answer. */
async function run() {
  const input = [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Where are tool results paired with their calls?' }] }];
  for (let i = 0; i <= FILES.length; i++) {
    provider.reply = () => (i < FILES.length
      ? [provider.signReasoning(`rs_${i}`, `Read ${FILES[i]} next.`), { type: 'function_call', id: `fc_${i}`, call_id: `call_${i}`, name: 'read_file', arguments: JSON.stringify({ path: FILES[i] }), status: 'completed' }]
      : [{ type: 'message', id: 'msg_end', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'In src/view.c.', annotations: [] }] }]);
    const response = await client.responses.create({ model: 'gpt-5.4', input });
    input.push(...response.output);
    if (i < FILES.length) input.push({ type: 'function_call_output', call_id: `call_${i}`, output: read(FILES[i]) });
  }
  input.push({ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'And how is the cut chosen?' }] });
  return input;
}

test('the compacted window goes between the head and the verbatim tail, and the next request is accepted', async () => {
  const input = await run();
  assert.equal(detectFormat(input), 'openai-responses');
  const tail = structuredClone(input.slice(-1));
  const from = provider.requests.length;
  const report = await new Compactor({ summarize: openAIResponsesCompaction({ apiKey: 'sk-test', baseURL: `${provider.url}/v1`, model: 'gpt-5.4' }),
    keepTail: { tokens: 50 } }).compact(input, { force: true });
  assert.equal(report.compacted, true, report.reason);
  const request = provider.requests[from];
  assert.equal(request.path, '/v1/responses/compact');
  assert.equal(request.body.input.length, report.summarizedMessages);
  const at = input.findIndex((item) => item.type === 'compaction');
  assert.ok(at >= 0, 'the compaction item is in the conversation');
  assert.equal(input.filter((item) => item.type === 'compaction').length, 1);
  assert.deepStrictEqual(input.slice(-1), tail, 'the tail is verbatim');
  assert.equal(report.summary, '', 'the item is encrypted: no readable summary');
  provider.reply = null;
  await client.responses.create({ model: 'gpt-5.4', input });
});

test('a failed /responses/compact leaves the conversation exactly as it was', async () => {
  const input = await run();
  const copy = structuredClone(input);
  provider.override = (r) => (r.path === '/v1/responses/compact' ? { status: 500, body: { error: { message: 'server error', type: 'server_error' } } } : null);
  const warnings = [];
  const report = await new Compactor({ summarize: openAIResponsesCompaction({ apiKey: 'sk-test', baseURL: `${provider.url}/v1`, model: 'gpt-5.4' }),
    keepTail: { tokens: 50 }, onWarn: (m) => warnings.push(m) }).compact(input, { force: true });
  provider.override = null;
  assert.equal(report.compacted, false);
  assert.deepStrictEqual(input, copy);
  assert.equal(warnings.length, 1);
});
