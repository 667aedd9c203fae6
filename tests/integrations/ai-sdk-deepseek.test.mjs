// midfoldMiddleware through the real DeepSeek provider of the AI SDK (@ai-sdk/deepseek 2 with ai 6, 3 with
// ai 7) and, with the same middleware, the real OpenAI Chat provider: the model's provider sets the
// Compactor's default threshold (150,000 for DeepSeek, whose cached reads cost a fiftieth; 50,000 otherwise),
// and a DeepSeek V4 tool loop in thinking mode keeps every reasoning_content it must send back. DeepSeek
// reached through @ai-sdk/anthropic (its Anthropic API, requests taken to the strict Anthropic mock by the
// provider's fetch) or @ai-sdk/openai is priced by the host the model sends to, not by the provider id.
//
// The mock is a real HTTP server on 127.0.0.1 speaking Chat Completions (POST /chat/completions, DeepSeek's
// path, and /v1/chat/completions). It rejects, with a 400 as DeepSeek does, what docs/provider-rules.md
// ("DeepSeek: Chat Completions") lists: a tool message that answers no call of the assistant message before
// it, a call left unanswered, and an assistant message with tool calls but no reasoning_content in thinking
// mode. Every prompt comes back with a count in the 'deepseek' profile as `prompt_tokens`.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { init, digestSummarizer, estimateTokens } from 'midfold';
import { midfoldMiddleware, compactStep } from 'midfold/ai-sdk';
import { startMockLLM } from '../helpers/mock-llm.mjs';
import { deepseekRejection } from '../helpers/deepseek-rules.mjs';
import { startStrictProvider } from '../helpers/strict-provider.mjs';
import { CORE_NAMES, readWorkloadFile } from '../helpers/corpus.mjs';

const NODE_MAJOR = Number(process.versions.node.split('.')[0]);
const VERSIONS = [
  { label: 'ai 6', ai: 'ai', deepseek: '@ai-sdk/deepseek', openai: '@ai-sdk/openai', anthropic: '@ai-sdk/anthropic', spec: 'v3', skip: false },
  { label: 'ai 7', ai: 'ai-v7', deepseek: '@ai-sdk/deepseek-v3', openai: '@ai-sdk/openai-v4', anthropic: '@ai-sdk/anthropic-v4', spec: 'v4',
    skip: NODE_MAJOR < 22 ? `ai 7 needs Node >= 22 (this is ${process.version})` : false },
];

const read = readWorkloadFile;

let llm;
let anthropicAPI;
let files;
before(async () => {
  await init();
  llm = await startMockLLM({ respond: answer });
  anthropicAPI = await startStrictProvider();
  // The sources, in name order, until their reads pass 80,000 estimated tokens ('safe', the Compactor's
  // profile): over the default 50,000 threshold and below DeepSeek's micro-compaction trigger (120,000).
  files = [];
  let tokens = 0;
  for (const name of CORE_NAMES.filter((f) => f.endsWith('.c')).sort()) {
    if (tokens > 80000) break;
    files.push(`src/${name}`);
    tokens += estimateTokens(read(`src/${name}`), { profile: 'safe' });
  }
});
after(() => Promise.all([llm.close(), anthropicAPI.close()]));

/** The scripted model: reads `files` one call a step (with its reasoning), then answers. */
function answer(record) {
  const body = record.body;
  const problem = deepseekRejection(body);
  if (problem) return { status: 400, json: { error: { message: problem, type: 'invalid_request_error', param: null, code: 'invalid_request_error' } } };
  const lastTool = body.messages.findLast((m) => m.role === 'tool');
  const step = lastTool ? Number(lastTool.tool_call_id.slice('call_'.length)) + 1 : 0;
  const message = step < files.length
    ? { role: 'assistant', content: '', reasoning_content: `Step ${step}: ${files[step]} holds the next part of the pairing logic.`,
      tool_calls: [{ id: `call_${step}`, type: 'function', function: { name: 'read_file', arguments: JSON.stringify({ path: files[step] }) } }] }
    : { role: 'assistant', content: 'Pairing happens in src/view.c.', reasoning_content: 'Every file is read.' };
  return {
    json: {
      id: `chatcmpl-${record.path.length}-${step}`, object: 'chat.completion', created: 1764547200, model: body.model,
      choices: [{ index: 0, message, finish_reason: message.tool_calls ? 'tool_calls' : 'stop' }],
      usage: { prompt_tokens: estimateTokens(body.messages, { profile: 'deepseek', format: 'openai' }), completion_tokens: 40, total_tokens: 0 },
    },
  };
}

