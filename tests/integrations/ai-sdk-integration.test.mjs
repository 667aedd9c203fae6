// midfold/ai-sdk inside the real AI SDK (ai 6): compactStep as generateText's prepareStep, driven by the ai/test
// mock model through a real tool loop over files of this repository. Facts: the state carried across steps
// makes the summaries written match a stateful Compactor's (±1) instead of one per step; every prompt the model
// receives pairs each tool call with its result and ends with the step's pending turn verbatim; between
// compactions the prompt's prefix is identical step to step.
import { test, describe, before, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { SIZED_CORE_FILES } from '../helpers/core-files.mjs';
import { generateText, streamText, simulateReadableStream, tool, stepCountIs, modelMessageSchema, wrapLanguageModel } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { z } from 'zod';
import { init, Compactor, digestSummarizer } from 'midfold';
import { compactStep, midfoldMiddleware, languageModelSummarizer, SessionState, conversationStates } from 'midfold/ai-sdk';
import { readWorkloadFile } from '../helpers/corpus.mjs';

// The session these tests were sized on: the core's files as they were then (helpers/core-files.mjs).
const FILES = SIZED_CORE_FILES;
const read = readWorkloadFile;
// A provider that reports no input count: the estimate alone decides (usage anchoring is tested below).
const USAGE = { inputTokens: { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 20, text: 20, reasoning: 0 } };
const OPTIONS = { threshold: 12000, keepTail: { tokens: 4000 }, keepRecent: 2 };

before(() => init());
// Hooks built with the same options share the module's states (a hook per call continues as one built once):
// each test starts from none, as its hooks are meant to.
beforeEach(() => conversationStates.clear());

/** A model that reads `steps` files, one per step, then answers; it records every prompt it is sent. */
function readingModel(steps) {
  let step = 0;
  return new MockLanguageModelV3({
    doGenerate: async () => {
      const i = step++;
      if (i < steps) {
        return { content: [{ type: 'text', text: `Reading ${FILES[i]}.` },
          { type: 'tool-call', toolCallId: `call_${i}`, toolName: 'read_file', input: JSON.stringify({ path: FILES[i] }) }],
        finishReason: { unified: 'tool-calls', raw: 'tool_use' }, usage: USAGE, warnings: [] };
      }
      return { content: [{ type: 'text', text: 'The pairing is in src/view.c.' }], finishReason: { unified: 'stop', raw: 'end_turn' }, usage: USAGE, warnings: [] };
    },
  });
}

const tools = { read_file: tool({ description: 'Read a file', inputSchema: z.object({ path: z.string() }), execute: async ({ path }) => read(path) }) };

/** Checks one provider-level prompt: every call has its result right after, every result its call. */
function assertPaired(prompt) {
  const calls = new Set();
  for (const m of prompt) {
    if (m.role === 'assistant') for (const p of m.content) if (p.type === 'tool-call') calls.add(p.toolCallId);
    if (m.role === 'tool') for (const p of m.content) if (p.type === 'tool-result') { assert.ok(calls.has(p.toolCallId), `result ${p.toolCallId} has its call`); calls.delete(p.toolCallId); }
  }
  assert.deepStrictEqual([...calls], [], 'every call has its result');
}

describe('compactStep in generateText (ai 6)', () => {
  const STEPS = 24;

  test('summaries written equal a stateful Compactor\'s (±1); every prompt is paired and ends with its pending turn', async () => {
    const model = readingModel(STEPS);
    const reports = [];
    const result = await generateText({
      model, tools, stopWhen: stepCountIs(STEPS + 1),
      messages: [{ role: 'user', content: 'Read the C core and tell me where tool results are paired with their calls.' }],
      prepareStep: compactStep({ summarize: digestSummarizer(), ...OPTIONS, onReport: (r) => reports.push(r) }),
    });
    assert.equal(result.steps.length, STEPS + 1);
    const written = reports.filter((r) => r.compacted).length;

    // The stateful reference: one array, compacted before each step, fed the same replies.
    const reference = new Compactor({ summarize: digestSummarizer(), format: 'ai-sdk', ...OPTIONS });
    const messages = [{ role: 'user', content: 'Read the C core and tell me where tool results are paired with their calls.' }];
    let expected = 0;
    for (let i = 0; i < STEPS; i++) {
      if ((await reference.compact(messages)).compacted) expected++;
      messages.push({ role: 'assistant', content: [{ type: 'text', text: `Reading ${FILES[i]}.` }, { type: 'tool-call', toolCallId: `call_${i}`, toolName: 'read_file', input: { path: FILES[i] } }] },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: `call_${i}`, toolName: 'read_file', output: { type: 'text', value: read(FILES[i]) } }] });
    }
    if ((await reference.compact(messages)).compacted) expected++;
    assert.ok(expected >= 2, `the session is long enough to compact (${expected})`);
    console.log(`summaries: prepareStep ${written}, stateful ${expected}`);
    assert.ok(Math.abs(written - expected) <= 1, `prepareStep wrote ${written} summaries, a stateful Compactor ${expected}`);

    for (const [k, call] of model.doGenerateCalls.entries()) {
      assertPaired(call.prompt);
      if (k > 0) {
        const last = call.prompt.at(-1);
        assert.equal(last.role, 'tool');
        assert.equal(last.content[0].toolCallId, `call_${k - 1}`);
        assert.equal(last.content[0].output.value, read(FILES[k - 1]), 'the pending result is verbatim');
      }
    }
    const summarized = model.doGenerateCalls.filter((c) => c.prompt.some((m) => m.role === 'user' && m.content.some((p) => p.type === 'text' && p.text.startsWith('[Context Compressed]'))));
    assert.ok(summarized.length > 0, 'the summary reaches the model as text');
  });

  test('between compactions the prompt sent repeats the previous one as its prefix (what prompt caching needs)', async () => {
    const model = readingModel(STEPS);
    const reports = [];
    await generateText({
      model, tools, stopWhen: stepCountIs(STEPS + 1),
      messages: [{ role: 'user', content: 'Read the C core.' }],
      prepareStep: compactStep({ summarize: digestSummarizer(), ...OPTIONS, onReport: (r) => reports.push(r) }),
    });
    let reused = 0, total = 0;
    for (let k = 1; k < model.doGenerateCalls.length; k++) {
      const before = model.doGenerateCalls[k - 1].prompt.map((m) => JSON.stringify(m));
      const now = model.doGenerateCalls[k].prompt.map((m) => JSON.stringify(m));
      const changed = reports[k] && (reports[k].compacted || reports[k].micro.cleared > 0);
      let same = 0;
      while (same < before.length && before[same] === now[same]) same++;
      if (!changed) assert.equal(same, before.length, `step ${k}: nothing was compacted, so the previous prompt is the prefix`);
      reused += same; total += before.length;
    }
    console.log(`prefix reused: ${(100 * reused / total).toFixed(1)} %`);
    assert.ok(reused / total > 0.5, `${(100 * reused / total).toFixed(0)} % of each prompt reused by the next`);
  });

  test('the returned messages are valid ModelMessages, and without compaction nothing is returned', async () => {
    const prepare = compactStep({ summarize: digestSummarizer(), threshold: 1_000_000 });
    const messages = [{ role: 'user', content: 'hi' }, { role: 'assistant', content: [{ type: 'text', text: 'hello' }] }, { role: 'user', content: 'bye' }];
    assert.deepStrictEqual(await prepare({ messages, steps: [], stepNumber: 0 }), {});
    const forced = compactStep({ summarize: digestSummarizer(), threshold: 10, keepTail: { tokens: 0 } });
    const long = [{ role: 'user', content: 'Please read the files.' }];
    for (let i = 0; i < 4; i++) long.push({ role: 'assistant', content: [{ type: 'tool-call', toolCallId: `c${i}`, toolName: 'read_file', input: { path: FILES[i] } }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: `c${i}`, toolName: 'read_file', output: { type: 'text', value: read(FILES[i]) } }] });
    long.push({ role: 'user', content: 'And now?' });
    const out = await forced({ messages: long, steps: [], stepNumber: 0 });
    assert.ok(out.messages.length < long.length);
    for (const m of out.messages) assert.ok(modelMessageSchema.safeParse(m).success, JSON.stringify(m).slice(0, 200));
  });

  test('a SessionState given by the host carries across calls (a second prepareStep on the same state reuses the fold)', async () => {
    const state = new SessionState();
    const a = compactStep({ summarize: digestSummarizer(), threshold: 10, keepTail: { tokens: 0 }, state });
    const b = compactStep({ summarize: digestSummarizer(), threshold: 10, keepTail: { tokens: 0 }, state });
    const long = [{ role: 'user', content: 'Please read the files.' }];
    for (let i = 0; i < 4; i++) long.push({ role: 'assistant', content: [{ type: 'tool-call', toolCallId: `c${i}`, toolName: 'read_file', input: { path: FILES[i] } }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: `c${i}`, toolName: 'read_file', output: { type: 'text', value: read(FILES[i]) } }] });
    long.push({ role: 'user', content: 'And now?' });
    const first = await a({ messages: long });
    const again = await b({ messages: long });
    assert.deepStrictEqual(again.messages, first.messages);
  });
});

