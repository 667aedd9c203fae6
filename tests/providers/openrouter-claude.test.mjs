// Claude with extended thinking through OpenRouter's Chat Completions: each turn's signed thinking comes back
// as `reasoning_details`, which OpenRouter gives back to Anthropic, whose newer models bind each signature to the
// conversation before it. midfold's thinking policy ('prefix-bound') must see those signatures: while such a tool
// loop is in flight nothing is cleared or folded, and after a fold the kept turns lose theirs. The mock
// (tests/helpers/openrouter-claude.mjs) rejects a changed prefix under a signed entry with a 400; requests reach
// it through the real `openai` client and through the AI SDK's OpenRouter provider (@openrouter/ai-sdk-provider
// 2.10.0 with ai 6, and 3.1.0 with ai 7).
import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { z } from 'zod';
import { init, estimateTokens, detectFormat, microCompact, Compactor, digestSummarizer } from '../../js/hosts/node.js';
import { midfoldMiddleware, conversationStates } from 'midfold/ai-sdk';
import { startMockLLM } from '../helpers/mock-llm.mjs';
import { deepseekRejection } from '../helpers/deepseek-rules.mjs';
import { providerError, signedDetails, signedReasoningRejection } from '../helpers/openrouter-claude.mjs';
import { chatCompletionSSE } from '../helpers/chat-sse.mjs';
import { CORE_NAMES, readWorkloadFile } from '../helpers/corpus.mjs';

const read = readWorkloadFile;
const FILES = CORE_NAMES.filter((f) => f.endsWith('.c')).sort().slice(0, 10).map((f) => `src/${f}`);
const MODEL = 'anthropic/claude-sonnet-4.5';

let llm;
const rejected = []; // every 400 the mock answered, with its message (a streamed one reaches no catch)
before(async () => {
  await init();
  llm = await startMockLLM({
    respond: ({ body }) => {
      const problem = deepseekRejection(body) || signedReasoningRejection(body.messages);
      if (problem) {
        rejected.push(problem);
        return { status: 400, json: providerError(problem) };
      }
      const messages = body.messages;
      const lastTool = messages.findLast((m) => m.role === 'tool');
      const lastUser = messages.findLastIndex((m) => m.role === 'user');
      const step = lastTool && messages.lastIndexOf(lastTool) > lastUser ? Number(lastTool.tool_call_id.split('_').pop()) + 1 : 0;
      const turn = messages.filter((m) => m.role === 'user').length;
      // A question that asks for "N files" gets N reads, any other all of FILES.
      const asked = /(\d+) files/.exec(JSON.stringify(messages[lastUser].content));
      const reads = asked ? Number(asked[1]) : FILES.length;
      const thinking = step < reads ? `Turn ${turn}, step ${step}: ${FILES[step]} may pair the results.` : 'Every file is read.';
      const message = step < reads
        ? { role: 'assistant', content: '', tool_calls: [{ id: `call_${turn}_${step}`, type: 'function', function: { name: 'read_file', arguments: JSON.stringify({ path: FILES[step] }) } }] }
        : { role: 'assistant', content: 'Pairing happens in src/view.c.' };
      const answer = { ...message, reasoning: thinking, reasoning_details: signedDetails(messages, thinking) };
      const id = `gen-${turn}-${step}`, finish = message.tool_calls ? 'tool_calls' : 'stop';
      if (body.stream) return { raw: chatCompletionSSE(id, body.model, answer, finish), contentType: 'text/event-stream' };
      return {
        json: {
          id, object: 'chat.completion', created: 1764547200, model: body.model, provider: 'Anthropic',
          choices: [{ index: 0, finish_reason: finish, message: answer }],
          usage: { prompt_tokens: estimateTokens(messages, { profile: 'claude', format: 'openai' }), completion_tokens: 50, total_tokens: 0 },
        },
      };
    },
  });
});
after(() => llm.close());
// Middlewares built with the same options share the module's states: the ai 6 and ai 7 runs of one test send the
// same conversation, and each is meant to start from none.
beforeEach(() => conversationStates.clear());

/** One user turn of the agent: calls the model until it answers, the Compactor before each call. */
async function agentTurn(client, messages, compactor, reports) {
  for (;;) {
    reports.push(await compactor.compact(messages));
    const answer = await client.chat.completions.create({ model: MODEL, messages });
    const message = answer.choices[0].message; // reasoning and reasoning_details included, as OpenRouter sends them
    messages.push(message);
    if (!message.tool_calls) return message.content;
    for (const call of message.tool_calls) messages.push({ role: 'tool', tool_call_id: call.id, content: read(JSON.parse(call.function.arguments).path) });
  }
}

