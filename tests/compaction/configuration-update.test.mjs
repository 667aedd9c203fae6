// Configuration updates through a fold. A Responses `configuration_update` item (openai 7's
// ResponseConfigurationUpdateItemParam), or in the AI SDK an empty system message whose providerOptions carry
// reasoningEffortUpdate / textFormatUpdate, sets the reasoning effort or text format for every response after
// it. midfold keeps them as system messages: a fold moves the middle's updates into the head, ahead of the
// summary. Two updates in a row are rejected (the API answers 400; @ai-sdk/openai throws before sending), so
// the head holds one per run: the run's last update when it sets everything the others set, else one merged
// update. The mocks (tests/helpers/mock-responses.mjs, strict-provider.mjs) reject consecutive updates; requests
// reach them through the real `openai` client and the real @ai-sdk/openai providers.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { init, Compactor, validate, estimateTokens, detectFormat, serialize, digestSummarizer } from '../../js/hosts/node.js';
import { midfoldMiddleware } from 'midfold/ai-sdk';
import { startMockResponses } from '../helpers/mock-responses.mjs';
import { startStrictProvider } from '../helpers/strict-provider.mjs';
import { CORE_NAMES, readWorkloadFile } from '../helpers/corpus.mjs';

const FILES = CORE_NAMES.filter((f) => f.endsWith('.c')).sort().map((f) => `src/${f}`);
const read = readWorkloadFile;
const NODE_MAJOR = Number(process.versions.node.split('.')[0]);
const effort = (e, id) => ({ type: 'configuration_update', ...(id ? { id } : {}), reasoning: { effort: e } });
const JSON_FORMAT = { type: 'json_schema', name: 'finding', strict: true,
  schema: { type: 'object', properties: { file: { type: 'string' }, line: { type: 'integer' } }, required: ['file', 'line'], additionalProperties: false } };

/**
 * A Responses agent session: each turn the user asks about a file, the model reads it (a
 * function_call and its output, the file's real text) and answers. `updates[t]` goes right
 * before user turn t, where OpenAI's guidance puts an update for that turn.
 */
function session(turns, updates = {}) {
  const input = [{ role: 'developer', content: 'You review C code in /repo. Answer in one line.' }];
  for (let t = 0; t < turns; t++) {
    if (updates[t]) input.push(updates[t]);
    const path = FILES[t % FILES.length];
    input.push({ role: 'user', content: `What does ${path} do?` });
    input.push({ type: 'function_call', id: `fc_${t}`, call_id: `call_${t}`, name: 'read_file', arguments: JSON.stringify({ path }), status: 'completed' });
    input.push({ type: 'function_call_output', call_id: `call_${t}`, output: read(path) });
    input.push({ type: 'message', id: `msg_${t}`, role: 'assistant', status: 'completed',
      content: [{ type: 'output_text', text: `${path} is one adapter or algorithm of the core.`, annotations: [] }] });
  }
  return input;
}

const updatesIn = (input) => input.filter((m) => m.type === 'configuration_update');
const textOf = (content) => (typeof content === 'string' ? content : content.map((part) => part.text).join(''));
const summaryAt = (input) => input.findIndex((m) => m.role === 'user' && textOf(m.content).startsWith('[Context Compressed]'));

let api, client;
before(async () => {
  await init();
  api = await startMockResponses();
  client = new OpenAI({ apiKey: 'test-key', baseURL: `${api.url}/v1`, maxRetries: 0 });
});
after(() => api.close());
const send = (input) => client.responses.create({ model: 'gpt-6-astra', input });