describe('languageModelSummarizer', () => {
  test('writes the summary with the host\'s model, through its own interface', async () => {
    const summaryModel = new MockLanguageModelV3({ doGenerate: async () => ({ content: [{ type: 'text', text: '  The agent read four files.  ' }], finishReason: { unified: 'stop', raw: 'end_turn' }, usage: USAGE, warnings: [] }) });
    const summarize = languageModelSummarizer(summaryModel);
    assert.equal(await summarize({ system: 'Summarize.', prompt: '[user]\nhello', maxTokens: 300 }), 'The agent read four files.');
    const call = summaryModel.doGenerateCalls[0];
    assert.equal(call.maxOutputTokens, 300);
    assert.deepStrictEqual(call.prompt, [{ role: 'system', content: 'Summarize.' }, { role: 'user', content: [{ type: 'text', text: '[user]\nhello' }] }]);
  });

  test('an empty answer rejects, and a model id string is refused up front', async () => {
    const empty = new MockLanguageModelV3({ doGenerate: async () => ({ content: [], finishReason: { unified: 'stop', raw: 'end_turn' }, usage: USAGE, warnings: [] }) });
    await assert.rejects(languageModelSummarizer(empty)({ system: '', prompt: 'x', maxTokens: 10 }), (e) => e.code === 'empty-summary');
    assert.throws(() => languageModelSummarizer('anthropic/claude-haiku-4-5'), (e) => e.code === 'invalid-option');
  });
});