test('the mock rejects a changed prefix under a signed reasoning entry, and what midfold does without the policy', async () => {
  const client = new OpenAI({ baseURL: llm.url, apiKey: 'sk-or-test', maxRetries: 0 });
  const messages = [{ role: 'user', content: 'Where are tool results paired with their calls?' }];
  for (let i = 0; i < 4; i++) {
    const message = (await client.chat.completions.create({ model: MODEL, messages })).choices[0].message;
    messages.push(message);
    for (const call of message.tool_calls) messages.push({ role: 'tool', tool_call_id: call.id, content: read(JSON.parse(call.function.arguments).path) });
  }
  assert.equal(detectFormat(messages), 'openai');
  assert.equal(microCompact(structuredClone(messages), { keepRecent: 1 }).deferred, 'in-flight-thinking');
  const unbound = structuredClone(messages);
  assert.ok(microCompact(unbound, { keepRecent: 1, thinking: 'unbound' }).cleared > 0);
  await assert.rejects(client.chat.completions.create({ model: MODEL, messages: unbound }),
    (e) => e.status === 400 && /Provider returned error/.test(e.message));
  assert.match(signedReasoningRejection(unbound), /prefix_binding_mismatch/);
});

test('through the openai client: a tool loop past the threshold is left alone while in flight, folded at the turn boundary, every request accepted', async () => {
  const client = new OpenAI({ baseURL: llm.url, apiKey: 'sk-or-test', maxRetries: 0 });
  const compactor = new Compactor({ summarize: digestSummarizer(), threshold: 8000, keepTail: { tokens: 3000 } });
  const messages = [{ role: 'system', content: 'You are a careful coding agent.' }, { role: 'user', content: 'Where are tool results paired with their calls?' }];
  const reports = [];
  assert.equal(await agentTurn(client, messages, compactor, reports), 'Pairing happens in src/view.c.');
  assert.ok(estimateTokens(messages, { profile: 'safe' }) > 20000, 'the loop went well past the threshold');
  const inLoop = reports.slice(1);
  assert.ok(inLoop.some((r) => r.reason === 'deferred-thinking'), 'the Compactor waited for the turn boundary');
  assert.ok(inLoop.every((r) => !r.compacted && r.micro.cleared === 0));

  // The next user turn: the fold lands, and the kept turns' signed reasoning goes (their prefix changed).
  messages.push({ role: 'user', content: '再确认一下 src/view.c 里的配对逻辑。' });
  const next = [];
  assert.equal(await agentTurn(client, messages, compactor, next), 'Pairing happens in src/view.c.');
  assert.equal(next[0].compacted, true);
  assert.ok(next[0].thinkingRemoved > 0, 'the kept turns lost their signatures');
});

// ai 6 users run @openrouter/ai-sdk-provider 2 (peer ai ^6), ai 7 users 3 (peer ai ^7): each pair as installed.
const AI_STACKS = [
  ['ai 6, @openrouter/ai-sdk-provider 2.10.0', 'ai', '@openrouter/ai-sdk-provider'],
  ['ai 7, @openrouter/ai-sdk-provider 3.1.0', 'ai-v7', '@openrouter/ai-sdk-provider-v3'],
];
for (const [label, aiPackage, providerPackage] of AI_STACKS) {
  test(`through the AI SDK OpenRouter provider (${label}): midfoldMiddleware waits for the turn boundary; every request is accepted`, async () => {
    const ai = await import(aiPackage);
    const { createOpenRouter } = await import(providerPackage);
    const openrouter = createOpenRouter({ baseURL: llm.url, apiKey: 'sk-or-test' });
    const reports = [];
    const warnings = [];
    const model = ai.wrapLanguageModel({ model: openrouter.chat(MODEL), middleware: midfoldMiddleware({ summarize: digestSummarizer(), threshold: 8000,
      onReport: (r) => reports.push(r), onWarn: (m) => warnings.push(m) }) });
    const tools = { read_file: ai.tool({ description: 'Read a file of the repository', inputSchema: z.object({ path: z.string() }), execute: async ({ path }) => read(path) }) };
    const from = llm.requests.length;
    const result = await ai.generateText({ model, tools, stopWhen: ai.stepCountIs(FILES.length + 1), messages: [{ role: 'user', content: 'Where are tool results paired with their calls?' }] });
    assert.equal(result.text, 'Pairing happens in src/view.c.'); // a 400 would have thrown
    assert.equal(llm.requests.length - from, FILES.length + 1);
    const sent = llm.requests.at(-1).body.messages;
    assert.ok(sent.filter((m) => Array.isArray(m.reasoning_details) && m.reasoning_details.some((d) => d.signature)).length >= FILES.length - 1,
      'the provider sent the signed reasoning back');
    assert.ok(reports.some((r) => r.reason === 'deferred-thinking'));
    assert.ok(reports.every((r) => !r.compacted && r.micro.cleared === 0));
    // OpenRouter's Chat Completions take no server-side context management: the loop grows, and midfold says so,
    // once, when it passes the threshold.
    assert.ok(reports.filter((r) => r.reason === 'deferred-thinking').every((r) => r.serverContext === 'unsupported'));
    const over = reports.findIndex((r) => r.reason === 'deferred-thinking' && r.tokensBefore > 8000);
    assert.ok(over >= 0, 'the loop passed the threshold');
    assert.equal(warnings.length, 1, warnings.join('\n'));
    assert.match(warnings[0], /signed thinking is in flight at \d+ tokens, over the threshold of 8000; .*openrouter.* has no server-side context management/);

    // The next user turn opens at a turn boundary: the middleware folds there, the kept turns lose their
    // signed details (the SDK's parts keep them in providerOptions.openrouter), and the provider accepts it.
    // (ai 6: the last step's response.messages holds every step's; ai 7: responseMessages does)
    const history = [{ role: 'user', content: 'Where are tool results paired with their calls?' }, ...(result.responseMessages ?? result.response.messages),
      { role: 'user', content: 'And where are they estimated?' }];
    reports.length = 0;
    const second = await ai.generateText({ model, tools, stopWhen: ai.stepCountIs(FILES.length + 1), messages: history });
    assert.equal(second.text, 'Pairing happens in src/view.c.');
    assert.equal(reports[0].compacted, true, `the first call of the next turn folds (${reports[0].reason})`);
    assert.ok(reports[0].thinkingRemoved > 0, 'the kept turns lost their signatures');
  });
}

