// midfoldMiddleware in front of the real AI SDK providers — ai 6 with @ai-sdk/anthropic 3 and @ai-sdk/openai 3,
// and ai 7 (LanguageModelV4) with the 4.x providers, which need Node >= 22 (skipped, saying so, on an older Node) —
// their requests going over HTTP to the strict mock provider on 127.0.0.1, which rejects what the APIs reject.
// Facts asserted on the exact HTTP bodies: the summary is there as text, every tool call has its result, the
// pending turn is verbatim, and each provider accepts every request of a long tool loop.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { init, digestSummarizer } from 'midfold';
import { midfoldMiddleware } from 'midfold/ai-sdk';
import { startStrictProvider } from '../helpers/strict-provider.mjs';
import { CORE_NAMES, readWorkloadFile } from '../helpers/corpus.mjs';

const FILES = CORE_NAMES.filter((f) => f.endsWith('.c')).sort().map((f) => `src/${f}`);
const read = readWorkloadFile;
const NODE_MAJOR = Number(process.versions.node.split('.')[0]);
const VERSIONS = [
  { label: 'ai 6', ai: 'ai', anthropic: '@ai-sdk/anthropic', openai: '@ai-sdk/openai', spec: 'v3', skip: false },
  { label: 'ai 7', ai: 'ai-v7', anthropic: '@ai-sdk/anthropic-v4', openai: '@ai-sdk/openai-v4', spec: 'v4',
    skip: NODE_MAJOR < 22 ? `ai 7 needs Node >= 22 (this is ${process.version})` : false },
];
const STEPS = 16;
const OPTIONS = { threshold: 6000, keepTail: { tokens: 2000 }, keepRecent: 2, summarize: digestSummarizer() };

let provider;
before(async () => { await init(); provider = await startStrictProvider(); });
after(() => provider.close());

/** Scripts the strict provider: `STEPS` file reads (one call a step), then an answer. */
function script(api) {
  let step = 0;
  provider.reply = () => {
    const i = step++;
    const path = FILES[i];
    if (api === 'anthropic') {
      return i < STEPS ? [{ type: 'text', text: `Reading ${path}.` }, { type: 'tool_use', id: `toolu_${i}`, name: 'read_file', input: { path } }]
        : [{ type: 'text', text: 'Pairing happens in src/view.c.' }];
    }
    return i < STEPS
      ? [{ type: 'function_call', id: `fc_${i}`, call_id: `call_${i}`, name: 'read_file', arguments: JSON.stringify({ path }), status: 'completed' }]
      : [{ type: 'message', id: `msg_${i}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Pairing happens in src/view.c.', annotations: [] }] }];
  };
}

const textOf = (content) => (typeof content === 'string' ? content : Array.isArray(content) ? content.map((b) => b.text || '').join('') : '');

for (const v of VERSIONS) {
  describe(`midfoldMiddleware with ${v.anthropic} (${v.label})`, { skip: v.skip }, () => {
    test('every request of a 16-step tool loop is accepted; after the fold the summary is a text block and the pending result verbatim', async () => {
      script('anthropic');
      const anthropic = (await import(v.anthropic)).createAnthropic({ baseURL: `${provider.url}/v1`, apiKey: 'sk-ant-test' });
      const reports = [];
      const { generateText, tool, stepCountIs, wrapLanguageModel } = await import(v.ai);
      const tools = { read_file: tool({ description: 'Read a file of the repository', inputSchema: z.object({ path: z.string() }), execute: async ({ path }) => read(path) }) };
      const model = wrapLanguageModel({ model: anthropic('claude-opus-4-7'), middleware: midfoldMiddleware({ ...OPTIONS, specificationVersion: v.spec, onReport: (r) => reports.push(r) }) });
      const from = provider.requests.length;
      const result = await generateText({ model, tools, stopWhen: stepCountIs(STEPS + 1), messages: [{ role: 'user', content: 'Where are tool results paired with their calls?' }] });
      assert.equal(result.text, 'Pairing happens in src/view.c.');
      const requests = provider.requests.slice(from);
      assert.equal(requests.length, STEPS + 1);
      assert.deepStrictEqual(requests.filter((r) => r.status !== 200).map((r) => r.error), []);
      assert.ok(reports.some((r) => r.compacted), 'the middleware folded the middle');
      const folded = requests.filter((r) => r.body.messages.some((m) => m.role === 'user' && textOf(m.content).startsWith('[Context Compressed]')));
      assert.ok(folded.length > 0);
      for (const r of folded) {
        const summary = r.body.messages.find((m) => textOf(m.content).startsWith('[Context Compressed]'));
        assert.ok(Array.isArray(summary.content) && summary.content.every((b) => b.type === 'text'), 'the summary is sent as text blocks');
        const last = r.body.messages.at(-1);
        const result = last.content.find((b) => b.type === 'tool_result');
        const call = r.body.messages.at(-2).content.find((b) => b.type === 'tool_use');
        assert.equal(result.tool_use_id, call.id);
        assert.equal(textOf(result.content), read(call.input.path), 'the pending result is verbatim');
      }
    });
  });

  describe(`midfoldMiddleware with ${v.openai} (Responses API, ${v.label})`, { skip: v.skip }, () => {
    test('every request of a 16-step tool loop is accepted; after the fold the summary is an input_text part', async () => {
      script('openai');
      const openai = (await import(v.openai)).createOpenAI({ baseURL: `${provider.url}/v1`, apiKey: 'sk-test' });
      const reports = [];
      const { generateText, tool, stepCountIs, wrapLanguageModel } = await import(v.ai);
      const tools = { read_file: tool({ description: 'Read a file of the repository', inputSchema: z.object({ path: z.string() }), execute: async ({ path }) => read(path) }) };
      const model = wrapLanguageModel({ model: openai('gpt-5.4'), middleware: midfoldMiddleware({ ...OPTIONS, specificationVersion: v.spec, onReport: (r) => reports.push(r) }) });
      const from = provider.requests.length;
      const result = await generateText({ model, tools, stopWhen: stepCountIs(STEPS + 1), messages: [{ role: 'user', content: 'Where are tool results paired with their calls?' }] });
      assert.equal(result.text, 'Pairing happens in src/view.c.');
      const requests = provider.requests.slice(from);
      assert.equal(requests.length, STEPS + 1);
      assert.deepStrictEqual(requests.filter((r) => r.status !== 200).map((r) => r.error), []);
      assert.ok(reports.some((r) => r.compacted));
      const folded = requests.filter((r) => r.body.input.some((item) => item.role === 'user' && textOf(item.content).startsWith('[Context Compressed]')));
      assert.ok(folded.length > 0);
      for (const r of folded) {
        const last = r.body.input.at(-1);
        assert.equal(last.type, 'function_call_output');
        const call = r.body.input.findLast((item) => item.type === 'function_call');
        assert.equal(last.call_id, call.call_id);
        assert.equal(typeof last.output === 'string' ? last.output : JSON.stringify(last.output), read(JSON.parse(call.arguments).path));
      }
    });
  });
}
