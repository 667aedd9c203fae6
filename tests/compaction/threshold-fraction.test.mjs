// threshold: {fraction} of the model's context window: the table of windows, the Compactor with
// contextWindow, and the integrations that read the model's id (ai 6's generateText and
// wrapLanguageModel over the ai/test mock model; the Agents SDK Runner over the strict Responses mock).
import { test, describe, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { generateText, tool, stepCountIs, wrapLanguageModel } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { Agent, Runner, tool as agentTool } from '@openai/agents';
import { OpenAIProvider } from '@openai/agents-openai';
import { z } from 'zod';
import { init, Compactor, MidfoldError, digestSummarizer, simulate } from 'midfold';
import { compactStep, midfoldMiddleware, conversationStates } from 'midfold/ai-sdk';
import { compactionFilter } from 'midfold/openai-agents';
import { CONTEXT_WINDOWS, CONTEXT_WINDOW_SOURCES, contextWindowOf } from '../../js/pricing/windows.js';
import { PRICING } from '../../js/pricing/index.js';
import { startStrictProvider } from '../helpers/strict-provider.mjs';
import { load, recorder } from '../fixtures/compactor/lib.mjs';
import { CORE_NAMES, readWorkloadFile } from '../helpers/corpus.mjs';

const FILES = CORE_NAMES.filter((f) => f.endsWith('.c')).sort().map((f) => `src/${f}`);
const read = readWorkloadFile;
const USAGE = { inputTokens: { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 20, text: 20, reasoning: 0 } };

let provider;
before(async () => { await init(); provider = await startStrictProvider(); });
after(() => provider.close());
beforeEach(() => conversationStates.clear());

describe('the table of context windows', () => {
  test('every model of the price lists has a window, and the table names its sources', () => {
    for (const list of Object.values(PRICING)) {
      for (const model of Object.keys(list.models)) assert.ok(contextWindowOf(model) > 0, `${list.provider}: ${model}`);
    }
    assert.ok(CONTEXT_WINDOW_SOURCES.length >= 4 && CONTEXT_WINDOW_SOURCES.every((s) => s.url.startsWith('https://') && s.for));
  });

  for (const [id, window] of [
    ['claude-sonnet-4-5-20250929', 200000], ['anthropic/claude-sonnet-4.5', 200000], ['us.anthropic.claude-haiku-4-5-20251001-v1:0', 200000],
    ['claude-haiku-4-5@20251001', 200000], ['claude-opus-4-5', 200000],
    ['gpt-5.4', 1050000], ['openai/gpt-5.5', 1050000], ['gpt-5.4-mini', 400000], ['gpt-5.4-nano-2026-03-17', 400000], ['gpt-5-mini-2025-08-07', 400000],
    ['deepseek-v4-flash', 1000000], ['deepseek/deepseek-v4-pro', 1000000], ['deepseek-chat', 128000],
    ['models/gemini-2.5-pro', 1048576], ['gemini-2.5-flash', 1048576], ['google/gemini-2.5-flash-lite', 1048576],
  ]) {
    test(`${id} → ${window}`, () => assert.equal(contextWindowOf(id), window));
  }

  test('a model the table does not know has no window (a guess could overflow it)', () => {
    for (const id of ['gpt-5.9', 'llama-3.3-70b', 'qwen3-coder', 'gpt-4.1-nano', '', '   ', 42, null]) assert.equal(contextWindowOf(id), undefined, String(id));
    assert.equal(Object.isFrozen(CONTEXT_WINDOWS), true);
  });
});

describe('the Compactor: threshold {fraction} with contextWindow', () => {
  test('{fraction: 0.8} of a 200,000 window is 160,000; the defaults derived from the threshold follow it', () => {
    const c = new Compactor({ summarize: recorder(), threshold: { fraction: 0.8 }, contextWindow: 200000 });
    assert.equal(c.threshold, 160000);
    assert.equal(c.microTrigger, 128000);
    assert.equal(c.keepTailTokens, 32000);
  });

  test('it folds where the same threshold as a number folds, on a Chinese session', async () => {
    const fraction = { summarize: recorder('用户在排查管理后台：已改好 formatDate 的时区。'), threshold: { fraction: 0.5 }, contextWindow: 3000 };
    const number = { summarize: recorder('用户在排查管理后台：已改好 formatDate 的时区。'), threshold: 1500 };
    const a = load('admin-web-zh.anthropic');
    const b = load('admin-web-zh.anthropic');
    const ra = await new Compactor(fraction).compact(a);
    const rb = await new Compactor(number).compact(b);
    assert.equal(ra.compacted, true);
    assert.deepEqual({ ...ra, micro: undefined }, { ...rb, micro: undefined });
    assert.deepEqual(a, b);
  });

  for (const [name, options, says] of [
    ['no contextWindow', { threshold: { fraction: 0.8 } }, 'needs contextWindow'],
    ['fraction 0', { threshold: { fraction: 0 }, contextWindow: 1000 }, 'threshold.fraction must be'],
    ['fraction above 1', { threshold: { fraction: 1.2 }, contextWindow: 1000 }, 'threshold.fraction must be'],
    ['fraction a string', { threshold: { fraction: '0.8' }, contextWindow: 1000 }, 'threshold.fraction must be'],
    ['another key', { threshold: { fraction: 0.8, of: 'window' }, contextWindow: 1000 }, 'unknown key "of"'],
    ['an array', { threshold: [0.8] }, 'threshold must be'],
    ['contextWindow 0', { threshold: { fraction: 0.8 }, contextWindow: 0 }, 'contextWindow must be'],
    ['contextWindow fractional', { contextWindow: 1500.5 }, 'contextWindow must be'],
  ]) {
    test(`${name} → 'invalid-option' (${says})`, () => {
      assert.throws(() => new Compactor({ summarize: recorder(), ...options }), (e) => e instanceof MidfoldError && e.code === 'invalid-option' && e.message.includes(says));
    });
  }
});

/** A mock model named `modelId` that reads `steps` files, one per step, then answers. */
function readingModel(modelId, provider, steps) {
  let step = 0;
  return new MockLanguageModelV3({
    provider, modelId,
    doGenerate: async () => {
      const i = step++;
      if (i < steps) {
        return { content: [{ type: 'tool-call', toolCallId: `call_${i}`, toolName: 'read_file', input: JSON.stringify({ path: FILES[i] }) }],
          finishReason: { unified: 'tool-calls', raw: 'tool_use' }, usage: USAGE, warnings: [] };
      }
      return { content: [{ type: 'text', text: 'Done.' }], finishReason: { unified: 'stop', raw: 'end_turn' }, usage: USAGE, warnings: [] };
    },
  });
}
const tools = { read_file: tool({ description: 'Read a file', inputSchema: z.object({ path: z.string() }), execute: async ({ path }) => read(path) }) };
const STEPS = 16;
/** What a run's reports say, step by step. */
const trace = (reports) => reports.map((r) => `${r.reason}:${r.tokensBefore}`);

/** The reports of a generateText loop with compactStep(options) as prepareStep on `model`. */
async function stepRun(model, options) {
  const reports = [];
  await generateText({ model, tools, stopWhen: stepCountIs(STEPS + 2), prompt: 'Read the C core, file by file.',
    prepareStep: compactStep({ summarize: digestSummarizer(), keepRecent: 2, ...options, onReport: (r) => reports.push(r) }) });
  return reports;
}

describe('compactStep and midfoldMiddleware read the model id (ai 6)', () => {
  const FRACTION = 0.05; // 10,000 of Claude's 200,000; 52,428 of Gemini's 1,048,576

  test("compactStep on claude-sonnet-4-5: {fraction: 0.05} runs as threshold 10,000 does, and folds", async () => {
    const byFraction = await stepRun(readingModel('claude-sonnet-4-5-20250929', 'anthropic.messages', STEPS), { threshold: { fraction: FRACTION } });
    conversationStates.clear();
    const byNumber = await stepRun(readingModel('claude-sonnet-4-5-20250929', 'anthropic.messages', STEPS), { threshold: 10000 });
    assert.deepEqual(trace(byFraction), trace(byNumber));
    assert.ok(byFraction.some((r) => r.compacted), 'it folded');
  });

  test('the same options on gemini-2.5-pro are 52,428: the same loop does not fold', async () => {
    const byFraction = await stepRun(readingModel('gemini-2.5-pro', 'google.generative-ai', STEPS), { threshold: { fraction: FRACTION } });
    conversationStates.clear();
    const byNumber = await stepRun(readingModel('gemini-2.5-pro', 'google.generative-ai', STEPS), { threshold: Math.floor(FRACTION * 1048576) });
    assert.deepEqual(trace(byFraction), trace(byNumber));
    assert.ok(!byFraction.some((r) => r.compacted));
  });

  test('contextWindow given wins over the table', async () => {
    const byFraction = await stepRun(readingModel('gemini-2.5-pro', 'google.generative-ai', STEPS), { threshold: { fraction: 0.5 }, contextWindow: 20000 });
    conversationStates.clear();
    const byNumber = await stepRun(readingModel('gemini-2.5-pro', 'google.generative-ai', STEPS), { threshold: 10000 });
    assert.deepEqual(trace(byFraction), trace(byNumber));
  });

  test('a model the table does not know: the default threshold, and one warning naming the model', async () => {
    const warnings = [];
    const byFraction = await stepRun(readingModel('my-local-llama', 'ollama.chat', STEPS), { threshold: { fraction: FRACTION }, onWarn: (m) => warnings.push(m) });
    conversationStates.clear();
    const byDefault = await stepRun(readingModel('my-local-llama', 'ollama.chat', STEPS), {});
    assert.deepEqual(trace(byFraction), trace(byDefault));
    assert.equal(warnings.length, 1);
    assert.match(warnings[0], /context window of "my-local-llama" is unknown.*pass contextWindow/);
  });

  test('midfoldMiddleware on a wrapped claude-haiku-4-5 model: as threshold 10,000', async () => {
    const run = async (options) => {
      const reports = [];
      const model = wrapLanguageModel({ model: readingModel('claude-haiku-4-5', 'anthropic.messages', STEPS),
        middleware: midfoldMiddleware({ summarize: digestSummarizer(), keepRecent: 2, ...options, onReport: (r) => reports.push(r) }) });
      await generateText({ model, tools, stopWhen: stepCountIs(STEPS + 2), prompt: 'Read the C core, file by file.' });
      return reports;
    };
    const byFraction = await run({ threshold: { fraction: FRACTION } });
    conversationStates.clear();
    const byNumber = await run({ threshold: 10000 });
    assert.deepEqual(trace(byFraction), trace(byNumber));
    assert.ok(byFraction.some((r) => r.compacted));
  });

  test('a bad fraction fails when the hook is made', () => {
    assert.throws(() => compactStep({ summarize: digestSummarizer(), threshold: { fraction: 2 } }), (e) => e.code === 'invalid-option');
    assert.throws(() => midfoldMiddleware({ summarize: digestSummarizer(), threshold: { share: 0.8 } }), (e) => e.code === 'invalid-option');
  });
});

describe('compactionFilter reads the agent\'s model (Agents SDK over the strict Responses mock)', () => {
  function scriptReads(reads, tag) {
    let step = 0;
    provider.reply = () => {
      const i = step++;
      if (i < reads) return [{ type: 'function_call', id: `fc_${tag}${i}`, call_id: `call_${tag}${i}`, name: 'read_file', arguments: JSON.stringify({ path: FILES[i] }), status: 'completed' }];
      return [{ type: 'message', id: `msg_${tag}${i}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Done.', annotations: [] }] }];
    };
  }
  async function agentRun(model, options, tag) {
    scriptReads(12, tag);
    const reports = [];
    const readFile = agentTool({ name: 'read_file', description: 'Read a file of the repository', parameters: z.object({ path: z.string() }), execute: async ({ path }) => read(path) });
    const agent = new Agent({ name: 'reader', instructions: 'Read the C core.', tools: [readFile], model });
    const runner = new Runner({ modelProvider: new OpenAIProvider({ apiKey: 'sk-test', baseURL: `${provider.url}/v1`, useResponses: true }), tracingDisabled: true,
      callModelInputFilter: compactionFilter({ summarize: digestSummarizer(), keepRecent: 2, thinking: 'unbound', ...options, onReport: (r) => reports.push(r) }) });
    const from = provider.requests.length;
    await runner.run(agent, 'Read the C core, file by file.', { maxTurns: 16 });
    const rejected = provider.requests.slice(from).filter((r) => r.status !== 200);
    assert.deepEqual(rejected.map((r) => r.error), [], 'every request accepted');
    return reports;
  }

  test("gpt-5.4-mini (400,000): {fraction: 0.02} runs as threshold 8,000 does", async () => {
    const byFraction = await agentRun('gpt-5.4-mini', { threshold: { fraction: 0.02 } }, 'a');
    conversationStates.clear();
    const byNumber = await agentRun('gpt-5.4-mini', { threshold: 8000 }, 'b');
    assert.deepEqual(trace(byFraction), trace(byNumber));
    assert.ok(byFraction.some((r) => r.compacted));
  });
});

describe("simulate: threshold=80% in the policy grammar", () => {
  test('compactor:threshold=5% is 5 % of the simulated window, or of contextWindow=N', async () => {
    const session = load('ledger.openai');
    const report = await simulate(session, { pricing: 'openai', window: 40000,
      policies: ['compactor:threshold=5%', 'compactor:threshold=5%,contextWindow=60000', { name: 'object', compactor: { threshold: { fraction: 0.05 } } }] });
    assert.deepEqual(report.results.map((r) => [r.compactor.threshold, r.compactor.contextWindow]), [[2000, 40000], [3000, 60000], [2000, 40000]]);
  });
  test('a percentage above 100 is refused', async () => {
    await assert.rejects(simulate(load('ledger.openai'), { policies: ['compactor:threshold=120%'] }), (e) => e.code === 'invalid-option');
  });
});
