// keepTail: the recent part a fold keeps verbatim, by tokens, by messages, or both; a key
// keepTail does not know is refused instead of being ignored.
import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

import { init, Compactor, MidfoldError, planCompaction, validate, simulate } from '../../js/hosts/node.js';
import { load, recorder, MARK, FORMATS } from '../fixtures/compactor/lib.mjs';

before(async () => { await init(); });

/** The non-system messages from `start` on. */
const counted = (messages, start) => messages.slice(start).filter((m) => m.role !== 'system').length;

describe('keepTail: unknown keys and bad values are refused', () => {
  // A misspelt key inside keepTail ({token: 500}, {msgs: 4}) used to be read as no key at all:
  // the default tail (threshold / 5) was kept, not what the caller asked for.
  for (const [name, keepTail, named] of [['a misspelt key (token)', { token: 500 }, 'token'],
    ['a misspelt key (msgs)', { msgs: 4 }, 'msgs'], ['a snake_case key (keep_messages)', { messages: 4, keep_messages: 4 }, 'keep_messages']]) {
    test(`constructor: keepTail with ${name} → 'invalid-option' naming it and the keys keepTail knows`, () => {
      assert.throws(() => new Compactor({ summarize: recorder(), keepTail }), (e) => e instanceof MidfoldError
        && e.code === 'invalid-option' && e.message.includes(`"${named}"`) && e.message.includes('tokens, messages'));
    });
  }
  for (const [name, messages] of [['negative', -1], ['fractional', 2.5], ['a string', '4'], ['beyond the core', 2 ** 32]]) {
    test(`constructor: keepTail.messages ${name} → 'invalid-option' naming keepTail.messages`, () => {
      assert.throws(() => new Compactor({ summarize: recorder(), keepTail: { messages } }), (e) => e instanceof MidfoldError
        && e.code === 'invalid-option' && e.message.startsWith('keepTail.messages must be a whole number'));
    });
  }
  test('planCompaction: keepTailMessages negative → invalid-option', () => {
    assert.throws(() => planCompaction(load('ledger.anthropic'), { keepTailMessages: -2 }), (e) => e.code === 'invalid-option');
  });
});

describe('keepTail.messages: the last N messages kept, a cut never inside a call and its results', () => {
  for (const format of FORMATS) {
    test(`${format}: {messages: N} keeps at least N messages, the fewest from a valid cut, for every N`, () => {
      const messages = load(`ledger.${format}`);
      const total = counted(messages, 0);
      for (let n = 1; n <= total; n++) {
        const plan = planCompaction(messages, { keepTailTokens: 0, keepTailMessages: n });
        const kept = counted(messages, plan.tailStart);
        assert.ok(kept >= n || plan.tailStart <= 1, `N=${n}: ${kept} kept`);
        // the tail is rebuilt valid: what it starts with answers nothing before it
        const rebuilt = [messages[0], { role: 'user', content: 'summary' }, { role: 'assistant', content: 'ok' }, ...messages.slice(plan.tailStart)];
        if (plan.tailStart > 1) assert.ok(validate(rebuilt, { format }).ok, `N=${n}: the kept tail is valid on its own`);
        // and it is the fewest: one message more would have been a valid cut with fewer than N
        const fewer = planCompaction(messages, { keepTailTokens: 0, keepTailMessages: Math.max(0, n - 1) });
        assert.ok(fewer.tailStart >= plan.tailStart, `N=${n}: a smaller N keeps no more`);
      }
    });
  }

  test('openai: a count that would land among three parallel tool messages moves back to the call that made them', () => {
    const messages = load('ledger.openai');
    const calls = messages.findIndex((m) => m.role === 'assistant' && Array.isArray(m.tool_calls) && m.tool_calls.length === 3);
    assert.ok(calls > 0 && messages[calls + 3].role === 'tool');
    // N reaching the second of the three tool messages: the tail must start at the assistant message
    const n = counted(messages, calls + 2);
    const plan = planCompaction(messages, { keepTailTokens: 0, keepTailMessages: n });
    assert.equal(plan.tailStart, calls);
    assert.equal(counted(messages, plan.tailStart), n + 2);
  });

  test('Chinese session (anthropic): {messages: 3} would start at a tool_result: the tool_use before it is kept too', async () => {
    const messages = load('admin-web-zh.anthropic');
    const original = messages.slice();
    assert.ok(Array.isArray(messages.at(-3).content) && messages.at(-3).content[0].type === 'tool_result');
    const summarize = recorder('用户在排查管理后台的登录问题，已读取配置并修改了路由。');
    const report = await new Compactor({ summarize, keepTail: { messages: 3 } }).compact(messages, { force: true });
    assert.equal(report.compacted, true);
    assert.equal(report.language, 'zh');
    // the kept four are the caller's own objects, in order, after the summary (no acknowledgement:
    // the tail starts with the assistant's tool_use)
    assert.deepEqual(messages.slice(-4).map((m) => original.indexOf(m)), [20, 21, 22, 23]);
    assert.equal(messages.findIndex((m) => JSON.stringify(m).includes(MARK)), messages.length - 5);
    assert.ok(validate(messages).ok);
  });
});

