// The figure a micro-compaction reports after it is the estimate of what it left, in the same profile: the
// cleared results and, under the 'prefix-bound' thinking policy, the signed thinking of the turns after the
// first edit, which goes with them. On Claude Code sessions (thinking on most turns, parallel calls, long
// output) and the same sessions as the AI SDK, a UIMessage chat and Claude behind OpenRouter carry them.
import test from 'node:test';
import assert from 'node:assert/strict';
import { init, microCompact, planMicroCompact, estimateTokens, Compactor } from '../../js/hosts/node.js';
import { claudeCodeSession } from '../helpers/claude-code-session.mjs';

await init();

const PROFILES = ['bareagent', 'o200k', 'cl100k', 'deepseek', 'qwen', 'claude', 'safe'];
const SEEDS = [3, 11, 29, 47];

const resultText = (c) => (typeof c === 'string' ? c : c.map((b) => b.text).join('\n'));

/** Tool names by call id. */
function namesOf(messages) {
  const names = new Map();
  for (const m of messages) if (Array.isArray(m.content)) for (const b of m.content) if (b.type === 'tool_use') names.set(b.id, b.name);
  return names;
}

/** The session as AI SDK ModelMessages: Anthropic's signature in the reasoning parts' providerOptions. */
function asModelMessages(messages) {
  const names = namesOf(messages);
  return messages.map((m) => {
    if (typeof m.content === 'string') return { role: m.role, content: m.content };
    if (m.role === 'user') {
      return { role: 'tool', content: m.content.map((r) => ({ type: 'tool-result', toolCallId: r.tool_use_id, toolName: names.get(r.tool_use_id),
        output: { type: r.is_error ? 'error-text' : 'text', value: resultText(r.content) } })) };
    }
    return { role: 'assistant', content: m.content.map((b) => (b.type === 'thinking'
      ? { type: 'reasoning', text: b.thinking, providerOptions: { anthropic: { signature: b.signature } } }
      : b.type === 'text' ? { type: 'text', text: b.text }
        : { type: 'tool-call', toolCallId: b.id, toolName: b.name, input: b.input })) };
  });
}

/** The session as Claude behind OpenRouter's Chat Completions: signed thinking as reasoning_details. */
function asOpenRouterChat(messages) {
  const out = [];
  for (const m of messages) {
    if (typeof m.content === 'string') { out.push({ role: m.role, content: m.content }); continue; }
    if (m.role === 'user') {
      for (const r of m.content) out.push({ role: 'tool', tool_call_id: r.tool_use_id, content: resultText(r.content) });
      continue;
    }
    const thinking = m.content.filter((b) => b.type === 'thinking');
    const text = m.content.filter((b) => b.type === 'text').map((b) => b.text).join('');
    const calls = m.content.filter((b) => b.type === 'tool_use');
    const msg = { role: 'assistant', content: text || null };
    if (thinking.length) {
      msg.reasoning = thinking.map((b) => b.thinking).join('');
      msg.reasoning_details = thinking.map((b, index) => ({ type: 'reasoning.text', text: b.thinking, signature: b.signature, format: 'anthropic-claude-v1', index }));
    }
    if (calls.length) msg.tool_calls = calls.map((b) => ({ id: b.id, type: 'function', function: { name: b.name, arguments: JSON.stringify(b.input) } }));
    out.push(msg);
  }
  return out;
}

/** The session as a chat UI's UIMessages: one assistant message per request, holding its whole tool loop. */
function asUIMessages(messages) {
  const out = [];
  let assistant = null;
  let n = 0;
  const byId = new Map();
  for (const m of messages) {
    if (typeof m.content === 'string' && m.role === 'user') {
      assistant = null;
      out.push({ id: `u${n++}`, role: 'user', parts: [{ type: 'text', text: m.content }] });
      continue;
    }
    if (m.role === 'user') {
      for (const r of m.content) Object.assign(byId.get(r.tool_use_id), r.is_error
        ? { state: 'output-error', errorText: resultText(r.content) } : { state: 'output-available', output: resultText(r.content) });
      continue;
    }
    if (!assistant) { assistant = { id: `a${n++}`, role: 'assistant', parts: [] }; out.push(assistant); }
    const blocks = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content;
    assistant.parts.push({ type: 'step-start' });
    for (const b of blocks) {
      if (b.type === 'thinking') assistant.parts.push({ type: 'reasoning', text: b.thinking, providerMetadata: { anthropic: { signature: b.signature } } });
      else if (b.type === 'text') assistant.parts.push({ type: 'text', text: b.text });
      else {
        const part = { type: `tool-${b.name}`, toolCallId: b.id, state: 'input-available', input: b.input };
        byId.set(b.id, part);
        assistant.parts.push(part);
      }
    }
  }
  return out;
}

