// Seeded agent loops through the AI SDK (ai 6 and 7 over @ai-sdk/anthropic, extended thinking) against the strict
// provider (tests/helpers/strict-provider.mjs), and over @ai-sdk/openai, @ai-sdk/deepseek, OpenRouter's provider
// (Claude's signed thinking as reasoning_details) and @ai-sdk/amazon-bedrock (Claude through the Converse API)
// against Chat Completions, Responses and Converse mocks: midfoldMiddleware on every step of generateText, and a chat
// route that compacts useChat's UIMessage[] with compactUIMessages and carried state before streaming each answer
// back, with the client keeping either what the route returned or the original messages. The Compactor's
// settings are drawn from each seed (tests/helpers/agent-loop.mjs), and every request must be one the provider
// accepts; what else holds is stated by each test. Seeds are pinned: a failure names the seed and the turn.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { init } from '../../js/hosts/node.js';
import { midfoldMiddleware, compactStep, compactUIMessages, SessionState } from '../../js/integrations/ai-sdk.js';
import { startStrictProvider } from '../helpers/strict-provider.mjs';
import { startMockLLM } from '../helpers/mock-llm.mjs';
import { deepseekRejection } from '../helpers/deepseek-rules.mjs';
import { providerError, signedDetails, signedReasoningRejection } from '../helpers/openrouter-claude.mjs';
import { chatCompletionSSE } from '../helpers/chat-sse.mjs';
import { startBedrockConverse, signedReasoning } from '../helpers/bedrock-converse.mjs';
import { prng } from '../helpers/prng.mjs';
import { MODULES, settingsOf, compactorOptions, userRequest, aiTools } from '../helpers/agent-loop.mjs';
import { ANTHROPIC_VERSIONS } from '../helpers/ai-sdk-flows.mjs';

let provider;
let chat; // DeepSeek's Chat Completions (thinking mode)
let converse; // Bedrock's Converse API
before(async () => {
  await init();
  provider = await startStrictProvider();
  chat = await startMockLLM();
  converse = await startBedrockConverse();
});
after(() => Promise.all([provider.close(), chat.close(), converse.close()]));

const TURNS = 40;
// (the OpenAI provider of each: Responses API by default)
const OPENAI = { 'ai 6': '@ai-sdk/openai', 'ai 7': '@ai-sdk/openai-v4' };
const DEEPSEEK = { 'ai 6': '@ai-sdk/deepseek', 'ai 7': '@ai-sdk/deepseek-v3' };
// (OpenRouter's provider 2 has the peer ai ^6, 3 the peer ai ^7)
const OPENROUTER = { 'ai 6': '@openrouter/ai-sdk-provider', 'ai 7': '@openrouter/ai-sdk-provider-v3' };
const BEDROCK = { 'ai 6': '@ai-sdk/amazon-bedrock', 'ai 7': '@ai-sdk/amazon-bedrock-v5' };
const AI_SDK = ANTHROPIC_VERSIONS;

/**
 * The model and prepareStep of a loop through `hook`. The middleware sees each step's provider-level prompt;
 * prepareStep the step's ModelMessages (ai 6 hands it the original history every step, ai 7 what the step
 * before returned with what came after it: docs/ai-sdk.md).
 */
function hooked(ai, v, hook, base, options) {
  if (hook === 'midfoldMiddleware') {
    return { model: ai.wrapLanguageModel({ model: base, middleware: midfoldMiddleware({ ...options, specificationVersion: v.spec }) }), prepareStep: undefined };
  }
  return { model: base, prepareStep: compactStep(options) };
}

// ---- The AI SDK: generateText over @ai-sdk/anthropic with extended thinking, midfoldMiddleware on every step ----

