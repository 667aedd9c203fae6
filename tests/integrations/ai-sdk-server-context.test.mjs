// A long tool loop with signed, prefix-bound thinking through the AI SDK's Anthropic provider (3.x with ai 6,
// 4.x with ai 7): no client edit may land while it runs (the next request would fail), so midfold asks the
// provider to manage the context on its side (docs/provider-rules.md, "Anthropic: server-side context
// management"): under compaction's minimum trigger by clearing old tool results, from it on by compacting.
// The strict provider (tests/helpers/strict-provider.mjs, tests/helpers/context-management.mjs) checks every
// signature against what was sent, then applies the edits to what the model reads, and records how much that was.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { init, digestSummarizer } from 'midfold';
import { compactStep, midfoldMiddleware } from 'midfold/ai-sdk';
import { startStrictProvider } from '../helpers/strict-provider.mjs';
import { tokensOf } from '../helpers/context-management.mjs';
import { ANTHROPIC_VERSIONS } from '../helpers/ai-sdk-flows.mjs';
import { CORE_NAMES, coreFileSize, readWorkloadFile } from '../helpers/corpus.mjs';

// C files of 3–13 KB (about 1,000–4,000 tokens each as the provider counts here), read in turn.
const FILES = CORE_NAMES.filter((f) => f.endsWith('.c') && coreFileSize(f) > 3000 && coreFileSize(f) < 13000)
  .sort().map((f) => `src/${f}`);
const read = readWorkloadFile;
const THINKING = { anthropic: { thinking: { type: 'enabled', budgetTokens: 2048 } } };
const READS = 37; // 38 steps: 37 reads, then the answer
const INSTRUCTIONS = 'Keep every file path that was read and what each file does.';

let provider;
before(async () => { await init(); provider = await startStrictProvider(); });
after(() => provider.close());

/** Scripts one loop: each step thinks first and reads the next file; the last one answers. */
function script(loop) {
  let step = 0;
  provider.reply = () => {
    const i = step++;
    return i < READS
      ? [{ type: 'thinking', thinking: `Step ${i}: I still need ${FILES[i % FILES.length]} to see where results meet their calls.` },
        { type: 'tool_use', id: `toolu_${loop}_${i}`, name: 'read_file', input: { path: FILES[i % FILES.length] } }]
      : [{ type: 'thinking', thinking: 'I have read enough.' }, { type: 'text', text: `I read ${READS} files.` }];
  };
}

let loops = 0;
/**
 * Runs a 38-step streamText loop with `hook` ('middleware' or 'prepareStep') at `threshold`; returns the
 * requests it sent, the reports and the warnings.
 */
async function runLoop(v, hook, threshold, providerOptions = THINKING) {
  const ai = await import(v.ai);
  const base = (await import(v.anthropic)).createAnthropic({ baseURL: `${provider.url}/v1`, apiKey: 'sk-ant-test' })('claude-opus-4-7');
  const tools = { read_file: ai.tool({ description: 'Read a file of the repository', inputSchema: z.object({ path: z.string() }), execute: async ({ path }) => read(path) }) };
  const reports = [];
  const warnings = [];
  const options = { summarize: digestSummarizer(), threshold, instructions: INSTRUCTIONS, onReport: (r) => reports.push(r), onWarn: (m) => warnings.push(m) };
  const loop = ++loops;
  script(loop);
  const first = provider.requests.length;
  const call = hook === 'middleware'
    ? { model: ai.wrapLanguageModel({ model: base, middleware: midfoldMiddleware({ ...options, specificationVersion: v.spec }) }) }
    : { model: base, prepareStep: compactStep(options) };
  const result = ai.streamText({ ...call, tools, stopWhen: ai.stepCountIs(READS + 2), providerOptions,
    system: 'You are a coding agent in the midfold repository. Read before you answer.',
    messages: [{ role: 'user', content: `Read the C core, file by file (${loop}), and tell me where tool results are paired with their calls.` }] });
  const text = await result.text;
  return { text, sent: provider.requests.slice(first), reports, warnings };
}

