// The recall tool in an OpenAI Chat Completions loop through the real `openai` client, against a Chat
// Completions server on 127.0.0.1 that refuses what the API refuses of edited histories (every tool message
// answers a call of the assistant message before it, every call is answered: tests/helpers/deepseek-rules.mjs):
// parallel reads are cleared with recall ids, the model recalls one and asks a page past the end of it in
// parallel, and both answers go back as tool messages.
import test, { before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import OpenAI from 'openai';
import { init, Compactor, digestSummarizer, createRecallTool } from '../../js/hosts/node.js';
import { startMockLLM } from '../helpers/mock-llm.mjs';
import { deepseekRejection } from '../helpers/deepseek-rules.mjs';
import { SIZED_CORE_FILES } from '../helpers/core-files.mjs';

const read = (path) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const FILES = SIZED_CORE_FILES.slice(0, 4);

let llm;
before(async () => { await init(); llm = await startMockLLM(); });
after(() => llm.close());

const completion = (message) => ({ json: { id: 'chatcmpl-1', object: 'chat.completion', created: 1, model: 'gpt-5',
  choices: [{ index: 0, finish_reason: message.tool_calls ? 'tool_calls' : 'stop', message: { role: 'assistant', content: null, ...message } }],
  usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } } });
const call = (id, name, args) => ({ id, type: 'function', function: { name, arguments: JSON.stringify(args) } });

test('Chat Completions: cleared reads recalled by id, a page past the end an error answer; every request accepted', async () => {
  let step = 0;
  let answered = null;
  llm.respondWith((req) => {
    const refused = deepseekRejection(req.body);
    if (refused) return { status: 400, error: refused };
    const i = step++;
    if (i === 0) return completion({ tool_calls: [call('call_a', 'read_file', { path: FILES[0] }), call('call_b', 'read_file', { path: FILES[1] })] });
    if (i < 3) return completion({ tool_calls: [call(`call_${i}`, 'read_file', { path: FILES[i + 1] })] });
    const id = JSON.stringify(req.body.messages).match(/· recall (r[0-9a-z]{8})\]/)[1];
    if (i === 3) return completion({ tool_calls: [call('call_back', 'recall', { id }), call('call_past', 'recall', { id, page: 99 })] });
    answered = req.body.messages.slice(-2);
    return completion({ content: '两个文件的内容都找回来了。' });
  });
  const client = new OpenAI({ apiKey: 'test-key', baseURL: `${llm.url}/v1`, maxRetries: 0 });
  const compactor = new Compactor({ summarize: digestSummarizer(), threshold: 200_000, microTrigger: 2000, clearAtLeast: 1, keepRecent: 1, recall: true });
  const recall = createRecallTool({ compactor });
  const tools = [recall.chatDefinition, { type: 'function', function: { name: 'read_file', description: 'Read a file',
    parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } } }];
  const messages = [{ role: 'system', content: 'You read the C core.' }, { role: 'user', content: '读 C 核心的几个文件，然后再看第一个。' }];
  for (let n = 0; n < 10; n++) {
    await compactor.compact(messages);
    const reply = await client.chat.completions.create({ model: 'gpt-5', messages, tools });
    const message = reply.choices[0].message;
    messages.push(message);
    if (!message.tool_calls) break;
    for (const c of message.tool_calls) {
      messages.push(c.function.name === recall.name ? await recall.chatToolMessage(c)
        : { role: 'tool', tool_call_id: c.id, content: read(JSON.parse(c.function.arguments).path) });
    }
  }
  assert.equal(messages.at(-1).content, '两个文件的内容都找回来了。');
  assert.equal(llm.requests.length, 5);
  assert.ok(llm.requests.every((r) => r.body.tools[0].function.name === 'recall'));
  const [back, past] = answered;
  assert.equal(back.tool_call_id, 'call_back');
  assert.match(back.content, /^recall r[0-9a-z]{8} · read_file result, \d+ chars · page 1 of \d+/);
  assert.ok(back.content.includes(read(FILES[0]).slice(0, 200)));
  assert.match(past.content, /^recall error: page 99 is past the end/);
});