test('midfold reads a configuration update as a Responses item that holds for what follows', () => {
  const input = session(3, { 1: effort('high', 'cu_1') });
  assert.equal(detectFormat(input), 'openai-responses');
  assert.deepEqual(validate(input).problems, []);
  assert.match(serialize(input), /\[system\]\n\{"type": ?"configuration_update"/);
  assert.ok(estimateTokens(input) > estimateTokens(input.filter((m) => m.type !== 'configuration_update')));
});

test('the mock and validate both reject two updates in a row (so the fold below could fail)', async () => {
  const input = session(2, { 1: effort('high') });
  input.splice(5, 0, effort('low'));
  assert.deepEqual(validate(input).problems.map((p) => [p.code, p.index]), [['bad-content', 6]]);
  await assert.rejects(send(input), (e) => e instanceof OpenAI.BadRequestError && /cannot directly follow another configuration_update/.test(e.message));
  // In the AI SDK too; a setting left null is no update (@ai-sdk/openai sends none for it).
  const ai = (effortUpdate) => ({ role: 'system', content: '', providerOptions: { openai: { reasoningEffortUpdate: effortUpdate } } });
  const chat = (a, b) => [{ role: 'user', content: [{ type: 'text', text: 'Plan it.' }] }, a, b, { role: 'user', content: [{ type: 'text', text: 'Go.' }] }];
  assert.deepEqual(validate(chat(ai('high'), ai('low'))).problems.map((p) => [p.code, p.index]), [['bad-content', 2]]);
  assert.deepEqual(validate(chat(ai(null), ai('low'))).problems, []);
});

test('through the openai client: a fold keeps the last reasoning update, untouched, ahead of the summary, and archives the one it replaced', async () => {
  const high = effort('high', 'cu_high'), low = effort('low', 'cu_low');
  const input = session(10, { 2: high, 5: low });
  let archived = null;
  const compactor = new Compactor({
    threshold: 8000, keepTail: { tokens: 3000 },
    summarize: async ({ messages }) => `Read ${messages.filter((m) => m.type === 'function_call').length} files of /repo/src.`,
    onArchive: (removed) => { archived = removed; },
  });
  const report = await compactor.compact(input);
  assert.equal(report.compacted, true);
  const kept = updatesIn(input);
  assert.equal(kept.length, 1);
  assert.equal(kept[0], low, 'the last update is sent as it was');
  assert.ok(input.indexOf(low) < summaryAt(input));
  assert.ok(archived.includes(high), 'the update it replaced went to the archive');
  assert.ok(archived.indexOf(high) < archived.findIndex((m) => m.call_id === 'call_2'), 'in conversation order');
  assert.deepEqual(validate(input).problems, []);
  const response = await send(input);
  assert.equal(response.output_text, 'ok');
  assert.deepEqual(updatesIn(api.requests.at(-1).input), [{ type: 'configuration_update', id: 'cu_low', reasoning: { effort: 'low' } }]);
});

test('through the openai client: an effort update and a later text-format update fold into one update that sets both', async () => {
  const input = session(10, { 1: effort('high', 'cu_high'), 4: { type: 'configuration_update', id: 'cu_json', text: { format: JSON_FORMAT } } });
  const report = await new Compactor({ threshold: 8000, keepTail: { tokens: 3000 }, summarize: async () => 'Read the adapters.' }).compact(input);
  assert.equal(report.compacted, true);
  // No id: it would name an item the API stored with other settings.
  assert.deepEqual(updatesIn(input), [{ type: 'configuration_update', reasoning: { effort: 'high' }, text: { format: JSON_FORMAT } }]);
  const response = await send(input);
  assert.equal(response.output_text, 'ok');
});

test('an update in the kept tail stays where it was; one in the middle still moves up ahead of the summary', async () => {
  const medium = effort('medium', 'cu_medium'), xhigh = effort('xhigh', 'cu_xhigh');
  const question = { role: 'user', content: 'Which of these files pairs tool results with their calls?' };
  const input = [...session(10, { 2: medium }), xhigh, question];
  const report = await new Compactor({ threshold: 8000, keepTail: { tokens: 3000 }, summarize: async () => 'Read the core.' }).compact(input);
  assert.equal(report.compacted, true);
  assert.deepEqual(updatesIn(input), [medium, xhigh]);
  const at = summaryAt(input);
  assert.ok(input.indexOf(medium) < at && input.indexOf(xhigh) > at);
  assert.equal(input[input.indexOf(xhigh) + 1], question, 'right before the user turn it was for');
  assert.equal((await send(input)).output_text, 'ok');
});

// The AI SDK: updates are system messages in `messages`; @ai-sdk/openai (GPT-6 and later) sends each as a
// configuration_update item and throws on two in a row.
const VERSIONS = [
  { label: 'ai 6', ai: 'ai', openai: '@ai-sdk/openai', spec: 'v3', skip: false },
  { label: 'ai 7', ai: 'ai-v7', openai: '@ai-sdk/openai-v4', spec: 'v4', skip: NODE_MAJOR < 22 ? `ai 7 needs Node >= 22 (this is ${process.version})` : false },
];
const aiUpdate = (e) => ({ role: 'system', content: '', providerOptions: { openai: { reasoningEffortUpdate: e } } });

/** An AI SDK ModelMessage history of `turns` file reads, with `updates[t]` before user turn t. */
function aiHistory(turns, updates) {
  const messages = [];
  for (let t = 0; t < turns; t++) {
    if (updates[t]) messages.push(updates[t]);
    const path = FILES[t % FILES.length];
    messages.push({ role: 'user', content: `What does ${path} do?` });
    messages.push({ role: 'assistant', content: [{ type: 'tool-call', toolCallId: `call_${t}`, toolName: 'read_file', input: { path } }] });
    messages.push({ role: 'tool', content: [{ type: 'tool-result', toolCallId: `call_${t}`, toolName: 'read_file', output: { type: 'text', value: read(path) } }] });
    messages.push({ role: 'assistant', content: `${path} is one adapter or algorithm of the core.` });
  }
  return messages;
}

test('ModelMessages: a merged update gives each provider name what @ai-sdk/openai would have read from the run', async () => {
  const messages = [...aiHistory(10, {
    1: aiUpdate('high'),
    4: { role: 'system', content: '', providerOptions: { azure: { textFormatUpdate: { type: 'text' } } } },
  }), { role: 'user', content: 'Summarize the review.' }];
  const report = await new Compactor({ threshold: 8000, keepTail: { tokens: 3000 }, summarize: async () => 'Reviewed.' }).compact(messages);
  assert.equal(report.compacted, true);
  // An Azure deployment read the first update from openai's entry (it had no azure one) and the second from azure's.
  assert.deepEqual(messages.filter((m) => m.role === 'system' && m.content === '').map((m) => m.providerOptions), [{
    openai: { reasoningEffortUpdate: 'high' },
    azure: { reasoningEffortUpdate: 'high', textFormatUpdate: { type: 'text' } },
  }]);
});

test('ModelMessages: a run whose last update sets the effort under azure only still keeps the effort openai read before', async () => {
  const messages = [...aiHistory(10, {
    1: aiUpdate('high'),
    4: { role: 'system', content: '', providerOptions: { azure: { reasoningEffortUpdate: 'low' } } },
  }), { role: 'user', content: 'Summarize the review.' }];
  await new Compactor({ threshold: 8000, keepTail: { tokens: 3000 }, summarize: async () => 'Reviewed.' }).compact(messages);
  // The openai provider never read the azure-only update; an Azure deployment read both, the later last.
  assert.deepEqual(messages.filter((m) => m.role === 'system' && m.content === '').map((m) => m.providerOptions), [{
    openai: { reasoningEffortUpdate: 'high' }, azure: { reasoningEffortUpdate: 'low' } }]);
});

describe('the AI SDK', () => {
  let provider;
  before(async () => { provider = await startStrictProvider(); });
  after(() => provider.close());

  for (const v of VERSIONS) {
    test(`through midfoldMiddleware and ${v.openai} (${v.label}): two effort updates in the folded middle reach the API as one`, { skip: v.skip }, async () => {
      const { generateText, wrapLanguageModel } = await import(v.ai);
      const openai = (await import(v.openai)).createOpenAI({ baseURL: `${provider.url}/v1`, apiKey: 'sk-test' });
      const history = aiHistory(10, { 2: aiUpdate('high'), 5: aiUpdate('low') });
      const prompt = [...history, { role: 'user', content: 'Which of these files pairs tool results with their calls?' }];
      // Unfolded, the two updates are apart and the request is fine; folded naively, they would be adjacent.
      assert.deepEqual(validate(prompt).problems, []);
      const reports = [];
      const model = wrapLanguageModel({ model: openai('gpt-6-astra'), middleware: midfoldMiddleware({
        threshold: 8000, keepTail: { tokens: 3000 }, summarize: digestSummarizer(), specificationVersion: v.spec, onReport: (r) => reports.push(r) }) });
      const from = provider.requests.length;
      const result = await generateText({ model, system: 'You review C code in /repo.', messages: prompt, allowSystemInMessages: true });
      assert.equal(result.text, 'ok'); // @ai-sdk/openai threw before sending, before the fix
      assert.ok(reports.some((r) => r.compacted));
      const [request] = provider.requests.slice(from);
      assert.equal(request.status, 200, request.error);
      assert.deepEqual(request.body.input.filter((i) => i.type === 'configuration_update'), [{ type: 'configuration_update', reasoning: { effort: 'low' } }]);
    });

    test(`the Compactor on ModelMessages, then ${v.openai} (${v.label}): an effort update and a text-format update fold into one system message`, { skip: v.skip }, async () => {
      const { generateText } = await import(v.ai);
      const openai = (await import(v.openai)).createOpenAI({ baseURL: `${provider.url}/v1`, apiKey: 'sk-test' });
      const json = { role: 'system', content: '', providerOptions: { openai: { textFormatUpdate: { type: 'json_schema', name: 'finding', schema: JSON_FORMAT.schema } } } };
      const messages = [...aiHistory(10, { 1: aiUpdate('high'), 4: json }), { role: 'user', content: 'Which file pairs tool results with their calls?' }];
      const report = await new Compactor({ threshold: 8000, keepTail: { tokens: 3000 }, summarize: async () => 'Read the adapters.' }).compact(messages);
      assert.equal(report.compacted, true);
      const updates = messages.filter((m) => m.role === 'system' && m.content === '');
      assert.deepEqual(updates, [{ role: 'system', content: '', providerOptions: { openai: {
        reasoningEffortUpdate: 'high', textFormatUpdate: json.providerOptions.openai.textFormatUpdate } } }]);
      const from = provider.requests.length;
      const result = await generateText({ model: openai('gpt-6-astra'), messages, allowSystemInMessages: true });
      assert.equal(result.text, 'ok');
      const [request] = provider.requests.slice(from);
      const [item] = request.body.input.filter((i) => i.type === 'configuration_update');
      assert.equal(item.reasoning.effort, 'high');
      assert.equal(item.text.format.type, 'json_schema');
    });
  }
});
