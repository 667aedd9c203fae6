// thinking {keep: N}: the signed thinking of finished turns goes except the last N thinking turns, as Anthropic's
// clear_thinking_20251015 keeps them. Where the provider checks only the message in flight ('unbound') midfold
// drops it on the client; where it binds each signature to the conversation before it (the default), a client
// drop would break every kept signature after it, so midfold leaves it to the provider's edit: the Anthropic SDK
// loop (anthropicServerContext) and the AI SDK (compactStep) send clear_thinking_20251015 first in
// context_management, and the strict provider (tests/helpers/strict-provider.mjs) checks every signature
// against what was sent before it clears the thinking the model reads.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import Anthropic from '@anthropic-ai/sdk';
import { z } from 'zod';
import { init, microCompact, Compactor, digestSummarizer, anthropicServerContext } from '../../js/hosts/node.js';
import { compactStep } from '../../js/integrations/ai-sdk.js';
import { startStrictProvider } from '../helpers/strict-provider.mjs';
import { ANTHROPIC_VERSIONS } from '../helpers/ai-sdk-flows.mjs';

const FILES = ['src/micro.c', 'src/micro_inputs.c', 'src/view.h', 'src/result.h'];
const read = (path) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const QUESTIONS = ['micro.c 做什么？', 'And micro_inputs.c?', 'What does view.h hold?', '最后，result.h 呢？'];
const TOOLS = [{ name: 'read_file', description: 'Read a file', input_schema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } }];

let bound, unbound;
before(async () => {
  await init();
  bound = await startStrictProvider();
  unbound = await startStrictProvider({ prefixBinding: false });
});
after(async () => { await bound.close(); await unbound.close(); });

/** Scripts `p`: each turn thinks, reads one file (a signed tool loop), then thinks and answers. */
function script(p) {
  let step = 0;
  p.reply = () => {
    const i = step++, turn = i >> 1;
    return i % 2 === 0
      ? [{ type: 'thinking', thinking: `Turn ${turn}: I need ${FILES[turn % FILES.length]}.` }, { type: 'tool_use', id: `toolu_${turn}_${i}`, name: 'read_file', input: { path: FILES[turn % FILES.length] } }]
      : [{ type: 'thinking', thinking: `Turn ${turn}: 读完了。` }, { type: 'text', text: `${FILES[turn % FILES.length]} plans micro-compaction.` }];
  };
}

/** Runs `turns` user turns through the Anthropic SDK, `manage(messages)` before each request; returns the messages and the records. */
async function agent(p, turns, manage) {
  script(p);
  const client = new Anthropic({ baseURL: p.url, apiKey: 'sk-ant-test', maxRetries: 0 });
  const messages = [];
  const first = p.requests.length;
  for (let t = 0; t < turns; t++) {
    messages.push({ role: 'user', content: QUESTIONS[t % QUESTIONS.length] });
    for (;;) {
      const extra = (await manage(messages)) || {};
      const reply = await client.beta.messages.create({ model: 'claude-opus-4-7', max_tokens: 4096, tools: TOOLS,
        thinking: { type: 'enabled', budget_tokens: 2048 }, messages: extra.messages || messages,
        ...(extra.context_management ? { context_management: extra.context_management } : {}), betas: extra.betas || [] });
      messages.push({ role: 'assistant', content: reply.content });
      if (reply.stop_reason !== 'tool_use') break;
      messages.push({ role: 'user', content: reply.content.filter((b) => b.type === 'tool_use').map((b) => ({ type: 'tool_result', tool_use_id: b.id, content: read(b.input.path) })) });
    }
  }
  return { messages, sent: p.requests.slice(first) };
}

const thinkingTurns = (messages) => messages.filter((m) => m.role === 'assistant' && Array.isArray(m.content) && m.content.some((b) => b.type === 'thinking')).length;