const SHAPES = [
  ['Claude Code (Anthropic Messages)', (seed) => claudeCodeSession({ seed, turns: 14, summary: seed % 2 === 1, splitLines: true })],
  ['AI SDK ModelMessages', (seed) => asModelMessages(claudeCodeSession({ seed, turns: 14 }))],
  ['Claude behind OpenRouter (Chat Completions)', (seed) => asOpenRouterChat(claudeCodeSession({ seed, turns: 14 }))],
  // (as a chat route sees it: the user's next request is in, so the last loop is finished)
  ['a UIMessage chat', (seed) => [...asUIMessages(claudeCodeSession({ seed, turns: 14 })), { id: 'next', role: 'user', parts: [{ type: 'text', text: '好的，提交吧。' }] }]],
];

for (const [shape, make] of SHAPES) {
  test(`${shape}: microCompact's tokensAfter is a fresh estimate of what it left, in every profile, thinking removal included`, () => {
    let removedSome = false;
    for (const seed of SEEDS) {
      for (const profile of PROFILES) {
        for (const keepRecent of [0, 2, 5]) {
          const messages = make(seed);
          const before = estimateTokens(messages, { profile });
          const report = microCompact(messages, { profile, keepRecent });
          const at = `seed ${seed}, ${profile}, keepRecent ${keepRecent}`;
          assert.equal(report.tokensBefore, before, at);
          assert.equal(report.tokensAfter, estimateTokens(messages, { profile }), at);
          if (report.thinkingRemoved) removedSome = true;
        }
      }
    }
    assert.ok(removedSome, 'the sessions lose signed thinking after the edits (the case the figure must include)');
  });
}

test('planMicroCompact: milliAfter is what microCompact leaves, milliThinking the signed thinking that goes with the edits', () => {
  const messages = claudeCodeSession({ seed: 5, turns: 16 });
  const plan = planMicroCompact(messages, { profile: 'safe', keepRecent: 1 });
  assert.ok(plan.milliThinking > 0);
  const report = microCompact(messages, { profile: 'safe', keepRecent: 1 });
  assert.ok(report.thinkingRemoved > 0);
  assert.equal(Math.ceil(plan.milliAfter / 1000), estimateTokens(messages, { profile: 'safe' }));
  // 'unbound' keeps the thinking: nothing of it is taken off.
  const unbound = planMicroCompact(claudeCodeSession({ seed: 5, turns: 16 }), { profile: 'safe', keepRecent: 1, thinking: 'unbound' });
  assert.equal(unbound.milliThinking, 0);
  assert.equal(unbound.milliAfter, plan.milliAfter + plan.milliThinking);
});

test("the Compactor's clearing below the threshold: the report's tokensAfter and micro figures are fresh estimates of the array", async () => {
  for (const [shape, make] of SHAPES) {
    for (const profile of ['safe', 'o200k', 'bareagent']) {
      const messages = make(19);
      const compactor = new Compactor({ summarize: async () => 'unused', profile, threshold: 1_000_000, policy: 'every-turn', keepRecent: 1 });
      const report = await compactor.compact(messages);
      const at = `${shape}, ${profile}`;
      assert.equal(report.reason, 'below-threshold', at);
      assert.ok(report.micro.cleared > 0 && report.thinkingRemoved > 0, at);
      const fresh = estimateTokens(messages, { profile });
      assert.equal(report.tokensAfter, fresh, at);
      assert.equal(report.micro.tokensAfter, fresh, at);
    }
  }
});

test('a batched clearing on a long Claude Code session reports the figure the meter shows next', async () => {
  const messages = claudeCodeSession({ seed: 8, turns: 40, summary: true, splitLines: true });
  const estimated = estimateTokens(messages, { profile: 'safe' });
  // Trigger and minimum chosen so that this call clears (the cache-aware defaults at this size).
  const compactor = new Compactor({ summarize: async () => 'unused', threshold: estimated + 10_000 });
  const report = await compactor.compact(messages);
  assert.equal(report.reason, 'below-threshold');
  assert.ok(report.micro.cleared > 0);
  assert.equal(report.tokensAfter, estimateTokens(messages, { profile: 'safe' }));
  assert.equal((await compactor.compact(messages)).tokensBefore, report.tokensAfter, 'the next call starts from the figure reported');
});
