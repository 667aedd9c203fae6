// Claude with extended thinking through the AI SDK's Anthropic provider (3.x with ai 6, 4.x with ai 7), across
// turns: the reasoning parts of finished turns go back with their signatures, which the newer models bind to the
// conversation before them (docs/provider-rules.md). At the next user turn midfoldMiddleware's batched clearing
// edits old results; the thinking of every later turn then follows a changed prefix, so it must go with the
// clearing, or the strict provider (tests/helpers/strict-provider.mjs) answers prefix_binding_mismatch.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { init, digestSummarizer, microCompact } from 'midfold';
import { midfoldMiddleware } from 'midfold/ai-sdk';
import { startStrictProvider } from '../helpers/strict-provider.mjs';
import { ANTHROPIC_VERSIONS } from '../helpers/ai-sdk-flows.mjs';
import { CORE_NAMES, readWorkloadFile } from '../helpers/corpus.mjs';

const VERSIONS = ANTHROPIC_VERSIONS;
const FILES = CORE_NAMES.filter((f) => f.endsWith('.c')).sort().slice(0, 8).map((f) => `src/${f}`);
const read = readWorkloadFile;
const THINKING = { anthropic: { thinking: { type: 'enabled', budgetTokens: 2048 } } };

let provider;
before(async () => { await init(); provider = await startStrictProvider(); });
after(() => provider.close());

let turns = 0;
/** Scripts a turn: one file read a step, each step thinking first, then an answer. */
function script(reads) {
  let step = 0;
  const turn = ++turns;
  provider.reply = () => {
    const i = step++;
    return i < reads.length
      ? [{ type: 'thinking', thinking: `I need ${reads[i]} before I can answer.` }, { type: 'tool_use', id: `toolu_${turn}_${i}`, name: 'read_file', input: { path: reads[i] } }]
      : [{ type: 'thinking', thinking: 'I have read enough.' }, { type: 'text', text: `I read ${reads.length} files.` }];
  };
}

for (const v of VERSIONS) {
  describe(`midfoldMiddleware with ${v.anthropic} and extended thinking (${v.label})`, { skip: v.skip }, () => {
    test('the clearing at the next turn drops the later turns\' signed reasoning, and the request is accepted', async () => {
      const ai = await import(v.ai);
      const anthropic = (await import(v.anthropic)).createAnthropic({ baseURL: `${provider.url}/v1`, apiKey: 'sk-ant-test' });
      const tools = { read_file: ai.tool({ description: 'Read a file of the repository', inputSchema: z.object({ path: z.string() }), execute: async ({ path }) => read(path) }) };
      const history = [];
      const turn = async (model, question, reads) => {
        script(reads);
        history.push({ role: 'user', content: question });
        const result = await ai.generateText({ model, tools, stopWhen: ai.stepCountIs(reads.length + 1), messages: history, providerOptions: THINKING });
        // ai 6: the last step's response.messages holds every step's; ai 7: responseMessages does.
        history.push(...(result.responseMessages ?? result.response.messages));
        return result.text;
      };
      const base = anthropic('claude-opus-4-7');
      assert.equal(await turn(base, 'Where are tool results paired with their calls?', FILES.slice(0, 4)), 'I read 4 files.');
      assert.equal(await turn(base, 'And where are they estimated?', FILES.slice(4)), 'I read 4 files.');
      assert.ok(history.some((m) => m.role === 'assistant' && m.content.some((p) => p.type === 'reasoning' && p.providerOptions?.anthropic?.signature)),
        'the finished turns carry signed reasoning');

      // The third turn goes through the middleware, whose batched clearing lands at its first call.
      const reports = [];
      const model = ai.wrapLanguageModel({ model: base, middleware: midfoldMiddleware({ summarize: digestSummarizer(), threshold: 1_000_000,
        microTrigger: 1000, clearAtLeast: 1000, specificationVersion: v.spec, onReport: (r) => reports.push(r) }) });
      // Its own loop's steps then go out over the cleared prefix the state remembers (a 400 would have thrown).
      assert.equal(await turn(model, 'Check the two files that pair them once more.', FILES.slice(0, 2)), 'I read 2 files.');
      assert.equal(reports.length, 3);
      assert.ok(reports[0].micro.cleared > 0, 'old results were cleared');
      assert.ok(reports[0].thinkingRemoved > 0, 'and the later turns\' reasoning went with them');
      const sent = provider.requests.at(-1);
      assert.equal(sent.status, 200);
      assert.ok(sent.body.messages.some((m) => m.content.some((b) => b.type === 'thinking')), 'the turns before the first edit keep theirs');
    });

    test('in a chat UI\'s UIMessage a clearing drops the signed reasoning of the later steps of that same message, and the request is accepted', async () => {
      // One UIMessage holds the whole tool loop (a step per read); the AI SDK sends each later step after the outputs
      // before it, so clearing an output of step 1 changes the prefix of the reasoning of steps 2 and 3.
      const ai = await import(v.ai);
      const model = (await import(v.anthropic)).createAnthropic({ baseURL: `${provider.url}/v1`, apiKey: 'sk-ant-test' })('claude-opus-4-7');
      const tools = { read_file: ai.tool({ description: 'Read a file of the repository', inputSchema: z.object({ path: z.string() }), execute: async ({ path }) => read(path) }) };
      const ui = [];
      const turn = async (id, question, reads) => {
        ui.push({ id: `u${id}`, role: 'user', parts: [{ type: 'text', text: question }] });
        script(reads);
        const result = ai.streamText({ model, tools, messages: await ai.convertToModelMessages(ui), stopWhen: ai.stepCountIs(reads.length + 1), providerOptions: THINKING });
        let answer;
        for await (const m of ai.readUIMessageStream({ stream: result.toUIMessageStream({ generateMessageId: () => `a${id}` }) })) answer = m;
        ui.push(structuredClone(answer));
      };
      await turn(1, '工具结果在哪里和调用配对？读三个文件确认。', FILES.slice(0, 3));
      await turn(2, 'And where are they estimated?', FILES.slice(3, 4));
      ui.push({ id: 'u3', role: 'user', parts: [{ type: 'text', text: 'Write that down in the notes.' }] }); // what the next request sends
      const signed = (p) => p.type === 'reasoning' && p.providerMetadata?.anthropic?.signature;
      assert.equal(ui[1].parts.filter(signed).length, 4, 'each of the four steps of the first loop thought first');

      const report = microCompact(ui, { keepRecent: 1 });
      assert.equal(report.cleared, 3);
      assert.ok(report.edits.every((e) => e.message === 1));
      const firstEdit = Math.min(...report.edits.map((e) => e.part));
      assert.equal(report.thinkingRemoved, 5, 'steps 2-4 of the first loop and both steps of the second follow a cleared output');
      assert.equal(ui[1].parts.slice(0, firstEdit).filter(signed).length, 1, 'the first step keeps its own');
      assert.ok(!ui[1].parts.slice(firstEdit).some(signed));

      // (streamed like the turns before it: @ai-sdk/anthropic adds eager_input_streaming to each tool when it
      // streams, so a generateText here would change `tools`, which the prefix check covers too)
      const sent = provider.requests.length;
      ui.pop();
      await turn(3, 'Write that down in the notes.', []);
      assert.deepStrictEqual(provider.requests.slice(sent).map((q) => q.status), [200]);
    });
  });
}