for (const v of ANTHROPIC_VERSIONS) {
  for (const hook of ['middleware', 'prepareStep']) {
    describe(`a 38-step signed-thinking loop, ${hook === 'middleware' ? 'midfoldMiddleware' : 'compactStep'} with ${v.anthropic} (${v.label})`, { skip: v.skip }, () => {
      test('at 20,000 the provider clears old results inside the loop: no request reads more than 1.25x the threshold, every one accepted', async () => {
        const { text, sent, reports } = await runLoop(v, hook, 20_000);
        assert.equal(text, `I read ${READS} files.`);
        assert.equal(sent.length, READS + 1);
        assert.deepStrictEqual(sent.map((q) => q.status), sent.map(() => 200), 'every request accepted');
        assert.ok(reports.some((r) => r.reason === 'deferred-thinking'), 'midfold could not edit the loop itself');
        assert.ok(reports.every((r) => !r.compacted && !(r.micro && r.micro.cleared)), 'and did not');
        const asked = sent.filter((q) => q.edits);
        assert.ok(asked.length > 0 && asked.every((q) => q.edits.length === 1 && q.edits[0].type === 'clear_tool_uses_20250919'));
        assert.deepStrictEqual(asked[0].body.context_management.edits[0],
          { type: 'clear_tool_uses_20250919', trigger: { type: 'input_tokens', value: 16_000 }, keep: { type: 'tool_uses', value: 3 },
            clear_at_least: { type: 'input_tokens', value: 8_000 } }, "the Compactor's clearing: its micro trigger, keepRecent, clearAtLeast");
        assert.ok(sent.some((q) => q.appliedEdits && q.appliedEdits.length), 'the provider cleared');
        const peak = Math.max(...sent.map((q) => q.read ?? tokensOf(q.body.messages)));
        assert.ok(peak <= 25_000, `the provider read at most ${peak} tokens`);
        // Without the provider's edits the last request would have read the whole loop.
        assert.ok(tokensOf(sent.at(-1).body.messages) > 3 * 20_000, 'the loop itself grew far past the threshold');
        assert.ok(sent.at(-1).body.messages.some((m) => m.role === 'assistant' && m.content[0].type === 'thinking'), 'sent with its signed thinking');
      });

      test('at 60,000 the provider compacts inside the loop with the Compactor\'s instructions, and the loop goes on from its block', async () => {
        const { text, sent, reports } = await runLoop(v, hook, 60_000);
        assert.equal(text, `I read ${READS} files.`);
        assert.equal(sent.length, READS + 1);
        assert.deepStrictEqual(sent.map((q) => q.status), sent.map(() => 200), 'every request accepted');
        const asked = sent.filter((q) => q.edits);
        assert.ok(asked.length > 0 && asked.every((q) => q.edits.length === 1 && q.edits[0].type === 'compact_20260112'));
        assert.deepStrictEqual(asked[0].body.context_management.edits[0],
          { type: 'compact_20260112', trigger: { type: 'input_tokens', value: 60_000 }, instructions: INSTRUCTIONS });
        const compacted = sent.filter((q) => q.appliedEdits && q.appliedEdits.some((e) => e.type === 'compact_20260112'));
        assert.ok(compacted.length >= 1, 'the provider compacted');
        // After the first block came back, each request goes from the last block on, as the provider reads it.
        const after = sent.slice(sent.indexOf(compacted[0]) + 1);
        assert.ok(after.length > 0 && after.every((q) => q.body.messages[0].content[0].type === 'compaction'));
        assert.ok(after.every((q) => !q.body.messages.slice(1).some((m) => m.content.some((b) => b.type === 'compaction'))), 'one block, first');
        const peak = Math.max(...sent.map((q) => q.read ?? tokensOf(q.body.messages)));
        assert.ok(peak <= 75_000, `the provider read at most ${peak} tokens`);
        assert.ok(reports.some((r) => r.reason === 'deferred-thinking'));
      });
    });
  }
}

describe('the host\'s own context management', () => {
  for (const v of ANTHROPIC_VERSIONS) {
    test(`is left as the host set it (${v.label})`, { skip: v.skip }, async () => {
      const own = { edits: [{ type: 'clear_tool_uses_20250919', keep: { type: 'tool_uses', value: 5 } }] };
      const { text, sent, reports } = await runLoop(v, 'middleware', 20_000, { anthropic: { ...THINKING.anthropic, contextManagement: own } });
      assert.equal(text, `I read ${READS} files.`);
      assert.ok(sent.every((q) => q.status === 200));
      assert.ok(sent.every((q) => JSON.stringify(q.body.context_management) === JSON.stringify(own)), 'every request carries the host\'s edits, as they were');
      const waited = reports.filter((r) => r.reason === 'deferred-thinking');
      assert.ok(waited.length > 0 && waited.every((r) => r.serverContext === 'host' && r.serverEdits === undefined));
    });
  }
});
