// Long tool loops with encrypted reasoning through the OpenAI Responses API: the reasoning binds the items before
// it, so no client edit may land while the loop runs, and midfold asks the server to compact inside the loop
// (`context_management: [{type: 'compaction', compact_threshold}]`, docs/provider-rules.md, "OpenAI Responses:
// server-side compaction"). The loop goes on from the compaction item the server returns. The strict provider
// (tests/helpers/strict-provider.mjs, `responsesBinding`) checks every reasoning item against the items before it
// as the model read them and drops, without an error, the reasoning whose items before it changed (as the API does,
// "Preserved reasoning"); it compacts once what the model reads crosses the threshold, and records how much the model
// read and which reasoning it dropped. Reached through the real openai client, the Agents SDK's Runner and the AI SDK's OpenAI provider.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { init, Compactor, digestSummarizer, responsesServerContext, responsesContextManagement, validate } from 'midfold';
import { startStrictProvider } from '../helpers/strict-provider.mjs';
import { startMockResponses } from '../helpers/mock-responses.mjs';
import { CORE_NAMES, coreFileSize, readWorkloadFile } from '../helpers/corpus.mjs';

// C files of 3–13 KB (about 1,000–4,000 tokens each as the provider counts here), read in turn.
const FILES = CORE_NAMES.filter((f) => f.endsWith('.c') && coreFileSize(f) > 3000 && coreFileSize(f) < 13000)
  .sort().map((f) => `src/${f}`);
const read = readWorkloadFile;
const READS = 37; // 38 requests: 37 reads, then the answer
const THRESHOLD = 20_000;

let provider;
before(async () => { await init(); provider = await startStrictProvider({ responsesBinding: true }); });
after(() => provider.close());