// OpenRouter's AI SDK provider copies each step's reasoning_details onto the step's tool calls (a ModelMessage's
// tool-call providerOptions, a UIMessage tool part's callProviderMetadata and resultProviderMetadata), and when it
// sends an assistant message it takes the details of the first call part that has them before it looks at the
// reasoning parts (findFirstReasoningDetails in 2.10.0 and 3.1.0). So the signed thinking of a kept turn is on
// its call parts too, and must go from there as well.
const signedOn = (meta) => (meta?.openrouter?.reasoning_details ?? []).some((d) => d.signature);
for (const [label, aiPackage, providerPackage] of AI_STACKS) {
  test(`${label}: a fold that keeps a finished tool loop takes the signed details off its tool calls; every request is accepted`, async () => {
    const ai = await import(aiPackage);
    const { createOpenRouter } = await import(providerPackage);
    const openrouter = createOpenRouter({ baseURL: llm.url, apiKey: 'sk-or-test' });
    const reports = [];
    const model = ai.wrapLanguageModel({ model: openrouter.chat(MODEL), middleware: midfoldMiddleware({ summarize: digestSummarizer(),
      threshold: 12000, keepTail: { tokens: 6000 }, onReport: (r) => reports.push(r) }) });
    const tools = { read_file: ai.tool({ description: 'Read a file of the repository', inputSchema: z.object({ path: z.string() }), execute: async ({ path }) => read(path) }) };
    const history = [];
    const from = rejected.length;
    let foldRequest = null;
    for (const question of ['Read 4 files: where are results paired?', 'Read 4 files: where are they estimated?', 'Read 4 files: where are they cleared?']) {
      history.push({ role: 'user', content: question });
      const before = llm.requests.length;
      reports.length = 0;
      const result = await ai.generateText({ model, tools, stopWhen: ai.stepCountIs(6), messages: history });
      assert.equal(result.text, 'Pairing happens in src/view.c.');
      const step = result.steps[0].content.find((p) => p.type === 'tool-call');
      assert.ok(signedOn(step.providerMetadata), 'the provider put the signed details on the call');
      history.push(...(result.responseMessages ?? result.response.messages));
      if (reports[0].compacted && !foldRequest) foldRequest = { body: llm.requests[before].body, report: reports[0] };
    }
    assert.deepStrictEqual(rejected.slice(from), []);
    assert.ok(foldRequest, 'a later turn opened with a fold');
    const kept = foldRequest.body.messages.filter((m) => m.role === 'assistant');
    assert.ok(kept.some((m) => m.tool_calls), 'the fold kept a finished step with its tool call');
    assert.ok(kept.every((m) => m.reasoning_details === undefined || m.reasoning_details.length === 0), 'no kept turn sends its signed details');
    assert.ok(foldRequest.report.thinkingRemoved > 0);
  });

  test(`${label}: in a chat UI's UIMessage a clearing takes the signed details off the later tool parts; the next turn is accepted`, async () => {
    const ai = await import(aiPackage);
    const { createOpenRouter } = await import(providerPackage);
    const model = createOpenRouter({ baseURL: llm.url, apiKey: 'sk-or-test' }).chat(MODEL);
    const tools = { read_file: ai.tool({ description: 'Read a file of the repository', inputSchema: z.object({ path: z.string() }), execute: async ({ path }) => read(path) }) };
    const ui = [];
    const turn = async (id, question) => {
      ui.push({ id: `u${id}`, role: 'user', parts: [{ type: 'text', text: question }] });
      const result = ai.streamText({ model, tools, messages: await ai.convertToModelMessages(ui), stopWhen: ai.stepCountIs(6) });
      let answer;
      for await (const m of ai.readUIMessageStream({ stream: result.toUIMessageStream({ generateMessageId: () => `a${id}` }) })) answer = m;
      ui.push(structuredClone(answer));
    };
    const from = rejected.length;
    await turn(1, '工具结果在哪里和调用配对？读 3 files 确认。');
    await turn(2, 'Read 2 files: where are they estimated?');
    const toolParts = (m) => m.parts.filter((p) => p.type === 'tool-read_file');
    assert.ok(toolParts(ui[1]).every((p) => signedOn(p.callProviderMetadata) && signedOn(p.resultProviderMetadata)),
      'the SDK keeps each step\'s signed details on its tool part, twice');

    ui.push({ id: 'u3', role: 'user', parts: [{ type: 'text', text: 'Read 1 files and write that down.' }] });
    const report = microCompact(ui, { keepRecent: 1 });
    assert.ok(report.cleared >= 3);
    const firstEdit = Math.min(...report.edits.filter((e) => e.message === 1).map((e) => e.part));
    const after = [...ui[1].parts.slice(firstEdit), ...ui[3].parts];
    assert.ok(after.every((p) => !signedOn(p.callProviderMetadata) && !signedOn(p.resultProviderMetadata) && !signedOn(p.providerMetadata)),
      'no part after the first cleared output keeps signed details');
    assert.ok(ui[1].parts.slice(0, firstEdit).some((p) => signedOn(p.providerMetadata)), 'the step before it keeps its own');
    ui.pop();
    await turn(3, 'Read 1 files and write that down.');
    assert.deepStrictEqual(rejected.slice(from), []);
    assert.equal(ui.at(-1).parts.filter((p) => p.type === 'text').at(-1).text, 'Pairing happens in src/view.c.');
  });
}

