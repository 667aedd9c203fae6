// Seeded agent loops through the real SDK clients (@anthropic-ai/sdk, openai for Responses and for DeepSeek's Chat
// Completions, and ai 6 and 7 over @ai-sdk/anthropic with midfoldMiddleware) against mock providers that reject
// what the providers document they reject (tests/helpers/strict-provider.mjs, deepseek-rules.mjs), with midfold's
// Compactor run before every request at settings drawn from the seed: its threshold, how many
// results it keeps, its clearing policy, its tail, and who writes the summary (a model callback, the offline
// digest, or the provider's own compaction). Each loop mixes what real sessions mix — parallel tool calls,
// signed thinking mid-tool-loop, server tools, screenshots in tool results, failing test runs, Chinese requests
// and logs — and every request it sends must be one the provider accepts.
//
// What holds on every request of every loop:
// - the provider accepts it (pairs intact, signatures verify, compaction blocks where the provider wants them);
// - validate() finds no error in it;
// - the message just added (the live tail) is exactly as the loop wrote it;
// - a compaction that ran made the conversation smaller, and after it the estimate is under the threshold;
// - a request is over the threshold only while the Compactor waits for a tool loop with signed thinking in
//   flight (reason 'deferred-thinking'); the diagnostics print how far over such waits went (the peak).
// Seeds are pinned, so a failure names the seed and the request that reproduce it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { init, Compactor, digestSummarizer, anthropicCompaction, openAIResponsesCompaction, validate, estimateTokens }
  from '../js/hosts/node.js';
import { midfoldMiddleware, compactUIMessages, SessionState } from '../js/integrations/ai-sdk.js';
import { z } from 'zod';
import { startStrictProvider } from './helpers/strict-provider.mjs';
import { startMockLLM } from './helpers/mock-llm.mjs';
import { deepseekRejection } from './helpers/deepseek-rules.mjs';
import { prng } from './helpers/prng.mjs';


const MODULES = ['dates', 'ledger', 'invoice', 'report', 'locale', 'cache'];
const EN = ['The March report is short by one row in the north-east region; find out why.',
  'Make the rounding in {m} use integer cents and run the tests.', 'Which tests still fail? Fix the first one.',
  'Add a regression test for the time-zone bug in {m}.'];
const ZH = ['帮我看一下 src/{m}.js，三月份的报表金额不对，东北区少了一笔。', '测试还是失败，先把 {m} 里的时区处理改成统一用 UTC。',
  '这个函数太长了，拆成两个小函数，顺便把注释写成中文。'];
// A 1×1 PNG: what a screenshot tool returns, priced as an image, never as its base64.
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** What a tool printed: a source file, a test run (some failing), a grep, a Chinese log, a screenshot. */
function toolOutput(r, name, module) {
  const n = 10 + Math.floor(r() * 60);
  if (name === 'read_file') {
    return Array.from({ length: n }, (_, i) => `${i + 1}\texport function ${module}${i}(rows, opts = {}) { return rows.reduce((s, x) => s + Math.round(x.cents * ${i % 7 + 1}), 0); }`).join('\n');
  }
  if (name === 'bash') {
    const failed = Math.floor(r() * 4), passed = 40 + Math.floor(r() * 80);
    const lines = Array.from({ length: n }, (_, i) => (i % 9 === 3 && failed ? `FAIL src/${module}.test.js > rounds row ${i}\n  AssertionError: expected 1204.37 to equal 1204.38`
      : `PASS src/${module}.test.js > case ${i} (${Math.floor(r() * 40)} ms)`));
    if (r() < 0.3) lines.push(...Array.from({ length: 6 }, (_, i) => `[2026-11-30 09:1${i}:04] 警告：第 ${i + 1} 行的时区为空，按 UTC 处理`));
    lines.push(`Tests: ${failed} failed, ${passed} passed, ${failed + passed} total`);
    return lines.join('\n');
  }
  if (name === 'screenshot') return [{ type: 'text', text: `Screenshot of /reports/${module}` }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } }];
  return Array.from({ length: n }, (_, i) => `src/${MODULES[i % MODULES.length]}.js:${i * 7 + 3}:  const total = round${module}(rows[${i}], { cents: true });`).join('\n');
}