let loops = 0;
/** Scripts one loop of `reads` reads: each step reasons, then reads the next file; the last one answers. */
function script(reads = READS) {
  const loop = ++loops;
  let step = 0;
  provider.reply = () => {
    const i = step++;
    const reasoning = { type: 'reasoning', id: `rs_${loop}_${i}`, summary: [{ type: 'summary_text', text: `Step ${i}: ${FILES[i % FILES.length]} is next.` }] };
    return i < reads
      ? [reasoning, { type: 'function_call', id: `fc_${loop}_${i}`, call_id: `call_${loop}_${i}`, name: 'read_file', arguments: JSON.stringify({ path: FILES[i % FILES.length] }), status: 'completed' }]
      : [reasoning, { type: 'message', id: `msg_${loop}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: `I read ${reads} files.`, annotations: [] }] }];
  };
  return loop;
}
/** The reasoning the server dropped from the requests `sent` (its prefix had changed). */
const droppedIn = (sent) => sent.flatMap((q) => q.droppedReasoning ?? []);
/**
 * The ids of the reasoning items after `input`'s first tool output that differs from the one `earlier` holds for
 * its call (a cleared result): the reasoning whose prefix changed.
 */
function reasoningAfterFirstEdit(input, earlier) {
  const original = new Map(earlier.filter((x) => x.type === 'function_call_output').map((x) => [x.call_id, JSON.stringify(x.output)]));
  const at = input.findIndex((x) => x.type === 'function_call_output' && original.has(x.call_id) && original.get(x.call_id) !== JSON.stringify(x.output));
  return at === -1 ? [] : input.slice(at).filter((x) => x.type === 'reasoning').map((x) => x.id);
}
const readOf = (q) => q.read ?? Math.ceil(JSON.stringify(q.body.input).length / 4);
const TOOLS = [{ type: 'function', name: 'read_file', description: 'Read a file of the repository', strict: false,
  parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } }];

/** A loop of `reads` reads through the openai client; `server` says whether midfold asks for server-side compaction. */
async function openaiLoop(server, reads = READS) {
  const loop = script(reads);
  const client = new OpenAI({ baseURL: `${provider.url}/v1`, apiKey: 'sk-test', maxRetries: 0 });
  const compactor = new Compactor({ summarize: digestSummarizer(), threshold: THRESHOLD, format: 'openai-responses' });
  const items = [{ role: 'user', content: `Read the C core, file by file (${loop}), and tell me where tool results meet their calls.` }];
  const reports = [];
  const first = provider.requests.length;
  let text = '';
  for (let n = 0; n < reads + 2; n++) {
    const report = await compactor.compact(items);
    reports.push(report);
    const s = server ? responsesServerContext(compactor, items, report) : { input: items };
    const res = await client.responses.create({ model: 'gpt-5.5', instructions: 'You are a coding agent. Read before you answer.', tools: TOOLS,
      reasoning: { effort: 'medium' }, include: ['reasoning.encrypted_content'], store: false, input: s.input,
      ...(s.context_management ? { context_management: s.context_management } : {}) });
    // (a count of a compacted or cut input is not the count of `items`: it anchors nothing)
    if (s.input === items && !res.output.some((o) => o.type === 'compaction')) compactor.observeUsage({ inputTokens: res.usage.input_tokens, messages: items });
    items.push(...res.output);
    const calls = res.output.filter((o) => o.type === 'function_call');
    if (!calls.length) { text = res.output_text; break; }
    for (const c of calls) items.push({ type: 'function_call_output', call_id: c.call_id, output: read(JSON.parse(c.arguments).path) });
  }
  return { text, sent: provider.requests.slice(first), reports, items, compactor };
}

describe('a 38-request loop with encrypted reasoning, openai client', () => {
  test('midfold asks for server-side compaction inside the loop: no request reads more than 1.25x the threshold, every one accepted', async () => {
    const { text, sent, reports, items, compactor } = await openaiLoop(true);
    assert.equal(text, `I read ${READS} files.`);
    assert.equal(sent.length, READS + 1);
    assert.deepStrictEqual(sent.map((q) => q.error?.message ?? q.status), sent.map(() => 200), 'every request accepted');
    assert.deepStrictEqual(droppedIn(sent), [], 'and the server dropped none of the loop\'s reasoning');
    assert.ok(reports.some((r) => r.reason === 'deferred-thinking'), 'midfold could not edit the loop itself');
    assert.ok(reports.every((r) => !r.compacted && !(r.micro && r.micro.cleared)), 'and did not');
    const asked = sent.filter((q) => q.body.context_management);
    assert.ok(asked.length > 0);
    assert.deepStrictEqual(asked[0].body.context_management, [{ type: 'compaction', compact_threshold: THRESHOLD }]);
    const compacted = sent.filter((q) => q.compacted);
    assert.ok(compacted.length >= 1, 'the server compacted');
    // After the first compaction item came back, each request goes on from the last one, as the server reads it.
    const later = sent.slice(sent.indexOf(compacted[0]) + 1);
    assert.ok(later.length > 0 && later.every((q) => q.body.input[0].type === 'compaction'));
    assert.ok(later.every((q) => q.body.input.filter((x) => x.type === 'compaction').length === 1), 'one compaction item, first');
    const peak = Math.max(...sent.map(readOf));
    assert.ok(peak <= 1.25 * THRESHOLD, `the server read at most ${peak} tokens`);
    assert.ok(Math.ceil(JSON.stringify(items).length / 4) > 3 * THRESHOLD, 'the loop itself grew far past the threshold');
    // The next turn: midfold reads from the compaction item on (what precedes it is not counted again), and the
    // request goes on from it.
    items.push({ role: 'user', content: '那么结果和调用是在哪里配对的？' });
    const asSent = structuredClone(items); // (compact edits `items` in place)
    const report = await compactor.compact(items);
    assert.ok(report.tokensBefore <= 1.25 * THRESHOLD, `midfold counts ${report.tokensBefore} tokens, from the item on`);
    const s = responsesServerContext(compactor, items, report);
    assert.equal(s.input[0].type, 'compaction');
    provider.reply = () => [{ type: 'message', id: 'msg_next', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: '在 src/view.c。', annotations: [] }] }];
    const client = new OpenAI({ baseURL: `${provider.url}/v1`, apiKey: 'sk-test', maxRetries: 0 });
    const res = await client.responses.create({ model: 'gpt-5.5', tools: TOOLS, store: false, input: s.input, ...(s.context_management ? { context_management: s.context_management } : {}) });
    assert.equal(res.output_text, '在 src/view.c。');
    assert.equal(provider.requests.at(-1).status, 200);
    assert.deepStrictEqual(provider.requests.at(-1).droppedReasoning, reasoningAfterFirstEdit(s.input, asSent));
  });

  test('the next turn clears results the last loop\'s reasoning follows: accepted, the server drops that reasoning (38 reads, three compactions)', async () => {
    // One read more than above: the server compacts three times, and the six results after its last compaction
    // item cross midfold's micro trigger at the next turn; the turn is over, so the three oldest are cleared, and
    // the reasoning after the first of them no longer follows what it was produced after.
    const reads = READS + 1;
    const { text, sent, items, compactor } = await openaiLoop(true, reads);
    assert.equal(text, `I read ${reads} files.`);
    assert.deepStrictEqual(sent.map((q) => q.error?.message ?? q.status), sent.map(() => 200));
    assert.deepStrictEqual(droppedIn(sent), [], 'nothing dropped inside the loop');
    assert.equal(sent.filter((q) => q.compacted).length, 3);
    items.push({ role: 'user', content: '那么结果和调用是在哪里配对的？' });
    const asSent = structuredClone(items); // (compact edits `items` in place)
    const report = await compactor.compact(items);
    assert.ok(!report.compacted && report.micro && report.micro.cleared === 3, 'midfold clears the last turn\'s oldest results');
    const s = responsesServerContext(compactor, items, report);
    assert.equal(s.input[0].type, 'compaction');
    const affected = reasoningAfterFirstEdit(s.input, asSent);
    assert.deepStrictEqual(affected, [33, 34, 35, 36, 37, 38].map((i) => `rs_${loops}_${i}`));
    provider.reply = () => [{ type: 'message', id: 'msg_next', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: '在 src/view.c。', annotations: [] }] }];
    const client = new OpenAI({ baseURL: `${provider.url}/v1`, apiKey: 'sk-test', maxRetries: 0 });
    const res = await client.responses.create({ model: 'gpt-5.5', tools: TOOLS, store: false, input: s.input });
    assert.equal(res.output_text, '在 src/view.c。');
    const q = provider.requests.at(-1);
    assert.equal(q.status, 200);
    assert.deepStrictEqual(q.droppedReasoning, affected, 'the reasoning after the first cleared result, and only it');
  });

  test('without it, the same loop sends requests far past the threshold (what the server compaction saves)', async () => {
    const { sent } = await openaiLoop(false);
    assert.ok(sent.every((q) => q.status === 200));
    assert.deepStrictEqual(droppedIn(sent), []);
    assert.ok(Math.max(...sent.map(readOf)) > 3 * THRESHOLD);
  });

  test('the strict server drops reasoning after a changed prefix, without an error, and refuses an unknown context_management type', async () => {
    script();
    const client = new OpenAI({ baseURL: `${provider.url}/v1`, apiKey: 'sk-test', maxRetries: 0 });
    const input = [{ role: 'user', content: 'Read src/view.c.' }];
    const res = await client.responses.create({ model: 'gpt-5.5', input, tools: TOOLS, store: false, include: ['reasoning.encrypted_content'] });
    const call = res.output.find((o) => o.type === 'function_call');
    const next = [...input, ...res.output, { type: 'function_call_output', call_id: call.call_id, output: read('src/view.c') }];
    const res2 = await client.responses.create({ model: 'gpt-5.5', input: next, tools: TOOLS, store: false, include: ['reasoning.encrypted_content'] });
    assert.deepStrictEqual(provider.requests.at(-1).droppedReasoning, []);
    const call2 = res2.output.find((o) => o.type === 'function_call');
    const after = [...next, ...res2.output, { type: 'function_call_output', call_id: call2.call_id, output: read('src/micro.c') }];
    const [first, second] = after.filter((x) => x.type === 'reasoning').map((x) => x.id);
    // An edited user message: both reasoning items follow it, both go; the request is answered.
    const edited = structuredClone(after);
    edited[0].content = 'Read src/view.c, please.';
    await client.responses.create({ model: 'gpt-5.5', input: edited, tools: TOOLS, store: false });
    assert.equal(provider.requests.at(-1).status, 200);
    assert.deepStrictEqual(provider.requests.at(-1).droppedReasoning, [first, second]);
    // A shortened tool result: only the reasoning after it goes, the one that chose the call stays.
    const shortened = structuredClone(after);
    shortened[3].output = `${shortened[3].output.slice(0, 200)}\n[cleared]`;
    await client.responses.create({ model: 'gpt-5.5', input: shortened, tools: TOOLS, store: false });
    assert.equal(provider.requests.at(-1).status, 200);
    assert.deepStrictEqual(provider.requests.at(-1).droppedReasoning, [second]);
    // Unchanged: nothing goes.
    await client.responses.create({ model: 'gpt-5.5', input: after, tools: TOOLS, store: false });
    assert.deepStrictEqual(provider.requests.at(-1).droppedReasoning, []);
    await assert.rejects(client.responses.create({ model: 'gpt-5.5', input, context_management: [{ type: 'truncate' }] }), (e) => e.status === 400 && /only 'compaction'/.test(e.message));
    assert.deepStrictEqual(responsesContextManagement(45_000), [{ type: 'compaction', compact_threshold: 45_000 }]);
  });
});

describe('one output per call (both Responses mocks)', () => {
  const input = [{ role: 'user', content: '查一下杭州的天气' },
    { type: 'function_call', id: 'fc_1', call_id: 'call_wx_hz', name: 'get_weather', arguments: '{"city":"杭州"}', status: 'completed' },
    { type: 'function_call_output', call_id: 'call_wx_hz', output: '杭州：小雨转多云，18–23°C' },
    { type: 'function_call_output', call_id: 'call_wx_hz', output: '杭州：小雨转多云，18–23°C' }];
  test('the strict provider refuses a repeated function_call_output for one call_id', async () => {
    const client = new OpenAI({ baseURL: `${provider.url}/v1`, apiKey: 'sk-test', maxRetries: 0 });
    provider.reply = null;
    await assert.rejects(client.responses.create({ model: 'gpt-5.5', input }), (e) => e.status === 400 && /Duplicate function_call_output for call_id 'call_wx_hz'/.test(e.message));
    await client.responses.create({ model: 'gpt-5.5', input: input.slice(0, 3) });
  });
  test("midfold's validate reports it, as the API would refuse it", () => {
    const v = validate(input, { format: 'openai-responses' });
    assert.equal(v.ok, false);
    assert.deepStrictEqual(v.problems.map((p) => [p.code, p.index]), [['duplicate-id', 3]]);
    assert.deepStrictEqual(validate(input.slice(0, 3), { format: 'openai-responses' }).problems, []);
  });
  test('the Responses mock refuses it too', async () => {
    const api = await startMockResponses();
    try {
      const client = new OpenAI({ baseURL: `${api.url}/v1`, apiKey: 'sk-test', maxRetries: 0 });
      await assert.rejects(client.responses.create({ model: 'gpt-5.5', input }), (e) => e.status === 400 && /Duplicate function_call_output for call_id 'call_wx_hz'/.test(e.message));
      await client.responses.create({ model: 'gpt-5.5', input: input.slice(0, 3) });
    } finally { await api.close(); }
  });
});

describe('an Agents SDK run with reasoning (Runner, compactionFilter, the server\'s compaction on)', () => {
  /** A turn of `reads` calls through the Runner with midfold's filter, then the next turn; what was sent in each. */
  async function agentsTurns(reads) {
    const { Agent, Runner, tool } = await import('@openai/agents');
    const { OpenAIProvider } = await import('@openai/agents-openai');
    const { compactionFilter } = await import('midfold/openai-agents');
    const { z } = await import('zod');
    const loop = script(reads);
    const reports = [];
    const agent = new Agent({ name: 'reader', instructions: 'You are a coding agent. Read before you answer.', model: 'gpt-5.5',
      tools: [tool({ name: 'read_file', description: 'Read a file of the repository', parameters: z.object({ path: z.string() }), execute: async ({ path }) => read(path) })],
      modelSettings: { store: false, reasoning: { effort: 'medium' }, providerData: { include: ['reasoning.encrypted_content'] },
        contextManagement: responsesContextManagement(THRESHOLD) } });
    const runner = new Runner({ modelProvider: new OpenAIProvider({ apiKey: 'sk-test', baseURL: `${provider.url}/v1`, useResponses: true }), tracingDisabled: true });
    const callModelInputFilter = compactionFilter({ summarize: digestSummarizer(), threshold: THRESHOLD, onReport: (r) => reports.push(r) });
    const first = provider.requests.length;
    const result = await runner.run(agent, `Read the C core, file by file (${loop}), and tell me where tool results meet their calls.`, { maxTurns: reads + 3, callModelInputFilter });
    const sent = provider.requests.slice(first);
    const loopReports = reports.splice(0);
    provider.reply = () => [{ type: 'message', id: `msg_${loop}_next`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'src/view.c pairs them.', annotations: [] }] }];
    const from = provider.requests.length;
    const next = await runner.run(agent, [...result.history, { role: 'user', content: 'So where are they paired?' }], { maxTurns: 2, callModelInputFilter });
    return { loop, result, sent, reports: loopReports, next, q: provider.requests[from], nextReport: reports[0] };
  }

  test('a 38-call turn: no request reads more than 1.25x the threshold, every one accepted; the next turn goes on from the compaction item', async () => {
    const { result, sent, reports, next, q } = await agentsTurns(READS);
    assert.equal(result.finalOutput, `I read ${READS} files.`);
    assert.equal(sent.length, READS + 1);
    assert.deepStrictEqual(sent.map((r) => r.error?.message ?? r.status), sent.map(() => 200), 'every request accepted');
    assert.deepStrictEqual(droppedIn(sent), [], 'and the server dropped none of the loop\'s reasoning');
    assert.ok(reports.some((r) => r.reason === 'deferred-thinking') && reports.every((r) => !r.compacted), 'midfold left the loop to the server');
    assert.ok(sent.every((r) => JSON.stringify(r.body.context_management) === JSON.stringify([{ type: 'compaction', compact_threshold: THRESHOLD }])));
    const compacted = sent.filter((r) => r.compacted);
    assert.ok(compacted.length >= 1, 'the server compacted');
    const later = sent.slice(sent.indexOf(compacted[0]) + 1);
    assert.ok(later.length > 0 && later.every((r) => r.body.input[0].type === 'compaction'), 'sent from the compaction item on');
    const peak = Math.max(...sent.map(readOf));
    assert.ok(peak <= 1.25 * THRESHOLD, `the server read at most ${peak} tokens`);
    assert.ok(result.history.some((i) => i.type === 'compaction'), 'the run\'s history keeps the compaction item');
    // The next turn: the history goes on from the compaction item, and is accepted.
    assert.equal(next.finalOutput, 'src/view.c pairs them.');
    assert.equal(q.status, 200);
    assert.equal(q.body.input[0].type, 'compaction');
    assert.ok(readOf(q) <= 1.25 * THRESHOLD);
    assert.deepStrictEqual(q.droppedReasoning, reasoningAfterFirstEdit(q.body.input, sent.flatMap((r) => r.body.input)));
  });

  test('a 38-read turn, then one that clears results the loop\'s reasoning follows: accepted, the server drops that reasoning', async () => {
    const reads = READS + 1;
    const { loop, result, sent, next, q, nextReport } = await agentsTurns(reads);
    assert.equal(result.finalOutput, `I read ${reads} files.`);
    assert.deepStrictEqual(sent.map((r) => r.error?.message ?? r.status), sent.map(() => 200));
    assert.deepStrictEqual(droppedIn(sent), [], 'nothing dropped inside the loop');
    assert.ok(nextReport && !nextReport.compacted && nextReport.micro && nextReport.micro.cleared > 0, 'midfold clears at the turn boundary');
    assert.equal(next.finalOutput, 'src/view.c pairs them.');
    assert.equal(q.status, 200);
    assert.equal(q.body.input[0].type, 'compaction');
    const affected = reasoningAfterFirstEdit(q.body.input, sent.flatMap((r) => r.body.input));
    assert.ok(affected.length > 0 && affected.every((id) => id.startsWith(`rs_${loop}_`)));
    assert.deepStrictEqual(q.droppedReasoning, affected, 'the reasoning after the first cleared result, and only it');
  });
});

describe('the AI SDK\'s OpenAI Responses model, a 38-step loop with encrypted reasoning', () => {
  const STACKS = [
    { label: 'ai 7, @ai-sdk/openai 4', ai: 'ai-v7', openai: '@ai-sdk/openai-v4', spec: 'v4', server: true },
    { label: 'ai 6, @ai-sdk/openai 3', ai: 'ai', openai: '@ai-sdk/openai', spec: 'v3', server: false },
  ];
  for (const stack of STACKS) {
    for (const hook of ['middleware', 'prepareStep']) {
      test(`${stack.label}, ${hook === 'middleware' ? 'midfoldMiddleware' : 'compactStep'}: ${stack.server ? 'the server compacts inside the loop, within 1.25x of the threshold' : 'no server-side compaction in 3.x: midfold warns once the loop passes the threshold'}`, async () => {
        const ai = await import(stack.ai);
        const { createOpenAI } = await import(stack.openai);
        const { compactStep, midfoldMiddleware } = await import('midfold/ai-sdk');
        const { z } = await import('zod');
        const base = createOpenAI({ baseURL: `${provider.url}/v1`, apiKey: 'sk-test' }).responses('gpt-5.5');
        const loop = script();
        const reports = [];
        const warnings = [];
        const options = { summarize: digestSummarizer(), threshold: THRESHOLD, onReport: (r) => reports.push(r), onWarn: (m) => warnings.push(m) };
        const call = hook === 'middleware'
          ? { model: ai.wrapLanguageModel({ model: base, middleware: midfoldMiddleware({ ...options, specificationVersion: stack.spec }) }) }
          : { model: base, prepareStep: compactStep(options) };
        const tools = { read_file: ai.tool({ description: 'Read a file of the repository', inputSchema: z.object({ path: z.string() }), execute: async ({ path }) => read(path) }) };
        const first = provider.requests.length;
        const result = await ai.generateText({ ...call, tools, stopWhen: ai.stepCountIs(READS + 2),
          providerOptions: { openai: { store: false, include: ['reasoning.encrypted_content'], reasoningEffort: 'medium' } },
          system: 'You are a coding agent. Read before you answer.',
          messages: [{ role: 'user', content: `Read the C core, file by file (${loop}), and tell me where tool results meet their calls.` }] });
        assert.equal(result.text, `I read ${READS} files.`);
        const sent = provider.requests.slice(first);
        assert.equal(sent.length, READS + 1);
        assert.deepStrictEqual(sent.map((q) => q.error?.message ?? q.status), sent.map(() => 200), 'every request accepted');
        const waited = reports.filter((r) => r.reason === 'deferred-thinking');
        assert.ok(waited.length > 0 && reports.every((r) => !r.compacted));
        const peak = Math.max(...sent.map(readOf));
        if (stack.server) {
          assert.ok(waited.every((r) => r.serverContext === 'requested'));
          assert.deepStrictEqual(sent.filter((q) => q.body.context_management)[0].body.context_management, [{ type: 'compaction', compact_threshold: THRESHOLD }]);
          const compacted = sent.filter((q) => q.compacted);
          assert.ok(compacted.length >= 1, 'the server compacted');
          const later = sent.slice(sent.indexOf(compacted[0]) + 1);
          assert.ok(later.length > 0 && later.every((q) => q.body.input.find((x) => x.role !== 'system' && x.role !== 'developer').type === 'compaction'), 'sent from the compaction item on');
          assert.ok(peak <= 1.25 * THRESHOLD, `the server read at most ${peak} tokens`);
          assert.deepStrictEqual(warnings, []);
        } else {
          assert.ok(sent.every((q) => q.body.context_management == null));
          assert.ok(waited.every((r) => r.serverContext === 'unsupported'));
          assert.equal(warnings.length, 1);
          const at = Number(/in flight at (\d+) tokens/.exec(warnings[0])[1]);
          assert.ok(at > THRESHOLD && at <= 1.25 * THRESHOLD, `warned at ${at} tokens, with the first step past the threshold`);
          assert.ok(peak > 3 * THRESHOLD, 'then the loop grew, as the warning said');
        }
      });
    }
  }
});
