// Async tool calls (OpenAI's async tool calling, GPT-6: a function tool defined with `async: true`). The model
// goes on working after such a call; the application sends its output in a later request, matched by call_id, so
// a conversation legitimately holds a call with no output yet. Until the output comes the call is unresolved:
// midfold never folds it (the output would then answer no call, which the API rejects) and validate does not
// report it. Once answered, the call and its output fold together. The mock (tests/helpers/mock-responses.mjs)
// accepts a waiting async call and rejects an output without its call; requests go through the real `openai`
// client.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { init, Compactor, validate, microCompact } from '../../js/hosts/node.js';
import { startMockResponses } from '../helpers/mock-responses.mjs';
import { CORE_NAMES, readWorkloadFile } from '../helpers/corpus.mjs';

const FILES = CORE_NAMES.filter((f) => f.endsWith('.c')).sort().map((f) => `src/${f}`);
const read = readWorkloadFile;
const CI_CALL = { type: 'function_call', id: 'fc_ci', call_id: 'call_ci', name: 'run_ci', arguments: '{"branch":"main","suite":"full"}', status: 'completed', async: true };
const CI_OUTPUT = { type: 'function_call_output', call_id: 'call_ci', output: 'CI #4821 on main: 3 failed, 118 passed\nFAIL tests/net.test.ts > retries after a reset (timeout 5000 ms)' };

/** One turn of a code-review agent: the user asks about a file, the model reads it and answers. */
function turn(t) {
  const path = FILES[t % FILES.length];
  return [
    { role: 'user', content: `What does ${path} do?` },
    { type: 'function_call', id: `fc_${t}`, call_id: `call_${t}`, name: 'read_file', arguments: JSON.stringify({ path }), status: 'completed' },
    { type: 'function_call_output', call_id: `call_${t}`, output: read(path) },
    { type: 'message', id: `msg_${t}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: `${path} is part of the core.`, annotations: [] }] },
  ];
}

/** A session in which, at turn 2, the model also starts the CI run asynchronously (in the same response as its read). */
function session(turns) {
  const input = [{ role: 'developer', content: 'You review C code in /repo. Start slow jobs asynchronously.' }];
  for (let t = 0; t < turns; t++) {
    const items = turn(t);
    if (t === 2) items.splice(1, 0, CI_CALL);
    input.push(...items);
  }
  return input;
}

const compactor = () => new Compactor({ threshold: 8000, keepTail: { tokens: 3000 }, summarize: async () => 'Reviewed the adapters; the CI run on main was started.' });

let api, client;
before(async () => {
  await init();
  api = await startMockResponses();
  client = new OpenAI({ apiKey: 'test-key', baseURL: `${api.url}/v1`, maxRetries: 0 });
});
after(() => api.close());
const send = (input) => client.responses.create({ model: 'gpt-6-astra', input });

test('an async call may wait for its output; a plain call may not', async () => {
  const waiting = session(4);
  assert.deepEqual(validate(waiting).problems, []);
  assert.equal((await send(waiting)).output_text, 'ok');
  const plain = session(4).map((m) => (m === CI_CALL ? { ...CI_CALL, async: undefined } : m));
  assert.deepEqual(validate(plain).problems.map((p) => p.code), ['call-without-result']);
  await assert.rejects(send(plain), (e) => e instanceof OpenAI.BadRequestError && /No tool output found for function call call_ci/.test(e.message));
});

test('the mock rejects an output whose async call is gone (what folding the waiting call would lead to)', async () => {
  const folded = [...session(10).filter((m) => m !== CI_CALL), CI_OUTPUT, { role: 'user', content: 'The CI run finished. What failed?' }];
  await assert.rejects(send(folded), (e) => e instanceof OpenAI.BadRequestError && /No tool call found for function call output with call_id call_ci/.test(e.message));
});

test('through the openai client: a fold keeps the waiting call, its output later answers it, and a later fold takes both', async () => {
  const input = session(10);
  const first = await compactor().compact(input);
  assert.equal(first.compacted, true);
  assert.ok(input.includes(CI_CALL), 'the waiting call is kept');
  assert.ok(input.indexOf(CI_CALL) > input.findIndex((m) => m.role === 'user' && String(m.content).startsWith('[Context Compressed]')));
  assert.ok(first.summarizedMessages > 0, 'what came before it folded');
  assert.deepEqual(validate(input).problems, []);
  assert.equal((await send(input)).output_text, 'ok');

  // The CI run finishes; the application sends its output, and the session goes on.
  input.push(CI_OUTPUT, { role: 'user', content: 'The CI run finished. Which test failed?' },
    { type: 'message', id: 'msg_ci', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'tests/net.test.ts, the retry test.', annotations: [] }] });
  for (let t = 10; t < 16; t++) input.push(...turn(t));
  assert.deepEqual(validate(input).problems, []);
  assert.equal((await send(input)).output_text, 'ok');

  const second = await compactor().compact(input);
  assert.equal(second.compacted, true);
  assert.equal(input.includes(CI_CALL), input.includes(CI_OUTPUT), 'the call and its output are folded or kept together');
  assert.ok(!input.includes(CI_CALL), 'answered, the call is no longer held back');
  assert.deepEqual(validate(input).problems, []);
  assert.equal((await send(input)).output_text, 'ok');
});

test('micro-compaction leaves the waiting call alone and still clears the old outputs around it', () => {
  const input = session(6);
  const report = microCompact(input, { keepRecent: 1 });
  assert.ok(report.cleared >= 4);
  assert.deepEqual(input.find((m) => m.call_id === 'call_ci'), CI_CALL);
  assert.deepEqual(validate(input).problems, []);
});
