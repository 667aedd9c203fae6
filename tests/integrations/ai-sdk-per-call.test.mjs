// An AI SDK hook built inside each call, as the README's snippets write it (`prepareStep: compactStep({…})` inside
// `streamText(…)`, a model wrapped with `midfoldMiddleware({…})` per request), continues the conversation exactly
// as one hook built once: its default state lives in the module's conversationStates, found by the hook's options
// and the conversation's content. Through ai 6 / ai 7 and @ai-sdk/anthropic over HTTP to the strict mock, the same
// chat (eleven turns of a code review, each reading two real files of this repository before it answers, 32 model
// requests with the summaries) is run with one hook for all calls and with a hook per call: the requests are the
// same, byte for byte. Before, a hook per call planned afresh at every call: requests went out without the summary
// and a call folded the whole history again.
import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { init } from '../../js/hosts/node.js';
import * as aiSdk from '../../js/integrations/ai-sdk.js';
import { startStrictProvider } from '../helpers/strict-provider.mjs';
import { ANTHROPIC_VERSIONS } from '../helpers/ai-sdk-flows.mjs';
import { CORE_NAMES, readWorkloadFile } from '../helpers/corpus.mjs';

const { compactStep, midfoldMiddleware, languageModelSummarizer } = aiSdk;
const SRC = CORE_NAMES.filter((f) => f.endsWith('.c')).sort().map((f) => `src/${f}`);
const read = readWorkloadFile;
const TURNS = 11;
const SYSTEM = 'You review the midfold C core. Read before you answer.';
const QUESTIONS = ['Where are tool results paired with their calls?', '工具结果在哪里被截断？', 'Which file plans the fold?',
  'How is CJK text estimated?', 'Where does the transcript escape markers?', '摘要的提示词在哪里生成？'];

let provider;
before(async () => { await init(); provider = await startStrictProvider(); });
after(() => provider.close());
// Each run starts from an empty map: the second run would otherwise continue the first one's folds.
beforeEach(() => aiSdk.conversationStates?.clear());

const textOf = (content) => (typeof content === 'string' ? content : Array.isArray(content) ? content.map((b) => b.text || '').join('') : '');
const summarized = (body) => body.messages.some((m) => m.role === 'user' && textOf(m.content).startsWith('[Context Compressed]'));

/** Scripts the model: per turn two reads (files chosen by turn), then an answer; a request without tools is a summary. */
function script() {
  let turn = 0, step = 0;
  provider.reply = ({ body }) => {
    if (!body.tools) return [{ type: 'text', text: `The reviewer read ${SRC.length} files of the C core; the open question is the pairing rule.` }];
    const k = step++;
    if (k < 2) {
      const path = SRC[(turn * 2 + k * 7) % SRC.length];
      return [{ type: 'text', text: `Reading ${path}.` }, { type: 'tool_use', id: `toolu_${turn}_${k}`, name: 'read_file', input: { path } }];
    }
    const answer = [{ type: 'text', text: `Turn ${turn}: the answer is in ${SRC[(turn * 2) % SRC.length]}.` }];
    turn++; step = 0;
    return answer;
  };
}

/**
 * The chat, turn by turn: `call(history)` runs one streamText call and resolves to its response messages.
 * Resolves to the request bodies the mock received, in order.
 */
async function chat(call) {
  script();
  const from = provider.requests.length;
  const history = [];
  for (let t = 0; t < TURNS; t++) {
    history.push({ role: 'user', content: QUESTIONS[t % QUESTIONS.length] });
    history.push(...await call(history));
  }
  const requests = provider.requests.slice(from);
  assert.deepStrictEqual(requests.filter((r) => r.status !== 200).map((r) => r.error), [], 'every request accepted');
  return requests.map((r) => r.body);
}

