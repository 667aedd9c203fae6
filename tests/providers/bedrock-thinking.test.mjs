// Claude with extended thinking on Amazon Bedrock, through the AI SDK's Bedrock provider (the Converse API:
// @ai-sdk/amazon-bedrock 4.0.186 with ai 6, 5.0.101 with ai 7). Bedrock signs each reasoning block with "a hash
// of all the messages in the conversation" and refuses a request whose messages before it were tampered with;
// the provider keeps the signature in the reasoning part's providerOptions under `bedrock` (and, in 5.x,
// `amazonBedrock`), where midfold's thinking policy must see it: a tool loop in flight is left alone, and after
// a fold or a clearing the kept turns lose their signed reasoning. The mock (tests/helpers/bedrock-converse.mjs)
// refuses what Bedrock refuses; requests reach it through the real provider, SigV4-signed, and a chat route's
// streamed answers (ConverseStream) become UIMessages through the real readUIMessageStream.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { init, digestSummarizer } from '../../js/hosts/node.js';
import { midfoldMiddleware, compactUIMessages, SessionState } from 'midfold/ai-sdk';
import { startBedrockConverse, signedReasoning } from '../helpers/bedrock-converse.mjs';
import { readWorkloadFile } from '../helpers/corpus.mjs';

const read = readWorkloadFile;
// The four adapters this loop was sized on (a readdir slice would change whenever an adapter is added).
const FILES = ['adapt_aisdk.c', 'adapt_aisdk_ui.c', 'adapt_anthropic.c', 'adapt_openai.c'].map((f) => `src/${f}`);
const MODEL = 'us.anthropic.claude-sonnet-4-5-20250929-v1:0';
const THINKING = { bedrock: { reasoningConfig: { type: 'enabled', budgetTokens: 2048 } } };
const STACKS = [
  ['ai 6, @ai-sdk/amazon-bedrock 4.0.186', 'ai', '@ai-sdk/amazon-bedrock'],
  ['ai 7, @ai-sdk/amazon-bedrock 5.0.101', 'ai-v7', '@ai-sdk/amazon-bedrock-v5'],
];

let bedrock;
let turns = 0;
before(async () => {
  await init();
  bedrock = await startBedrockConverse();
  // Each turn reads FILES one a step, thinking first each step, then answers.
  bedrock.reply = ({ messages }) => {
    const result = messages.at(-1).content.find((b) => b.toolResult);
    const step = result ? Number(result.toolResult.toolUseId.split('_').pop()) + 1 : 0;
    if (step === 0) turns++;
    const thinking = `Turn ${turns}, step ${step}: ${FILES[step] ?? 'nothing more'} is next.`;
    return step < FILES.length
      ? [signedReasoning(messages, thinking), { toolUse: { toolUseId: `tooluse_${turns}_${step}`, name: 'read_file', input: { path: FILES[step] } } }]
      : [signedReasoning(messages, thinking), { text: 'Results are paired in src/view.c.' }];
  };
});
after(() => bedrock.close());

