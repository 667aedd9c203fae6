// Compactor: a failed, aborted, timed-out or conflicting compaction costs nothing (issue 3):
// the array stays deep-equal to a copy taken before and holds the very same objects;
// concurrent appends survive; invalid options are the only rejections.
import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';

import { init, Compactor, MidfoldError, validate, digest } from '../../js/hosts/node.js';
import { load, recorder, gated, snapshot, assertUntouched, MARK, FORMATS } from '../fixtures/compactor/lib.mjs';

before(async () => { await init(); });

/** A compactor that would compact the ledger fixture (micro-compaction pending too). */
function make(summarize, extra = {}) {
  const warnings = [];
  const compactor = new Compactor({ summarize, keepTail: { tokens: 0 }, onWarn: (message, error) => warnings.push({ message, error }), ...extra });
  return { compactor, warnings };
}

const boom = new Error('upstream summarizer exploded');

const FAILURES = [
  { name: 'throws synchronously', summarize: () => { throw boom; }, reason: 'summarizer-error', error: boom },
  { name: 'rejects', summarize: async () => { throw boom; }, reason: 'summarizer-error', error: boom },
  { name: "returns ''", summarize: async () => '', reason: 'empty-summary' },
  { name: "returns '   '", summarize: async () => '   \n\t ', reason: 'empty-summary' },
  { name: 'returns 42', summarize: async () => 42, reason: 'bad-summary' },
  { name: 'returns null', summarize: async () => null, reason: 'bad-summary' },
  { name: 'returns undefined', summarize: async () => undefined, reason: 'bad-summary' },
  { name: "returns {text: ''}", summarize: async () => ({ text: '' }), reason: 'empty-summary' },
  { name: 'returns {text: 7}', summarize: async () => ({ text: 7 }), reason: 'bad-summary' },
  { name: 'returns {content: "x"}', summarize: async () => ({ content: 'x' }), reason: 'bad-summary' },
];

describe('a failing summarizer leaves the conversation exactly as it was', () => {
  for (const format of FORMATS) {
    for (const f of FAILURES) {
      test(`${format}: the summarizer ${f.name}`, async () => {
        const messages = load(`ledger.${format}`);
        const snap = snapshot(messages);
        const { compactor, warnings } = make(f.summarize);
        const report = await compactor.compact(messages, { force: true });
        assertUntouched(messages, snap);
        assert.equal(report.compacted, false);
        assert.equal(report.reason, f.reason);
        assert.ok(report.error !== undefined && report.error !== null, 'report.error is set');
        if (f.error) assert.equal(report.error, f.error);
        assert.equal(warnings.length, 1);
        assert.equal(typeof warnings[0].message, 'string');
        assert.ok(warnings[0].message.length > 0);
        assert.equal(warnings[0].error, report.error);
      });
    }
  }

  test('without force, over the threshold: micro-compaction is not applied either', async () => {
    const messages = load('ledger.anthropic');
    const snap = snapshot(messages);
    const { compactor } = make(async () => { throw boom; }, { threshold: 100 });
    const report = await compactor.compact(messages);
    assert.equal(report.reason, 'summarizer-error');
    assertUntouched(messages, snap);
  });

  test('the report of a failure says how big the conversation still is', async () => {
    const messages = load('ledger.anthropic');
    const { compactor } = make(async () => '');
    const report = await compactor.compact(messages, { force: true });
    assert.equal(report.tokensAfter, report.tokensBefore);
    assert.equal(report.summarizedMessages, 0);
  });

  test('an onWarn that throws does not turn a failure into a rejection', async () => {
    const messages = load('ledger.anthropic');
    const snap = snapshot(messages);
    const compactor = new Compactor({ summarize: async () => { throw boom; }, keepTail: { tokens: 0 }, onWarn: () => { throw new Error('logger down'); } });
    const report = await compactor.compact(messages, { force: true });
    assert.equal(report.compacted, false);
    assertUntouched(messages, snap);
  });

  test('no onWarn: a failure still resolves with the report', async () => {
    const messages = load('ledger.anthropic');
    const snap = snapshot(messages);
    const report = await new Compactor({ summarize: async () => { throw boom; }, keepTail: { tokens: 0 } }).compact(messages, { force: true });
    assert.equal(report.reason, 'summarizer-error');
    assertUntouched(messages, snap);
  });

  test('the same Compactor compacts successfully after a failure', async () => {
    let n = 0;
    const messages = load('ledger.anthropic');
    const { compactor } = make(async () => (++n === 1 ? Promise.reject(boom) : 'second try worked'));
    assert.equal((await compactor.compact(messages, { force: true })).compacted, false);
    const report = await compactor.compact(messages, { force: true });
    assert.equal(report.compacted, true);
    assert.equal(messages[1].content, `${MARK}\nsecond try worked`);
  });
});

