// Bad input: a MidfoldError with a code (and a position where it applies), the caller's
// data untouched, and the module still working on the next call.
import test from 'node:test';
import assert from 'node:assert/strict';
import { init, estimateTokens, serialize, microCompact, validate, detectFormat, planMicroCompact, planCompaction, digest, EstimateCache,
  Compactor, digestSummarizer, simulate, MidfoldError } from '../../js/hosts/node.js';
import { loadFixture } from '../helpers/fixtures.mjs';
import { SEED_TRANSCRIPT, assertStillWorks, expectError } from '../helpers/errors.mjs';

await init();

const ALL = {
  estimateTokens: (v) => estimateTokens(v),
  serialize: (v) => serialize(v),
  microCompact: (v) => microCompact(v),
  validate: (v) => validate(v),
  detectFormat: (v) => detectFormat(v),
};

test.describe('cycles', () => {
  for (const [name, fn] of Object.entries(ALL)) {
    test(`${name}: a message that refers to itself -> "cycle"`, () => {
      const msgs = loadFixture('coding-session.anthropic');
      msgs[3].self = msgs[3];
      expectError(() => fn(msgs), 'cycle', { input: msgs });
    });
  }
  test('a list that contains itself -> "cycle"', () => {
    const msgs = [{ role: 'user', content: 'hi' }];
    msgs.push(msgs);
    expectError(() => estimateTokens(msgs), 'cycle', { input: msgs });
  });
  test('a cycle deep inside tool arguments -> "cycle"', () => {
    const msgs = loadFixture('seed-example.anthropic');
    const input = msgs[1].content[0].input;
    input.nested = { up: { to: input } };
    expectError(() => serialize(msgs), 'cycle', { input: msgs });
  });
  test('the same object twice (no cycle) is fine', () => {
    const shared = { type: 'text', text: 'abcd' };
    assert.equal(estimateTokens([{ role: 'user', content: [shared, shared] }]), 6);
  });
});

test.describe('values JSON cannot hold', () => {
  for (const [name, fn] of Object.entries(ALL)) {
    test(`${name}: a BigInt in tool arguments -> "unsupported-value"`, () => {
      const msgs = loadFixture('coding-session.ai-sdk');
      msgs[1].content[1].input.timeout = 120000n;
      expectError(() => fn(msgs), 'unsupported-value', { input: msgs });
    });
  }
  test('a bare BigInt -> "unsupported-value"', () => expectError(() => estimateTokens(10n), 'unsupported-value'));
  test('estimateTokens(undefined) -> "invalid-input"', () => expectError(() => estimateTokens(undefined), 'invalid-input'));
  test('estimateTokens(a function) -> "invalid-input"', () => expectError(() => estimateTokens(() => 1), 'invalid-input'));
});

test.describe('non-array input', () => {
  for (const fn of ['serialize', 'microCompact']) {
    for (const v of [{ messages: [] }, 'hello', 42, null, undefined, { role: 'user', content: 'hi' }]) {
      test(`${fn}(${v === undefined ? 'undefined' : JSON.stringify(v)}) -> "invalid-input"`, () => {
        expectError(() => ALL[fn](v), 'invalid-input', { input: v });
      });
    }
  }
});