test('a call part loses only its reasoning_details: its other metadata stays, and the part the caller holds is not changed', () => {
  const details = (text) => [{ type: 'reasoning.text', text, signature: `sig-${text}`, format: 'anthropic-claude-v1', index: 0 }];
  const step = (n, path) => ({ role: 'assistant', content: [
    { type: 'reasoning', text: `step ${n}`, providerOptions: { openrouter: { reasoning_details: details(`step ${n}`) } } },
    { type: 'tool-call', toolCallId: `call_${n}`, toolName: 'read_file', input: { path },
      providerOptions: { openrouter: { reasoning_details: details(`step ${n}`), cache_control: { type: 'ephemeral' } }, gateway: { order: ['anthropic'] } } },
  ] });
  const result = (n, path) => ({ role: 'tool', content: [{ type: 'tool-result', toolCallId: `call_${n}`, toolName: 'read_file',
    output: { type: 'text', value: read(path) } }] });
  const messages = [{ role: 'user', content: 'Read three files.' }];
  FILES.slice(0, 3).forEach((path, n) => messages.push(step(n, path), result(n, path)));
  messages.push({ role: 'assistant', content: [{ type: 'text', text: 'Done.' }] }, { role: 'user', content: 'Next.' });
  const held = messages[3].content[1];
  const before = structuredClone(held);

  const report = microCompact(messages, { keepRecent: 1, format: 'ai-sdk' });
  assert.equal(report.cleared, 2);
  // steps 1 and 2 follow the cleared output of step 0: each loses its reasoning part and its call's details
  assert.equal(report.thinkingRemoved, 4);
  for (const i of [3, 5]) {
    assert.deepStrictEqual(messages[i].content.map((p) => p.type), ['tool-call']);
    assert.deepStrictEqual(messages[i].content[0].providerOptions, { openrouter: { cache_control: { type: 'ephemeral' } }, gateway: { order: ['anthropic'] } });
  }
  assert.ok(messages[1].content[1].providerOptions.openrouter.reasoning_details, 'step 0 keeps its own');
  assert.deepStrictEqual(held, before, 'the part object the caller held is unchanged');
});