describe('a summarizer\'s own MidfoldError keeps its reason', () => {
  test('languageModelSummarizer over a model that answers no text: reason "empty-summary", nothing changed', async () => {
    const { languageModelSummarizer } = await import('../../js/integrations/ai-sdk.js');
    const { MockLanguageModelV3 } = await import('ai/test');
    const model = new MockLanguageModelV3({ doGenerate: async () => ({ content: [{ type: 'text', text: '  \n' }], finishReason: { unified: 'stop', raw: 'end_turn' },
      usage: { inputTokens: { total: 900 }, outputTokens: { total: 1 } }, warnings: [] }) });
    const messages = load('ledger.ai-sdk');
    const snap = snapshot(messages);
    const { compactor, warnings } = make(languageModelSummarizer(model));
    const report = await compactor.compact(messages, { force: true });
    assert.equal(model.doGenerateCalls.length, 1);
    assert.equal(report.reason, 'empty-summary');
    assert.equal(report.error.code, 'empty-summary');
    assert.match(warnings[0].message, /empty-summary/);
    assertUntouched(messages, snap);
  });

  for (const code of ['empty-summary', 'bad-summary', 'timeout']) {
    test(`a MidfoldError with code '${code}' is reported as '${code}'`, async () => {
      const error = new MidfoldError(code, `the summarizer says: ${code}`);
      const report = await make(async () => { throw error; }).compactor.compact(load('ledger.anthropic'), { force: true });
      assert.equal(report.reason, code);
      assert.equal(report.error, error);
    });
  }

  test("a MidfoldError with any other code is a 'summarizer-error'", async () => {
    const report = await make(async () => { throw new MidfoldError('invalid-input', 'bad request'); }).compactor.compact(load('ledger.anthropic'), { force: true });
    assert.equal(report.reason, 'summarizer-error');
  });
});