test.describe('invalid options', () => {
  const cases = [
    ['estimateTokens unknown profile', () => estimateTokens('abc', { profile: 'gpt-4o' })],
    ['estimateTokens unknown format', () => estimateTokens([], { format: 'gemini' })],
    ['estimateTokens options not an object', () => estimateTokens('abc', 'fast')],
    ['serialize unknown format', () => serialize([], { format: 'claude' })],
    ['serialize format not a string', () => serialize([], { format: 1 })],
    ['microCompact keepRecent -1', () => microCompact([], { keepRecent: -1 })],
    ['microCompact keepRecent 1.5', () => microCompact([], { keepRecent: 1.5 })],
    ['microCompact keepRecent "3"', () => microCompact([], { keepRecent: '3' })],
    ['microCompact keepRecent NaN', () => microCompact([], { keepRecent: NaN })],
    ['microCompact keepRecent Infinity', () => microCompact([], { keepRecent: Infinity })],
    ['microCompact excludeTools a string', () => microCompact([], { excludeTools: 'bash' })],
    ['microCompact excludeTools with a number', () => microCompact([], { excludeTools: ['bash', 7] })],
    ['microCompact clearAtLeast -5', () => microCompact([], { clearAtLeast: -5 })],
    ['microCompact trigger "1000"', () => microCompact([], { trigger: '1000' })],
    ['microCompact unknown profile', () => microCompact([], { profile: 'tiktoken' })],
    ['microCompact unknown format', () => microCompact([], { format: 'anthropic-v2' })],
    ['validate unknown format', () => validate([], { format: 'x' })],
  ];
  for (const [name, fn] of cases) test(`${name} -> "invalid-option"`, () => expectError(fn, 'invalid-option'));

  // A misspelt option was ignored without a word, its default left in place: keepRecnt: 10
  // cleared all but the last 3 results the caller meant to keep.
  test('a misspelt option, or one the function does not take, is an error naming it and what the function knows', () => {
    const msgs = loadFixture('coding-session.anthropic');
    const misspelt = [
      ['estimateTokens', () => estimateTokens(msgs, { profle: 'safe' }), 'profle'],
      ['serialize', () => serialize(msgs, { keepRecent: 3 }), 'keepRecent'],
      ['microCompact', () => microCompact(msgs, { keepRecnt: 10 }), 'keepRecnt'],
      ['microCompact', () => microCompact(msgs, { exclude_tools: ['bash'] }), 'exclude_tools'],
      ['planMicroCompact', () => planMicroCompact(msgs, { keepTail: 2 }), 'keepTail'],
      ['planCompaction', () => planCompaction(msgs, { keepTail: { tokens: 2000 } }), 'keepTail'],
      ['digest', () => digest(msgs, { maxTokens: 500, lang: 'zh' }), 'lang'],
      ['validate', () => validate(msgs, { strict: true }), 'strict'],
      ['EstimateCache', () => new EstimateCache({ profiel: 'safe' }), 'profiel'],
      ['digestSummarizer', () => digestSummarizer({ max_tokens: 300 }), 'max_tokens'],
    ];
    for (const [fn, call, name] of misspelt) {
      const error = expectError(call, 'invalid-option', { input: msgs });
      assert.match(error.message, new RegExp(`^${fn}: unknown option "${name}"; known: `), fn);
    }
    assert.match(expectError(() => microCompact(msgs, { keepRecnt: 10 }), 'invalid-option').message,
      /known: keepRecent, excludeTools, clearAtLeast, trigger, profile, format, thinking, clearToolInputs, dropToolCalls, reasoning, recallKey$/);
  });

  test('one shared {profile, format} object is taken by every function, those that do not count included', () => {
    const msgs = loadFixture('coding-session.anthropic');
    const shared = { profile: 'safe', format: 'anthropic' };
    assert.equal(serialize(msgs, shared), serialize(msgs));
    assert.deepEqual(validate(msgs, shared), validate(msgs));
    assert.ok(estimateTokens(msgs, shared) > 0);
    assert.ok(planMicroCompact(msgs, shared).milliBefore > 0);
    assert.ok(digest(msgs, shared).length > 0);
    assert.ok(planCompaction(msgs, shared).middle.length > 0);
    assert.equal(new EstimateCache(shared).tokens(msgs), estimateTokens(msgs, shared));
  });

  test('the async entry points refuse unknown options too, before reading the conversation', async () => {
    const msgs = loadFixture('coding-session.anthropic');
    const before = structuredClone(msgs);
    const compactor = new Compactor({ summarize: digestSummarizer() });
    await assert.rejects(compactor.compact(msgs, { forced: true }), (e) => e.code === 'invalid-option' && /compact: unknown option "forced"/.test(e.message));
    await assert.rejects(simulate(msgs, { pricng: 'openai' }), (e) => e.code === 'invalid-option' && /simulate: unknown option "pricng"/.test(e.message));
    assert.deepStrictEqual(msgs, before);
    assert.equal((await compactor.compact(msgs, { force: false })).compacted, false, 'the known ones still work');
  });

  test('an EstimateCache with an unknown profile fails when it is made, not at its first call', () => {
    expectError(() => new EstimateCache({ profile: 'gpt-5' }), 'invalid-option');
    expectError(() => new EstimateCache({ format: 'gemini' }), 'invalid-option');
  });

  test('a bad option leaves the messages untouched (microCompact checks options before editing)', () => {
    const msgs = loadFixture('coding-session.anthropic');
    expectError(() => microCompact(msgs, { keepRecent: -3 }), 'invalid-option', { input: msgs });
    expectError(() => microCompact(msgs, { profile: 'nope' }), 'invalid-option', { input: msgs });
  });
});

