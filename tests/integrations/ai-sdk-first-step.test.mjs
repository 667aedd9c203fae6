// compactStep at the first step of a generateText call. The AI SDK tells prepareStep the previous step's usage,
// so from the second step on the threshold is compared with the provider's count; the first step of a call has
// no previous step, and the last step's usage is never shown to prepareStep. Before, that step was priced by the
// estimate alone, every turn; now the counts of the earlier call's steps anchor it: the count of a prompt that
// is still the history's beginning (no fold yet), or the count a recorded fold carries in the state.
//
// Through the real packages: ai 6 / ai 7 with @ai-sdk/anthropic over HTTP to the strict mock, whose input count
// (a token per four characters of the messages' JSON) is far from midfold's estimate, so the figures tell which
// one priced a step.
import test, { before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';

import { init, estimateTokens, digestSummarizer, SessionState } from '../../js/hosts/node.js';
import { compactStep } from 'midfold/ai-sdk';
import { startStrictProvider } from '../helpers/strict-provider.mjs';
import { ANTHROPIC_VERSIONS } from '../helpers/ai-sdk-flows.mjs';
import { readWorkloadFile } from '../helpers/corpus.mjs';

let provider;
before(async () => { await init(); provider = await startStrictProvider(); });
after(() => provider.close());

const read = readWorkloadFile;
// A large read, then two small ones (real tool output: the repository's own sources).
const FILES = ['src/compact.c', 'src/idset.c', 'src/tree.c'];
/** The strict mock's input count for a request (what it answered as usage.input_tokens). */
const countOf = (request) => Math.ceil(JSON.stringify(request.body.messages).length / 4);

/** Answers a tool loop: read the three files, one per step, then a text. */
function readThreeFiles() {
  let step = 0;
  provider.reply = () => {
    const i = step++;
    return i < FILES.length
      ? [{ type: 'tool_use', id: `toolu_${provider.requests.length}`, name: 'read_file', input: { path: FILES[i] } }]
      : [{ type: 'text', text: 'The fold keeps the pending turn in src/compact.c.' }];
  };
}

for (const v of ANTHROPIC_VERSIONS) {
  describe(`compactStep: the first step of a generateText call is priced in the provider's count (${v.label})`, { skip: v.skip }, () => {
    let ai, model, tools;
    before(async () => {
      ai = await import(v.ai);
      model = (await import(v.anthropic)).createAnthropic({ baseURL: `${provider.url}/v1`, apiKey: 'sk-ant-test' })('claude-sonnet-4-5');
      tools = { read_file: ai.tool({ description: 'Read a file of the repository', inputSchema: z.object({ path: z.string() }), execute: async ({ path }) => read(path) }) };
    });

    /** Two generateText calls of one conversation through one compactStep; the reports of every step, and the requests. */
    async function twoCalls(options, secondSystem) {
      const reports = [];
      const digest = digestSummarizer();
      let written = 0;
      const summarize = (request) => { written++; return digest(request); };
      const inner = compactStep({ summarize, onReport: (r) => reports.push(r), ...options });
      const returned = []; // what each step was sent, as ModelMessages
      const prepareStep = async (step) => { const r = await inner(step); returned.push(r.messages ?? step.messages); return r; };
      const system = 'You are a careful code reviewer for the midfold repository.';
      const history = [{ role: 'user', content: 'Read the compaction code, file by file.' }];
      const from = provider.requests.length;
      readThreeFiles();
      const first = await ai.generateText({ model, system, tools, messages: history, prepareStep, stopWhen: ai.stepCountIs(FILES.length + 1) });
      history.push(...(first.responseMessages ?? first.response.messages), { role: 'user', content: 'And where are tool results cleared?' });
      provider.reply = () => [{ type: 'text', text: 'In src/micro.c.' }];
      const second = await ai.generateText({ model, system: secondSystem ?? system, tools, messages: history, prepareStep });
      assert.equal(second.text, 'In src/micro.c.');
      const requests = provider.requests.slice(from);
      assert.deepEqual(requests.map((r) => r.status), Array(FILES.length + 2).fill(200), 'every request accepted');
      return { reports, requests, history, returned, summaries: () => written };
    }

    test('no fold yet: the count of the first call\'s next-to-last step, plus the estimate of what came after it', async () => {
      const { reports, requests, history } = await twoCalls({ threshold: 1e6 });
      assert.equal(reports.length, FILES.length + 2);
      // The second call's first step (reports[4]) was sent the whole history: the prompt of the first call's
      // third step (requests[2]) is its beginning, and after it come that step's answer, its result, the
      // final answer and the new question.
      const rest = history.slice(-4);
      const expected = countOf(requests[2]) + estimateTokens(rest, { profile: 'safe', format: 'ai-sdk' });
      assert.equal(reports[FILES.length + 1].tokensBefore, expected);
      assert.notEqual(expected, estimateTokens(history, { profile: 'safe', format: 'ai-sdk' }), 'the estimate alone is another figure');
      // The first call's first step had no count at all: the estimate priced it.
      assert.equal(reports[0].tokensBefore, estimateTokens(history.slice(0, 1), { profile: 'safe', format: 'ai-sdk' }));
    });

    // ai 7 shows prepareStep the step's system prompt (`instructions`); ai 6 shows it nothing of it.
    test('a call under another system prompt is not priced on an earlier call\'s count', { skip: v.label === 'ai 6' && 'ai 6 does not show prepareStep the system prompt' }, async () => {
      const { reports, history } = await twoCalls({ threshold: 1e6 }, 'You are a terse assistant who answers in one line.');
      // The provider's count was for another system prompt: the estimate alone prices the second call's first step.
      assert.equal(reports[FILES.length + 1].tokensBefore, estimateTokens(history, { profile: 'safe', format: 'ai-sdk' }));
    });

    test('after a fold: the count a recorded step carries prices the next call\'s first step', async () => {
      // Step 1 would fold the request alone (the read is the live tail) into a longer digest: no gain, nothing
      // changes; step 2 folds the request and the first read away; step 3, under the threshold again, is priced
      // from step 2's count and records it with the state.
      const state = new SessionState();
      const { reports, requests, history, summaries } = await twoCalls({ threshold: 2500, keepTail: { tokens: 500 }, state });
      const steps = JSON.stringify(reports.map((r) => [r.reason, r.tokensBefore, r.session.matched]));
      assert.deepEqual(reports.map((r) => r.reason), ['below-threshold', 'no-gain', 'compacted', 'below-threshold', 'below-threshold'], steps);
      const byCount = new Map(state.toJSON().snapshots.map((s) => [s.count, s]));
      assert.equal(byCount.get(5).anchor, undefined, 'a fold\'s record carries no count: it changed the prompt the count was for');
      const carried = byCount.get(7).anchor;
      assert.deepEqual(carried && carried.inputTokens, countOf(requests[2]), 'the last step\'s record carries the count of the folded prompt');
      assert.equal(reports[3].tokensBefore, carried.inputTokens + estimateTokens(history.slice(-4, -2), { profile: 'safe', format: 'ai-sdk' }));
      // The second call's first step: that count, plus the estimate of the last step's call and result, the
      // final answer and the new question (sent as they are: the live tail).
      const second = reports[FILES.length + 1];
      assert.equal(second.tokensBefore, carried.inputTokens + estimateTokens(history.slice(-4), { profile: 'safe', format: 'ai-sdk' }));
      assert.equal(second.session.matched, history.length - 2, 'it continued the recorded fold');
      assert.equal(summaries(), 2, 'one summary per fold, and the one step 1 did not apply');
    });

    test('after a fold: a call under another system prompt is not priced on the count the record carries', { skip: v.label === 'ai 6' && 'ai 6 does not show prepareStep the system prompt' }, async () => {
      const state = new SessionState();
      const { reports, history, returned } = await twoCalls({ threshold: 2500, keepTail: { tokens: 500 }, state },
        'You are a terse assistant who answers in one line.');
      const carried = state.toJSON().snapshots.find((s) => s.count === 7).anchor;
      assert.ok(carried, 'the first call\'s last step recorded its count');
      const second = reports[FILES.length + 1];
      assert.equal(second.session.matched, history.length - 2, 'it continued the recorded fold');
      // That count was for the other system prompt: the estimate alone prices the step.
      assert.notEqual(second.tokensBefore, carried.inputTokens + estimateTokens(history.slice(-4), { profile: 'safe', format: 'ai-sdk' }));
      assert.equal(second.reason, 'below-threshold');
      assert.equal(second.tokensBefore, estimateTokens(returned[FILES.length + 1], { profile: 'safe', format: 'ai-sdk' }));
    });

    test('each step continues the fold the step before returned (ai 7 carries a returned list forward, ai 6 does not)', async () => {
      const { reports, requests, history } = await twoCalls({ threshold: 2500, keepTail: { tokens: 500 } });
      // Each step's state lookup finds what the step before recorded, under the original history's key: the
      // step's history as the next generateText call sends it, whatever list the SDK carried.
      // (step 1's fold gained nothing and was not applied: step 2 finds nothing recorded)
      assert.deepEqual(reports.map((r) => r.session.matched), [0, 0, 0, 5, 7]);
      // What each step sent starts with the summary the last fold wrote, never the folded originals.
      const first = JSON.stringify(requests[0].body.messages[0]);
      for (const r of requests.slice(2)) assert.notEqual(JSON.stringify(r.body.messages[0]), first);
      assert.equal(JSON.stringify(requests.at(-1).body.messages.at(-1).content), JSON.stringify([{ type: 'text', text: history.at(-1).content }]));
    });
  });
}