describe('timeout and abort', () => {
  test('timeoutMs: a summarizer that never answers gives up with reason "timeout", nothing changed', async () => {
    const messages = load('ledger.anthropic');
    const snap = snapshot(messages);
    let request;
    const { compactor, warnings } = make((r) => { request = r; return new Promise(() => {}); }, { timeoutMs: 50 });
    const started = Date.now();
    const report = await compactor.compact(messages, { force: true });
    assert.ok(Date.now() - started < 5000);
    assert.equal(report.compacted, false);
    assert.equal(report.reason, 'timeout');
    assert.ok(report.error);
    assert.equal(warnings.length, 1);
    assertUntouched(messages, snap);
    assert.equal(request.signal.aborted, true, 'the summarizer was told to stop');
  });

  test('without timeoutMs, a summarizer that never answers gives up after 120 s (the CLI\'s default): reason "timeout", nothing changed', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const messages = load('ledger.anthropic');
    const snap = snapshot(messages);
    const summarize = gated();
    let settled = false;
    const run = make(summarize).compactor.compact(messages, { force: true }).finally(() => { settled = true; });
    await summarize.started;
    const flush = () => new Promise((resolve) => setImmediate(resolve));
    t.mock.timers.tick(119_999);
    await flush();
    assert.equal(settled, false, 'still waiting at 119,999 ms');
    t.mock.timers.tick(1);
    await flush();
    assert.equal(settled, true, 'gave up at 120,000 ms');
    const report = await run;
    assert.equal(report.reason, 'timeout');
    assert.match(report.error.message, /120000 ms/);
    assertUntouched(messages, snap);
  });

  test('timeoutMs: 0 waits for ever: a summary that arrives after hours still folds', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const messages = load('ledger.anthropic');
    const summarize = gated();
    let settled = false;
    const run = make(summarize, { timeoutMs: 0 }).compactor.compact(messages, { force: true }).finally(() => { settled = true; });
    await summarize.started;
    t.mock.timers.tick(5 * 3600_000);
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(settled, false);
    summarize.answer.resolve('The CSV export keeps refunds now.');
    assert.equal((await run).reason, 'compacted');
  });

  test('a summarizer that answers after the timeout changes nothing, even later', async () => {
    const messages = load('ledger.anthropic');
    const snap = snapshot(messages);
    const { compactor } = make(() => new Promise((resolve) => setTimeout(() => resolve('too late'), 120)), { timeoutMs: 30 });
    const report = await compactor.compact(messages, { force: true });
    assert.equal(report.reason, 'timeout');
    await new Promise((r) => setTimeout(r, 200));
    assertUntouched(messages, snap);
  });

  test('a signal aborted before the call: reason "aborted", the summarizer is never called', async () => {
    const messages = load('ledger.anthropic');
    const snap = snapshot(messages);
    const summarize = recorder();
    const { compactor, warnings } = make(summarize);
    const controller = new AbortController();
    controller.abort(new Error('user pressed stop'));
    const report = await compactor.compact(messages, { force: true, signal: controller.signal });
    assert.equal(report.compacted, false);
    assert.equal(report.reason, 'aborted');
    assert.equal(summarize.calls.length, 0);
    assert.equal(warnings.length, 1);
    assertUntouched(messages, snap);
  });

  test('a signal aborted during the call: reason "aborted", the summarizer\'s signal fires, nothing changed', async () => {
    const messages = load('ledger.anthropic');
    const snap = snapshot(messages);
    const summarize = gated();
    const { compactor, warnings } = make(summarize);
    const controller = new AbortController();
    const pending = compactor.compact(messages, { force: true, signal: controller.signal });
    const request = await summarize.started;
    assert.equal(request.signal.aborted, false);
    controller.abort(new Error('user pressed stop'));
    const report = await pending;
    assert.equal(report.reason, 'aborted');
    assert.equal(report.error.message, 'user pressed stop');
    assert.equal(request.signal.aborted, true);
    assert.equal(warnings.length, 1);
    summarize.answer.resolve('an answer after the abort');
    await new Promise((r) => setTimeout(r, 10));
    assertUntouched(messages, snap);
  });

  test('an abort is not rescued by the digest fallback', async () => {
    const messages = load('ledger.anthropic');
    const snap = snapshot(messages);
    const controller = new AbortController();
    controller.abort();
    const { compactor } = make(recorder(), { fallback: 'digest' });
    const report = await compactor.compact(messages, { force: true, signal: controller.signal });
    assert.equal(report.reason, 'aborted');
    assertUntouched(messages, snap);
  });

  test('an abort after a successful compaction has no effect', async () => {
    const messages = load('ledger.anthropic');
    const controller = new AbortController();
    const { compactor } = make(recorder('S'));
    const report = await compactor.compact(messages, { force: true, signal: controller.signal });
    controller.abort();
    assert.equal(report.compacted, true);
    assert.equal(messages.length, 4);
  });
});