test("'unbound': keep 1 drops the finished turns' thinking on the client; every request accepted", async () => {
  const reports = [];
  const { messages, sent } = await agent(unbound, 4, (list) => { reports.push(microCompact(list, { thinking: { keep: 1, binding: 'unbound' } })); });
  assert.deepEqual(sent.map((r) => r.status), sent.map(() => 200));
  // at the end: only the last turn (its two assistant messages) holds thinking
  assert.equal(thinkingTurns(messages), 2);
  const kept = reports.filter((r) => r.thinkingKeep);
  assert.ok(kept.length > 0 && kept.every((r) => r.thinkingKeep.by === 'client'));
  assert.ok(kept.some((r) => r.thinkingRemoved > 0 && r.tokensAfter < r.tokensBefore));
});

test("prefix-bound: keep 0 at a turn boundary drops every finished turn's thinking on the client, and the bound provider accepts it", async () => {
  const reports = [];
  const { sent } = await agent(bound, 3, (list) => { reports.push(microCompact(list, { thinking: { keep: 0 } })); });
  assert.deepEqual(sent.map((r) => r.status), sent.map(() => 200));
  const atBoundary = reports.filter((r) => r.thinkingKeep && r.thinkingKeep.by === 'client');
  assert.equal(atBoundary.length, 2, 'at the start of turns 2 and 3');
  // in a loop in flight the loop's own thinking binds what came before: those calls leave it to the provider
  assert.ok(reports.some((r) => r.thinkingKeep && r.thinkingKeep.by === 'server'));
});

test('prefix-bound: keep 1 is left to the provider; anthropicServerContext sends clear_thinking_20251015 first and the provider clears', async () => {
  const compactor = new Compactor({ summarize: digestSummarizer(), policy: 'every-turn', thinking: { keep: 1 } });
  const reports = [];
  const { messages, sent } = await agent(bound, 4, async (list) => {
    const report = await compactor.compact(list);
    reports.push(report);
    return anthropicServerContext(compactor, list, report);
  });
  assert.deepEqual(sent.map((r) => r.status), sent.map(() => 200), 'every request accepted: no signature broken');
  assert.equal(thinkingTurns(messages), 8, 'the client kept every thinking block');
  const edited = sent.filter((r) => r.body.context_management);
  assert.ok(edited.length > 0);
  for (const r of edited) assert.deepEqual(r.body.context_management.edits[0], { type: 'clear_thinking_20251015', keep: { type: 'thinking_turns', value: 1 } });
  assert.ok(edited.every((r) => r.headers['anthropic-beta'].includes('context-management-2025-06-27')));
  const cleared = sent.filter((r) => (r.appliedEdits || []).some((e) => e.type === 'clear_thinking_20251015' && e.cleared_thinking_turns > 0));
  assert.ok(cleared.length >= 2, 'the provider cleared the older turns in what the model read');
  assert.ok(reports.some((r) => r.thinkingKeep && r.thinkingKeep.by === 'server'));
});

test('the strict provider refuses clear_thinking_20251015 after another edit, or without thinking on', async () => {
  const client = new Anthropic({ baseURL: bound.url, apiKey: 'sk-ant-test', maxRetries: 0 });
  const messages = [{ role: 'user', content: 'hi' }];
  bound.reply = () => [{ type: 'text', text: 'hello' }];
  await assert.rejects(client.beta.messages.create({ model: 'claude-opus-4-7', max_tokens: 64, messages, betas: ['context-management-2025-06-27'],
    thinking: { type: 'enabled', budget_tokens: 1024 },
    context_management: { edits: [{ type: 'clear_tool_uses_20250919' }, { type: 'clear_thinking_20251015' }] } }), /must be the first strategy/);
  await assert.rejects(client.beta.messages.create({ model: 'claude-opus-4-7', max_tokens: 64, messages, betas: ['context-management-2025-06-27'],
    context_management: { edits: [{ type: 'clear_thinking_20251015' }] } }), /requires thinking/);
});

