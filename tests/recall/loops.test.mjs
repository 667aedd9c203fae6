// The recall tool registered in real loops, through the real SDK clients, against the strict mock provider
// (127.0.0.1): the documented Anthropic loop with a Compactor made with recall, where the model recalls a
// result the clearing took and the answer goes back as a tool_result (is_error for a forged id); and the
// Responses API with the function tool and its function_call_output. Every request is accepted.
import test, { before, after } from 'node:test';
import assert from 'node:assert/strict';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { init, Compactor, digestSummarizer, createRecallTool, recallArchive, recallMicroCompact, memoryStateStore } from '../../js/hosts/node.js';
import { startStrictProvider } from '../helpers/strict-provider.mjs';
import { SIZED_CORE_FILES } from '../helpers/core-files.mjs';
import { readFileSync } from 'node:fs';

const FILES = SIZED_CORE_FILES.slice(0, 6);
const read = (path) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const seeded = (bytes) => { for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 29 + 5) & 255; return bytes; };

let provider;
before(async () => {
  await init();
  provider = await startStrictProvider();
});
after(() => provider.close());

test('Anthropic: the model recalls what the clearing took; the strict provider accepts every request', async () => {
  const client = new Anthropic({ baseURL: provider.url, apiKey: 'sk-ant-test', maxRetries: 0 });
  const compactor = new Compactor({ summarize: digestSummarizer(), threshold: 200_000, microTrigger: 2000, clearAtLeast: 1, keepRecent: 1, recall: true });
  const recall = createRecallTool({ compactor, random: seeded });
  const tools = [recall.definition, { name: 'read_file', description: 'Read a file of the repository',
    input_schema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } }];
  let step = 0;
  let recalled = null;
  provider.reply = (req) => {
    const i = step++;
    if (i < FILES.length) return [{ type: 'text', text: `读取 ${FILES[i]}（第 ${i + 1} 个）。` }, { type: 'tool_use', id: `toolu_r${i}`, name: 'read_file', input: { path: FILES[i] } }];
    const sent = JSON.stringify(req.body.messages);
    const id = sent.match(/· recall (r[0-9a-z]{8})\]/)[1];
    if (i === FILES.length) return [{ type: 'tool_use', id: 'toolu_back', name: 'recall', input: { id } }, { type: 'tool_use', id: 'toolu_forged', name: 'recall', input: { id: 'r00000000' } }];
    recalled = req.body.messages.at(-1).content;
    return [{ type: 'text', text: '两个调用的结果都拿到了。' }];
  };
  const messages = [{ role: 'user', content: 'Read the C core file by file, then look again at the first one.' }];
  const first = provider.requests.length;
  for (let n = 0; n < 20; n++) {
    await compactor.compact(messages);
    const reply = await client.messages.create({ model: 'claude-sonnet-4-5', max_tokens: 2048, tools, messages });
    messages.push({ role: 'assistant', content: reply.content });
    if (reply.stop_reason !== 'tool_use') break;
    const results = [];
    for (const block of reply.content) {
      if (block.type !== 'tool_use') continue;
      results.push(block.name === recall.name ? await recall.toolResult(block) : { type: 'tool_result', tool_use_id: block.id, content: read(block.input.path) });
    }
    messages.push({ role: 'user', content: results });
  }
  const sent = provider.requests.slice(first);
  assert.equal(sent.length, FILES.length + 2);
  assert.ok(sent.every((q) => q.status === 200), JSON.stringify(sent.map((q) => q.error)));
  assert.ok(sent.every((q) => q.body.tools.some((t) => t.name === 'recall' && t.input_schema.type === 'object')));
  // both parallel recall calls answered in the next user message: the content, and an error for the forged id
  assert.equal(recalled.length, 2);
  const [back, forged] = recalled;
  assert.equal(back.tool_use_id, 'toolu_back');
  assert.equal(back.is_error, undefined);
  assert.match(back.content, /^recall r[0-9a-z]{8} · read_file result, \d+ chars · page 1 of \d+/);
  assert.ok(back.content.includes(read(FILES[0]).slice(0, 200)));
  assert.equal(forged.is_error, true);
  assert.match(forged.content, /^recall error: nothing is archived under r00000000/);
});

test('OpenAI Responses: the function tool and its function_call_output are accepted', async () => {
  const client = new OpenAI({ apiKey: 'test-key', baseURL: `${provider.url}/v1`, maxRetries: 0 });
  const archive = recallArchive({ store: memoryStateStore(), conversation: 'responses-1' });
  const recall = createRecallTool({ archive, random: seeded });
  const input = [
    { type: 'message', role: 'user', content: [{ type: 'input_text', text: '查看 src/micro.c 和 src/marker.c' }] },
    { type: 'function_call', call_id: 'call_a', name: 'read_file', arguments: '{"path":"src/micro.c"}' },
    { type: 'function_call', call_id: 'call_b', name: 'read_file', arguments: '{"path":"src/marker.c"}' },
    { type: 'function_call_output', call_id: 'call_a', output: read('src/micro.c') },
    { type: 'function_call_output', call_id: 'call_b', output: read('src/marker.c') },
    { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: '两个文件都读完了。' }] },
    { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'marker.c 里的 recall 是怎么写的？' }] },
  ];
  const report = await recallMicroCompact(input, { archive, keepRecent: 0 });
  assert.equal(report.cleared, 2);
  const call = { type: 'function_call', call_id: 'call_r', name: 'recall', arguments: JSON.stringify({ id: report.edits[1].recall }) };
  provider.reply = () => [{ type: 'message', role: 'assistant', id: 'msg_1', status: 'completed', content: [{ type: 'output_text', text: '找到了。', annotations: [] }] }];
  const at = provider.requests.length;
  await client.responses.create({ model: 'gpt-5', store: false, tools: [recall.responsesDefinition],
    input: [...input, call, await recall.responsesOutput(call)] });
  const q = provider.requests[at];
  assert.equal(q.status, 200, JSON.stringify(q.error));
  const output = q.body.input.at(-1);
  assert.equal(output.call_id, 'call_r');
  assert.ok(output.output.includes('mf_write_marker_recall'));
  assert.deepEqual(q.body.tools[0].parameters.required, undefined);
});