describe('invalid options and input are the only rejections', () => {
  const bad = [
    ['no options', undefined],
    ['summarize missing', {}],
    ['summarize not a function', { summarize: 'openai' }],
    ['threshold negative', { summarize: recorder(), threshold: -1 }],
    ['threshold fractional', { summarize: recorder(), threshold: 1.5 }],
    ['threshold a string', { summarize: recorder(), threshold: '50000' }],
    ['keepRecent negative', { summarize: recorder(), keepRecent: -3 }],
    ['keepTail a number', { summarize: recorder(), keepTail: 5000 }],
    ['keepTail null', { summarize: recorder(), keepTail: null }],
    ['keepTail.tokens negative', { summarize: recorder(), keepTail: { tokens: -1 } }],
    ['maxSummaryTokens NaN', { summarize: recorder(), maxSummaryTokens: NaN }],
    ['maxTranscriptTokens Infinity', { summarize: recorder(), maxTranscriptTokens: Infinity }],
    ['timeoutMs negative', { summarize: recorder(), timeoutMs: -50 }],
    ['fallback unknown', { summarize: recorder(), fallback: 'model' }],
    ['instructions not a string', { summarize: recorder(), instructions: ['focus'] }],
    ['language not a code', { summarize: recorder(), language: 'Chinese please' }],
    ['profile unknown', { summarize: recorder(), profile: 'gpt-17' }],
    ['format unknown', { summarize: recorder(), format: 'gemini' }],
    ['onWarn not a function', { summarize: recorder(), onWarn: 'console' }],
    ['onArchive not a function', { summarize: recorder(), onArchive: {} }],
    ['excludeTools a string', { summarize: recorder(), excludeTools: 'memory' }],
    ['a misspelt option (excludeTool)', { summarize: recorder(), excludeTool: ['memory'] }],
    ['a misspelt option (threshhold)', { summarize: recorder(), threshhold: 20_000 }],
  ];
  for (const [name, options] of bad) {
    test(`constructor: ${name} → MidfoldError 'invalid-option'`, () => {
      assert.throws(() => new Compactor(options), (e) => e instanceof MidfoldError && e.code === 'invalid-option');
    });
  }
  // What the core cannot take is refused when the Compactor is built, naming what the caller wrote.
  for (const [name, value, shown] of [['clearAtLeast', 400_000_000_000, '400000000000'], ['microTrigger', 2 ** 32, '4294967296'],
    ['keepRecent', 2 ** 32, '4294967296'], ['maxSummaryTokens', 1e12, '1000000000000'], ['maxTranscriptTokens', 2 ** 40, '1099511627776'],
    ['keepTail.tokens', 5e9, '5000000000'], ['timeoutMs', 2 ** 31, '2147483648'], ['threshold', 2 ** 53, '9007199254740992']]) {
    test(`constructor: ${name} ${shown}, beyond what it can be → MidfoldError 'invalid-option' naming ${name} and ${shown}`, () => {
      const options = { summarize: recorder() };
      if (name === 'keepTail.tokens') options.keepTail = { tokens: value };
      else options[name] = value;
      assert.throws(() => new Compactor(options), (e) => e instanceof MidfoldError && e.code === 'invalid-option' &&
        e.message.startsWith(`${name} must be a whole number`) && e.message.includes(shown));
    });
  }

  test('threshold 1e12 (never fold) is accepted, and every call works: the defaults derived from it are capped, never refused', async () => {
    const summarize = recorder('The CSV export keeps refunds now.');
    const compactor = new Compactor({ summarize, threshold: 1e12 });
    const messages = load('ledger.anthropic');
    const snap = snapshot(messages);
    const held = await compactor.compact(messages);
    assert.equal(held.reason, 'below-threshold');
    assertUntouched(messages, snap);
    assert.equal((await compactor.compact(messages)).reason, 'below-threshold', 'the next call too');
    const forced = await compactor.compact(messages, { force: true });
    assert.equal(forced.reason, 'compacted');
    // The provider's count far below the estimate scales the tail budget up: still within what the core takes.
    const again = load('ledger.anthropic');
    assert.equal((await new Compactor({ summarize, threshold: 1e12 }).compact(again, { force: true, usage: { inputTokens: 1 } })).reason, 'compacted');
  });

  test('a misspelt option is named in the error', () => {
    assert.throws(() => new Compactor({ summarize: recorder(), excludeTool: ['memory'] }), /unknown option "excludeTool"/);
  });

  for (const [name, value] of [['a string', 'hello'], ['null', null], ['an object', { messages: [] }], ['undefined', undefined]]) {
    test(`compact(${name}) rejects with a MidfoldError and never calls the summarizer`, async () => {
      const summarize = recorder();
      const c = new Compactor({ summarize });
      await assert.rejects(c.compact(value, { force: true }), (e) => e instanceof MidfoldError && typeof e.code === 'string');
      assert.equal(summarize.calls.length, 0);
    });
  }

  test("compact(messages, 'force') rejects with 'invalid-option' and changes nothing", async () => {
    const messages = load('ledger.anthropic');
    const snap = snapshot(messages);
    await assert.rejects(new Compactor({ summarize: recorder() }).compact(messages, 'force'), (e) => e.code === 'invalid-option');
    assertUntouched(messages, snap);
  });

  test("compact(messages, {instructions: 3}) rejects with 'invalid-option' and changes nothing", async () => {
    const messages = load('ledger.anthropic');
    const snap = snapshot(messages);
    await assert.rejects(new Compactor({ summarize: recorder() }).compact(messages, { force: true, instructions: 3 }), (e) => e.code === 'invalid-option');
    assertUntouched(messages, snap);
  });

  test('a frozen array cannot be rebuilt in place: MidfoldError \'read-only-input\', unchanged, no summary paid for', async () => {
    const messages = Object.freeze(load('ledger.anthropic'));
    const snap = snapshot(messages);
    const summarize = recorder();
    await assert.rejects(new Compactor({ summarize, keepTail: { tokens: 0 } }).compact(messages, { force: true }),
      (e) => e instanceof MidfoldError && e.code === 'read-only-input');
    assert.equal(summarize.calls.length, 0);
    assertUntouched(messages, snap);
  });

  test('messages of the wrong shape reject with a MidfoldError and a code', async () => {
    const summarize = recorder();
    for (const bad of [[null], [1, 2], [{ content: 'no role' }]]) {
      await assert.rejects(new Compactor({ summarize }).compact(bad, { force: true }), (e) => e instanceof MidfoldError && typeof e.code === 'string');
    }
    assert.equal(summarize.calls.length, 0);
  });

  test('the constructor accepts every documented option', () => {
    assert.doesNotThrow(() => new Compactor({
      summarize: recorder(), threshold: 80_000, keepRecent: 5, keepTail: { tokens: 12_000 }, maxSummaryTokens: 1500,
      maxTranscriptTokens: 40_000, language: 'zh-CN', instructions: 'focus', profile: 'bareagent', format: 'anthropic',
      timeoutMs: 30_000, fallback: 'digest', onWarn() {}, onArchive() {},
    }));
  });
});