test('one wrapped model serving six conversations in turn sends each the prompts, and writes the summaries, it would alone', async () => {
  const CONVERSATIONS = 6, TURNS = 12;
  let current = 0;
  const next = new Array(CONVERSATIONS).fill(0);
  const base = new MockLanguageModelV3({
    doGenerate: async () => {
      const k = next[current]++;
      return { content: [{ type: 'tool-call', toolCallId: `c${current}_${k}`, toolName: 'read_file', input: JSON.stringify({ path: FILES[(k + 3 * current) % FILES.length] }) }],
        finishReason: { unified: 'tool-calls', raw: 'tool_use' }, usage: USAGE, warnings: [] };
    },
  });
  /** Runs the conversations `order` names, one step each in that order; the summaries written per conversation. */
  const play = async (middlewareFor, order) => {
    next.fill(0);
    const histories = Array.from({ length: CONVERSATIONS }, (_, c) => [{ role: 'user', content: `Conversation ${c}: read the C core, file by file.` }]);
    const written = new Array(CONVERSATIONS).fill(0);
    const matched = new Array(CONVERSATIONS).fill(0);
    const prompts = Array.from({ length: CONVERSATIONS }, () => []);
    for (const c of order) {
      current = c;
      const model = wrapLanguageModel({ model: base, middleware: middlewareFor(c, (r) => { if (r.compacted) written[c]++; if (r.session && r.session.matched) matched[c]++; }) });
      const { response } = await generateText({ model, tools, stopWhen: stepCountIs(1), messages: histories[c] });
      histories[c].push(...response.messages);
      prompts[c].push(JSON.stringify(base.doGenerateCalls.at(-1).prompt));
    }
    return { written, matched, prompts };
  };
  const turns = Array.from({ length: TURNS }, () => [...Array(CONVERSATIONS).keys()]).flat();
  // Alone: each conversation through a middleware of its own.
  const own = Array.from({ length: CONVERSATIONS }, () => null);
  const alone = await play((c, onReport) => (own[c] ??= midfoldMiddleware({ summarize: digestSummarizer(), ...OPTIONS, onReport: (r) => own[c].hook(r) }), own[c].hook = onReport, own[c]), turns);
  // Together: one middleware, as a server that wraps its model once.
  let hook;
  const shared = midfoldMiddleware({ summarize: digestSummarizer(), ...OPTIONS, onReport: (r) => hook(r) });
  const together = await play((c, onReport) => { hook = onReport; return shared; }, turns);
  console.log(`summaries per conversation: alone ${alone.written.join(' ')}, one middleware for all ${together.written.join(' ')}; `
    + `calls continuing a remembered fold: alone ${alone.matched.join(' ')}, together ${together.matched.join(' ')}`);
  assert.ok(alone.written.filter((n) => n > 0).length >= 4, 'most conversations are long enough to fold');
  // Each conversation's model saw exactly the prompts it sees when it has a middleware of its own.
  for (let c = 0; c < CONVERSATIONS; c++) {
    assert.equal(together.written[c], alone.written[c], `conversation ${c}: summaries`);
    assert.deepStrictEqual(together.prompts[c], alone.prompts[c], `conversation ${c}: the prompts sent`);
  }
});

