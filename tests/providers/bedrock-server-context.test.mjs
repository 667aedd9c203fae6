// Long tool loops with signed, prefix-bound thinking on Amazon Bedrock, through the AI SDK's Bedrock providers
// (@ai-sdk/amazon-bedrock 4.0.186 with ai 6, 5.0.101 with ai 7). No client edit may land while such a loop runs,
// so midfold asks Bedrock to manage the context on its side where Bedrock can (docs/provider-rules.md, "Amazon
// Bedrock: server-side context management"): the InvokeModel model (`@ai-sdk/amazon-bedrock/anthropic`) takes the
// Messages API's context management, compaction only for the models Bedrock lists for it; the Converse model
// takes none (Converse does not support compaction), so there midfold warns once the loop passes the threshold.
// The strict provider (tests/helpers/strict-provider.mjs: InvokeModel; tests/helpers/bedrock-converse.mjs:
// Converse) checks every signature against what was sent, applies the edits to what the model reads and records
// how much that was.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { init, digestSummarizer } from 'midfold';
import { compactStep, midfoldMiddleware } from 'midfold/ai-sdk';
import { startStrictProvider } from '../helpers/strict-provider.mjs';
import { startBedrockConverse, signedReasoning } from '../helpers/bedrock-converse.mjs';
import { tokensOf } from '../helpers/context-management.mjs';
import { CORE_NAMES, coreFileSize, readWorkloadFile } from '../helpers/corpus.mjs';