describe('the host changes the conversation while the summary is written', () => {
  test('messages appended meanwhile survive, at the end, after the rebuild', async () => {
    const messages = load('ledger.anthropic');
    const pending = messages.at(-1);
    const summarize = gated();
    const run = make(summarize).compactor.compact(messages, { force: true });
    await summarize.started;
    const reply = { role: 'assistant', content: [{ type: 'text', text: 'Adding the CHANGELOG entry now.' }] };
    const next = { role: 'user', content: 'Also mention the delimiter option in the README.' };
    messages.push(reply, next);
    summarize.answer.resolve('S');
    const report = await run;
    assert.equal(report.compacted, true);
    assert.equal(messages.length, 6);
    assert.equal(messages[3], pending);
    assert.equal(messages[4], reply);
    assert.equal(messages[5], next);
    assert.deepStrictEqual(validate(messages).problems, []);
  });

  test('a signed turn appended meanwhile is a kept turn: its thinking goes, as the tail\'s does', async () => {
    const messages = load('ledger.anthropic');
    const summarize = gated();
    const run = make(summarize).compactor.compact(messages, { force: true });
    await summarize.started;
    const text = { type: 'text', text: '已补上 CHANGELOG 条目。' };
    const reply = { role: 'assistant', content: [{ type: 'thinking', thinking: 'The entry goes under Unreleased.', signature: 'EqQBCkgIARABGAIiQLk9' }, text] };
    const next = { role: 'user', content: 'README 里也提一下分隔符选项。' };
    messages.push(reply, next);
    summarize.answer.resolve('S');
    const report = await run;
    assert.equal(report.compacted, true);
    assert.equal(messages.at(-2), reply);
    assert.deepStrictEqual(reply.content, [text], 'its prefix changed: the signed thinking would not verify');
    assert.ok(report.thinkingRemoved >= 1);
    assert.equal(messages.at(-1), next);
  });

  test('an appended tool round (OpenAI) survives and the result validates', async () => {
    const messages = load('ledger.openai');
    const summarize = gated();
    const run = make(summarize).compactor.compact(messages, { force: true });
    await summarize.started;
    const call = { role: 'assistant', content: null, tool_calls: [{ id: 'call_late01', type: 'function', function: { name: 'bash', arguments: '{"command":"npm run lint"}' } }] };
    const result = { role: 'tool', tool_call_id: 'call_late01', content: '> eslint src test\n' };
    messages.push(call, result);
    summarize.answer.resolve('S');
    await run;
    assert.equal(messages.at(-2), call);
    assert.equal(messages.at(-1), result);
    assert.deepStrictEqual(validate(messages, { format: 'openai' }).problems, []);
  });

  test('a message replaced in the planned part: reason "conflict"; only the host\'s change remains', async () => {
    const messages = load('ledger.anthropic');
    const snap = snapshot(messages);
    const summarize = gated();
    const { compactor, warnings } = make(summarize);
    const run = compactor.compact(messages, { force: true });
    await summarize.started;
    const replacement = { role: 'user', content: 'npm test fails on main since PR #412 (edited by the user).' };
    messages[1] = replacement;
    summarize.answer.resolve('S');
    const report = await run;
    assert.equal(report.compacted, false);
    assert.equal(report.reason, 'conflict');
    assert.ok(report.error);
    assert.equal(warnings.length, 1);
    const expected = snapshot(snap.objects);
    expected.objects[1] = replacement;
    expected.copy[1] = structuredClone(replacement);
    assertUntouched(messages, expected);
  });

  test('a message removed from the planned part: reason "conflict"; the array is the host\'s', async () => {
    const messages = load('ledger.anthropic');
    const summarize = gated();
    const run = make(summarize).compactor.compact(messages, { force: true });
    await summarize.started;
    messages.splice(2, 2); // the host drops the first tool round
    const hostVersion = snapshot(messages);
    summarize.answer.resolve('S');
    const report = await run;
    assert.equal(report.reason, 'conflict');
    assertUntouched(messages, hostVersion);
  });

  test('the pending user message removed: reason "conflict"', async () => {
    const messages = load('ledger.anthropic');
    const summarize = gated();
    const run = make(summarize).compactor.compact(messages, { force: true });
    await summarize.started;
    messages.pop();
    const hostVersion = snapshot(messages);
    summarize.answer.resolve('S');
    assert.equal((await run).reason, 'conflict');
    assertUntouched(messages, hostVersion);
  });

  test('the pending user message replaced: reason "conflict"', async () => {
    const messages = load('ledger.anthropic');
    const summarize = gated();
    const run = make(summarize).compactor.compact(messages, { force: true });
    await summarize.started;
    messages[messages.length - 1] = { role: 'user', content: 'Never mind, commit as it is.' };
    const hostVersion = snapshot(messages);
    summarize.answer.resolve('S');
    assert.equal((await run).reason, 'conflict');
    assertUntouched(messages, hostVersion);
  });

  // Edits in place, at every depth: the message object stays, what it holds changes.
  const IN_PLACE = [
    ['a message\'s string content replaced', (m) => { m[1].content = 'edited'; }],
    ['the system message\'s content', (m) => { m[0].content += ' Answer in French.'; }],
    ['a text block\'s text', (m) => { m.at(-2).content[0].text += ' (corrected by the user)'; }],
    ['a tool result\'s content, deep in its block', (m) => { m[3].content[0].content = 'FAIL (re-run by the user)'; }],
    ['a tool call\'s input, two levels down', (m) => { m[2].content[1].input.command = 'npm test -- --runInBand'; }],
    ['a block pushed onto a message', (m) => { m[1].content = [{ type: 'text', text: m[1].content }, { type: 'text', text: 'One more thing.' }]; }],
    ['a key added to a block', (m) => { m[3].content[0].is_error = true; }],
    ['a key removed from a message', (m) => { delete m.at(-1).content; m.at(-1).content = 'Ship it.'; }],
    ['a block removed from a message', (m) => { m[2].content.pop(); }],
  ];
  for (const [what, edit] of IN_PLACE) {
    test(`${what} while the summary is written: reason "conflict", the host's edit kept and nothing else changed`, async () => {
      const messages = load('ledger.anthropic');
      const objects = messages.slice();
      const summarize = gated();
      const { compactor, warnings } = make(summarize);
      const run = compactor.compact(messages, { force: true });
      await summarize.started;
      edit(messages);
      const hostVersion = structuredClone(messages);
      summarize.answer.resolve('S');
      const report = await run;
      assert.equal(report.compacted, false);
      assert.equal(report.reason, 'conflict');
      assert.equal(warnings.length, 1);
      assert.deepStrictEqual(messages, hostVersion);
      assert.ok(messages.every((m, i) => m === objects[i]), 'the same objects');
    });
  }

  test('an edit in place that puts back what was there is no conflict (the messages hold what was planned)', async () => {
    const messages = load('ledger.anthropic');
    const summarize = gated();
    const run = make(summarize).compactor.compact(messages, { force: true });
    await summarize.started;
    const text = messages[1].content;
    messages[1].content = 'edited';
    messages[1].content = `${text}`;
    summarize.answer.resolve('S');
    assert.equal((await run).reason, 'compacted');
  });

  test('a conflict is not rescued by the digest fallback and onArchive is not called', async () => {
    const messages = load('ledger.anthropic');
    let archived = 0;
    const summarize = gated();
    const run = make(summarize, { fallback: 'digest', onArchive: () => { archived++; } }).compactor.compact(messages, { force: true });
    await summarize.started;
    messages.shift();
    const hostVersion = snapshot(messages);
    summarize.answer.reject(new Error('late failure'));
    assert.equal((await run).reason, 'conflict');
    assert.equal(archived, 0);
    assertUntouched(messages, hostVersion);
  });

  test('two compact calls on the same array at once run one after the other; the second sees the first\'s result', async () => {
    const messages = load('ledger.anthropic');
    let active = 0, most = 0, calls = 0;
    const summarize = async () => {
      calls++;
      active++;
      most = Math.max(most, active);
      await new Promise((r) => setTimeout(r, 20));
      active--;
      return 'S';
    };
    const c = make(summarize).compactor;
    const [first, second] = await Promise.all([c.compact(messages, { force: true }), c.compact(messages, { force: true })]);
    assert.equal(most, 1);
    assert.equal(calls, 1);
    assert.equal(first.compacted, true);
    assert.equal(second.compacted, false);
    assert.equal(second.reason, 'nothing-to-summarize');
    assert.equal(messages.length, 4);
    assert.deepStrictEqual(validate(messages).problems, []);
  });

  test('two different Compactors on the same array also take turns', async () => {
    const messages = load('ledger.anthropic');
    let active = 0, most = 0;
    const slow = (text) => async () => {
      active++;
      most = Math.max(most, active);
      await new Promise((r) => setTimeout(r, 20));
      active--;
      return text;
    };
    const a = make(slow('FIRST')).compactor;
    const b = make(slow('SECOND')).compactor;
    const results = await Promise.all([a.compact(messages, { force: true }), b.compact(messages, { force: true })]);
    assert.equal(most, 1);
    assert.deepStrictEqual(results.map((r) => r.reason), ['compacted', 'nothing-to-summarize']);
    assert.equal(messages[1].content, `${MARK}\nFIRST`);
  });

  test('a failed first call does not block the second', async () => {
    const messages = load('ledger.anthropic');
    let n = 0;
    const c = make(async () => (++n === 1 ? Promise.reject(boom) : 'S2')).compactor;
    const [first, second] = await Promise.all([c.compact(messages, { force: true }), c.compact(messages, { force: true })]);
    assert.equal(first.reason, 'summarizer-error');
    assert.equal(second.reason, 'compacted');
    assert.equal(messages[1].content, `${MARK}\nS2`);
  });

  test('compactions of different arrays run at the same time', async () => {
    let active = 0, most = 0;
    const summarize = async () => {
      active++;
      most = Math.max(most, active);
      await new Promise((r) => setTimeout(r, 30));
      active--;
      return 'S';
    };
    const c = make(summarize).compactor;
    await Promise.all([c.compact(load('ledger.anthropic'), { force: true }), c.compact(load('ledger.openai'), { force: true })]);
    assert.equal(most, 2);
  });
});