describe('keepTail: tokens and messages together are two floors', () => {
  test('{messages} alone replaces the token default: {messages: 2} keeps two messages, not threshold / 5', async () => {
    const messages = load('ledger.ai-sdk');
    const original = messages.slice();
    const report = await new Compactor({ summarize: recorder('Ledger export fixed.'), keepTail: { messages: 2 } }).compact(messages, { force: true });
    assert.equal(report.compacted, true);
    assert.deepEqual(messages.slice(-2), original.slice(-2));
    assert.equal(report.summarizedMessages, counted(original, 0) - 2);
  });

  test('{tokens: 0, messages: 4} keeps four; {tokens: T, messages: 1} keeps what T holds', () => {
    const messages = load('ledger.anthropic');
    const byMessages = planCompaction(messages, { keepTailTokens: 0, keepTailMessages: 4 });
    assert.equal(counted(messages, byMessages.tailStart), 4);
    const byTokens = planCompaction(messages, { keepTailTokens: 3000 });
    assert.ok(counted(messages, byTokens.tailStart) > 4, 'the token budget alone holds more than four here');
    const both = planCompaction(messages, { keepTailTokens: 3000, keepTailMessages: 1 });
    assert.equal(both.tailStart, byTokens.tailStart);
    const both4 = planCompaction(messages, { keepTailTokens: 0, keepTailMessages: 4 });
    assert.equal(both4.tailStart, byMessages.tailStart);
  });

  test('a Compactor with {messages} that holds the whole conversation folds nothing and changes nothing', async () => {
    const messages = load('ledger.openai');
    const copy = structuredClone(messages);
    const summarize = recorder();
    const report = await new Compactor({ summarize, keepTail: { messages: 1000 } }).compact(messages, { force: true });
    assert.equal(report.compacted, false);
    assert.equal(report.reason, 'nothing-to-summarize');
    assert.equal(summarize.calls.length, 0);
    assert.equal(messages.length, copy.length);
  });
});

describe("simulate: keepTailMessages in the policy grammar", () => {
  test("'compactor:…,keepTailMessages=N' reaches the Compactor, and a smaller tail folds more of the Chinese session", async () => {
    const session = load('admin-web-zh.openai');
    const report = await simulate(session, { pricing: 'deepseek',
      policies: ['compactor:threshold=1500,keepTail=0,keepTailMessages=2', 'compactor:threshold=1500,keepTail=0,keepTailMessages=12'] });
    const [small, large] = report.results;
    assert.equal(small.compactor.keepTailMessages, 2);
    assert.equal(large.compactor.keepTailMessages, 12);
    assert.ok(small.summaries >= 1 && large.summaries >= 1);
    assert.ok(small.meanContext < large.meanContext, `${small.meanContext} < ${large.meanContext}`);
  });
  test('an unknown compactor key in the grammar is refused', async () => {
    await assert.rejects(simulate(load('ledger.openai'), { policies: ['compactor:keepTailMsgs=4'] }), (e) => e.code === 'invalid-option');
  });
});

describe('the command line: --keep-tail-messages and --threshold N% with --context-window', () => {
  const CLI = fileURLToPath(new URL('../../js/cli.js', import.meta.url));
  const FILE = fileURLToPath(new URL('../fixtures/compactor/admin-web-zh.openai.json', import.meta.url));
  const run = (args) => new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { env: { PATH: process.env.PATH } },
      (error, stdout, stderr) => resolve({ code: error ? error.code : 0, stdout, stderr }));
  });

  test('compact --force --keep-tail-messages 3 keeps the last three messages of the Chinese session verbatim', async () => {
    const r = await run(['compact', FILE, '--force', '--keep-tail-messages', '3', '-o', '-']);
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    const original = load('admin-web-zh.openai');
    assert.deepEqual(out.slice(-3), original.slice(-3));
    assert.ok(out.length < original.length);
  });

  test('compact --threshold 50% --context-window 2000 folds as --threshold 1000 does; 50% alone is refused', async () => {
    const a = await run(['compact', FILE, '--threshold', '50%', '--context-window', '2000', '-o', '-']);
    const b = await run(['compact', FILE, '--threshold', '1000', '-o', '-']);
    assert.equal(a.code, 0, a.stderr);
    assert.equal(a.stdout, b.stdout);
    assert.notDeepEqual(JSON.parse(a.stdout), load('admin-web-zh.openai'));
    const refused = await run(['compact', FILE, '--threshold', '50%']);
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /contextWindow/);
  });
});
