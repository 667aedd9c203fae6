// Seeded agent loops through the real SDK clients (@anthropic-ai/sdk, and openai for Responses, for DeepSeek's
// Chat Completions and for Claude behind OpenRouter; the AI SDK's are in ai-sdk-loop-properties.test.mjs) against
// mock providers that reject what the providers document they reject (tests/helpers/strict-provider.mjs,
// deepseek-rules.mjs, openrouter-claude.mjs), with midfold's
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
// The same loops also run from a stateless host (compactHistory over a store, two conversations that open alike).
// Seeds are pinned, so a failure names the seed and the request that reproduce it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { init, Compactor, anthropicCompaction, openAIResponsesCompaction, validate, estimateTokens,
  SessionState, compactHistory, conversationKey, memoryStateStore } from '../../js/hosts/node.js';
import { startStrictProvider } from '../helpers/strict-provider.mjs';
import { startMockLLM } from '../helpers/mock-llm.mjs';
import { deepseekRejection } from '../helpers/deepseek-rules.mjs';
import { signedDetails, signedReasoningRejection, providerError } from '../helpers/openrouter-claude.mjs';
import { prng } from '../helpers/prng.mjs';
import { MODULES, toolOutput, settingsOf, compactorOptions, modelSummary, userRequest } from '../helpers/agent-loop.mjs';


const SYSTEM = 'You are a coding agent in the sales-report repository.';
const TOOL_NAMES = ['read_file', 'bash', 'grep', 'screenshot'];
const TOOLS = TOOL_NAMES.map((name) => ({ name, description: `The ${name} tool.`, input_schema: { type: 'object', properties: { arg: { type: 'string' } } } }));
const RESPONSES_TOOLS = TOOL_NAMES.filter((n) => n !== 'screenshot').map((name) => ({ type: 'function', name, description: `The ${name} tool.`, parameters: { type: 'object', properties: { arg: { type: 'string' } } }, strict: false }));

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
  const compactor = new Compactor(compactorOptions(s, undefined, format.providerSummarizer));
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
      messages.push(format.user(userRequest(r, module)));
      loopSteps = 0;
    }
    const added = structuredClone(messages.at(-1));
    const report = await compactor.compact(messages);
    if (report.compacted) {
      if (format.inLoop(messages.at(-1))) stats.midLoop++;
      stats.thinkingRemoved += report.thinkingRemoved || 0;
    }
    if (report.micro && report.micro.cleared) stats.clearings++;
    const size = checkRequest(where(i), report, messages, added, s.threshold, stats);
    const reply = await sent(where(i), report, () => format.send(messages, r, loopSteps++, module, uid));
    stats.requests++;
    messages.push(...reply); // (`size` is what was sent: nothing changed the messages since)
    stats.largestStep = Math.max(stats.largestStep, estimateTokens(messages, { profile: 'safe' }) - size);
  }
  return { settings: s, stats };
}

/**
 * What holds for a request about to be sent (`messages`, as the Compactor's `report` left them; `tail` the live
 * tail as the loop wrote it): a compaction made it smaller and ended under the threshold; the live tail is
 * verbatim; validate() finds no error; it is over the threshold only while a compaction waits for a tool loop
 * whose thinking is in flight (signed thinking binds everything before it: nothing may change until the turn
 * ends). Counts compactions, waits and the peak in `stats`; returns the request's estimate.
 */
function checkRequest(where, report, messages, tail, threshold, stats) {
  if (report.compacted) {
    stats.compactions++;
    assert.ok(report.tokensAfter < report.tokensBefore, `${where}: a compaction from ${report.tokensBefore} to ${report.tokensAfter}`);
    assert.ok(report.tokensAfter < threshold, `${where}: ${report.tokensAfter} tokens after a compaction (threshold ${threshold})`);
  }
  if (report.deferred) stats.deferred++;
  assert.deepStrictEqual(messages.at(-1), tail, `${where}: the live tail changed`);
  assert.deepEqual(validate(messages).problems.filter((p) => p.severity === 'error'), [], `${where}: validate after compaction (${report.reason})`);
  const size = estimateTokens(messages, { profile: 'safe' });
  stats.peak = Math.max(stats.peak, size);
  if (size > threshold) assert.equal(report.reason, 'deferred-thinking', `${where}: ${size} tokens sent, threshold ${threshold}`);
  return size;
}