const read = readWorkloadFile;
const READS = 37; // 38 steps: 37 reads, then the answer
const INSTRUCTIONS = 'Keep every file path that was read and what each file does.';
const CREDENTIALS = { region: 'us-east-1', accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY' };
const STACKS = [
  { label: 'ai 6, @ai-sdk/amazon-bedrock 4.0.186', ai: 'ai', bedrock: '@ai-sdk/amazon-bedrock', spec: 'v3' },
  { label: 'ai 7, @ai-sdk/amazon-bedrock 5.0.101', ai: 'ai-v7', bedrock: '@ai-sdk/amazon-bedrock-v5', spec: 'v4' },
];
const OPUS_46 = 'us.anthropic.claude-opus-4-6-v1'; // listed for compaction
const SONNET_45 = 'us.anthropic.claude-sonnet-4-5-20250929-v1:0'; // not listed: tool clearing only

let provider;
let converse;
before(async () => { await init(); provider = await startStrictProvider(); converse = await startBedrockConverse(); });
after(async () => { await provider.close(); await converse.close(); });

// C files of 3–13 KB (about 1,000–4,000 tokens each as the provider counts here), read in turn.
const FILES = CORE_NAMES.filter((f) => f.endsWith('.c') && coreFileSize(f) > 3000 && coreFileSize(f) < 13000)
  .sort().map((f) => `src/${f}`);
let loops = 0;

/** A 38-step generateText loop on Bedrock's InvokeModel model; returns what it sent, the reports and warnings. */
async function invokeLoop(stack, hook, threshold, modelId) {
  const ai = await import(stack.ai);
  const { createBedrockAnthropic } = await import(`${stack.bedrock}/anthropic`);
  const base = createBedrockAnthropic({ ...CREDENTIALS, baseURL: provider.url })(modelId);
  const loop = ++loops;
  let step = 0;
  provider.reply = () => {
    const i = step++;
    return i < READS
      ? [{ type: 'thinking', thinking: `Step ${i}: ${FILES[i % FILES.length]} is next; results meet their calls somewhere.` },
        { type: 'tool_use', id: `toolu_${loop}_${i}`, name: 'read_file', input: { path: FILES[i % FILES.length] } }]
      : [{ type: 'thinking', thinking: 'I have read enough.' }, { type: 'text', text: `I read ${READS} files.` }];
  };
  const reports = [];
  const warnings = [];
  const options = { summarize: digestSummarizer(), threshold, instructions: INSTRUCTIONS, onReport: (r) => reports.push(r), onWarn: (m) => warnings.push(m) };
  const call = hook === 'middleware'
    ? { model: ai.wrapLanguageModel({ model: base, middleware: midfoldMiddleware({ ...options, specificationVersion: stack.spec }) }) }
    : { model: base, prepareStep: compactStep(options) };
  const tools = { read_file: ai.tool({ description: 'Read a file of the repository', inputSchema: z.object({ path: z.string() }), execute: async ({ path }) => read(path) }) };
  const first = provider.requests.length;
  const result = await ai.generateText({ ...call, tools, stopWhen: ai.stepCountIs(READS + 2),
    providerOptions: { anthropic: { thinking: { type: 'enabled', budgetTokens: 2048 } } },
    system: 'You are a coding agent in the midfold repository. Read before you answer.',
    messages: [{ role: 'user', content: `Read the C core, file by file (${loop}), and tell me where tool results are paired with their calls.` }] });
  return { text: result.text, sent: provider.requests.slice(first), reports, warnings };
}

/** What the provider read for each request: after its edits, or all that was sent. */
const readOf = (q) => q.read ?? tokensOf(q.body.messages);

test('the InvokeModel mock refuses what Bedrock refuses: unsigned, no anthropic_version, compaction on a model Bedrock does not list', async () => {
  const post = (modelId, body, headers = { authorization: 'AWS4-HMAC-SHA256 Credential=AKIA/20260101/us-east-1/bedrock/aws4_request' }) =>
    fetch(`${provider.url}/model/${encodeURIComponent(modelId)}/invoke`, { method: 'POST', headers, body: JSON.stringify(body) });
  const messages = [{ role: 'user', content: 'Hello' }];
  const unsigned = await post(OPUS_46, { anthropic_version: 'bedrock-2023-05-31', max_tokens: 10, messages }, {});
  assert.equal(unsigned.status, 403);
  const noVersion = await post(OPUS_46, { max_tokens: 10, messages });
  assert.equal(noVersion.status, 400);
  assert.match(noVersion.headers.get('x-amzn-errortype'), /^ValidationException/);
  const compact = { anthropic_version: 'bedrock-2023-05-31', max_tokens: 10, messages, anthropic_beta: ['context-management-2025-06-27', 'compact-2026-01-12'],
    context_management: { edits: [{ type: 'compact_20260112', trigger: { type: 'input_tokens', value: 60000 } }] } };
  assert.equal((await post(SONNET_45, compact)).status, 400);
  assert.equal((await post(OPUS_46, compact)).status, 200);
  // The Messages API's own rules hold: a compaction trigger under its minimum is refused, in Bedrock's shape.
  const low = structuredClone(compact);
  low.context_management.edits[0].trigger.value = 20000;
  const refused = await post(OPUS_46, low);
  assert.equal(refused.status, 400);
  assert.match((await refused.json()).message, /at least 50000/);
});

for (const stack of STACKS) {
  for (const hook of ['middleware', 'prepareStep']) {
    describe(`a 38-step signed-thinking loop on Bedrock InvokeModel, ${hook === 'middleware' ? 'midfoldMiddleware' : 'compactStep'} (${stack.label})`, () => {
      test('at 20,000 Bedrock clears old results inside the loop: no request reads more than 1.25x the threshold, every one accepted', async () => {
        const { text, sent, reports } = await invokeLoop(stack, hook, 20_000, SONNET_45);
        assert.equal(text, `I read ${READS} files.`);
        assert.equal(sent.length, READS + 1);
        assert.deepStrictEqual(sent.map((q) => q.error?.message ?? q.status), sent.map(() => 200), 'every request accepted');
        assert.ok(reports.some((r) => r.reason === 'deferred-thinking' && r.serverContext === 'requested'));
        assert.ok(reports.every((r) => !r.compacted), 'midfold itself edited nothing inside the loop');
        const asked = sent.filter((q) => q.edits);
        assert.ok(asked.length > 0 && asked.every((q) => q.edits.length === 1 && q.edits[0].type === 'clear_tool_uses_20250919'));
        assert.ok(asked.every((q) => q.body.anthropic_beta.includes('context-management-2025-06-27')), 'the beta in the body, where Bedrock reads it');
        assert.ok(sent.some((q) => q.appliedEdits && q.appliedEdits.length), 'Bedrock cleared');
        const peak = Math.max(...sent.map(readOf));
        assert.ok(peak <= 1.25 * 20_000, `Bedrock read at most ${peak} tokens`);
        assert.ok(tokensOf(sent.at(-1).body.messages) > 3 * 20_000, 'the loop itself grew far past the threshold');
      });

      test('at 60,000 on Opus 4.6 Bedrock compacts inside the loop with the Compactor\'s instructions, and the loop goes on from its block', async () => {
        const { text, sent, reports } = await invokeLoop(stack, hook, 60_000, OPUS_46);
        assert.equal(text, `I read ${READS} files.`);
        assert.equal(sent.length, READS + 1);
        assert.deepStrictEqual(sent.map((q) => q.error?.message ?? q.status), sent.map(() => 200), 'every request accepted');
        const asked = sent.filter((q) => q.edits);
        assert.ok(asked.length > 0 && asked.every((q) => q.edits.length === 1 && q.edits[0].type === 'compact_20260112'));
        assert.deepStrictEqual(asked[0].body.context_management.edits[0], { type: 'compact_20260112', trigger: { type: 'input_tokens', value: 60_000 }, instructions: INSTRUCTIONS });
        const compacted = sent.filter((q) => q.appliedEdits && q.appliedEdits.some((e) => e.type === 'compact_20260112'));
        assert.ok(compacted.length >= 1, 'Bedrock compacted');
        const later = sent.slice(sent.indexOf(compacted[0]) + 1);
        assert.ok(later.length > 0 && later.every((q) => q.body.messages[0].content[0].type === 'compaction'), 'each later request goes on from the block');
        const peak = Math.max(...sent.map(readOf));
        assert.ok(peak <= 1.25 * 60_000, `Bedrock read at most ${peak} tokens`);
        assert.ok(reports.some((r) => r.reason === 'deferred-thinking'));
      });

      test('at 60,000 on a model Bedrock does not list for compaction, midfold asks for tool clearing instead, and every request is accepted', async () => {
        const { text, sent } = await invokeLoop(stack, hook, 60_000, SONNET_45);
        assert.equal(text, `I read ${READS} files.`);
        assert.deepStrictEqual(sent.map((q) => q.error?.message ?? q.status), sent.map(() => 200));
        const asked = sent.filter((q) => q.edits);
        assert.ok(asked.length > 0 && asked.every((q) => q.edits[0].type === 'clear_tool_uses_20250919' && !q.body.anthropic_beta.includes('compact-2026-01-12')));
        const peak = Math.max(...sent.map(readOf));
        assert.ok(peak <= 1.25 * 60_000, `Bedrock read at most ${peak} tokens`);
      });
    });
  }
}

for (const stack of STACKS) {
  test(`Bedrock Converse (${stack.label}): no server-side context management, so midfold warns once the loop passes the threshold, long before the window`, async () => {
    const ai = await import(stack.ai);
    const { createAmazonBedrock } = await import(stack.bedrock);
    const base = createAmazonBedrock({ ...CREDENTIALS, baseURL: converse.url })(SONNET_45);
    const loop = ++loops;
    converse.reply = ({ messages }) => {
      const result = messages.at(-1).content.find((b) => b.toolResult);
      const i = result ? Number(result.toolResult.toolUseId.split('_').pop()) + 1 : 0;
      return i < READS
        ? [signedReasoning(messages, `Step ${i}: ${FILES[i % FILES.length]} next.`), { toolUse: { toolUseId: `tooluse_${loop}_${i}`, name: 'read_file', input: { path: FILES[i % FILES.length] } } }]
        : [signedReasoning(messages, 'Enough.'), { text: `I read ${READS} files.` }];
    };
    const reports = [];
    const warnings = [];
    const model = ai.wrapLanguageModel({ model: base, middleware: midfoldMiddleware({ summarize: digestSummarizer(), threshold: 20_000, specificationVersion: stack.spec,
      onReport: (r) => reports.push(r), onWarn: (m) => warnings.push(m) }) });
    const tools = { read_file: ai.tool({ description: 'Read a file of the repository', inputSchema: z.object({ path: z.string() }), execute: async ({ path }) => read(path) }) };
    const first = converse.requests.length;
    const result = await ai.generateText({ model, tools, stopWhen: ai.stepCountIs(READS + 2), providerOptions: { bedrock: { reasoningConfig: { type: 'enabled', budgetTokens: 2048 } } },
      messages: [{ role: 'user', content: `Read the C core, file by file (${loop}).` }] });
    assert.equal(result.text, `I read ${READS} files.`);
    const sent = converse.requests.slice(first);
    assert.deepStrictEqual(sent.filter((q) => q.status !== 200).map((q) => q.error), [], 'every request accepted');
    assert.ok(sent.every((q) => !(q.body.additionalModelRequestFields && q.body.additionalModelRequestFields.context_management)), 'nothing asked of Converse');
    const waited = reports.filter((r) => r.reason === 'deferred-thinking');
    assert.ok(waited.length > 0 && waited.every((r) => r.serverContext === 'unsupported'));
    assert.equal(warnings.length, 1, 'warned once');
    assert.match(warnings[0], /signed thinking is in flight at (\d+) tokens, over the threshold of 20000; .* has no server-side context management/);
    const at = Number(/in flight at (\d+) tokens/.exec(warnings[0])[1]);
    // The warning came with the first step past the threshold, while the request still fit 1.25x of it.
    const firstOver = waited.find((r) => r.tokensBefore > 20_000);
    assert.equal(at, firstOver.tokensBefore);
    assert.ok(at <= 1.25 * 20_000, `warned at ${at} tokens`);
    assert.ok(Math.ceil(JSON.stringify(sent.at(-1).body.messages).length / 4) > 3 * 20_000, 'the loop then grew, as the warning said');
  });
}

test('the Converse mock refuses compaction, which Bedrock supports through InvokeModel only', async () => {
  const ai = await import('ai');
  const { createAmazonBedrock } = await import('@ai-sdk/amazon-bedrock');
  const model = createAmazonBedrock({ ...CREDENTIALS, baseURL: converse.url })(OPUS_46);
  converse.reply = () => [{ text: 'ok' }];
  await assert.rejects(ai.generateText({ model, messages: [{ role: 'user', content: 'Hello' }],
    providerOptions: { bedrock: { anthropicBeta: ['compact-2026-01-12'], additionalModelRequestFields: { context_management: { edits: [{ type: 'compact_20260112' }] } } } } }),
  (e) => e.statusCode === 400 && /Converse/.test(e.message));
});
