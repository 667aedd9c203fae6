// EstimateCache: per-message estimates kept between calls. Facts: it always agrees with estimateTokens on the
// same array, it reads only what is new or changed, and no mutation (strings, blocks, arrays, order, keys)
// is ever priced from a stale figure.
import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { runInNewContext } from 'node:vm';
import { init, estimateTokens, EstimateCache, MidfoldError, Compactor, digestSummarizer } from '../../js/hosts/node.js';
import { estimateEach, planMicroCompact, planMicroCompactWithFigures } from '../../js/core/api.js';
import { record } from '../../js/core/snapshot.js';
import { prng as seeded } from '../helpers/prng.mjs';

const FIXTURES = new URL('../fixtures/', import.meta.url);
const load = (name) => JSON.parse(readFileSync(new URL(name, FIXTURES), 'utf8'));
const fixtureNames = [
  ...readdirSync(FIXTURES).filter((f) => f.endsWith('.json')),
  ...readdirSync(new URL('compactor/', FIXTURES)).filter((f) => f.endsWith('.json')).map((f) => `compactor/${f}`),
];

before(() => init());

describe('agrees with estimateTokens', () => {
  for (const name of fixtureNames) {
    test(`${name}: every profile, first call and a repeated call that reads nothing`, () => {
      const raw = load(name);
      const messages = Array.isArray(raw) ? raw : raw.messages;
      if (!Array.isArray(messages)) return;
      for (const profile of ['bareagent', 'o200k', 'safe']) {
        const cache = new EstimateCache({ profile });
        assert.equal(cache.tokens(messages), estimateTokens(messages, { profile }));
        assert.equal(cache.lastEstimated, messages.length);
        assert.equal(cache.tokens(messages), estimateTokens(messages, { profile }));
        assert.equal(cache.lastEstimated, 0);
      }
    });
  }
});