for (const v of AI_SDK) for (const hook of ['midfoldMiddleware', 'prepareStep: compactStep']) {
  test(`${v.label}: ${TURNS} turns per seed through ${hook}, every step accepted, at settings drawn from the seed`, { skip: v.skip }, async (t) => {
    const ai = await import(v.ai);
    const base = (await import(v.anthropic)).createAnthropic({ baseURL: `${provider.url}/v1`, apiKey: 'sk-ant-test' })('claude-opus-4-7');
    const compactions = [];
    for (const seed of [201, 202, 203]) {
      const r = prng(seed);
      const s = settingsOf(r, { providers: false }); // (the provider's compaction is the Anthropic loop's)
      const reports = [];
      const { model, prepareStep } = hooked(ai, v, hook, base, compactorOptions(s, (report) => reports.push(report)));
      let module = MODULES[0];
      const tools = aiTools(ai, z, r, () => module);
      const history = [];
      let ids = 0;
      for (let turn = 0; turn < TURNS; turn++) {
        module = MODULES[Math.floor(r() * MODULES.length)];
        history.push({ role: 'user', content: userRequest(r, module) });
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
          result = await ai.generateText({ model, tools, stopWhen: ai.stepCountIs(steps + 1), messages: history, prepareStep,
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
      // No summary per step: after a fold, the state recognizes the next step (the original history, as ai 6's
      // prepareStep and every middleware get it; under ai 7, which threads what prepareStep returned into the next
      // step, the originals that list stood for: docs/ai-sdk.md), and continues the fold.
      for (let k = 1; k < reports.length; k++) {
        if (!reports[k - 1].compacted) continue;
        assert.ok(reports[k].session.matched > 0, `seed ${seed}: the step after compaction ${k - 1} planned afresh`);
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
  for (const keeps of ['what the route returned', 'the original messages']) test(`${v.label}: a chat route, 40 turns per seed: compactUIMessages before every request, the client keeps ${keeps}`, { skip: v.skip }, async (t) => {
    const ai = await import(v.ai);
    const base = (await import(v.anthropic)).createAnthropic({ baseURL: `${provider.url}/v1`, apiKey: 'sk-ant-test' })('claude-opus-4-7');
    const original = keeps === 'the original messages';
    for (const seed of [401, 402, 403]) {
      const r = prng(seed);
      const s = settingsOf(r, { providers: false });
      const compactor = compactorOptions(s);
      const state = new SessionState();
      let module = MODULES[0];
      const tools = aiTools(ai, z, r, () => module);
      let client = []; // what useChat holds: the route's originalMessages plus the streamed answer
      let ids = 0;
      const stats = { compactions: 0, peak: 0 };
      let previous = null;
      for (let turn = 0; turn < 40; turn++) {
        const where = `seed ${seed} (${JSON.stringify(s)}), turn ${turn}`;
        module = MODULES[Math.floor(r() * MODULES.length)];
        client.push({ id: `u${turn}`, role: 'user', parts: [{ type: 'text', text: userRequest(r, module) }] });
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
        // useChat with the route's originalMessages holds the compacted form; a host that stores every message
        // sends the originals again, and the state must find its earlier compaction in them (no summary per turn).
        client = original ? [...client, structuredClone(answer)] : [...out, structuredClone(answer)];
        if (original && previous?.compacted) assert.ok(report.session.matched > 0, `${where}: the state did not recognize the history it compacted`);
        previous = report;
      }
      t.diagnostic(`seed ${seed}: ${JSON.stringify(s)} -> ${JSON.stringify(stats)}`);
      assert.ok(stats.compactions >= 1, `seed ${seed}: no compaction in 40 turns`);
    }
  });
}

// ---- generateText over @ai-sdk/openai (Responses, store: false, encrypted reasoning), midfoldMiddleware ----

for (const v of AI_SDK) {
  test(`${v.label}: 40 turns per seed through midfoldMiddleware over ${OPENAI[v.label]} with encrypted reasoning, every step accepted`, { skip: v.skip }, async (t) => {
    const ai = await import(v.ai);
    const base = (await import(OPENAI[v.label])).createOpenAI({ baseURL: `${provider.url}/v1`, apiKey: 'sk-test' })('gpt-5.4');
    const providerOptions = { openai: { store: false, include: ['reasoning.encrypted_content'] } };
    for (const seed of [601, 602, 603]) {
      const r = prng(seed);
      const s = settingsOf(r, { providers: false });
      const reports = [];
      const first = provider.requests.length;
      const { model } = hooked(ai, v, 'midfoldMiddleware', base, compactorOptions(s, (x) => reports.push(x)));
      let module = MODULES[0];
      const tools = aiTools(ai, z, r, () => module);
      const history = [];
      let ids = 0;
      for (let turn = 0; turn < 40; turn++) {
        const where = `seed ${seed} (${JSON.stringify(s)}), turn ${turn}`;
        module = MODULES[Math.floor(r() * MODULES.length)];
        history.push({ role: 'user', content: userRequest(r, module) });
        const steps = Math.floor(r() * 4);
        let step = 0;
        provider.reply = () => {
          const n = ++ids;
          const output = [{ type: 'reasoning', id: `rs_${n}`, summary: [{ type: 'summary_text', text: step < steps ? `Look at ${module} first.` : 'Done.' }] }];
          if (step++ >= steps) {
            return [...output, { type: 'message', id: `msg_${n}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: `Fixed ${module}.`, annotations: [] }] }];
          }
          const calls = 1 + Math.floor(r() * 3);
          for (let k = 0; k < calls; k++) {
            output.push({ type: 'function_call', id: `fc_${n}_${k}`, call_id: `call_${n}_${k}`, name: ['read_file', 'bash', 'grep'][Math.floor(r() * 3)],
              arguments: JSON.stringify({ arg: `src/${module}.js` }), status: 'completed' });
          }
          return output;
        };
        const sent = provider.requests.length;
        const seen = reports.length;
        let result;
        try {
          result = await ai.generateText({ model, tools, stopWhen: ai.stepCountIs(steps + 1), messages: history, providerOptions });
        } catch (error) {
          assert.fail(`${where}: ${error.message} after ${JSON.stringify(reports.slice(seen).map((x) => x.reason))}`);
        }
        assert.deepStrictEqual(provider.requests.slice(sent).filter((q) => q.status !== 200).map((q) => q.error), [], where);
        history.push(...(result.responseMessages ?? result.response.messages));
        for (const report of reports.slice(seen)) {
          if (report.compacted) assert.ok(report.tokensAfter < s.threshold, `${where}: ${report.tokensAfter} after a compaction`);
          else if (report.tokensAfter > s.threshold) assert.equal(report.reason, 'deferred-thinking', `${where}: ${report.tokensAfter} tokens sent`);
        }
      }
      const compactions = reports.filter((x) => x.compacted).length;
      // @ai-sdk/openai 4 takes the server's compaction, which midfold asks for while a loop waits: the server then
      // compacts the loop when what it reads crosses the threshold, each later request is sent from its compaction
      // item on, and what that leaves may stay under the threshold (with clearing) for the rest of the seed, so
      // midfold has nothing to fold. Either compaction keeps the conversation bounded: both count. (3.x has no such
      // option: midfold's own folds at the turn boundaries are the only ones.)
      const loop = provider.requests.slice(first);
      const server = loop.filter((q) => q.compacted).length;
      if (server) {
        const after = loop.slice(loop.findIndex((q) => q.compacted) + 1);
        assert.ok(after.every((q) => q.body.input.some((x) => x.type === 'compaction')), `seed ${seed}: a request after the server's compaction went without its item`);
      }
      const waits = reports.filter((x) => x.reason === 'deferred-thinking').length;
      t.diagnostic(`seed ${seed}: ${JSON.stringify(s)} -> ${reports.length} steps, ${compactions} compactions, ${server} by the server, ${waits} waits, peak ${Math.max(...reports.map((x) => x.tokensAfter))}`);
      assert.ok(compactions + server >= 1, `seed ${seed}: no compaction, midfold's or the server's`);
      // The encrypted reasoning of a loop in flight is seen (OpenAI drops it after an edit before it): edits wait.
      assert.ok(waits > 0, `seed ${seed}: nothing waited for the loops' encrypted reasoning`);
    }
  });
}

// ---- generateText through both hooks over a provider whose mock a turn scripts (DeepSeek, OpenRouter, Bedrock) ----

/**
 * 40 turns per seed of generateText through `hook` over `base`; before each turn `script(r, steps, module)`
 * scripts the mock for that many tool steps and returns a function that gives the turn's refusals. Every step must be one
 * request the mock accepts, and nothing over the threshold goes out unless the Compactor waits for signed
 * thinking (`deferrable`). Resolves to each seed's reports.
 */
async function seededLoops(t, { v, hook, base, seeds, mock, script, providerOptions, deferrable }) {
  const ai = await import(v.ai);
  const all = [];
  for (const seed of seeds) {
    const r = prng(seed);
    const s = settingsOf(r, { providers: false });
    const reports = [];
    const { model, prepareStep } = hooked(ai, v, hook, base, compactorOptions(s, (x) => reports.push(x)));
    let module = MODULES[0];
    const tools = aiTools(ai, z, r, () => module);
    const history = [];
    for (let turn = 0; turn < 40; turn++) {
      const where = `seed ${seed} (${JSON.stringify(s)}), turn ${turn}`;
      module = MODULES[Math.floor(r() * MODULES.length)];
      history.push({ role: 'user', content: userRequest(r, module) });
      const steps = Math.floor(r() * 4);
      const refusals = script(r, steps, module);
      const sent = mock.requests.length;
      const seen = reports.length;
      let result;
      try {
        result = await ai.generateText({ model, tools, stopWhen: ai.stepCountIs(steps + 1), messages: history, prepareStep, providerOptions });
      } catch (error) {
        assert.fail(`${where}: ${error.message} after ${JSON.stringify(reports.slice(seen).map((x) => x.reason))}`);
      }
      assert.deepStrictEqual(refusals(), [], where);
      assert.equal(mock.requests.length - sent, steps + 1, `${where}: one request per step`);
      history.push(...(result.responseMessages ?? result.response.messages));
      for (const report of reports.slice(seen)) {
        if (report.compacted) assert.ok(report.tokensAfter < s.threshold, `${where}: ${report.tokensAfter} after a compaction`);
        else if (report.tokensAfter > s.threshold) {
          assert.ok(deferrable, `${where}: ${report.tokensAfter} tokens sent (${report.reason}): unsigned reasoning binds nothing`);
          assert.equal(report.reason, 'deferred-thinking', `${where}: ${report.tokensAfter} tokens sent`);
        }
      }
    }
    const compactions = reports.filter((x) => x.compacted).length;
    const waits = reports.filter((x) => x.reason === 'deferred-thinking').length;
    const removed = reports.reduce((n, x) => n + (x.thinkingRemoved || 0) + (x.micro?.thinkingRemoved || 0), 0);
    t.diagnostic(`seed ${seed}: ${JSON.stringify(s)} -> ${reports.length} steps, ${compactions} compactions, ${waits} waits, ${removed} signed parts removed, peak ${Math.max(...reports.map((x) => x.tokensAfter))}`);
    assert.ok(compactions >= 1, `seed ${seed}: no compaction`);
    all.push({ seed, compactions, waits, removed });
  }
  return all;
}

// DeepSeek V4 thinking mode: reasoning_content is required back, and binds nothing.
for (const v of AI_SDK) for (const hook of ['midfoldMiddleware', 'prepareStep: compactStep']) {
  test(`${v.label}: 40 turns per seed through ${hook} over ${DEEPSEEK[v.label]}, every step accepted`, { skip: v.skip }, async (t) => {
    const base = (await import(DEEPSEEK[v.label])).createDeepSeek({ baseURL: `${chat.url}/v1`, apiKey: 'sk-test' })('deepseek-v4-flash');
    const ids = { n: 0 };
    await seededLoops(t, { v, hook, base, seeds: [801, 802, 803], mock: chat, deferrable: false, script: (r, steps, module) => {
      let step = 0;
      const refused = [];
      chat.respondWith(({ body }) => {
        const problem = deepseekRejection(body);
        if (problem) {
          refused.push(problem);
          return { status: 400, json: { error: { message: problem, type: 'invalid_request_error', param: null, code: 'invalid_request_error' } } };
        }
        const calls = step++ < steps ? 1 + Math.floor(r() * 3) : 0;
        const message = { role: 'assistant', content: calls ? '' : `已修复 ${module}。`, reasoning_content: calls ? `先看 ${module}。` : '验证过了。',
          ...(calls ? { tool_calls: Array.from({ length: calls }, () => ({ id: `call_${++ids.n}`, type: 'function',
            function: { name: ['read_file', 'bash', 'grep'][Math.floor(r() * 3)], arguments: JSON.stringify({ arg: `src/${module}.js` }) } })) } : {}) };
        return { json: { id: `chatcmpl-${++ids.n}`, object: 'chat.completion', created: 1764547200, model: body.model,
          // (the provider's count, which the middleware anchors its estimate on: about a token per four characters)
          choices: [{ index: 0, message, finish_reason: calls ? 'tool_calls' : 'stop' }],
          usage: { prompt_tokens: Math.ceil(JSON.stringify(body.messages).length / 4), completion_tokens: 20, total_tokens: 0 } } };
      });
      return () => refused;
    } });
  });
}

// ---- Claude through OpenRouter's provider: signed reasoning_details, also copied onto each tool call ----

/**
 * Answers Chat Completions as Claude behind OpenRouter: `steps` tool steps (1-3 parallel calls each), then a text;
 * each answer's thinking signed over the conversation before it, and a request whose prefix changed under a signed
 * entry refused with a 400, as are broken pairs. Streams when asked to. Returns the refusals it answered.
 */
function openrouterClaude(r, steps, module, ids) {
  let step = 0;
  const refused = [];
  chat.respondWith(({ body }) => {
    const problem = deepseekRejection(body) || signedReasoningRejection(body.messages);
    if (problem) {
      refused.push(problem);
      return { status: 400, json: providerError(problem) };
    }
    const calls = step++ < steps ? 1 + Math.floor(r() * 3) : 0;
    const thinking = calls ? `I should look at ${module} first.` : 'I have what I need.';
    const message = { role: 'assistant', content: calls ? '' : `Fixed ${module}: integer cents; the tests pass.`, reasoning: thinking,
      reasoning_details: signedDetails(body.messages, thinking),
      ...(calls ? { tool_calls: Array.from({ length: calls }, () => ({ id: `call_${++ids.n}`, type: 'function',
        function: { name: ['read_file', 'bash', 'grep'][Math.floor(r() * 3)], arguments: JSON.stringify({ arg: `src/${module}.js` }) } })) } : {}) };
    const id = `gen-${++ids.n}`, finish = calls ? 'tool_calls' : 'stop';
    if (body.stream) return { raw: chatCompletionSSE(id, body.model, message, finish), contentType: 'text/event-stream' };
    return { json: { id, object: 'chat.completion', created: 1764547200, model: body.model, provider: 'Anthropic',
      choices: [{ index: 0, message, finish_reason: finish }],
      usage: { prompt_tokens: Math.ceil(JSON.stringify(body.messages).length / 4), completion_tokens: 20, total_tokens: 0 } } };
  });
  return refused;
}

for (const v of AI_SDK) for (const hook of ['midfoldMiddleware', 'prepareStep: compactStep']) {
  test(`${v.label}: 40 turns per seed through ${hook} over ${OPENROUTER[v.label]} (Claude, signed reasoning_details), every step accepted`, { skip: v.skip }, async (t) => {
    const base = (await import(OPENROUTER[v.label])).createOpenRouter({ baseURL: `${chat.url}/v1`, apiKey: 'sk-or-test' }).chat('anthropic/claude-sonnet-4.5');
    const ids = { n: 0 };
    const seeds = await seededLoops(t, { v, hook, base, seeds: [1001, 1002, 1003], mock: chat, deferrable: true,
      script: (r, steps, module) => { const refused = openrouterClaude(r, steps, module, ids); return () => refused; } });
    for (const { seed, removed } of seeds) assert.ok(removed > 0, `seed ${seed}: no kept turn lost its signed thinking`);
  });
}

for (const v of AI_SDK) {
  test(`${v.label}: a chat route over ${OPENROUTER[v.label]} (Claude), 40 turns per seed: compactUIMessages before every request, every request accepted`, { skip: v.skip }, async (t) => {
    const ai = await import(v.ai);
    const base = (await import(OPENROUTER[v.label])).createOpenRouter({ baseURL: `${chat.url}/v1`, apiKey: 'sk-or-test' }).chat('anthropic/claude-sonnet-4.5');
    for (const seed of [1101, 1102, 1103]) {
      const r = prng(seed);
      const s = settingsOf(r, { providers: false });
      const compactor = compactorOptions(s);
      const state = new SessionState();
      let module = MODULES[0];
      const tools = aiTools(ai, z, r, () => module);
      let client = [];
      const ids = { n: 0 };
      const stats = { compactions: 0, removed: 0 };
      for (let turn = 0; turn < 40; turn++) {
        const where = `seed ${seed} (${JSON.stringify(s)}), turn ${turn}`;
        module = MODULES[Math.floor(r() * MODULES.length)];
        client.push({ id: `u${turn}`, role: 'user', parts: [{ type: 'text', text: userRequest(r, module) }] });
        const { messages: out, report } = await compactUIMessages(client, { compactor, state });
        if (report.compacted) stats.compactions++;
        stats.removed += (report.thinkingRemoved || 0) + (report.micro?.thinkingRemoved || 0);
        assert.ok(report.tokensAfter <= s.threshold, `${where}: ${report.tokensAfter} tokens sent (${report.reason})`);
        await ai.validateUIMessages({ messages: out });
        const steps = Math.floor(r() * 4);
        const refused = openrouterClaude(r, steps, module, ids);
        const sent = chat.requests.length;
        const result = ai.streamText({ model: base, tools, messages: await ai.convertToModelMessages(out), stopWhen: ai.stepCountIs(steps + 1) });
        let answer;
        for await (const m of ai.readUIMessageStream({ stream: result.toUIMessageStream({ generateMessageId: () => `a${turn}` }) })) answer = m;
        assert.deepStrictEqual(refused, [], `${where}: the provider refused a request`);
        assert.equal(chat.requests.length - sent, steps + 1, `${where}: one request per step`);
        client = [...out, structuredClone(answer)];
      }
      t.diagnostic(`seed ${seed}: ${JSON.stringify(s)} -> ${JSON.stringify(stats)}`);
      assert.ok(stats.compactions >= 1, `seed ${seed}: no compaction in 40 turns`);
    }
  });
}

// ---- Claude on Amazon Bedrock (the Converse API): reasoning signed over every message before it ----

for (const v of AI_SDK) for (const hook of ['midfoldMiddleware', 'prepareStep: compactStep']) {
  test(`${v.label}: 40 turns per seed through ${hook} over ${BEDROCK[v.label]} (Claude, extended thinking), every step accepted`, { skip: v.skip }, async (t) => {
    const base = (await import(BEDROCK[v.label])).createAmazonBedrock({ region: 'us-east-1', accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
      secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', baseURL: converse.url })('us.anthropic.claude-sonnet-4-5-20250929-v1:0');
    let ids = 0;
    const seeds = await seededLoops(t, { v, hook, base, seeds: [1201, 1202, 1203], mock: converse, deferrable: true,
      providerOptions: { bedrock: { reasoningConfig: { type: 'enabled', budgetTokens: 2048 } } },
      script: (r, steps, module) => {
        let step = 0;
        converse.reply = ({ messages }) => {
          const calls = step++ < steps ? 1 + Math.floor(r() * 3) : 0;
          const thinking = signedReasoning(messages, calls ? `I should look at ${module} first.` : 'I have what I need.');
          if (!calls) return [thinking, { text: `Fixed ${module}: integer cents; the tests pass.` }];
          return [thinking, ...Array.from({ length: calls }, () => ({ toolUse: { toolUseId: `tooluse_${++ids}`,
            name: ['read_file', 'bash', 'grep'][Math.floor(r() * 3)], input: { arg: `src/${module}.js` } } }))];
        };
        const from = converse.requests.length;
        return () => converse.requests.slice(from).filter((q) => q.status !== 200).map((q) => q.error);
      } });
    for (const { seed, waits } of seeds) assert.ok(waits > 0, `seed ${seed}: no loop in flight waited for its signed reasoning`);
  });
}