const providerOf = async (pkg) => (await import(pkg)).createAmazonBedrock({ region: 'us-east-1', accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', baseURL: bedrock.url });

test('the mock refuses what Bedrock refuses: an unsigned request, a tampered prefix under signed reasoning, an in-flight loop without it', async () => {
  const unsigned = await fetch(`${bedrock.url}/model/${encodeURIComponent(MODEL)}/converse`, { method: 'POST', body: JSON.stringify({ messages: [] }) });
  assert.equal(unsigned.status, 403);
  const ai = await import('ai');
  const model = (await providerOf('@ai-sdk/amazon-bedrock'))(MODEL);
  const tools = { read_file: ai.tool({ description: 'Read a file of the repository', inputSchema: z.object({ path: z.string() }), execute: async ({ path }) => read(path) }) };
  const first = await ai.generateText({ model, tools, stopWhen: ai.stepCountIs(2), messages: [{ role: 'user', content: 'Where are results paired?' }], providerOptions: THINKING });
  const history = [{ role: 'user', content: 'Where are results paired?' }, ...first.response.messages];
  assert.ok(history[1].content[0].providerOptions.bedrock.signature, 'the provider keeps the signature on the reasoning part');
  // The prefix under the signed reasoning changed: refused.
  const tampered = structuredClone(history);
  tampered[0].content = 'Where are results paired? Be brief.';
  await assert.rejects(ai.generateText({ model, tools, stopWhen: ai.stepCountIs(1), messages: tampered, providerOptions: THINKING }),
    (e) => e.statusCode === 400 && /tampered/.test(e.message));
  // The loop in flight lost its reasoning: refused.
  const bare = structuredClone(history);
  bare[1].content = bare[1].content.filter((p) => p.type !== 'reasoning');
  await assert.rejects(ai.generateText({ model, tools, stopWhen: ai.stepCountIs(1), messages: bare.slice(0, 3), providerOptions: THINKING }),
    (e) => e.statusCode === 400 && /must start with a thinking block/.test(e.message));
});

for (const [label, aiPackage, providerPackage] of STACKS) {
  test(`${label}: midfoldMiddleware leaves a loop in flight alone, folds and clears at turn boundaries, and every request is accepted`, async () => {
    const ai = await import(aiPackage);
    const reports = [];
    const model = ai.wrapLanguageModel({ model: (await providerOf(providerPackage))(MODEL),
      middleware: midfoldMiddleware({ summarize: digestSummarizer(), threshold: 12000, keepTail: { tokens: 6000 }, onReport: (r) => reports.push(r) }) });
    const tools = { read_file: ai.tool({ description: 'Read a file of the repository', inputSchema: z.object({ path: z.string() }), execute: async ({ path }) => read(path) }) };
    const from = bedrock.requests.length;
    const history = [];
    const turnsOf = [];
    for (const question of ['Where are results paired?', 'Where are they estimated?', 'Where are they cleared?', 'Where are they folded?']) {
      history.push({ role: 'user', content: question });
      reports.length = 0;
      const result = await ai.generateText({ model, tools, stopWhen: ai.stepCountIs(FILES.length + 1), messages: history, providerOptions: THINKING });
      assert.equal(result.text, 'Results are paired in src/view.c.'); // a refusal would have thrown
      history.push(...(result.responseMessages ?? result.response.messages));
      turnsOf.push(reports.map((r) => ({ reason: r.reason, compacted: r.compacted, removed: (r.thinkingRemoved || 0) + (r.micro?.thinkingRemoved || 0) })));
    }
    assert.deepStrictEqual(bedrock.requests.slice(from).filter((q) => q.status !== 200).map((q) => q.error), []);
    const all = turnsOf.flat();
    assert.ok(turnsOf.some((t) => t.slice(1).some((r) => r.reason === 'deferred-thinking')), 'a loop in flight over the threshold waited');
    assert.ok(turnsOf.every((t) => t.slice(1).every((r) => !r.compacted)), 'nothing folded inside a loop');
    assert.ok(all.some((r) => r.compacted), `a turn boundary folded: ${JSON.stringify(turnsOf)}`);
    assert.ok(all.some((r) => r.removed > 0), 'the kept turns lost their signed reasoning');
  });
}

for (const [label, aiPackage, providerPackage] of STACKS) {
  test(`${label}: a chat route streams each answer (ConverseStream) into UIMessages and compacts them before every request; every request is accepted`, async () => {
    const ai = await import(aiPackage);
    const model = (await providerOf(providerPackage))(MODEL);
    const tools = { read_file: ai.tool({ description: 'Read a file of the repository', inputSchema: z.object({ path: z.string() }), execute: async ({ path }) => read(path) }) };
    const compactor = { summarize: digestSummarizer(), threshold: 30000, keepTail: { tokens: 18000 }, keepRecent: 2, microTrigger: 20000, clearAtLeast: 2000 };
    const state = new SessionState();
    const from = bedrock.requests.length;
    let client = [];
    const reports = [];
    for (const [i, question] of ['Where are results paired?', 'Where are they estimated?', 'Where are they cleared?', 'Where are they folded?'].entries()) {
      client.push({ id: `u${i}`, role: 'user', parts: [{ type: 'text', text: question }] });
      const { messages, report } = await compactUIMessages(client, { compactor, state });
      reports.push(report);
      const result = ai.streamText({ model, tools, messages: await ai.convertToModelMessages(messages), stopWhen: ai.stepCountIs(FILES.length + 1), providerOptions: THINKING });
      let answer;
      for await (const m of ai.readUIMessageStream({ stream: result.toUIMessageStream({ generateMessageId: () => `a${i}` }) })) answer = m;
      assert.equal(answer.parts.filter((p) => p.type === 'text').at(-1)?.text, 'Results are paired in src/view.c.');
      client = [...messages, structuredClone(answer)];
    }
    assert.deepStrictEqual(bedrock.requests.slice(from).filter((q) => q.status !== 200).map((q) => q.error), []);
    assert.equal(bedrock.requests.length - from, 4 * (FILES.length + 1), 'one streamed request per step');
    assert.ok(client.at(-1).parts.filter((p) => p.type === 'reasoning' && p.providerMetadata?.bedrock?.signature).length === FILES.length + 1, 'the UIMessage keeps each step\'s signature');
    assert.ok(reports.some((r) => r.compacted || r.micro?.cleared), JSON.stringify(reports.map((r) => r.reason)));
    assert.ok(reports.some((r) => (r.thinkingRemoved || 0) + (r.micro?.thinkingRemoved || 0) > 0), `the kept turns lost their signed reasoning: ${JSON.stringify(reports.map((r) => [r.reason, r.compacted, r.tokensBefore, r.micro, r.thinkingRemoved]))}`);
  });
}