describe('usage anchoring: the trigger uses the provider\'s count', () => {
  /** A model reading 3 files whose provider reports `inputTokens` per call (here far above the estimate). */
  const countingModel = (inputTokens) => {
    let step = 0;
    const usage = { inputTokens: { total: inputTokens, noCache: inputTokens, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 20, text: 20, reasoning: 0 } };
    return new MockLanguageModelV3({
      doGenerate: async () => {
        const i = step++;
        return i < 3
          ? { content: [{ type: 'tool-call', toolCallId: `call_${i}`, toolName: 'read_file', input: JSON.stringify({ path: FILES[i] }) }], finishReason: { unified: 'tool-calls', raw: 'tool_use' }, usage, warnings: [] }
          : { content: [{ type: 'text', text: 'done' }], finishReason: { unified: 'stop', raw: 'end_turn' }, usage, warnings: [] };
      },
    });
  };

  for (const [what, count, compacts] of [['a provider count over the threshold', 90_000, true], ['one under it', 1_000, false]]) {
    test(`compactStep: ${what} ${compacts ? 'triggers' : 'does not trigger'} a fold the estimate alone would not`, async () => {
      const reports = [];
      await generateText({
        model: countingModel(count), tools, stopWhen: stepCountIs(4),
        messages: [{ role: 'user', content: 'Read three files.' }],
        prepareStep: compactStep({ summarize: digestSummarizer(), threshold: 50_000, onReport: (r) => reports.push(r) }),
      });
      assert.ok(reports.every((r) => r.tokensBefore < 50_000 || r.tokensBefore >= count), 'the estimate alone is far below the threshold');
      assert.equal(reports.slice(1).some((r) => r.compacted), compacts);
      if (compacts) assert.ok(reports.slice(1).some((r) => r.tokensBefore >= count), 'the report is in the provider\'s count');
    });
  }

  test('one wrapped model serving two conversations: each call is anchored by its own conversation\'s count, never the other\'s', async () => {
    // The provider counts 90,000 tokens for the long conversation and 1,000 for the short one.
    const usage = (n) => ({ inputTokens: { total: n, noCache: n, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 20, text: 20, reasoning: 0 } });
    const short = (prompt) => JSON.stringify(prompt).includes('Say hello.');
    const base = new MockLanguageModelV3({
      doGenerate: async ({ prompt }) => (short(prompt)
        ? { content: [{ type: 'text', text: 'Hello.' }], finishReason: { unified: 'stop', raw: 'end_turn' }, usage: usage(1_000), warnings: [] }
        : { content: [{ type: 'tool-call', toolCallId: `call_${prompt.length}`, toolName: 'read_file', input: JSON.stringify({ path: FILES[0] }) }],
          finishReason: { unified: 'tool-calls', raw: 'tool_use' }, usage: usage(90_000), warnings: [] }),
    });
    const reports = [];
    const model = wrapLanguageModel({ model: base, middleware: midfoldMiddleware({ summarize: digestSummarizer(), threshold: 50_000, onReport: (r) => reports.push(r) }) });
    const long = [{ role: 'user', content: 'Read the sources.' }];
    const first = await generateText({ model, tools, stopWhen: stepCountIs(1), messages: long });
    long.push(...first.response.messages);
    // The short conversation's request comes right after the long one's answer (90,000 tokens).
    await generateText({ model, messages: [{ role: 'user', content: 'Say hello.' }, { role: 'assistant', content: 'Hi.' }, { role: 'user', content: 'Say hello.' }] });
    assert.equal(reports[1].compacted, false);
    assert.ok(reports[1].tokensBefore < 1_000, `the short conversation was priced at ${reports[1].tokensBefore}`);
    // Back to the long one, after the short one's answer (1,000): its own count still anchors it.
    await generateText({ model, tools, stopWhen: stepCountIs(1), messages: long });
    assert.ok(reports[2].tokensBefore >= 90_000, `the long conversation was priced at ${reports[2].tokensBefore}`);
    // Over the threshold by its count, it tried to fold; the one request before the read, folded into a longer
    // digest, would gain nothing, so nothing changed.
    assert.equal(reports[2].reason, 'no-gain');
  });

  test('one wrapped model serving two agents that open alike: a count is never used for a prompt under another system prompt or other tools', async () => {
    // Agent A (its system prompt, a read_file tool) is counted at 90,000 tokens; agent B (another
    // system prompt, no tools) at 1,000. Both conversations open with the same user message, so
    // the message a count names is the same in both.
    const usage = (n) => ({ inputTokens: { total: n, noCache: n, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 20, text: 20, reasoning: 0 } });
    const base = new MockLanguageModelV3({
      doGenerate: async ({ prompt, tools: offered }) => ({ content: [{ type: 'text', text: 'Hello.' }], finishReason: { unified: 'stop', raw: 'end_turn' },
        usage: usage(offered && offered.length ? 90_000 : 1_000), warnings: [] }),
    });
    const reports = [];
    const model = wrapLanguageModel({ model: base, middleware: midfoldMiddleware({ summarize: digestSummarizer(), threshold: 50_000, onReport: (r) => reports.push(r) }) });
    const opening = [{ role: 'user', content: 'Hi, what can you do?' }];
    const agentA = { model, tools, system: 'You are a code reader: you read the files of this repository and explain them.' };
    const agentB = { model, system: 'You are a greeter.' };
    await generateText({ ...agentA, messages: opening });
    // B's first call comes right after A's answer: A's count names the same message, under another system prompt and other tools.
    await generateText({ ...agentB, messages: opening });
    assert.ok(reports[1].tokensBefore < 1_000, `agent B was priced at ${reports[1].tokensBefore}`);
    // The same system prompt with other tools is another prompt too (B's count, 1,000, is the most recent).
    await generateText({ ...agentB, tools, messages: opening });
    assert.ok(reports[2].tokensBefore !== 1_000 && reports[2].tokensBefore < 90_000, `B with tools was priced at ${reports[2].tokensBefore}`);
    // Agent A again, continued: its own count still anchors it.
    await generateText({ ...agentA, messages: [...opening, { role: 'assistant', content: 'Hello.' }, { role: 'user', content: 'Read src/view.c.' }] });
    assert.ok(reports[3].tokensBefore >= 90_000, `agent A was priced at ${reports[3].tokensBefore}`);
  });

  test('after a fold, a call under other tools is not priced on the count the state\'s record carries', async () => {
    // The provider's count for each request, in order: the first over the threshold, the rest under it.
    const counts = [60_000, 40_000, 40_000, 40_000];
    const usage = (n) => ({ inputTokens: { total: n, noCache: n, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 20, text: 20, reasoning: 0 } });
    let call = 0;
    const base = new MockLanguageModelV3({
      doGenerate: async () => ({ content: [{ type: 'text', text: 'Noted.' }], finishReason: { unified: 'stop', raw: 'end_turn' }, usage: usage(counts[call++]), warnings: [] }),
    });
    const reports = [];
    const model = wrapLanguageModel({ model: base, middleware: midfoldMiddleware({ summarize: digestSummarizer(), threshold: 50_000, onReport: (r) => reports.push(r) }) });
    const history = [{ role: 'user', content: 'Read the sources.' }];
    FILES.slice(0, 8).forEach((path, i) => history.push(
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: `call_${i}`, toolName: 'read_file', input: { path } }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: `call_${i}`, toolName: 'read_file', output: { type: 'text', value: read(path) } }] }));
    history.push({ role: 'assistant', content: 'I read them.' }, { role: 'user', content: 'Where are results paired?' });
    const send = async (offered) => {
      const result = await generateText({ model, tools: offered, messages: history });
      history.push(...result.response.messages, { role: 'user', content: `And question ${history.length}?` });
      return reports.at(-1);
    };
    const grep = tool({ description: 'Search the repository', inputSchema: z.object({ pattern: z.string() }), execute: async () => '' });
    assert.ok((await send(tools)).tokensBefore < 50_000, 'the first call is priced by the estimate');
    assert.equal((await send(tools)).compacted, true, 'the second, at the provider\'s 60,000, folds');
    const recorded = await send(tools);
    assert.ok(recorded.reason === 'below-threshold' && recorded.tokensBefore >= 40_000, `the third is anchored on 40,000 (${recorded.tokensBefore})`);
    // The fourth goes out with another tool: the count recorded with the fold's state was for the first tools.
    const other = await send({ ...tools, grep });
    assert.ok(other.session.matched > 0, 'it continued the recorded fold');
    assert.ok(other.tokensBefore < 40_000, `under other tools it was priced at ${other.tokensBefore}`);
  });

  test('midfoldMiddleware under streamText: the stream passes through, and its finish part\'s count anchors the next call', async () => {
    const usage = { inputTokens: { total: 90_000, noCache: 90_000, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 20, text: 20, reasoning: 0 } };
    let step = 0;
    const base = new MockLanguageModelV3({
      doStream: async () => {
        const i = step++;
        const parts = i < 3
          ? [{ type: 'tool-call', toolCallId: `call_${i}`, toolName: 'read_file', input: JSON.stringify({ path: FILES[i] }) },
            { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_use' }, usage }]
          : [{ type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: 'The pairing ' }, { type: 'text-delta', id: 't', delta: 'is in src/view.c.' },
            { type: 'text-end', id: 't' }, { type: 'finish', finishReason: { unified: 'stop', raw: 'end_turn' }, usage }];
        return { stream: simulateReadableStream({ chunks: [{ type: 'stream-start', warnings: [] }, ...parts] }) };
      },
    });
    const reports = [];
    const model = wrapLanguageModel({ model: base, middleware: midfoldMiddleware({ summarize: digestSummarizer(), threshold: 50_000, onReport: (r) => reports.push(r) }) });
    const result = streamText({ model, tools, stopWhen: stepCountIs(4), messages: [{ role: 'user', content: 'Read three files.' }] });
    let text = '';
    for await (const delta of result.textStream) text += delta;
    assert.equal(text, 'The pairing is in src/view.c.');
    assert.equal(reports.length, 4);
    assert.ok(reports[0].tokensBefore < 50_000 && !reports[0].compacted, 'no count yet: the estimate decides');
    assert.ok(reports.slice(1).some((r) => r.compacted && r.tokensBefore >= 90_000), reports.map((r) => `${r.reason} ${r.tokensBefore}`).join(', '));
  });

  test('midfoldMiddleware reads the count from each answer', async () => {
    const reports = [];
    const model = wrapLanguageModel({ model: countingModel(90_000), middleware: midfoldMiddleware({ summarize: digestSummarizer(), threshold: 50_000, onReport: (r) => reports.push(r) }) });
    await generateText({ model, tools, stopWhen: stepCountIs(4), messages: [{ role: 'user', content: 'Read three files.' }] });
    assert.equal(reports[0].compacted, false, 'no count yet: the estimate decides');
    assert.ok(reports.slice(1).some((r) => r.compacted && r.tokensBefore >= 90_000));
  });
});