/** A long agent session in the Anthropic shape: one tool call a turn, Chinese and English, growing. */
function turn(i) {
  const zh = i % 3 === 0;
  return [
    { role: 'assistant', content: [{ type: 'text', text: zh ? `第${i}步：读取配置文件并检查数据库连接。` : `Step ${i}: reading the handler.` },
      { type: 'tool_use', id: `toolu_${i}`, name: i % 2 ? 'read_file' : 'bash', input: i % 2 ? { path: `src/handlers/h${i}.ts` } : { command: `npm test -- -t case${i}` } }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${i}`,
      content: zh ? `错误：连接超时（第${i}次重试）\n`.repeat(20) : `export function h${i}(req, res) {\n  return res.json({ ok: ${i} });\n}\n`.repeat(15) }] },
  ];
}

test('a session of 300 turns grown a turn at a time: each call reads only the new turn and agrees with estimateTokens', () => {
  const messages = [{ role: 'user', content: '请修复登录接口的超时问题，并跑通全部测试。' }];
  const cache = new EstimateCache({ profile: 'safe' });
  cache.tokens(messages);
  for (let i = 0; i < 300; i++) {
    messages.push(...turn(i));
    const cached = cache.tokens(messages);
    assert.equal(cache.lastEstimated, 2);
    if (i % 50 === 0 || i === 299) assert.equal(cached, estimateTokens(messages, { profile: 'safe' }));
  }
});


test('a seeded random walk of growth and edits: the Compactor\'s check and a cache always price what estimateTokens prices', async () => {
  const random = seeded(20261201);
  const pick = (n) => Math.floor(random() * n);
  const messages = [{ role: 'user', content: '请修复登录接口的超时问题，并跑通全部测试。' }];
  let next = 0;
  for (; next < 20; next++) messages.push(...turn(next));
  const compactor = new Compactor({ summarize: digestSummarizer(), threshold: 10_000_000, microTrigger: 9_000_000 });
  const cache = new EstimateCache({ profile: 'safe' });
  const turnAt = () => 1 + 2 * pick((messages.length - 1) >> 1); // the assistant message of a whole turn
  const ops = [
    [40, 'append a turn', () => messages.push(...turn(next++))],
    [8, 'rewrite a tool result', () => { const i = turnAt() + 1; messages[i].content[0].content = `第${next}次：已修复。\n`.repeat(1 + pick(5)); }],
    [5, 'add a text block', () => messages[turnAt()].content.unshift({ type: 'text', text: `Thinking again about step ${pick(99)}.` })],
    [5, 'swap two turns', () => { const a = turnAt(), b = turnAt(); [messages[a], messages[a + 1], messages[b], messages[b + 1]] = [messages[b], messages[b + 1], messages[a], messages[a + 1]]; }],
    [5, 'remove a turn', () => { if (messages.length > 5) messages.splice(turnAt(), 2); }],
    [5, 'replace a message by an equal copy', () => { const i = pick(messages.length); messages[i] = structuredClone(messages[i]); }],
    [5, 'the same text as a new string', () => { const i = turnAt(); const b = messages[i].content[0]; if (b.type === 'text') b.text = [b.text.slice(0, 3), b.text.slice(3)].join(''); }],
    [3, 'rebuild every object (a framework prompt)', () => { const copy = structuredClone(messages); messages.length = 0; messages.push(...copy); }],
    [3, 'truncate and regrow', () => { messages.length = Math.max(1, 1 + 2 * pick((messages.length - 1) >> 1)); messages.push(...turn(next++)); }],
    [3, 'rename a key', () => { const b = messages[turnAt()].content.at(-1); if (b.type === 'tool_use') { b.arguments = b.input; delete b.input; } }],
  ];
  const total = ops.reduce((n, [w]) => n + w, 0);
  for (let step = 0; step < 300; step++) {
    let r = pick(total), op = ops[0];
    for (const o of ops) { if (r < o[0]) { op = o; break; } r -= o[0]; }
    op[2]();
    const expected = estimateTokens(messages, { profile: 'safe' });
    assert.equal(cache.tokens(messages), expected, `step ${step}: ${op[1]} (cache)`);
    const report = await compactor.compact(messages);
    assert.equal(report.tokensBefore, expected, `step ${step}: ${op[1]} (Compactor)`);
  }
});

/** Every kind of edit a caller can make to a conversation between two calls. */
const mutations = {
  'a tool result string replaced': (m) => { m[2].content[0].content = 'short'; },
  'a text block appended': (m) => { m[1].content.push({ type: 'text', text: 'one more thought about the handler' }); },
  'a block removed': (m) => { m[1].content.shift(); },
  'two blocks swapped': (m) => { m[1].content.reverse(); },
  'a tool argument changed': (m) => { m[1].content[1].input.path = 'src/a/much/longer/path/to/another/file.ts'; },
  'a key renamed': (m) => { const b = m[1].content[0]; b.note = b.text; delete b.text; },
  'a message replaced by an equal copy': (m) => { m[3] = structuredClone(m[3]); },
  'two messages swapped': (m) => { [m[1], m[3]] = [m[3], m[1]]; },
  'a message removed': (m) => { m.splice(3, 2); },
  'a string made longer in Chinese': (m) => { m[0].content += '另外，请把日志级别调成 debug。'.repeat(10); },
  'the array truncated and regrown': (m) => { m.length = 3; m.push(...turn(99)); },
  'a nested array emptied': (m) => { m[2].content = []; },
};

describe('no mutation is priced from a stale figure', () => {
  for (const [what, mutate] of Object.entries(mutations)) {
    test(what, () => {
      const messages = [{ role: 'user', content: '请修复登录接口。' }, ...turn(1), ...turn(2), ...turn(3)];
      const cache = new EstimateCache({ profile: 'o200k' });
      cache.tokens(messages);
      mutate(messages);
      assert.equal(cache.tokens(messages), estimateTokens(messages, { profile: 'o200k' }));
    });
  }

  test('a message whose string is set back to the same text is still read as unchanged', () => {
    const messages = [{ role: 'user', content: 'hello' }, ...turn(1)];
    const cache = new EstimateCache();
    cache.tokens(messages);
    messages[0].content = ['hel', 'lo'].join('');
    assert.equal(cache.tokens(messages), estimateTokens(messages));
    assert.equal(cache.lastEstimated, 0);
  });
});

test('new messages whose own shape tells no format are read in the conversation\'s format', () => {
  const messages = load('coding-session.ai-sdk.json');
  const cache = new EstimateCache({ profile: 'safe' });
  cache.tokens(messages);
  messages.push({ role: 'user', content: 'and the other file?' }, { role: 'assistant', content: 'Reading it now.' });
  assert.equal(cache.tokens(messages), estimateTokens(messages, { profile: 'safe' }));
});

test('estimateTokens({ cache }) prices from the cache; a cache of another profile is refused', () => {
  const messages = load('coding-session.anthropic.json');
  const cache = new EstimateCache({ profile: 'safe' });
  assert.equal(estimateTokens(messages, { cache }), estimateTokens(messages, { profile: 'safe' }));
  assert.equal(estimateTokens(messages, { cache }), estimateTokens(messages, { profile: 'safe' }));
  assert.equal(cache.lastEstimated, 0);
  assert.throws(() => estimateTokens(messages, { cache, profile: 'o200k' }), (e) => e instanceof MidfoldError && e.code === 'invalid-option');
  assert.throws(() => estimateTokens(messages, { cache: {} }), (e) => e.code === 'invalid-option');
});

test('bad input still gets the estimator\'s errors', () => {
  const cache = new EstimateCache();
  const cyclic = { role: 'user', content: [] };
  cyclic.content.push(cyclic);
  assert.throws(() => cache.tokens([cyclic]), (e) => e instanceof MidfoldError);
  assert.throws(() => cache.tokens([{ role: 'user', content: 1n }]), (e) => e instanceof MidfoldError);
});

test('a list that is no conversation (an item without a role, a hole) gets estimateTokens\' figure through the cache too', async () => {
  const messages = load('coding-session.anthropic.json');
  const cache = new EstimateCache();
  cache.tokens(messages);
  for (const list of [[...messages, { content: 'a note without a role' }], [...messages, 42], [messages[0], , messages[1]]]) {
    assert.equal(cache.tokens(list), estimateTokens(list));
    assert.equal(estimateTokens(list, { cache }), estimateTokens(list));
  }
  // A Compactor cannot fold what is no conversation: it says which item is not a message.
  const compactor = new Compactor({ summarize: digestSummarizer() });
  await compactor.compact(messages);
  await assert.rejects(compactor.compact([...messages, { content: 'x' }]),
    (e) => e instanceof MidfoldError && e.code === 'invalid-shape' && e.message.startsWith(`message ${messages.length} is not an object`));
});

test('a host that rebuilds its message objects every call (the AI SDK\'s provider-level prompt) keeps their strings: only new messages are estimated', () => {
  const messages = load('coding-session.anthropic.json');
  const rebuilt = (list) => list.map((m) => ({ ...m, content: Array.isArray(m.content) ? m.content.map((b) => ({ ...b })) : m.content }));
  const cache = new EstimateCache();
  cache.tokens(rebuilt(messages));
  const grown = [...messages, { role: 'assistant', content: [{ type: 'text', text: 'The parser now accepts ISO week dates.' }] }];
  assert.equal(cache.tokens(rebuilt(grown)), estimateTokens(grown));
  assert.ok(cache.lastEstimated <= 2, `estimated ${cache.lastEstimated} of ${grown.length}`);
  // A rebuilt message whose text changed is read again, never priced from the entry of the one it resembles.
  const edited = rebuilt(grown);
  const at = edited.findIndex((m) => Array.isArray(m.content) && m.content.some((b) => b.type === 'tool_result' && typeof b.content === 'string'));
  const block = edited[at].content.find((b) => b.type === 'tool_result' && typeof b.content === 'string');
  block.content = `${block.content}\nand one more line`;
  assert.equal(cache.tokens(edited), estimateTokens(edited));
  assert.ok(cache.lastEstimated >= 1);
});

test('a cached message whose getter starts to throw gets the estimator\'s error, naming its path', () => {
  let open = true;
  const message = { role: 'user', get content() { if (!open) throw new Error('the store is closed'); return 'Summarize the failing tests.'; } };
  const cache = new EstimateCache();
  cache.tokens([message]);
  open = false;
  assert.throws(() => cache.tokens([message]), (e) => e instanceof MidfoldError && e.code === 'invalid-input' && e.path === 'input[0]');
});

test('an error in a message new to the cache names its position in the conversation, not among the new ones', async () => {
  const messages = load('coding-session.anthropic.json');
  const cache = new EstimateCache();
  cache.tokens(messages);
  const at = messages.length;
  const expected = (path) => (e) => e instanceof MidfoldError && e.path === path && e.message.endsWith(`at ${path}`);
  const unreadable = { role: 'user', get content() { throw new Error('the store is closed'); } };
  assert.throws(() => cache.tokens([...messages, unreadable]), expected(`input[${at}]`));
  assert.throws(() => cache.tokens([...messages, { role: 'user', content: 2n }]), expected(`input[${at}].content`));
  // The Compactor's check reads new messages through the same cache.
  const compactor = new Compactor({ summarize: digestSummarizer() });
  await compactor.compact(messages);
  await assert.rejects(compactor.compact([...messages, unreadable]), expected(`input[${at}]`));
});

describe('the list of the last call is a fast path, never a source of stale figures', () => {
  test('a call that failed part-way leaves no stale slot behind', () => {
    const messages = [{ role: 'user', content: '请修复登录接口。' }, ...turn(1), ...turn(2)];
    const cache = new EstimateCache({ profile: 'safe' });
    cache.tokens(messages);
    const broken = [messages[0], { role: 'user', content: [{ type: 'text', text: 10n }] }, ...messages.slice(1)];
    assert.throws(() => cache.tokens(broken), (e) => e instanceof MidfoldError);
    const shifted = [messages[0], { role: 'user', content: 'one more request, in between' }, ...messages.slice(1)];
    assert.equal(cache.tokens(shifted), estimateTokens(shifted, { profile: 'safe' }));
    assert.equal(cache.lastEstimated, 1);
    assert.equal(cache.tokens(messages), estimateTokens(messages, { profile: 'safe' }));
    assert.equal(cache.lastEstimated, 0);
  });

  test('two conversations priced in turn by one cache each keep their figures', () => {
    const a = [{ role: 'user', content: 'first conversation' }, ...turn(1), ...turn(2)];
    const b = [{ role: 'user', content: '第二个对话' }, ...turn(3)];
    const cache = new EstimateCache();
    for (let i = 0; i < 3; i++) {
      assert.equal(cache.tokens(a), estimateTokens(a));
      assert.equal(cache.tokens(b), estimateTokens(b));
    }
    assert.equal(cache.lastEstimated, 0);
  });

  test('binary data and objects with toJSON: a replaced buffer or date is read again', () => {
    const image = (n) => ({ role: 'user', content: [{ type: 'image', image: new Uint8Array(n), mediaType: 'image/png' }] });
    const messages = [{ role: 'user', content: 'what is in this screenshot?' }, image(120_000),
      { role: 'assistant', content: [{ type: 'text', text: 'A terminal with a failing test.' }] },
      { role: 'user', content: [{ type: 'text', text: 'when?' }], providerOptions: { at: new Date('2026-11-30T10:00:00Z') } }];
    const cache = new EstimateCache({ profile: 'claude', format: 'ai-sdk' });
    const priced = () => assert.equal(cache.tokens(messages), estimateTokens(messages, { profile: 'claude', format: 'ai-sdk' }));
    priced();
    messages[1].content[0].image = new Uint8Array(1_200_000);
    priced();
    assert.equal(cache.lastEstimated, 1);
    messages[3].providerOptions.at = new Date('2026-12-01T09:30:00.125Z');
    priced();
    assert.equal(cache.lastEstimated, 1);
    priced();
    assert.equal(cache.lastEstimated, 0);
  });

  test("another realm's buffers (a worker's, a vm context's) are binary data too: a replaced one is read again", async () => {
    const vm = await import('node:vm');
    const foreign = (n) => vm.runInNewContext(`new ArrayBuffer(${n})`);
    const messages = [{ role: 'user', content: [{ type: 'file', data: foreign(40_000), mediaType: 'application/pdf' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'It is a two-page contract.' }] }];
    const cache = new EstimateCache({ format: 'ai-sdk' });
    const priced = () => assert.equal(cache.tokens(messages), estimateTokens(messages, { format: 'ai-sdk' }));
    priced();
    messages[0].content[0].data = foreign(4_000_000);
    priced();
    assert.equal(cache.lastEstimated, 1);
    priced();
    assert.equal(cache.lastEstimated, 0);
  });

  test('clear() forgets everything', () => {
    const messages = [{ role: 'user', content: 'hello' }, ...turn(1)];
    const cache = new EstimateCache();
    cache.tokens(messages);
    cache.clear();
    assert.equal(cache.tokens(messages), estimateTokens(messages));
    assert.equal(cache.lastEstimated, messages.length);
  });
});

describe('a micro-compaction plan fills the cache from its own pass', () => {
  for (const name of fixtureNames) {
    test(`${name}: the plan's per-message figures are estimateEach's`, () => {
      const raw = load(name);
      const messages = Array.isArray(raw) ? raw : raw.messages;
      if (!Array.isArray(messages) || messages.length === 0) return;
      for (const profile of ['bareagent', 'claude', 'safe']) {
        let each;
        try { each = estimateEach(messages, { profile }, messages); } catch { continue; } // a fixture of invalid input
        assert.deepEqual(planMicroCompactWithFigures(messages, { profile }).figures, each);
        assert.equal(planMicroCompact(messages, { profile }).figures, undefined);
      }
    });
  }

  test('the snapshots recorded as the plan encodes the history are what record() writes, whatever the values', () => {
    class Attachment { constructor() { this.kind = 'log'; this.bytes = 120; } }
    const odd = [
      { role: 'user', content: [{ type: 'text', text: '请看截图。' }, { type: 'image', image: new Uint8Array(3000), mediaType: 'image/png' }] },
      { role: 'user', content: [{ type: 'file', data: new ArrayBuffer(64), mediaType: 'application/pdf' }],
        providerOptions: { at: new Date('2026-12-01T08:00:00Z'), note: new String('boxed'), n: new Number(3) } },
      { role: 'assistant', content: [{ type: 'text', text: 'ok', extra: undefined, fn() {} }], providerOptions: { a: new Attachment() } },
      { role: 'assistant', content: [{ type: 'text', text: 'holes' }], providerOptions: { list: [1, , 3], bare: Object.assign(Object.create(null), { k: 'v' }) } },
      { role: 'user', content: 'own toJSON', providerOptions: { t: { toJSON() { return { shown: 'as JSON' }; }, hidden: 'x' } } },
      { role: 'user', content: 'an array with its own toJSON, and one of another realm',
        providerOptions: { arr: Object.assign(['a', 'b'], { toJSON() { return 'joined'; } }), realm: runInNewContext('[{ a: "x" }, [1, null]]') } },
    ];
    const lists = [odd, ...fixtureNames.map((name) => { const raw = load(name); return Array.isArray(raw) ? raw : raw.messages; })];
    const check = (messages) => {
      const recorder = { store: [], ranges: [], record };
      try { planMicroCompactWithFigures(messages, { profile: 'safe' }, recorder); } catch { return false; } // a fixture of invalid input
      assert.equal(recorder.ranges.length, 2 * messages.length);
      messages.forEach((m, i) => {
        const [from, to] = recorder.ranges.slice(2 * i, 2 * i + 2);
        if (m === null || typeof m !== 'object') return assert.deepEqual([from, to], [-1, -1]);
        const expected = [];
        record(m, expected, 0);
        assert.deepStrictEqual(recorder.store.slice(from, to), expected, `message ${i}`);
      });
      return true;
    };
    assert.equal(check(odd), true, 'the odd values are a conversation the plan reads');
    // The cache's own reads record as they encode too (estimateEach), here over every odd value.
    const cache = new EstimateCache({ profile: 'safe' });
    assert.equal(cache.tokens(odd), estimateTokens(odd, { profile: 'safe' }));
    odd.forEach((m, i) => {
      const entry = cache.previous[i];
      const expected = [];
      record(m, expected, 0);
      assert.deepStrictEqual(cache.store.slice(entry.from, entry.to), expected, `cache entry ${i}`);
    });
    assert.equal(cache.tokens(odd), estimateTokens(odd, { profile: 'safe' }));
    assert.equal(cache.lastEstimated, 0, 'every recorded snapshot matches its message on the next call');
    for (const messages of lists) if (Array.isArray(messages) && messages.length) check(messages);
    // An enumerable key inherited by every object: the snapshot has it (for-in does), JSON does not.
    Object.defineProperty(Object.prototype, 'inheritedByAll', { value: { deep: 1 }, enumerable: true, configurable: true });
    try { assert.equal(check(odd), true); } finally { delete Object.prototype.inheritedByAll; }
  });

  test('after a first call that recorded as it encoded, every kind of edit is read again', async () => {
    for (const [what, mutate] of Object.entries(mutations)) {
      const messages = [{ role: 'user', content: '请修复登录接口。' }, ...turn(1), ...turn(2), ...turn(3)];
      const compactor = new Compactor({ summarize: digestSummarizer(), threshold: 10_000_000, microTrigger: 9_000_000 });
      await compactor.compact(messages);
      assert.equal(compactor.estimates.lastEstimated, 0, 'the first call priced from the plan');
      mutate(messages);
      const report = await compactor.compact(messages);
      assert.equal(report.tokensBefore, estimateTokens(messages, { profile: 'safe' }), what);
    }
  });

  test('a history that only grows is never filed by leaf: a later call looks up nothing it can find at its index', async () => {
    const messages = [{ role: 'user', content: '请修复登录接口的超时问题。' }];
    for (let i = 0; i < 200; i++) messages.push(...turn(i));
    const compactor = new Compactor({ summarize: digestSummarizer(), threshold: 10_000_000, microTrigger: 9_000_000 });
    await compactor.compact(messages);
    for (let i = 200; i < 205; i++) {
      messages.push(...turn(i));
      const report = await compactor.compact(messages);
      assert.equal(compactor.estimates.lastEstimated, 2);
      assert.equal(report.tokensBefore, estimateTokens(messages, { profile: 'safe' }));
    }
    assert.equal(compactor.estimates.byLeaf.size, 0, 'filing 400 leaves would read and hash a string of each message');
    // The same history rebuilt as new objects (the AI SDK's provider-level prompt): found by leaf.
    const rebuilt = structuredClone(messages);
    rebuilt.push(...turn(205));
    const report = await compactor.compact(rebuilt);
    assert.equal(compactor.estimates.lastEstimated, 2);
    assert.equal(report.tokensBefore, estimateTokens(rebuilt, { profile: 'safe' }));
  });

  test('a Compactor reads a 300-turn history once on its first call, then only what is new', async () => {
    const messages = [{ role: 'user', content: '请修复登录接口的超时问题，并跑通全部测试。' }];
    for (let i = 0; i < 300; i++) messages.push(...turn(i));
    const compactor = new Compactor({ summarize: digestSummarizer(), threshold: 10_000_000, microTrigger: 9_000_000 });
    const first = await compactor.compact(messages);
    assert.equal(first.reason, 'below-threshold');
    assert.equal(first.tokensBefore, estimateTokens(messages, { profile: 'safe' }));
    assert.equal(compactor.estimates.lastEstimated, 0, 'the plan priced the history, not the cache');
    messages.push(...turn(300));
    const second = await compactor.compact(messages);
    assert.equal(compactor.estimates.lastEstimated, 2);
    assert.equal(second.tokensBefore, estimateTokens(messages, { profile: 'safe' }));
  });
});

test('a session whose old results are rewritten every turn keeps its snapshots bounded and its figures right', () => {
  const messages = [{ role: 'user', content: '请修复登录接口的超时问题，并跑通全部测试。' }];
  const cache = new EstimateCache({ profile: 'safe' });
  let peak = 0;
  for (let i = 0; i < 400; i++) {
    messages.push(...turn(i));
    // as micro-compaction does: an old result becomes its marker, so its message is read again
    if (i >= 3) messages[messages.length - 7].content[0].content = `[truncated: bash result, ${1000 + i} chars]`;
    if (i % 40 === 7) messages.splice(1, 2); // and a fold drops the oldest turn now and then
    // and every 25 turns every result is rewritten (a re-run of the whole clearing)
    if (i % 25 === 24) for (const m of messages) if (Array.isArray(m.content) && m.content[0].type === 'tool_result') m.content[0].content += ' ';
    const cached = cache.tokens(messages);
    assert.ok(cache.lastEstimated <= 3 || i % 25 === 24);
    if (i % 25 === 0 || i === 399) assert.equal(cached, estimateTokens(messages, { profile: 'safe' }));
    peak = Math.max(peak, cache.store.length);
  }
  let live = 0;
  for (const e of cache.previous) live += e.to - e.from;
  assert.ok(cache.generation > 0, 'the store was rebuilt at least once');
  assert.ok(peak <= 4 * Math.max(1 << 16, live) + 20_000, `store peaked at ${peak} slots for ${live} live ones`);
});

describe('values derived per message (the session state\'s canonical bytes) and shared entries', () => {
  test('derivedEach computes a value once per message and again once the message changes', () => {
    const messages = [{ role: 'user', content: '请修复登录接口。' }, ...turn(1), ...turn(2)];
    const cache = new EstimateCache();
    let computed = 0;
    const size = (m) => { computed++; return JSON.stringify(m).length; };
    const first = cache.derivedEach(messages, size);
    assert.equal(computed, messages.length);
    assert.deepEqual(cache.derivedEach(messages, size), first);
    assert.equal(computed, messages.length);
    messages[2].content[0].content += ' and one more line';
    messages.push(...turn(3));
    const third = cache.derivedEach(messages, size);
    assert.equal(computed, messages.length + 1, 'the edited message and the two new ones');
    assert.deepEqual(third, messages.map((m) => JSON.stringify(m).length));
    assert.equal(cache.tokens(messages), estimateTokens(messages), 'derived entries are priced when asked');
  });

  test('a copy that shares its original\'s entry is priced from it while it holds the same values, and read when edited', () => {
    const originals = [{ role: 'user', content: '请修复登录接口。' }, ...turn(1), ...turn(2)];
    const cache = new EstimateCache({ profile: 'safe' });
    cache.tokens(originals);
    const copies = originals.map((m) => ({ ...m, content: Array.isArray(m.content) ? m.content.map((b) => ({ ...b })) : m.content }));
    copies.forEach((c, i) => cache.share(c, originals[i]));
    assert.equal(cache.tokens(copies), estimateTokens(originals, { profile: 'safe' }));
    assert.equal(cache.lastEstimated, 0);
    copies[2].content[0].content = '[truncated: bash result, 1200 chars]';
    assert.equal(cache.tokens(copies), estimateTokens(copies, { profile: 'safe' }));
    assert.equal(cache.lastEstimated, 1);
    assert.equal(cache.tokens(originals), estimateTokens(originals, { profile: 'safe' }), 'the original keeps its own figures');
  });
});

describe('deep-frozen messages (a store kept with Immer) are compared by identity once they have matched', () => {
  test('a seeded walk of Immer updates (growth, edits, removals): always what estimateTokens prices, only changed messages read', async () => {
    const { produce } = await import('immer');
    const random = seeded(20261203);
    const pick = (n) => Math.floor(random() * n);
    let state = produce({ messages: [] }, (d) => { d.messages.push({ role: 'user', content: '请修复登录接口的超时问题，并跑通全部测试。' }); for (let i = 0; i < 20; i++) d.messages.push(...turn(i)); });
    const cache = new EstimateCache({ profile: 'safe' });
    const compactor = new Compactor({ summarize: digestSummarizer(), threshold: 10_000_000, microTrigger: 9_000_000 });
    let next = 20;
    const turnAt = (n) => 1 + 2 * pick((n - 1) >> 1);
    const ops = [
      [40, 'append a turn', (d) => { d.messages.push(...turn(next++)); }],
      [10, 'rewrite a tool result', (d) => { d.messages[turnAt(d.messages.length) + 1].content[0].content = `第${next}次：已修复。\n`.repeat(1 + pick(5)); }],
      [5, 'add a text block', (d) => { d.messages[turnAt(d.messages.length)].content.unshift({ type: 'text', text: `Thinking again about step ${pick(99)}.` }); }],
      [5, 'remove a turn', (d) => { if (d.messages.length > 5) d.messages.splice(turnAt(d.messages.length), 2); }],
      [5, 'change a tool argument', (d) => { const b = d.messages[turnAt(d.messages.length)].content.at(-1); if (b.type === 'tool_use') b.input = { path: `src/other/${pick(99)}.ts` }; }],
    ];
    const total = ops.reduce((n, [w]) => n + w, 0);
    let previous = state.messages;
    cache.tokens(previous);
    for (let step = 0; step < 200; step++) {
      let r = pick(total), op = ops[0];
      for (const o of ops) { if (r < o[0]) { op = o; break; } r -= o[0]; }
      state = produce(state, op[2]);
      const messages = state.messages;
      const expected = estimateTokens(messages, { profile: 'safe' });
      assert.equal(cache.tokens(messages), expected, `step ${step}: ${op[1]} (cache)`);
      // Immer gives a changed message (and each object on the path to the change) a new identity; only those are read.
      const replaced = messages.filter((m) => !previous.includes(m)).length;
      assert.equal(cache.lastEstimated, replaced, `step ${step}: ${op[1]}`);
      const report = await compactor.compact([...messages]);
      assert.equal(report.tokensBefore, expected, `step ${step}: ${op[1]} (Compactor)`);
      previous = messages;
    }
  });

  test('a deep-frozen message is walked at its first two calls, then never again', () => {
    // A counting proxy over a frozen target reports what a walk reads (its invariants make it answer as the target).
    let reads = 0;
    const spy = (v) => {
      if (v === null || typeof v !== 'object') return v;
      const target = Object.freeze(Array.isArray(v) ? v.map(spy) : Object.fromEntries(Object.entries(v).map(([k, x]) => [k, spy(x)])));
      return new Proxy(target, { get(t, k, r) { reads++; return Reflect.get(t, k, r); }, ownKeys(t) { reads++; return Reflect.ownKeys(t); } });
    };
    const messages = [spy({ role: 'user', content: '请修复登录接口。' }), ...turn(1).map(spy)];
    const cache = new EstimateCache();
    const counts = [];
    const expected = estimateTokens(messages);
    for (let call = 0; call < 4; call++) {
      reads = 0;
      assert.equal(cache.tokens(messages), expected);
      counts.push(reads);
    }
    assert.ok(counts[0] > 0 && counts[1] > 0, `${counts}`);
    assert.deepStrictEqual(counts.slice(2), [0, 0], `reads per call: ${counts}`);
  });

  for (const [what, make, mutate] of [
    ['a frozen message whose content list is not frozen', () => Object.freeze({ role: 'user', content: [{ type: 'text', text: 'hello' }] }),
      (m) => { m.content.push({ type: 'text', text: 'one more thought about the handler' }); }],
    ['a frozen message with a frozen block whose text is a getter', () => {
      let text = 'hello';
      const block = Object.freeze(Object.defineProperty({ type: 'text' }, 'text', { get: () => text, enumerable: true }));
      return { m: Object.freeze({ role: 'user', content: Object.freeze([block]) }), set: (t) => { text = t; } };
    }, null],
  ]) {
    test(`${what}: a change is still seen`, () => {
      const made = make();
      const message = made.m ?? made;
      const messages = [message, ...turn(1)];
      const cache = new EstimateCache();
      for (let call = 0; call < 3; call++) assert.equal(cache.tokens(messages), estimateTokens(messages));
      if (mutate) mutate(message);
      else made.set('a much longer text than before, priced again');
      assert.equal(cache.tokens(messages), estimateTokens(messages));
      assert.equal(cache.lastEstimated, 1);
    });
  }
});