/** The reply `send()` resolves to; a refusal by the provider fails naming the request and the Compactor's reason. */
async function sent(where, report, send) {
  try {
    return await send();
  } catch (error) {
    assert.fail(`${where}: the provider refused the request after "${report.reason}": ${error.message}`);
  }
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

// ---- Claude behind OpenRouter's Chat Completions: signed thinking as reasoning_details, bound to its prefix ----

const openrouterClaude = {
  client: null,
  user: deepseekChat.user,
  answered: deepseekChat.answered,
  inLoop: deepseekChat.inLoop,
  providerSummarizer: () => modelSummary,
  async send(messages, r, loopStep, module, uid) {
    const calls = loopStep < 3 && r() < 0.75 ? 1 + Math.floor(r() * 3) : 0;
    const toolCalls = Array.from({ length: calls }, () => ({ id: `call_${uid()}`, type: 'function',
      function: { name: CHAT_TOOLS[Math.floor(r() * CHAT_TOOLS.length)].function.name, arguments: JSON.stringify({ arg: `src/${module}.js` }) } }));
    const thinking = calls ? `Look at ${module} before changing it.` : 'The change is verified.';
    chat.respondWith(({ body }) => {
      const problem = signedReasoningRejection(body.messages);
      if (problem) return { status: 400, json: providerError(problem) };
      const message = { role: 'assistant', content: calls ? '' : `Fixed ${module}: integer cents.`, ...(calls ? { tool_calls: toolCalls } : {}),
        reasoning: thinking, reasoning_details: signedDetails(body.messages, thinking) };
      return { json: { id: `gen-${uid()}`, object: 'chat.completion', created: 1764547200, model: body.model, provider: 'Anthropic',
        choices: [{ index: 0, message, finish_reason: calls ? 'tool_calls' : 'stop' }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } } };
    });
    const completion = await this.client.chat.completions.create({ model: 'anthropic/claude-sonnet-4.5', messages, tools: CHAT_TOOLS });
    const got = completion.choices[0].message; // reasoning and reasoning_details ride along, as OpenRouter sends them
    const out = [{ ...got }];
    for (const call of got.tool_calls || []) out.push({ role: 'tool', tool_call_id: call.id, content: toolOutput(r, call.function.name, module) });
    return out;
  },
};

const SEEDS = [1, 2, 3, 4, 5, 6];

/**
 * Runs the loop of `format` for each of SEEDS (offset by `base`), 120 requests each, printing each seed's settings and
 * figures; `check(settings, stats, seed)` states what else holds for a seed. Resolves to the folds per seed.
 */
async function runSeeds(t, format, base, check = () => {}) {
  const compactions = [];
  for (const seed of SEEDS.map((k) => base + k)) {
    const { settings, stats } = await runLoop(seed, format, 120);
    compactions.push(stats.compactions);
    t.diagnostic(`seed ${seed}: ${JSON.stringify(settings)} -> ${JSON.stringify(stats)}`);
    check(settings, stats, seed);
  }
  return compactions;
}

test('Anthropic with thinking: 120 requests per seed, each one accepted, at settings drawn from the seed', async (t) => {
  anthropic.client = new Anthropic({ apiKey: 'sk-ant-test', baseURL: provider.url, maxRetries: 0 });
  const compactions = await runSeeds(t, anthropic, 0, (settings, stats, seed) => {
    if (settings.summarizer === 'provider+thinking') {
      // The provider's fold keeps the thinking valid: it lands mid-loop as well, so nothing waits, no request
      // goes over the threshold, and no kept turn loses its thinking.
      assert.ok(stats.midLoop > 0, `seed ${seed}: folds mid-loop`);
      assert.ok(stats.peak <= settings.threshold, `seed ${seed}: peak ${stats.peak}, threshold ${settings.threshold}`);
      assert.equal(stats.thinkingRemoved, 0, `seed ${seed}: thinking removed`);
    }
  });
  assert.ok(SEEDS.some((seed) => settingsOf(prng(seed)).summarizer === 'provider+thinking'), 'a seed folds with preserved thinking');
  // The loops reach the threshold: they test folds, not a conversation that never needed one.
  assert.ok(compactions.every((c) => c >= 2), `compactions per loop: ${compactions}`);
});

test('OpenAI Responses with encrypted reasoning: 120 requests per seed, each one accepted, at settings drawn from the seed', async (t) => {
  responses.client = new OpenAI({ apiKey: 'sk-test', baseURL: `${provider.url}/v1`, maxRetries: 0 });
  const compactions = await runSeeds(t, responses, 100);
  assert.ok(compactions.every((c) => c >= 2), `compactions per loop: ${compactions}`);
});

test('Claude behind OpenRouter with signed reasoning_details: 120 requests per seed, each one accepted, at settings drawn from the seed', async (t) => {
  openrouterClaude.client = new OpenAI({ apiKey: 'sk-or-test', baseURL: `${chat.url}/v1`, maxRetries: 0 });
  const compactions = await runSeeds(t, openrouterClaude, 700);
  assert.ok(compactions.every((c) => c >= 1), `compactions per loop: ${compactions}`);
});

test('DeepSeek V4 Chat Completions with reasoning_content: 120 requests per seed, each one accepted, at settings drawn from the seed', async (t) => {
  deepseekChat.client = new OpenAI({ apiKey: 'sk-test', baseURL: `${chat.url}/v1`, maxRetries: 0 });
  const compactions = await runSeeds(t, deepseekChat, 300, (settings, stats, seed) => {
    // Unsigned reasoning binds nothing: nothing waits, so no request goes over the threshold.
    assert.equal(stats.deferred, 0, `seed ${seed}: deferred`);
    assert.ok(stats.peak <= settings.threshold, `seed ${seed}: peak ${stats.peak}, threshold ${settings.threshold}`);
  });
  assert.ok(compactions.every((c) => c >= 2), `compactions per loop: ${compactions}`);
});

// ---- The same loops from a stateless host ------------------------------------------------------------------

/**
 * Runs `steps` requests of two conversations that open alike (the same request: one state key) from a stateless
 * host: each request sends the conversation's whole original history through compactHistory, with a new
 * SessionState over a shared store (as a server of several processes keeps it), and the client keeps the
 * originals. What the provider signed is what it was sent, so here a lost snapshot is a rejected request (the
 * fresh plan rebuilds another prefix under the signed thinking), not only a summary more.
 */
async function runStatelessLoop(seed, format, steps) {
  const r = prng(seed);
  const s = settingsOf(r);
  let compactor = new Compactor(compactorOptions(s, undefined, format.providerSummarizer));
  let threshold = s.threshold;
  const store = memoryStateStore();
  const opening = format.user(userRequest(r, MODULES[0]));
  const conversations = [0, 1].map((k) => ({ k, history: [structuredClone(opening)], loopSteps: 0, remembered: false }));
  let ids = 0;
  const uid = () => ++ids;
  const stats = { requests: 0, compactions: 0, continued: 0, deferred: 0, peak: 0, settingsChangedAt: null };
  for (let i = 0; i < steps; i++) {
    const c = conversations[r() < 0.6 ? 0 : 1];
    const module = MODULES[Math.floor(r() * MODULES.length)];
    if (format.answered(c.history.at(-1))) {
      c.history.push(format.user(userRequest(r, module)));
      c.loopSteps = 0;
    }
    // Halfway, in a tool loop whose thinking is in flight, the host is redeployed with another threshold:
    // the request goes on from the form last sent, and the provider still accepts its signed thinking.
    if (stats.settingsChangedAt === null && i >= steps / 2 && c.remembered && format.inLoop(c.history.at(-1))) {
      compactor = new Compactor({ ...compactorOptions(s, undefined, format.providerSummarizer), threshold: threshold + 1000 });
      threshold += 1000;
      stats.settingsChangedAt = i;
    }
    const where = `seed ${seed} (${JSON.stringify(s)}), request ${i} (conversation ${c.k})`;
    const state = new SessionState({ store, key: await conversationKey(c.history) });
    const { messages: request, report } = await compactHistory(compactor, c.history, { state });
    // Once a conversation's compacted form is remembered, every later request continues it.
    if (c.remembered) {
      assert.ok(report.session.matched > 0, `${where}: planned afresh (${report.reason})`);
      stats.continued++;
    }
    c.remembered ||= report.session.saved;
    checkRequest(where, report, request, c.history.at(-1), threshold, stats);
    const reply = await sent(where, report, () => format.send(request, r, c.loopSteps++, module, uid));
    stats.requests++;
    c.history.push(...reply);
  }
  return { settings: s, stats };
}

for (const [name, format, base, clientOf] of [
  ['Anthropic with thinking', anthropic, 900, () => new Anthropic({ apiKey: 'sk-ant-test', baseURL: provider.url, maxRetries: 0 })],
  ['Claude behind OpenRouter', openrouterClaude, 1000, () => new OpenAI({ apiKey: 'sk-or-test', baseURL: `${chat.url}/v1`, maxRetries: 0 })],
]) {
  test(`${name} from a stateless host: two conversations that open alike, 100 requests per seed, a redeploy with other settings mid-loop, every one accepted and continuing its remembered form`, async (t) => {
    format.client = clientOf();
    const compactions = [];
    for (const seed of [1, 2, 3, 4].map((k) => base + k)) {
      const { settings, stats } = await runStatelessLoop(seed, format, 100);
      compactions.push(stats.compactions);
      t.diagnostic(`seed ${seed}: ${JSON.stringify(settings)} -> ${JSON.stringify(stats)}`);
      assert.ok(stats.settingsChangedAt !== null, `seed ${seed}: the settings changed mid-loop`);
    }
    assert.ok(compactions.every((n) => n >= 1), `compactions per loop: ${compactions}`);
  });
}