describe("fallback: 'digest'", () => {
  test('a failing model summarizer is replaced by the digest: reason "compacted-with-digest"', async () => {
    const messages = load('ledger.anthropic');
    let removed;
    const { compactor, warnings } = make(async () => { throw boom; }, { fallback: 'digest', onArchive: (r) => { removed = r; } });
    const report = await compactor.compact(messages, { force: true });
    assert.equal(report.compacted, true);
    assert.equal(report.reason, 'compacted-with-digest');
    assert.equal(messages.length, 4);
    assert.ok(messages[1].content.startsWith(`${MARK}\n`));
    const expected = digest(removed, { maxTokens: 2000, language: 'en' }).trim();
    assert.equal(messages[1].content, `${MARK}\n${expected}`);
    assert.equal(warnings.length, 1);
    assert.equal(warnings[0].error, boom);
    assert.deepStrictEqual(validate(messages).problems, []);
  });

  test('the fallback also covers a timeout and an empty answer', async () => {
    for (const [summarize, extra] of [[() => new Promise(() => {}), { timeoutMs: 30 }], [async () => '  ', {}]]) {
      const messages = load('ledger.openai');
      const report = await make(summarize, { fallback: 'digest', ...extra }).compactor.compact(messages, { force: true });
      assert.equal(report.reason, 'compacted-with-digest');
      assert.match(messages[1].content, /src\/export\/csv\.js/);
    }
  });

  test('the fallback summary message is the same as with digestSummarizer() as the summarizer', async () => {
    const { digestSummarizer } = await import('../../js/hosts/node.js');
    const a = load('ledger.anthropic');
    const b = load('ledger.anthropic');
    await make(async () => { throw boom; }, { fallback: 'digest' }).compactor.compact(a, { force: true });
    await make(digestSummarizer()).compactor.compact(b, { force: true });
    assert.deepStrictEqual(a, b);
  });

  test('a digest that cannot fit maxSummaryTokens (empty) is a failure, not an empty summary', async () => {
    const messages = load('ledger.anthropic');
    const snap = snapshot(messages);
    const report = await make(async () => { throw boom; }, { fallback: 'digest', maxSummaryTokens: 3 }).compactor.compact(messages, { force: true });
    assert.equal(report.compacted, false);
    assert.equal(report.reason, 'summarizer-error');
    assert.equal(report.error, boom);
    assertUntouched(messages, snap);
  });

  test('without fallback, the same failure leaves the conversation unchanged', async () => {
    const messages = load('ledger.anthropic');
    const snap = snapshot(messages);
    const report = await make(async () => { throw boom; }).compactor.compact(messages, { force: true });
    assert.equal(report.reason, 'summarizer-error');
    assertUntouched(messages, snap);
  });
});
