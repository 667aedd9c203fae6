// simulate() as the session grows: each turn's clearing planned from what is new is the plan
// planMicroCompact makes of the whole conversation (every format, every gate, results whose
// call lies far back, provider compaction, signed thinking in flight), and a replay's work —
// the bytes its calls hand to the wasm module — grows with the session, not with its square.
import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

// Every document the module parses, counted: the work a replay does, whatever the machine's speed.
let parsedBytes = 0;
const instantiate = WebAssembly.instantiate;
WebAssembly.instantiate = async (...args) => {
  const result = await instantiate.apply(WebAssembly, args);
  const instance = result.instance ?? result;
  const parse = instance.exports.mfw_doc_parse;
  const counted = { exports: { ...instance.exports, mfw_doc_parse: (ptr, len, ...rest) => { parsedBytes += len; return parse(ptr, len, ...rest); } } };
  return result.instance ? { module: result.module, instance: counted } : counted;
};

const { init, estimateTokens, planMicroCompact, detectFormat, simulate } = await import('../../js/hosts/node.js');
const { applyEditsToCopy, applyEditsCopyingReadOnly } = await import('../../js/core/apply.js');
const { dropThinkingAfterEdits } = await import('../../js/core/thinking.js');
const { GrowingMicroCompaction, GrowingMicroPlan, GrowingServerClearing } = await import('../../js/simulate/clearing.js');
const { POLICIES, sessionTurns } = await import('../../js/simulate/simulate.js');
const { agentSession } = await import('../bench/sessions.mjs');
const { longSession } = await import('../helpers/long-session.mjs');
const { agentRun } = await import('../fixtures/responses/agent-run.mjs');

before(() => init());

const fixture = (path) => JSON.parse(readFileSync(new URL(`../fixtures/${path}`, import.meta.url), 'utf8'));

/** Sessions in every format, with the shapes that decide a plan. */
function sessions() {
  return [
    ['Anthropic coding session', fixture('coding-session.anthropic.json')],
    ['OpenAI Chat, parallel reads', fixture('parallel-read.openai.json')],
    ['OpenAI Chat coding session', fixture('coding-session.openai.json')],
    ['AI SDK coding session', fixture('coding-session.ai-sdk.json')],
    ['AI SDK ledger loop', fixture('compactor/ledger-loop.ai-sdk.json')],
    ['Chinese admin session (Anthropic)', fixture('compactor/admin-web-zh.anthropic.json')],
    ['Chinese admin session (OpenAI)', fixture('compactor/admin-web-zh.openai.json')],
    ['a result whose call is missing', fixture('missing-call.anthropic.json')],
    ['signed thinking mid tool loop', fixture('mid-tool-loop.anthropic.json')],
    ['thinking and a system prompt', fixture('thinking-system.anthropic.json')],
    ['provider compaction in the history', fixture('anthropic-blocks/compaction-history.anthropic.json')],
    ['Responses items', agentRun()],
    ['60 turns, OpenAI Chat, parallel calls', longSession({ turns: 60, format: 'openai' }).calls.flat()],
    ['60 turns, Anthropic', longSession({ turns: 60, format: 'anthropic' }).calls.flat()],
    ['a read answered turns later (Anthropic)', lateAnswer()],
    ['60 turns, Anthropic, signed thinking in every turn', withThinking(longSession({ turns: 60, format: 'anthropic' }).calls.flat())],
  ];
}

/** Each assistant message of an Anthropic session opened by a signed thinking block, as extended thinking writes it. */
function withThinking(messages) {
  return messages.map((m, i) => (m.role === 'assistant' && Array.isArray(m.content)
    ? { ...m, content: [{ type: 'thinking', thinking: `Step ${i}: the last result says what to read next; check it before editing.`, signature: `EqQBCkgIARABGAIiQ${i}Lk9` }, ...m.content] }
    : m));
}