test.describe('getters and toJSON that throw', () => {
  const throwing = () => { throw new Error('boom'); };
  test('estimateTokens: a getter that throws -> "invalid-input"', () => {
    const msg = { role: 'user' };
    Object.defineProperty(msg, 'content', { get: throwing, enumerable: true });
    expectError(() => estimateTokens([msg]), 'invalid-input');
  });
  test('serialize: a getter that throws inside tool arguments -> "invalid-input", the rest untouched', () => {
    const msgs = loadFixture('seed-example.anthropic');
    const snapshot = structuredClone(msgs);
    Object.defineProperty(msgs[1].content[0].input, 'secret', { get: throwing, enumerable: true });
    expectError(() => serialize(msgs), 'invalid-input');
    assert.deepEqual(msgs[0], snapshot[0]);
    assert.deepEqual(msgs[2], snapshot[2]);
    assert.equal(msgs[1].content[0].input.file_path, 'config.toml');
  });
  test('microCompact: a getter that throws -> "invalid-input" and no result is cleared', () => {
    const msgs = loadFixture('coding-session.anthropic');
    const snapshot = structuredClone(msgs);
    Object.defineProperty(msgs[21], 'meta', { get: throwing, enumerable: true });
    expectError(() => microCompact(msgs), 'invalid-input');
    for (let i = 0; i < 21; i++) assert.deepEqual(msgs[i], snapshot[i]);
  });
  test('a toJSON that throws -> "invalid-input"', () => {
    expectError(() => estimateTokens({ when: { toJSON: throwing } }), 'invalid-input');
  });
  test('a Proxy whose keys cannot be listed -> "invalid-input"', () => {
    const content = new Proxy({}, { ownKeys: throwing });
    expectError(() => serialize([{ role: 'user', content }]), 'invalid-input');
  });
  test('the thrown error is kept as the cause', () => {
    const msg = { role: 'user' };
    Object.defineProperty(msg, 'content', { get() { throw new RangeError('inner'); }, enumerable: true });
    const e = expectError(() => serialize([msg]), 'invalid-input');
    assert.ok(e.cause instanceof RangeError);
  });
});

test.describe('absurd nesting', () => {
  const nest = (depth) => { const root = {}; let at = root; for (let i = 0; i < depth; i++) { at.x = {}; at = at.x; } return root; };
  test('a value nested 600 deep -> "too-deep"', () => expectError(() => estimateTokens(nest(600)), 'too-deep'));
  test('tool arguments nested 600 deep -> "too-deep" in serialize, the messages untouched', () => {
    const msgs = loadFixture('seed-example.anthropic');
    msgs[1].content[0].input.deep = nest(600);
    expectError(() => serialize(msgs), 'too-deep', { input: msgs });
  });
  test('arrays nested 600 deep -> "too-deep" in microCompact', () => {
    let deep = []; for (let i = 0; i < 600; i++) deep = [deep];
    const msgs = loadFixture('coding-session.anthropic');
    msgs[1].content[1].input.deep = deep;
    expectError(() => microCompact(msgs), 'too-deep', { input: msgs });
  });
  test('nesting 100 deep is fine', () => {
    assert.equal(estimateTokens(nest(100)), 25); // 100 keys "x" at 0.25
  });
});

test.describe('not a conversation', () => {
  test('serialize: a non-message entry -> "invalid-shape" with position = its index', () => {
    const msgs = loadFixture('coding-session.anthropic');
    msgs.splice(5, 0, 'stray text');
    expectError(() => serialize(msgs), 'invalid-shape', { input: msgs, position: 5 });
  });
  test('microCompact: a message without a role -> "invalid-shape" with position = its index', () => {
    const msgs = loadFixture('coding-session.openai');
    delete msgs[7].role;
    expectError(() => microCompact(msgs), 'invalid-shape', { input: msgs, position: 7 });
  });
  test('serialize: null as the first entry -> "invalid-shape" at 0', () => {
    expectError(() => serialize([null, { role: 'user', content: 'hi' }]), 'invalid-shape', { position: 0 });
  });
  test('serialize: a role that is not a string -> "invalid-shape" at its index', () => {
    const msgs = [{ role: 'user', content: 'a' }, { role: 'assistant', content: 'b' }, { role: 3, content: 'c' }];
    expectError(() => serialize(msgs), 'invalid-shape', { input: msgs, position: 2 });
  });
  test('serialize: mixed formats -> "unknown-format"; naming the format works', () => {
    const mixed = [...loadFixture('seed-example.anthropic'), ...loadFixture('coding-session.openai').slice(1, 3)];
    expectError(() => serialize(mixed), 'unknown-format', { input: mixed });
    assert.ok(serialize(mixed, { format: 'openai' }).startsWith('[user]\nPlease read the config file'));
  });
  test('microCompact: mixed formats -> "unknown-format" and nothing changed', () => {
    const mixed = [...loadFixture('coding-session.anthropic').slice(0, 5), ...loadFixture('coding-session.openai').slice(1, 5)];
    expectError(() => microCompact(mixed), 'unknown-format', { input: mixed });
  });
});