for (const v of ANTHROPIC_VERSIONS) {
  const setUp = async () => {
    const ai = await import(v.ai);
    const model = (await import(v.anthropic)).createAnthropic({ baseURL: `${provider.url}/v1`, apiKey: 'sk-ant-test' })('claude-sonnet-4-6');
    const tools = { read_file: ai.tool({ description: 'Read a file of the repository', inputSchema: z.object({ path: z.string() }), execute: async ({ path }) => read(path) }) };
    const options = () => ({ summarize: languageModelSummarizer(model), threshold: 12_000, keepTail: { tokens: 3000 } });
    const stream = async (settings, history) => {
      const result = ai.streamText({ system: SYSTEM, tools, stopWhen: ai.stepCountIs(3), messages: [...history], ...settings });
      await result.consumeStream();
      return result.responseMessages ? await result.responseMessages : (await result.response).messages;
    };
    return { ai, model, options, stream };
  };

  test(`${v.label}: compactStep built inside each streamText call sends what one compactStep for all calls sends`, { skip: v.skip }, async () => {
    const { model, options, stream } = await setUp();
    const shared = compactStep(options());
    const once = await chat((history) => stream({ model, prepareStep: shared }, history));
    aiSdk.conversationStates?.clear();
    const perCall = await chat((history) => stream({ model, prepareStep: compactStep(options()) }, history));
    const summaries = once.filter((b) => !b.tools).length;
    assert.ok(summaries >= 2, `${summaries} summaries in ${once.length} requests`);
    const first = once.findIndex(summarized);
    assert.ok(first > 0 && once.slice(first).filter((b) => b.tools).every(summarized), 'after the first fold every request carries a summary');
    assert.equal(perCall.length, once.length, `${perCall.length} requests per call, ${once.length} with one hook`);
    perCall.forEach((body, i) => assert.deepStrictEqual(body, once[i], `request ${i} differs`));
  });

  test(`${v.label}: midfoldMiddleware wrapped around the model in each call sends what one wrapped model sends`, { skip: v.skip }, async () => {
    const { ai, model, options, stream } = await setUp();
    const wrap = () => ai.wrapLanguageModel({ model, middleware: midfoldMiddleware({ ...options(), specificationVersion: v.spec }) });
    const shared = wrap();
    const once = await chat((history) => stream({ model: shared }, history));
    aiSdk.conversationStates?.clear();
    const perCall = await chat((history) => stream({ model: wrap() }, history));
    assert.ok(once.filter((b) => !b.tools).length >= 2);
    assert.equal(perCall.length, once.length);
    perCall.forEach((body, i) => assert.deepStrictEqual(body, once[i], `request ${i} differs`));
  });
}

test('hooks with other options never share a plan; the same options share one across instances', async () => {
  const { digestSummarizer } = await import('../../js/hosts/node.js');
  const prompt = [{ role: 'system', content: SYSTEM }, { role: 'user', content: [{ type: 'text', text: QUESTIONS[0] }] }];
  SRC.slice(0, 4).forEach((path, i) => {
    prompt.push({ role: 'assistant', content: [{ type: 'tool-call', toolCallId: `call_${i}`, toolName: 'read_file', input: { path } }] });
    prompt.push({ role: 'tool', content: [{ type: 'tool-result', toolCallId: `call_${i}`, toolName: 'read_file', output: { type: 'text', value: read(path) } }] });
  });
  prompt.push({ role: 'user', content: [{ type: 'text', text: QUESTIONS[1] }] });
  const call = async (options) => {
    let report;
    const middleware = midfoldMiddleware({ summarize: digestSummarizer(), ...options, onReport: (r) => { report = r; } });
    await middleware.transformParams({ type: 'generate', params: { prompt: structuredClone(prompt) }, model: {} });
    return report;
  };
  const first = await call({ threshold: 3000 });
  assert.ok(first.compacted && first.session.saved);
  assert.equal((await call({ threshold: 3000 })).session.matched, prompt.length, 'a new instance with the same options continues the fold');
  assert.equal((await call({ threshold: 3000, keepRecent: 1 })).session.matched, 0, 'other options: a plan of their own');
  assert.equal((await call({ threshold: 3000, summarize: async () => 'A summary.' })).session.matched, 0, 'another summarizer: a plan of its own');
});