/** A call whose result comes back eight turns later: the part planned must reach back for its name. */
function lateAnswer() {
  const messages = [{ role: 'user', content: 'Start the long build in the background, then keep reading the sources.' }];
  messages.push({ role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_build', name: 'start_build', input: { target: 'all' } },
    { type: 'tool_use', id: 'toolu_r0', name: 'read_file', input: { path: 'src/a.c' } }] });
  messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_r0', content: 'int a(void) { return 1; }\n'.repeat(40) }] });
  for (let i = 1; i < 9; i++) {
    messages.push({ role: 'assistant', content: [{ type: 'tool_use', id: `toolu_r${i}`, name: 'read_file', input: { path: `src/f${i}.c` } }] });
    messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_r${i}`, content: `static int f${i}(int x) { return x * ${i}; }\n`.repeat(60) }] });
  }
  // The build's result arrives by id eight turns after its call, beside the last read's.
  messages[messages.length - 1].content.push({ type: 'tool_result', tool_use_id: 'toolu_build', content: 'cc -O2 -c src/a.c\n'.repeat(200) });
  for (let i = 9; i < 14; i++) {
    messages.push({ role: 'assistant', content: [{ type: 'tool_use', id: `toolu_r${i}`, name: 'bash', input: { command: `make test-${i}` } }] });
    messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_r${i}`, content: `ok ${i} - suite passes\n`.repeat(50) }] });
  }
  messages.push({ role: 'assistant', content: 'The build is green and every suite passes.' });
  return messages;
}

const OPTIONS = [
  {}, { keepRecent: 1 }, { keepRecent: 0 }, { keepRecent: 5 }, { trigger: 2000 }, { trigger: 3000, clearAtLeast: 1000 },
  { clearAtLeast: 400, keepRecent: 2 }, { excludeTools: ['bash', 'read_file'] }, { thinking: 'unbound' }, { profile: 'safe', trigger: 1500 },
];

/** The replay's conversations: the session's messages (own copies) up to each turn's request. */
function* prefixes(messages) {
  const copies = messages.map((m) => structuredClone(m));
  for (const { start } of sessionTurns(messages)) yield copies.slice(0, start);
}