for (const v of ANTHROPIC_VERSIONS) {
  test(`compactStep with thinking {keep: 1} asks ${v.anthropic} (${v.label}) for clear_thinking_20251015 once finished turns hold signed thinking`, { skip: v.skip }, async () => {
    const ai = await import(v.ai);
    const model = (await import(v.anthropic)).createAnthropic({ baseURL: `${bound.url}/v1`, apiKey: 'sk-ant-test' })('claude-opus-4-7');
    const tools = { read_file: ai.tool({ description: 'Read a file', inputSchema: z.object({ path: z.string() }), execute: async ({ path }) => read(path) }) };
    const reports = [];
    const prepareStep = compactStep({ summarize: digestSummarizer(), thinking: { keep: 1 }, onReport: (r) => reports.push(r) });
    script(bound);
    const first = bound.requests.length;
    const messages = [];
    for (let t = 0; t < 3; t++) {
      messages.push({ role: 'user', content: QUESTIONS[t] });
      const result = await ai.generateText({ model, tools, prepareStep, stopWhen: ai.stepCountIs(4), messages,
        providerOptions: { anthropic: { thinking: { type: 'enabled', budgetTokens: 2048 } } } });
      // (ai 7: the whole call's messages are responseMessages; response is the final step's)
      messages.push(...(result.responseMessages ?? result.response.messages));
    }
    const sent = bound.requests.slice(first);
    assert.deepEqual(sent.map((r) => r.status), sent.map(() => 200));
    const asked = sent.filter((r) => r.body.context_management);
    assert.ok(asked.length >= 2, 'from the second turn on');
    for (const r of asked) assert.equal(r.body.context_management.edits[0].type, 'clear_thinking_20251015');
    assert.ok(sent.some((r) => (r.appliedEdits || []).some((e) => e.type === 'clear_thinking_20251015' && e.cleared_thinking_turns > 0)));
    assert.ok(reports.some((r) => r.serverContext === 'requested'));
  });
}

test('thinking options are checked with their path', () => {
  const list = [{ role: 'user', content: 'hi' }];
  for (const [value, path] of [[{ keep: -1 }, 'thinking.keep'], [{ keep: 1.5 }, 'thinking.keep'], [{}, 'thinking.keep'], [{ keep: 1, turns: 2 }, 'thinking.turns'],
    [{ keep: 1, binding: 'loose' }, 'thinking.binding'], ['all', 'thinking']]) {
    assert.throws(() => microCompact(list, { thinking: value }), (e) => e.code === 'invalid-option' && e.path === path, path);
    assert.throws(() => new Compactor({ summarize: digestSummarizer(), thinking: value }), (e) => e.code === 'invalid-option' && e.path === path, path);
  }
});

test('a provider that cannot be asked for clear_thinking (OpenRouter) gets no edit, and onWarn says so once', async () => {
  const { compactStep: step } = await import('../../js/integrations/ai-sdk.js');
  const warnings = [], reports = [];
  const prepare = step({ summarize: digestSummarizer(), thinking: { keep: 1 }, onWarn: (m) => warnings.push(m), onReport: (r) => reports.push(r) });
  const signed = (text) => ({ type: 'reasoning', text, providerOptions: { anthropic: { signature: `sig-${text}` } } });
  const messages = [
    { role: 'user', content: [{ type: 'text', text: 'micro.c 做什么？' }] },
    { role: 'assistant', content: [signed('first'), { type: 'text', text: 'It plans clearing.' }] },
    { role: 'user', content: [{ type: 'text', text: 'And micro_inputs.c?' }] },
    { role: 'assistant', content: [signed('second'), { type: 'text', text: 'It clears inputs.' }] },
    { role: 'user', content: [{ type: 'text', text: 'view.h?' }] },
  ];
  const model = { specificationVersion: 'v3', provider: 'openrouter.chat', modelId: 'anthropic/claude-sonnet-4.5' };
  for (let i = 0; i < 2; i++) {
    const out = await prepare({ model, messages, steps: [], stepNumber: 0 });
    assert.ok(!out || !out.providerOptions || !out.providerOptions.anthropic, 'no Anthropic options for OpenRouter');
  }
  assert.equal(warnings.filter((w) => /clear_thinking_20251015/.test(w)).length, 1);
  assert.ok(reports.every((r) => r.serverContext === 'unsupported'));
});