const SYSTEM = 'You are a coding agent in the sales-report repository.';
const TOOL_NAMES = ['read_file', 'bash', 'grep', 'screenshot'];
const TOOLS = TOOL_NAMES.map((name) => ({ name, description: `The ${name} tool.`, input_schema: { type: 'object', properties: { arg: { type: 'string' } } } }));
const RESPONSES_TOOLS = TOOL_NAMES.filter((n) => n !== 'screenshot').map((name) => ({ type: 'function', name, description: `The ${name} tool.`, parameters: { type: 'object', properties: { arg: { type: 'string' } } }, strict: false }));

/** The Compactor's settings for one loop, drawn from its seed. */
function settingsOf(r) {
  const threshold = 8000 + 1000 * Math.floor(r() * 10);
  return {
    threshold,
    keepRecent: 1 + Math.floor(r() * 4),
    policy: r() < 0.3 ? 'every-turn' : 'batched',
    keepTail: { tokens: 1000 + 250 * Math.floor(r() * 8) },
    // 'provider+thinking': the provider's compaction told that system and tools are the conversation's own, so
    // the kept turns keep their thinking and a fold may land mid-loop (Anthropic; elsewhere the provider's own).
    summarizer: ['model', 'digest', 'provider', 'provider+thinking'][Math.floor(r() * 4)],
  };
}

/** A model summary, as a summarizer callback returns it: short, and naming what it read. */
async function modelSummary({ prompt }) {
  const files = [...new Set(prompt.match(/src\/\w+\.js/g) || [])].slice(0, 6);
  return `The user is fixing rounding and time-zone bugs in the sales report. Files read: ${files.join(', ') || 'none'}. ` +
    'Tests were failing on rounded cents; the fix keeps integer cents.';
}

let provider;
let chat; // DeepSeek's Chat Completions (thinking mode)
before(async () => {
  await init();
  provider = await startStrictProvider();
  chat = await startMockLLM();
});
after(() => Promise.all([provider.close(), chat.close()]));

/**
 * Runs `steps` requests of an agent loop, compacting before each one. `format` supplies the wire format:
 * how a user request, an answer and tool results are written, and how a request is sent.
 */
async function runLoop(seed, format, steps) {
  const r = prng(seed);
  const s = settingsOf(r);
  const summarize = s.summarizer === 'model' ? modelSummary : s.summarizer === 'digest' ? digestSummarizer()
    : format.providerSummarizer(s.summarizer === 'provider+thinking');
  const compactor = new Compactor({ summarize, threshold: s.threshold, keepRecent: s.keepRecent, policy: s.policy, keepTail: s.keepTail });
  const messages = [];
  const where = (i) => `seed ${seed} (${JSON.stringify(s)}), request ${i}`;
  let loopSteps = 0;
  let ids = 0;
  const uid = () => ++ids; // ids unique in the session, as the provider's are (a fold shortens the list)
  const stats = { requests: 0, clearings: 0, compactions: 0, midLoop: 0, deferred: 0, peak: 0, largestStep: 0, thinkingRemoved: 0 };
  for (let i = 0; i < steps; i++) {
    const module = MODULES[Math.floor(r() * MODULES.length)];
    const last = messages.at(-1);
    if (!last || format.answered(last)) {
      const pool = r() < 0.35 ? ZH : EN;
      messages.push(format.user(pool[Math.floor(r() * pool.length)].replace('{m}', module)));
      loopSteps = 0;
    }
    const added = structuredClone(messages.at(-1));
    const report = await compactor.compact(messages);
    if (report.compacted) {
      stats.compactions++;
      if (format.inLoop(messages.at(-1))) stats.midLoop++;
      stats.thinkingRemoved += report.thinkingRemoved || 0;
      assert.ok(report.tokensAfter < report.tokensBefore, `${where(i)}: a compaction from ${report.tokensBefore} to ${report.tokensAfter}`);
      assert.ok(report.tokensAfter < s.threshold, `${where(i)}: ${report.tokensAfter} tokens after a compaction (threshold ${s.threshold})`);
    }
    if (report.micro && report.micro.cleared) stats.clearings++;
    if (report.deferred) stats.deferred++;
    assert.deepStrictEqual(messages.at(-1), added, `${where(i)}: the live tail changed`);
    const problems = validate(messages).problems.filter((p) => p.severity === 'error');
    assert.deepEqual(problems, [], `${where(i)}: validate after compaction (${report.reason})`);
    const size = estimateTokens(messages, { profile: 'safe' });
    stats.peak = Math.max(stats.peak, size);
    // Over the threshold only while a compaction waits for a tool loop whose thinking is in flight (signed
    // thinking binds everything before it: nothing may change until the turn ends).
    if (size > s.threshold) assert.equal(report.reason, 'deferred-thinking', `${where(i)}: ${size} tokens sent, threshold ${s.threshold}`);
    let reply;
    try {
      reply = await format.send(messages, r, loopSteps++, module, uid);
    } catch (error) {
      assert.fail(`${where(i)}: the provider refused the request after "${report.reason}": ${error.message}`);
    }
    stats.requests++;
    const grown = estimateTokens(messages, { profile: 'safe' });
    messages.push(...reply);
    stats.largestStep = Math.max(stats.largestStep, estimateTokens(messages, { profile: 'safe' }) - grown);
  }
  return { settings: s, stats };
}