describe('clearing planned from what is new', () => {
  test('a client\'s micro-compaction: every turn the plan planMicroCompact makes of the whole conversation', () => {
    let plans = 0, cleared = 0;
    for (const [name, messages] of sessions()) {
      for (const options of OPTIONS) {
        const growing = new GrowingMicroCompaction(options, detectFormat(messages));
        let ctx = [];
        for (const prefix of prefixes(messages)) {
          // The policy's conversation: what it cleared stays cleared, new messages join at the end.
          ctx = ctx.concat(prefix.slice(ctx.length));
          const expected = planMicroCompact(ctx, options);
          const { edits } = growing.plan(ctx);
          assert.deepEqual(edits, expected.edits, `${name}, ${JSON.stringify(options)}, ${ctx.length} messages`);
          if (edits.length) ctx = applyEditsToCopy(ctx, edits);
          plans++; cleared += edits.length;
        }
      }
    }
    assert.ok(plans > 1500 && cleared > 1000, `${plans} plans, ${cleared} results cleared`);
  });

  test('a server\'s clearing of the full history: every request the whole plan applied to a copy', () => {
    let requests = 0, clearedRequests = 0;
    for (const [name, messages] of sessions()) {
      for (const options of OPTIONS) {
        const server = new GrowingServerClearing(options, detectFormat(messages));
        const history = [];
        for (const prefix of prefixes(messages)) {
          for (let i = history.length; i < prefix.length; i++) history.push(prefix[i]);
          const plan = planMicroCompact(history, options);
          const expected = plan.edits.length ? applyEditsToCopy(history, plan.edits) : history;
          const request = server.request(history);
          assert.deepEqual(request, expected, `${name}, ${JSON.stringify(options)}, ${history.length} messages`);
          // Untouched messages are the history's own objects, as applyEditsToCopy leaves them.
          request.forEach((m, i) => { if (expected[i] === history[i]) assert.equal(m, history[i]); });
          requests++; if (plan.edits.length) clearedRequests++;
        }
      }
    }
    assert.ok(requests > 1500 && clearedRequests > 800, `${requests} requests, ${clearedRequests} cleared`);
  });

  test('the Compactor\'s plan: every turn the whole plan planMicroCompact makes, its edits applied in place (or not)', () => {
    let plans = 0, cleared = 0, unapplied = 0, deferred = 0, skipped = 0, thinking = 0;
    // The options the Compactor plans with: its 'every-turn' policy's, its batched gates', its thinking policies'.
    const compactorOptions = [
      { profile: 'safe', keepRecent: 3, thinking: 'prefix-bound', trigger: 0, clearAtLeast: 0 },
      { profile: 'safe', keepRecent: 3, thinking: 'unbound', trigger: 0, clearAtLeast: 0 },
      { profile: 'safe', keepRecent: 2, thinking: 'prefix-bound', trigger: 2500, clearAtLeast: 800, excludeTools: ['grep'] },
      ...OPTIONS,
    ];
    for (const [name, messages] of sessions()) {
      for (const options of compactorOptions) {
        const growing = new GrowingMicroPlan(options, detectFormat(messages));
        const policy = options.thinking ?? 'prefix-bound';
        const ctx = [];
        let turn = 0;
        for (const prefix of prefixes(messages)) {
          // The Compactor's conversation: its clearing applied in place, new messages at the end.
          for (let i = ctx.length; i < prefix.length; i++) ctx.push(prefix[i]);
          const expected = planMicroCompact(ctx, options);
          const plan = growing.plan(ctx, options);
          const where = `${name}, ${JSON.stringify(options)}, ${ctx.length} messages`;
          assert.deepEqual(plan, expected, where);
          plans++;
          if (plan.deferred) deferred++;
          if (plan.skipped) skipped++;
          if (plan.milliThinking) thinking++;
          if (!plan.edits.length) continue;
          // Every third clearing is not applied, as when the fold it went with failed.
          if (++turn % 3 === 0) { unapplied++; continue; }
          const before = ctx.slice();
          applyEditsCopyingReadOnly(ctx, plan.edits);
          const removed = dropThinkingAfterEdits(ctx, plan, policy);
          const first = Math.min(...plan.edits.map((e) => e.message));
          growing.changed(removed ? before.slice(first) : plan.edits.map((e) => before[e.message]));
          growing.applied(plan.edits);
          cleared += plan.edits.length;
        }
        // Other options than the plan's own: the whole plan, as planMicroCompact makes it.
        assert.deepEqual(growing.plan(ctx, { ...options, keepRecent: 1 }), planMicroCompact(ctx, { ...options, keepRecent: 1 }));
      }
    }
    assert.ok(plans > 2000 && cleared > 1000 && unapplied > 300 && deferred > 0 && skipped > 0 && thinking > 0,
      `${plans} plans, ${cleared} results cleared, ${unapplied} not applied, ${deferred} deferred, ${skipped} skipped, ${thinking} dropping thinking`);
  });

  test('a history that is not the last one grown at its end is read again, not priced from the copy', () => {
    const messages = longSession({ turns: 30, format: 'anthropic' }).calls.flat().map((m) => structuredClone(m));
    const server = new GrowingServerClearing({ trigger: 0 }, 'anthropic');
    server.request(messages.slice(0, 80));
    const other = messages.slice(0, 60).concat(messages.slice(0, 30).map((m) => structuredClone(m)));
    const plan = planMicroCompact(other, { trigger: 0 });
    assert.deepEqual(server.request(other), applyEditsToCopy(other, plan.edits));
  });

  test('bad options fail as planMicroCompact\'s do, when the policy is made', () => {
    assert.throws(() => new GrowingMicroCompaction({ keepRecnt: 2 }, 'anthropic'), (e) => e.code === 'invalid-option' && /keepRecnt/.test(e.message));
    assert.throws(() => new GrowingServerClearing({ profile: 'nope' }, 'openai'), (e) => e.code === 'invalid-option');
  });
});

describe('work as the session grows', () => {
  /** What a replay hands the module, as a multiple of one estimate of the session. */
  async function work(turns, policy) {
    const session = agentSession(turns, 1, { resultBytes: [800, 7200] });
    parsedBytes = 0;
    estimateTokens(session);
    const one = parsedBytes;
    parsedBytes = 0;
    await simulate(session, { policies: [policy] });
    return parsedBytes / one;
  }

  // (the Compactor's 'every-turn' policy too: its plan on every call is made from what is new)
  for (const policy of Object.keys(POLICIES)) {
    test(`${policy}: a session four times longer costs four times the work, at most 8 estimates of it`, async () => {
      const short = await work(100, policy);
      const long = await work(400, policy);
      assert.ok(long <= 8, `${long.toFixed(1)} estimates of the session`);
      assert.ok(long <= short * 1.25 + 0.5, `per turn the work grew: ${short.toFixed(1)} → ${long.toFixed(1)} estimates`);
    });
  }
});
