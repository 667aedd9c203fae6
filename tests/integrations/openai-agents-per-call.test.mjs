// compactionFilter built inside each run(), as the README's snippet writes it (`run(agent, input,
// { callModelInputFilter: compactionFilter({…}) })`), continues the conversation exactly as one filter built once:
// its default state lives in the module's conversationStates, found by the filter's options and the conversation's
// content. Through the real @openai/agents (0.20) and its OpenAI provider over HTTP to the strict Responses mock: six
// runs of one conversation (three reads of real files of this repository, each after its encrypted reasoning, then
// an answer: 24 model requests) with one filter for every run and with a filter per run send the same requests.
// Before, a filter per run planned afresh at every run: some requests went out without the summary.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Agent, run, setDefaultModelProvider, tool } from '@openai/agents';
import { OpenAIProvider } from '@openai/agents-openai';
import { z } from 'zod';
import { init, digestSummarizer } from 'midfold';
import * as agentsIntegration from 'midfold/openai-agents';
import { startStrictProvider } from '../helpers/strict-provider.mjs';
import { CORE_NAMES, readWorkloadFile } from '../helpers/corpus.mjs';

const { compactionFilter } = agentsIntegration;
const FILES = CORE_NAMES.filter((f) => f.endsWith('.c')).sort().map((f) => `src/${f}`);
const read = readWorkloadFile;
const RUNS = 6;
const READS = 3;
const QUESTIONS = ['Where are tool results paired with their calls?', '微压缩在哪里实现？', 'Which file writes the transcript?',
  'How does the estimator weigh Chinese?', 'Where is the fold planned?', '哪个文件校验对话？'];

let provider;
before(async () => {
  await init();
  provider = await startStrictProvider();
  setDefaultModelProvider(new OpenAIProvider({ apiKey: 'sk-test', baseURL: `${provider.url}/v1`, useResponses: true }));
});
after(() => provider.close());

const textOf = (content) => (typeof content === 'string' ? content : Array.isArray(content) ? content.map((p) => p.text || '').join('') : '');
const summarized = (body) => body.input.some((item) => item.role === 'user' && textOf(item.content).startsWith('[Context Compressed]'));

/** Scripts the model: per run READS reads (each after its reasoning), then an answer. */
function script() {
  let runs = 0, step = 0;
  provider.reply = () => {
    const k = step++;
    const tag = `${runs}_${k}`;
    if (k < READS) {
      const path = FILES[(runs * READS + k * 5) % FILES.length];
      return [provider.signReasoning(`rs_${tag}`, `I should read ${path} next.`),
        { type: 'function_call', id: `fc_${tag}`, call_id: `call_${tag}`, name: 'read_file', arguments: JSON.stringify({ path }), status: 'completed' }];
    }
    runs++; step = 0;
    return [{ type: 'message', id: `msg_${tag}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: `Run ${runs}: see ${FILES[runs % FILES.length]}.`, annotations: [] }] }];
  };
}

/** The conversation, run by run, with `filterOf()` as each run's callModelInputFilter; the request bodies, in order. */
async function conversation(filterOf) {
  const readFile = tool({ name: 'read_file', description: 'Read a file of the repository', parameters: z.object({ path: z.string() }), execute: async ({ path }) => read(path) });
  const agent = new Agent({ name: 'reader', instructions: 'Read the C core and answer.', tools: [readFile], model: 'gpt-5.4' });
  script();
  const from = provider.requests.length;
  let history = [];
  for (let r = 0; r < RUNS; r++) {
    const result = await run(agent, [...history, { role: 'user', content: QUESTIONS[r] }], { maxTurns: READS + 2, callModelInputFilter: filterOf() });
    history = result.history;
  }
  const requests = provider.requests.slice(from).filter((q) => q.path === '/v1/responses');
  assert.deepStrictEqual(requests.filter((q) => q.status !== 200).map((q) => q.error), [], 'every request accepted');
  return requests.map((q) => q.body);
}

test('compactionFilter built inside each run() sends what one filter for every run sends', async () => {
  process.env.OPENAI_AGENTS_DISABLE_TRACING = '1';
  const options = () => ({ summarize: digestSummarizer(), threshold: 9000, keepTail: { tokens: 2500 }, keepRecent: 2 });
  agentsIntegration.conversationStates?.clear();
  const shared = compactionFilter(options());
  const once = await conversation(() => shared);
  agentsIntegration.conversationStates?.clear();
  const perRun = await conversation(() => compactionFilter(options()));
  assert.equal(once.length, RUNS * (READS + 1));
  const first = once.findIndex(summarized);
  assert.ok(first > 0, 'the conversation folds');
  assert.ok(once.slice(first).every(summarized), 'after the first fold every request carries the summary');
  assert.equal(perRun.length, once.length);
  perRun.forEach((body, i) => assert.deepStrictEqual(body, once[i], `request ${i} differs`));
});