test('the mock rejects what DeepSeek rejects: an orphan tool message, an unanswered call, a call without reasoning_content', async () => {
  const call = { id: 'call_0', type: 'function', function: { name: 'read_file', arguments: '{"path":"src/view.c"}' } };
  const post = async (messages) => {
    const res = await fetch(`${llm.url}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'deepseek-v4-flash', messages }) });
    return [res.status, (await res.json()).error?.message];
  };
  const user = { role: 'user', content: 'Where are tool results paired?' };
  assert.deepEqual(await post([user, { role: 'tool', tool_call_id: 'call_0', content: 'x' }]),
    [400, "messages[1]: Messages with role 'tool' must be a response to a preceding message with 'tool_calls'"]);
  assert.equal((await post([user, { role: 'assistant', content: '', reasoning_content: 'r', tool_calls: [call] }, user]))[0], 400);
  assert.deepEqual(await post([user, { role: 'assistant', content: '', tool_calls: [call] }, { role: 'tool', tool_call_id: 'call_0', content: 'x' }]),
    [400, 'The reasoning_content in the thinking mode must be passed back to the API.']);
  assert.equal((await post([user, { role: 'assistant', content: '', reasoning_content: 'r', tool_calls: [call] }, { role: 'tool', tool_call_id: 'call_0', content: 'x' }]))[0], 200);
});

for (const v of VERSIONS) {
  describe(`midfoldMiddleware with ${v.deepseek} and ${v.openai} (${v.label})`, { skip: v.skip }, () => {
    test('one middleware: the DeepSeek loop is sent whole at 80k tokens, the OpenAI one is cleared; every request is accepted', async () => {
      const ai = await import(v.ai);
      const deepseek = (await import(v.deepseek)).createDeepSeek({ baseURL: llm.url, apiKey: 'sk-test' });
      const openai = (await import(v.openai)).createOpenAI({ baseURL: `${llm.url}/v1`, apiKey: 'sk-test' });
      const reports = [];
      // No pricing, no threshold: the model's provider chooses.
      const middleware = midfoldMiddleware({ summarize: digestSummarizer(), keepRecent: 2, specificationVersion: v.spec, onReport: (r) => reports.push(r) });
      const tools = { read_file: ai.tool({ description: 'Read a file of the repository', inputSchema: z.object({ path: z.string() }), execute: async ({ path }) => read(path) }) };
      const run = async (base) => {
        reports.length = 0;
        const from = llm.requests.length;
        const result = await ai.generateText({
          model: ai.wrapLanguageModel({ model: base, middleware }), tools, stopWhen: ai.stepCountIs(files.length + 1),
          messages: [{ role: 'user', content: 'Where are tool results paired with their calls?' }],
        });
        const requests = llm.requests.slice(from);
        assert.equal(result.text, 'Pairing happens in src/view.c.');
        assert.equal(requests.length, files.length + 1);
        return { requests, reports: [...reports] };
      };

      const ds = await run(deepseek('deepseek-v4-flash'));
      const last = ds.requests.at(-1).body.messages;
      assert.ok(estimateTokens(last, { profile: 'safe', format: 'openai' }) > 75000, 'the last DeepSeek request is past the default threshold');
      assert.deepStrictEqual(ds.reports.map((r) => [r.compacted, r.micro.cleared]), ds.reports.map(() => [false, 0]), 'nothing cleared or folded');
      // Sent whole, every request the one before plus what came after it: the prefix the cache holds.
      for (let i = 1; i < ds.requests.length; i++) {
        const before = ds.requests[i - 1].body.messages;
        assert.deepStrictEqual(ds.requests[i].body.messages.slice(0, before.length), before);
      }
      const results = last.filter((m) => m.role === 'tool');
      assert.deepStrictEqual(results.map((m) => m.content), files.map((f) => read(f)), 'every read verbatim');
      assert.deepStrictEqual(last.filter((m) => m.tool_calls).map((m) => m.reasoning_content),
        files.map((f, i) => `Step ${i}: ${f} holds the next part of the pairing logic.`), 'every reasoning_content sent back');

      const oa = await run(openai.chat('gpt-5.4'));
      assert.ok(oa.reports.some((r) => r.micro.cleared > 0 || r.compacted), 'the OpenAI loop was cleared at the default threshold');
      const sent = oa.requests.at(-1).body.messages;
      assert.ok(estimateTokens(sent, { profile: 'safe', format: 'openai' }) < 60000, 'and its last request is well under 80k');
      assert.deepStrictEqual(sent.at(-1).content, read(files.at(-1)), 'the pending result is verbatim');
    });

    test('folded at an explicit threshold, every request is accepted and each kept turn sends back its own reasoning', async () => {
      const ai = await import(v.ai);
      const deepseek = (await import(v.deepseek)).createDeepSeek({ baseURL: llm.url, apiKey: 'sk-test' });
      const reports = [];
      // File reads are never cleared here, so past the threshold the middle is folded.
      const middleware = midfoldMiddleware({ summarize: digestSummarizer(), threshold: 30000, excludeTools: ['read_file'], specificationVersion: v.spec, onReport: (r) => reports.push(r) });
      const tools = { read_file: ai.tool({ description: 'Read a file of the repository', inputSchema: z.object({ path: z.string() }), execute: async ({ path }) => read(path) }) };
      const from = llm.requests.length;
      const result = await ai.generateText({
        model: ai.wrapLanguageModel({ model: deepseek('deepseek-v4-flash'), middleware }), tools, stopWhen: ai.stepCountIs(files.length + 1),
        messages: [{ role: 'user', content: 'Where are tool results paired with their calls?' }],
      });
      assert.equal(result.text, 'Pairing happens in src/view.c.'); // a 400 would have thrown
      assert.ok(reports.some((r) => r.compacted), 'the middle was folded');
      const folded = llm.requests.slice(from).filter((r) => r.body.messages.some((m) => m.role === 'user' && String(m.content).startsWith('[Context Compressed]')));
      assert.ok(folded.length > 0);
      for (const r of folded) {
        const calls = r.body.messages.filter((m) => m.tool_calls);
        assert.ok(calls.length > 0, 'the pending call is kept');
        for (const m of calls) {
          const step = Number(m.tool_calls[0].id.slice('call_'.length));
          assert.equal(m.reasoning_content, `Step ${step}: ${files[step]} holds the next part of the pairing logic.`);
        }
      }
    });

    test('compactStep (prepareStep) reads the step\'s model the same way, and anchors each step on the one before', async () => {
      const ai = await import(v.ai);
      const deepseek = (await import(v.deepseek)).createDeepSeek({ baseURL: llm.url, apiKey: 'sk-test' });
      const openai = (await import(v.openai)).createOpenAI({ baseURL: `${llm.url}/v1`, apiKey: 'sk-test' });
      const tools = { read_file: ai.tool({ description: 'Read a file of the repository', inputSchema: z.object({ path: z.string() }), execute: async ({ path }) => read(path) }) };
      const run = async (model) => {
        const reports = [];
        const from = llm.requests.length;
        await ai.generateText({ model, tools, stopWhen: ai.stepCountIs(files.length + 1), messages: [{ role: 'user', content: 'Where are tool results paired with their calls?' }],
          prepareStep: compactStep({ summarize: digestSummarizer(), keepRecent: 2, onReport: (r) => reports.push(r) }) });
        // A request the mock rejects is a 400, which generateText throws.
        const requests = llm.requests.slice(from);
        assert.equal(requests.length, files.length + 1);
        return { cleared: reports.some((r) => r.micro.cleared > 0 || r.compacted), reports, requests };
      };
      const ds = await run(deepseek('deepseek-v4-flash'));
      assert.equal(ds.cleared, false);
      // The previous step's count (the mock's, in the 'deepseek' profile) covers what that step was sent; only the
      // newer messages are estimated on top. ai 6 hands each step every response message so far: counting all of
      // them as the last step's put the count on the first message alone, and the estimate came out about twice
      // the real one.
      const sent = estimateTokens(ds.requests.at(-1).body.messages, { profile: 'safe', format: 'openai' });
      const ratio = ds.reports.at(-1).tokensBefore / sent;
      assert.ok(ratio > 0.8 && ratio < 1.2, `the last step's estimate is ${ratio.toFixed(2)}x what it was sent`);
      assert.equal((await run(openai.chat('gpt-5.4'))).cleared, true);
    });

    test("DeepSeek's Anthropic API through the Anthropic provider: the host it sends to, not the provider id, chooses DeepSeek's threshold", async () => {
      const ai = await import(v.ai);
      const { createAnthropic } = await import(v.anthropic);
      // The provider believes it talks to the host in its base URL; its fetch takes every request to the strict
      // Anthropic mock instead (the path after the base URL is kept: /v1/messages).
      const at = (base) => createAnthropic({ baseURL: `${base}/v1`, apiKey: 'sk-test',
        fetch: (url, init) => fetch(String(url).replace(base, anthropicAPI.url), init) });
      const tools = { read_file: ai.tool({ description: 'Read a file of the repository', inputSchema: z.object({ path: z.string() }), execute: async ({ path }) => read(path) }) };
      const run = async (model) => {
        let step = 0;
        anthropicAPI.reply = () => {
          const i = step++;
          return i < files.length ? [{ type: 'tool_use', id: `toolu_${i}`, name: 'read_file', input: { path: files[i] } }]
            : [{ type: 'text', text: 'Pairing happens in src/view.c.' }];
        };
        const reports = [];
        const from = anthropicAPI.requests.length;
        const result = await ai.generateText({
          model: ai.wrapLanguageModel({ model, middleware: midfoldMiddleware({ summarize: digestSummarizer(), keepRecent: 2, specificationVersion: v.spec, onReport: (r) => reports.push(r) }) }),
          tools, stopWhen: ai.stepCountIs(files.length + 1), messages: [{ role: 'user', content: 'Where are tool results paired with their calls?' }],
          maxOutputTokens: 1024, // (the provider knows no limit for a DeepSeek model id and warns without one)
        });
        const requests = anthropicAPI.requests.slice(from);
        assert.equal(result.text, 'Pairing happens in src/view.c.');
        assert.deepEqual(requests.map((r) => r.status), requests.map(() => 200), 'every request accepted');
        return { cleared: reports.some((r) => r.micro.cleared > 0 || r.compacted), last: requests.at(-1).body.messages };
      };
      // DeepSeek maps Claude model names onto its own models there, so the model id says nothing either.
      for (const id of ['deepseek-v4-flash', 'claude-sonnet-4-5']) {
        const ds = await run(at('https://api.deepseek.com/anthropic')(id));
        assert.equal(ds.cleared, false, `${id} at api.deepseek.com: nothing cleared below 150,000`);
        assert.ok(estimateTokens(ds.last, { profile: 'safe', format: 'anthropic' }) > 75000, 'the loop was sent whole');
      }
      assert.equal((await run(at('https://api.anthropic.com')('claude-sonnet-4-5'))).cleared, true, 'at api.anthropic.com: cleared at 50,000');
    });

    test('@ai-sdk/openai pointed at api.deepseek.com (Chat and Responses models) gets DeepSeek\'s threshold in compactStep', async () => {
      const { createOpenAI } = await import(v.openai);
      // The same 80,000-token tool loop as above, as ModelMessages: no request is made, the model is only read.
      const loop = () => [{ role: 'user', content: 'Where are tool results paired with their calls?' }, ...files.flatMap((path, i) => [
        { role: 'assistant', content: [{ type: 'tool-call', toolCallId: `call_${i}`, toolName: 'read_file', input: { path } }] },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: `call_${i}`, toolName: 'read_file', output: { type: 'text', value: read(path) } }] },
      ])];
      const changes = async (model) => {
        const prepareStep = compactStep({ summarize: digestSummarizer(), keepRecent: 2 });
        return 'messages' in await prepareStep({ model, stepNumber: files.length, steps: [], messages: loop() });
      };
      for (const base of ['https://api.deepseek.com', 'https://api.deepseek.com/v1']) {
        const deepseek = createOpenAI({ baseURL: base, apiKey: 'sk-test' });
        assert.equal(await changes(deepseek.chat('deepseek-v4-flash')), false, `${base}, Chat Completions`);
        assert.equal(await changes(deepseek.responses('deepseek-v4-flash')), false, `${base}, Responses`);
      }
      assert.equal(await changes(createOpenAI({ apiKey: 'sk-test' }).chat('gpt-5.4')), true, 'api.openai.com: cleared at 50,000');
    });
  });
}