// ---- Anthropic Messages, extended thinking (signatures bound to the conversation before them) ------------

const anthropic = {
  client: null,
  user: (text) => ({ role: 'user', content: text }),
  /** True when the last message ends a turn (an answer without tool calls). */
  answered: (m) => m.role === 'assistant' && !m.content.some((b) => b.type === 'tool_use'),
  /** True when the last message holds tool results: the loop goes on after the next request. */
  inLoop: (m) => m.role === 'user' && Array.isArray(m.content) && m.content.some((b) => b.type === 'tool_result'),
  providerSummarizer: (preservedThinking) => anthropicCompaction({ apiKey: 'sk-ant-test', baseURL: provider.url, model: 'claude-opus-4-7',
    system: SYSTEM, tools: TOOLS, preservedThinking }),
  async send(messages, r, loopStep, module, uid) {
    const calls = loopStep < 3 && r() < 0.75 ? 1 + Math.floor(r() * 3) : 0;
    provider.reply = () => {
      const content = [{ type: 'thinking', thinking: calls ? `I should look at ${module} before answering.` : 'I have what I need.' }];
      if (calls && r() < 0.2) {
        const id = `srvtoolu_${uid()}`;
        content.push({ type: 'server_tool_use', id, name: 'web_search', input: { query: `${module} rounding cents` } },
          { type: 'web_search_tool_result', tool_use_id: id, content: [{ type: 'web_search_result', url: `https://example.com/${module}`, title: `Rounding in ${module}`, encrypted_content: 'EqgfCioIARgBIiQ3YTAwMjY1Mi1mZjM5LTQ1NGUtODgxNC1kNjNjNTk1ZWI3Y2M', page_age: 'November 2, 2026' }] });
      }
      if (r() < 0.6 || !calls) content.push({ type: 'text', text: calls ? `Checking ${module}.` : `Fixed: ${module} now keeps integer cents; 0 tests fail.` });
      for (let k = 0; k < calls; k++) {
        const name = TOOL_NAMES[Math.floor(r() * TOOL_NAMES.length)];
        content.push({ type: 'tool_use', id: `toolu_${uid()}`, name, input: { arg: `src/${module}.js` } });
      }
      return content;
    };
    const response = await this.client.beta.messages.create({ model: 'claude-opus-4-7', max_tokens: 4096, system: SYSTEM,
      thinking: { type: 'enabled', budget_tokens: 2048 }, betas: ['compact-2026-09-04'], tools: TOOLS, messages });
    const out = [{ role: 'assistant', content: response.content }];
    const uses = response.content.filter((b) => b.type === 'tool_use');
    if (uses.length) {
      out.push({ role: 'user', content: uses.map((u) => ({ type: 'tool_result', tool_use_id: u.id, content: toolOutput(r, u.name, module), ...(r() < 0.1 ? { is_error: true } : {}) })) });
    }
    return out;
  },
};