test.describe('odd but valid input', () => {
  test('a lone surrogate in text is written as U+FFFD in the transcript', () => {
    assert.equal(serialize([{ role: 'user', content: 'a\ud800b' }]), '[user]\na\ufffdb');
  });
  test('a 10 MB message serializes whole', () => {
    const big = 'x'.repeat(10_000_000);
    const t = serialize([{ role: 'user', content: big }]);
    assert.equal(t.length, '[user]\n'.length + 10_000_000);
  });
  test('after a call that grows wasm memory (a 10 MB transcript), small calls still give correct answers', () => {
    serialize([{ role: 'user', content: 'y'.repeat(12_000_000) }]);
    assert.equal(estimateTokens([{ role: 'user', content: 'hi' }]), 5);
    assert.equal(estimateTokens('abcd'), 1);
    assert.equal(serialize(loadFixture('seed-example.anthropic')), SEED_TRANSCRIPT);
    microCompact(Array.from({ length: 20 }, (_, i) => ({ role: 'user', content: 'z'.repeat(600_000 + i) })));
    assertStillWorks();
  });
  test('a 10 MB tool result is cleared with its exact size', () => {
    const msgs = [
      { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'cat', input: { path: 'huge.log' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'log line ✓\n'.repeat(1_000_000) }] },
      { role: 'assistant', content: 'Every line of huge.log is the same passing check.' }, // answered: not the pending turn
    ];
    const r = microCompact(msgs, { keepRecent: 0 });
    assert.equal(msgs[1].content[0].content, '[truncated: cat result, 11000000 chars]');
    assert.equal(r.charsCleared, 11_000_000);
  });
  test('sparse array holes count as null like JSON.stringify', () => {
    // eslint-disable-next-line no-sparse-arrays
    assert.equal(estimateTokens([, 'abcd']), estimateTokens([null, 'abcd']));
  });
  test('a Date inside tool arguments is read through toJSON in microCompact and serialize', () => {
    const msgs = [
      { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'schedule', input: { at: new Date(Date.UTC(2024, 0, 2)) } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'scheduled job 7731 for 2024-01-02T00:00:00Z on worker pool "batch-eu"' }] },
      { role: 'assistant', content: 'Job 7731 runs on 2 January.' }, // answered: not the pending turn
    ];
    assert.ok(serialize(msgs).includes('[tool_use:schedule] {"at": "2024-01-02T00:00:00.000Z"}'));
    assert.equal(microCompact(msgs, { keepRecent: 0 }).cleared, 1);
    assert.ok(msgs[0].content[0].input.at instanceof Date, 'the Date object itself is untouched');
  });
  test('a message object with extra functions and undefined fields works like its JSON', () => {
    const msgs = loadFixture('seed-example.anthropic');
    const plain = serialize(msgs);
    msgs[0].render = () => 'x';
    msgs[0].meta = undefined;
    assert.equal(serialize(msgs), plain);
    assert.equal(estimateTokens(msgs), estimateTokens(loadFixture('seed-example.anthropic')));
  });
});

test('after a run of different errors in a row the module gives correct answers', () => {
  const cyc = [{ role: 'user', content: 'x' }]; cyc[0].me = cyc;
  for (const fn of [() => estimateTokens(cyc), () => serialize(null), () => microCompact([], { keepRecent: -1 }), () => estimateTokens(1n), () => serialize(['x'])]) {
    assert.throws(fn, MidfoldError);
  }
  assertStillWorks();
});