// ---- OpenAI Responses, encrypted reasoning (store: false) ------------------------------------------------

const responses = {
  client: null,
  user: (text) => ({ role: 'user', content: text }),
  answered: (item) => item.type === 'message' && item.role === 'assistant',
  inLoop: (item) => item.type === 'function_call_output',
  providerSummarizer: () => openAIResponsesCompaction({ apiKey: 'sk-test', baseURL: `${provider.url}/v1`, model: 'gpt-5.4' }),
  async send(input, r, loopStep, module, uid) {
    const calls = loopStep < 3 && r() < 0.75 ? 1 + Math.floor(r() * 3) : 0;
    const n = uid();
    provider.reply = () => {
      const output = [{ type: 'reasoning', id: `rs_${n}`, summary: [{ type: 'summary_text', text: `Looking at ${module}.` }] }];
      for (let k = 0; k < calls; k++) {
        output.push({ type: 'function_call', id: `fc_${n}_${k}`, call_id: `call_${n}_${k}`, name: RESPONSES_TOOLS[Math.floor(r() * RESPONSES_TOOLS.length)].name,
          arguments: JSON.stringify({ arg: `src/${module}.js` }), status: 'completed' });
      }
      if (!calls) output.push({ type: 'message', id: `msg_${n}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: `Fixed ${module}: integer cents, tests pass.`, annotations: [] }] });
      return output;
    };
    const response = await this.client.responses.create({ model: 'gpt-5.4', input, tools: RESPONSES_TOOLS, store: false, include: ['reasoning.encrypted_content'] });
    const out = response.output.map((item) => structuredClone(item));
    for (const call of response.output.filter((item) => item.type === 'function_call')) {
      out.push({ type: 'function_call_output', call_id: call.call_id, output: toolOutput(r, call.name, module) });
    }
    return out;
  },
};

// ---- DeepSeek V4 Chat Completions in thinking mode (reasoning_content required back on tool-calling turns) --

const CHAT_TOOLS = TOOL_NAMES.filter((n) => n !== 'screenshot').map((name) => ({ type: 'function', function: { name, description: `The ${name} tool.`,
  parameters: { type: 'object', properties: { arg: { type: 'string' } } } } }));

const deepseekChat = {
  client: null,
  user: (text) => ({ role: 'user', content: text }),
  answered: (m) => m.role === 'assistant' && !(m.tool_calls && m.tool_calls.length),
  inLoop: (m) => m.role === 'tool',
  providerSummarizer: () => modelSummary, // DeepSeek has no compaction of its own
  async send(messages, r, loopStep, module, uid) {
    const calls = loopStep < 3 && r() < 0.75 ? 1 + Math.floor(r() * 3) : 0;
    const toolCalls = Array.from({ length: calls }, () => ({ id: `call_${uid()}`, type: 'function',
      function: { name: CHAT_TOOLS[Math.floor(r() * CHAT_TOOLS.length)].function.name, arguments: JSON.stringify({ arg: `src/${module}.js` }) } }));
    const message = { role: 'assistant', content: calls ? '' : `已修复 ${module}：改用整数分计算，测试全部通过。`,
      reasoning_content: calls ? `先看 ${module} 的实现和测试，再决定怎么改。` : '改动已经验证过了。', ...(calls ? { tool_calls: toolCalls } : {}) };
    chat.respondWith(({ body }) => {
      const problem = deepseekRejection(body);
      if (problem) return { status: 400, json: { error: { message: problem, type: 'invalid_request_error', param: null, code: 'invalid_request_error' } } };
      return { json: { id: `chatcmpl-${uid()}`, object: 'chat.completion', created: 1764547200, model: body.model,
        choices: [{ index: 0, message, finish_reason: calls ? 'tool_calls' : 'stop' }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } } };
    });
    const completion = await this.client.chat.completions.create({ model: 'deepseek-v4-flash', messages, tools: CHAT_TOOLS });
    const got = completion.choices[0].message;
    const out = [{ role: 'assistant', content: got.content ?? '', reasoning_content: got.reasoning_content, ...(got.tool_calls ? { tool_calls: got.tool_calls } : {}) }];
    for (const call of got.tool_calls || []) out.push({ role: 'tool', tool_call_id: call.id, content: toolOutput(r, call.function.name, module) });
    return out;
  },
};

const SEEDS = [1, 2, 3, 4, 5, 6];

test('Anthropic with thinking: 120 requests per seed, each one accepted, at settings drawn from the seed', async (t) => {
  anthropic.client = new Anthropic({ apiKey: 'sk-ant-test', baseURL: provider.url, maxRetries: 0 });
  const compactions = [];
  for (const seed of SEEDS) {
    const { settings, stats } = await runLoop(seed, anthropic, 120);
    compactions.push(stats.compactions);
    t.diagnostic(`seed ${seed}: ${JSON.stringify(settings)} -> ${JSON.stringify(stats)}`);
    if (settings.summarizer === 'provider+thinking') {
      // The provider's fold keeps the thinking valid: it lands mid-loop as well, so nothing waits, no request
      // goes over the threshold, and no kept turn loses its thinking.
      assert.ok(stats.midLoop > 0, `seed ${seed}: folds mid-loop`);
      assert.ok(stats.peak <= settings.threshold, `seed ${seed}: peak ${stats.peak}, threshold ${settings.threshold}`);
      assert.equal(stats.thinkingRemoved, 0, `seed ${seed}: thinking removed`);
    }
  }
  assert.ok(SEEDS.some((seed) => settingsOf(prng(seed)).summarizer === 'provider+thinking'), 'a seed folds with preserved thinking');
  // The loops reach the threshold: they test folds, not a conversation that never needed one.
  assert.ok(compactions.every((c) => c >= 2), `compactions per loop: ${compactions}`);
});

test('OpenAI Responses with encrypted reasoning: 120 requests per seed, each one accepted, at settings drawn from the seed', async (t) => {
  responses.client = new OpenAI({ apiKey: 'sk-test', baseURL: `${provider.url}/v1`, maxRetries: 0 });
  const compactions = [];
  for (const seed of SEEDS) {
    const { settings, stats } = await runLoop(100 + seed, responses, 120);
    compactions.push(stats.compactions);
    t.diagnostic(`seed ${100 + seed}: ${JSON.stringify(settings)} -> ${JSON.stringify(stats)}`);
  }
  assert.ok(compactions.every((c) => c >= 2), `compactions per loop: ${compactions}`);
});

test('DeepSeek V4 Chat Completions with reasoning_content: 120 requests per seed, each one accepted, at settings drawn from the seed', async (t) => {
  deepseekChat.client = new OpenAI({ apiKey: 'sk-test', baseURL: `${chat.url}/v1`, maxRetries: 0 });
  const compactions = [];
  for (const seed of SEEDS) {
    const { settings, stats } = await runLoop(300 + seed, deepseekChat, 120);
    compactions.push(stats.compactions);
    t.diagnostic(`seed ${300 + seed}: ${JSON.stringify(settings)} -> ${JSON.stringify(stats)}`);
    // Unsigned reasoning binds nothing: nothing waits, so no request goes over the threshold.
    assert.equal(stats.deferred, 0, `seed ${300 + seed}: deferred`);
    assert.ok(stats.peak <= settings.threshold, `seed ${300 + seed}: peak ${stats.peak}, threshold ${settings.threshold}`);
  }
  assert.ok(compactions.every((c) => c >= 2), `compactions per loop: ${compactions}`);
});

// ---- The AI SDK: generateText over @ai-sdk/anthropic with extended thinking, midfoldMiddleware on every step ----

const NODE_MAJOR = Number(process.versions.node.split('.')[0]);
const TURNS = 60;
const AI_SDK = [
  { label: 'ai 6', ai: 'ai', anthropic: '@ai-sdk/anthropic', spec: 'v3', skip: false },
  { label: 'ai 7', ai: 'ai-v7', anthropic: '@ai-sdk/anthropic-v4', spec: 'v4', skip: NODE_MAJOR < 22 ? `ai 7 needs Node >= 22 (this is ${process.version})` : false },
];

for (const v of AI_SDK) {
  test(`${v.label}: ${TURNS} turns per seed through midfoldMiddleware, every step accepted, at settings drawn from the seed`, { skip: v.skip }, async (t) => {
    const ai = await import(v.ai);
    const base = (await import(v.anthropic)).createAnthropic({ baseURL: `${provider.url}/v1`, apiKey: 'sk-ant-test' })('claude-opus-4-7');
    const compactions = [];
    for (const seed of [201, 202, 203]) {
      const r = prng(seed);
      const s = settingsOf(r);
      if (s.summarizer.startsWith('provider')) s.summarizer = 'model'; // the provider's compaction is the Anthropic loop's
      const reports = [];
      const summarize = s.summarizer === 'digest' ? digestSummarizer() : modelSummary;
      const model = ai.wrapLanguageModel({ model: base, middleware: midfoldMiddleware({ summarize, threshold: s.threshold, keepRecent: s.keepRecent,
        policy: s.policy, keepTail: s.keepTail, specificationVersion: v.spec, onReport: (report) => reports.push(report) }) });
      let module = MODULES[0];
      const tool = (name) => ai.tool({ description: `The ${name} tool.`, inputSchema: z.object({ arg: z.string() }), execute: async () => toolOutput(r, name, module) });
      const tools = { read_file: tool('read_file'), bash: tool('bash'), grep: tool('grep') };
      const history = [];
      let ids = 0;
      for (let turn = 0; turn < TURNS; turn++) {
        module = MODULES[Math.floor(r() * MODULES.length)];
        const pool = r() < 0.35 ? ZH : EN;
        history.push({ role: 'user', content: pool[Math.floor(r() * pool.length)].replace('{m}', module) });
        const steps = Math.floor(r() * 4); // tool steps before the answer
        let step = 0;
        provider.reply = () => {
          const content = [{ type: 'thinking', thinking: step < steps ? `I should look at ${module} first.` : 'I have what I need.' }];
          if (step++ >= steps) return [...content, { type: 'text', text: `Fixed ${module}: integer cents; the tests pass.` }];
          const calls = 1 + Math.floor(r() * 3);
          for (let k = 0; k < calls; k++) content.push({ type: 'tool_use', id: `toolu_${++ids}`, name: ['read_file', 'bash', 'grep'][Math.floor(r() * 3)], input: { arg: `src/${module}.js` } });
          return content;
        };
        const sent = reports.length;
        let result;
        try {
          result = await ai.generateText({ model, tools, stopWhen: ai.stepCountIs(steps + 1), messages: history,
            providerOptions: { anthropic: { thinking: { type: 'enabled', budgetTokens: 2048 } } } });
        } catch (error) {
          assert.fail(`seed ${seed} (${JSON.stringify(s)}), turn ${turn}: ${error.message} after ${JSON.stringify(reports.slice(sent).map((x) => x.reason))}`);
        }
        history.push(...(result.responseMessages ?? result.response.messages));
        assert.equal(reports.length - sent, steps + 1, 'one report per step');
        for (const report of reports.slice(sent)) {
          if (report.compacted) assert.ok(report.tokensAfter < s.threshold, `seed ${seed}, turn ${turn}: ${report.tokensAfter} after a compaction`);
          // What goes out (tokensAfter, after any clearing) is over the threshold only while the Compactor waits.
          else if (report.tokensAfter > s.threshold) assert.equal(report.reason, 'deferred-thinking', `seed ${seed}, turn ${turn}: ${report.tokensAfter} tokens sent (threshold ${s.threshold})`);
        }
      }
      const count = reports.filter((x) => x.compacted).length;
      compactions.push(count);
      t.diagnostic(`seed ${seed}: ${JSON.stringify(s)} -> ${reports.length} steps, ${reports.filter((x) => x.micro && x.micro.cleared).length} clearings, ${count} compactions, peak ${Math.max(...reports.map((x) => x.tokensAfter))}`);
    }
    assert.ok(compactions.every((c) => c >= 1), `compactions per seed: ${compactions}`);
  });
}

// ---- A chat route: useChat's UIMessage[] compacted by compactUIMessages with carried state, streamed back ----

for (const v of AI_SDK) {
  test(`${v.label}: a chat route, 40 turns per seed: compactUIMessages before every request, the client keeps what the route returned`, { skip: v.skip }, async (t) => {
    const ai = await import(v.ai);
    const base = (await import(v.anthropic)).createAnthropic({ baseURL: `${provider.url}/v1`, apiKey: 'sk-ant-test' })('claude-opus-4-7');
    for (const seed of [401, 402, 403]) {
      const r = prng(seed);
      const s = settingsOf(r);
      if (s.summarizer.startsWith('provider')) s.summarizer = 'model';
      const compactor = { summarize: s.summarizer === 'digest' ? digestSummarizer() : modelSummary, threshold: s.threshold,
        keepRecent: s.keepRecent, policy: s.policy, keepTail: s.keepTail };
      const state = new SessionState();
      let module = MODULES[0];
      const tool = (name) => ai.tool({ description: `The ${name} tool.`, inputSchema: z.object({ arg: z.string() }), execute: async () => toolOutput(r, name, module) });
      const tools = { read_file: tool('read_file'), bash: tool('bash'), grep: tool('grep') };
      let client = []; // what useChat holds: the route's originalMessages plus the streamed answer
      let ids = 0;
      const stats = { compactions: 0, peak: 0 };
      for (let turn = 0; turn < 40; turn++) {
        const where = `seed ${seed} (${JSON.stringify(s)}), turn ${turn}`;
        module = MODULES[Math.floor(r() * MODULES.length)];
        const pool = r() < 0.35 ? ZH : EN;
        client.push({ id: `u${turn}`, role: 'user', parts: [{ type: 'text', text: pool[Math.floor(r() * pool.length)].replace('{m}', module) }] });
        const { messages: out, report } = await compactUIMessages(client, { compactor, state });
        if (report.compacted) stats.compactions++;
        stats.peak = Math.max(stats.peak, report.tokensAfter);
        assert.ok(report.tokensAfter <= s.threshold, `${where}: ${report.tokensAfter} tokens sent (${report.reason})`);
        assert.deepStrictEqual(out.at(-1), client.at(-1), `${where}: the new user turn changed`);
        // One summary at most: a later fold takes the earlier summary in, and nothing re-summarizes a summary alone.
        assert.ok(out.filter((m) => m.metadata?.midfold?.summary === true).length <= 1, `${where}: summaries pile up`);
        await ai.validateUIMessages({ messages: out });
        const steps = Math.floor(r() * 4);
        let step = 0;
        provider.reply = () => {
          if (step++ >= steps) return [{ type: 'thinking', thinking: 'I have what I need.' }, { type: 'text', text: `Fixed ${module}: integer cents; the tests pass.` }];
          const calls = 1 + Math.floor(r() * 3);
          return [{ type: 'thinking', thinking: `I should look at ${module} first.` },
            ...Array.from({ length: calls }, () => ({ type: 'tool_use', id: `toolu_${++ids}`, name: ['read_file', 'bash', 'grep'][Math.floor(r() * 3)], input: { arg: `src/${module}.js` } }))];
        };
        const sent = provider.requests.length;
        const result = ai.streamText({ model: base, tools, messages: await ai.convertToModelMessages(out), stopWhen: ai.stepCountIs(steps + 1),
          providerOptions: { anthropic: { thinking: { type: 'enabled', budgetTokens: 2048 } } } });
        let answer;
        for await (const m of ai.readUIMessageStream({ stream: result.toUIMessageStream({ generateMessageId: () => `a${turn}` }) })) answer = m;
        const refused = provider.requests.slice(sent).filter((q) => q.status !== 200).map((q) => q.error);
        assert.deepStrictEqual(refused, [], `${where}: the provider refused a request`);
        assert.equal(provider.requests.length - sent, steps + 1, `${where}: one request per step`);
        client = [...out, structuredClone(answer)];
      }
      t.diagnostic(`seed ${seed}: ${JSON.stringify(s)} -> ${JSON.stringify(stats)}`);
      assert.ok(stats.compactions >= 1, `seed ${seed}: no compaction in 40 turns`);
    }
  });
}
