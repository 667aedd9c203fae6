// estimateTokens: the reference weights per code point, the ceiling taken once, and the
// walk over message structures (not a JSON dump).
import test from 'node:test';
import assert from 'node:assert/strict';
import { init, estimateTokens } from '../../js/hosts/node.js';
import { loadFixture, fixtureNames, fixtureFormat, messagesMilli, textMilli, valueMilli, ceilTokens } from '../helpers/fixtures.mjs';

await init();

test('init() is idempotent: a second and third call resolve and the API keeps working', async () => {
  const again = init();
  assert.ok(again instanceof Promise);
  await again;
  await Promise.all([init(), init()]);
  assert.equal(estimateTokens('abcd'), 1);
});

test.describe('estimateTokens(string): weights and rounding', () => {
  test('four ASCII letters are one token (0.25 each)', () => assert.equal(estimateTokens('abcd'), 1));
  test('two ASCII letters round up to one token', () => assert.equal(estimateTokens('ab'), 1));
  test('five ASCII letters round up to two tokens', () => assert.equal(estimateTokens('abcde'), 2));
  test('the empty string is zero tokens', () => assert.equal(estimateTokens(''), 0));
  test('digits weigh 0.25 like letters', () => assert.equal(estimateTokens('20240312'), 2));
  test('two CJK characters are three tokens (1.5 each)', () => assert.equal(estimateTokens('中文'), 3));
  test('one CJK character rounds 1.5 up to 2', () => assert.equal(estimateTokens('中'), 2));
  test('punctuation weighs 0.5: "!!" is one token, "!!!" two', () => {
    assert.equal(estimateTokens('!!'), 1);
    assert.equal(estimateTokens('!!!'), 2);
  });
  test('an emoji outside the BMP is one code point of class other (0.5 -> 1)', () => assert.equal(estimateTokens('😀'), 1));
  test('four emoji are two tokens (one code point each, not two UTF-16 units)', () => assert.equal(estimateTokens('😀😀😀😀'), 2));
  test('a lone surrogate counts as one "other" code point', () => assert.equal(estimateTokens('\ud800'), 1));
  test('four lone surrogates are 4 x 0.5 = 2 tokens', () => assert.equal(estimateTokens('\udc00\udc00\ud800\ud800'), 2));
  test('lone surrogates between letters: "a\\ud800b\\udc00" is 0.25+0.5+0.25+0.5 -> 2', () => assert.equal(estimateTokens('a\ud800b\udc00'), 2));
  test('a mixed string sums its classes and rounds once: "Hello, 世界! 123" is 6.5 -> 7', () => {
    // 8 alnum (2) + 2 spaces (0.5) + 2 other (1) + 2 CJK (3) = 6.5
    assert.equal(estimateTokens('Hello, 世界! 123'), 7);
  });
  test('the result is an integer number', () => {
    const n = estimateTokens('x');
    assert.equal(typeof n, 'number');
    assert.ok(Number.isInteger(n));
  });
});

test.describe('estimateTokens(string): whitespace is exactly the set Python\'s \\s matches', () => {
  // 4 code points: whitespace/alnum -> 1 token, other -> 2, CJK -> 6.
  const spaces = [0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x85, 0xa0, 0x1680,
    0x2000, 0x2001, 0x2005, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000];
  for (const cp of spaces) {
    test(`U+${cp.toString(16).toUpperCase().padStart(4, '0')} is whitespace (0.25)`, () => {
      assert.equal(estimateTokens(String.fromCodePoint(cp).repeat(4)), 1);
    });
  }
  const notSpaces = [0x00, 0x08, 0x0e, 0x1b, 0x21, 0x7f, 0x84, 0x9f, 0x180e, 0x200b, 0x200c, 0x2027, 0x202a, 0x205e,
    0x2060, 0xfeff];
  for (const cp of notSpaces) {
    test(`U+${cp.toString(16).toUpperCase().padStart(4, '0')} is other (0.5), not whitespace`, () => {
      assert.equal(estimateTokens(String.fromCodePoint(cp).repeat(4)), 2);
    });
  }
});

test.describe('estimateTokens(string): CJK range boundaries', () => {
  const cases = [
    [0x2e7f, 'other'], [0x2e80, 'cjk'], [0x2fdf, 'cjk'], [0x2fe0, 'other'],
    [0x3000, 'space'], [0x3001, 'cjk'], [0x303f, 'cjk'], [0x3040, 'cjk'], [0x30ff, 'cjk'],
    [0x3100, 'cjk'], [0x31ff, 'cjk'], [0x3200, 'other'], [0x33ff, 'other'],
    [0x3400, 'cjk'], [0x3fff, 'cjk'], [0x4000, 'cjk'], [0x4dbf, 'cjk'], [0x4dc0, 'other'], [0x4dff, 'other'],
    [0x4e00, 'cjk'], [0x9fff, 'cjk'], [0xa000, 'other'],
    [0xabff, 'other'], [0xac00, 'cjk'], [0xd7af, 'cjk'], [0xd7b0, 'other'],
    [0xf8ff, 'other'], [0xf900, 'cjk'], [0xfaff, 'cjk'], [0xfb00, 'other'],
    [0xfeff, 'other'], [0xff00, 'cjk'], [0xff01, 'cjk'], [0xffef, 'cjk'], [0xfff0, 'other'], [0xfffd, 'other'],
    [0x1ffff, 'other'], [0x20000, 'cjk'], [0x2a6df, 'cjk'], [0x2fa1f, 'cjk'], [0x2fa20, 'other'], [0x30000, 'other'],
    [0x10ffff, 'other'],
  ];
  const tokensFor4 = { cjk: 6, space: 1, alnum: 1, other: 2 };
  for (const [cp, cls] of cases) {
    test(`U+${cp.toString(16).toUpperCase().padStart(4, '0')} is ${cls}`, () => {
      assert.equal(estimateTokens(String.fromCodePoint(cp).repeat(4)), tokensFor4[cls]);
    });
  }
  test('Hangul syllables are CJK: "안녕하세요" is 5 x 1.5 = 7.5 -> 8', () => assert.equal(estimateTokens('안녕하세요'), 8));
  test('kana are CJK: "カタカナ" is 6', () => assert.equal(estimateTokens('カタカナ'), 6));
  test('full-width Latin is CJK, not alnum: "ＡＢ" is 3', () => assert.equal(estimateTokens('ＡＢ'), 3));
  test('non-ASCII letters are other, not alnum: "éüß" is 1.5 -> 2', () => assert.equal(estimateTokens('éüß'), 2));
});

test.describe('estimateTokens(string): runs of ideographs cut by every kind of code point', () => {
  // Ideographs with the lead bytes E4-E9 are counted by their bytes' shape, run by run;
  // whatever ends a run must still count as itself. Each case differs from a wrong count
  // by at least one token: every misread involving an ideograph moves the sum by 1,000
  // milli-tokens or more.
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
  const ideograph = () => String.fromCodePoint(next() < 0.2 ? 0x4000 + Math.floor(next() * 0xdc0) : 0x4e00 + Math.floor(next() * 0x5200));
  const run = (n) => Array.from({ length: n }, ideograph).join('');
  const cuts = [
    ['an ASCII letter', 'a'], ['a space', ' '], ['a full-width comma', '，'], ['an ideographic full stop', '。'],
    ['a Yijing hexagram (E4 B7 80, other)', '\u4dc0'], ['the ideographic space', '\u3000'],
    ['an ideograph of extension A (lead E3)', '\u3400'], ['a private-use code point (lead EE)', '\ue000'],
    ['an emoji (four bytes)', '😀'], ['a Latin letter (two bytes)', 'é'], ['a lone surrogate (U+FFFD)', '\ud800'],
  ];
  for (const [name, cut] of cuts) {
    test(`runs of 0-70 ideographs cut by ${name}, at three alignments, match the reference`, () => {
      for (let n = 0; n <= 70; n++) {
        for (const lead of ['', 'x', 'xy']) {
          const s = lead + run(n) + cut + run(70 - n) + cut;
          assert.equal(estimateTokens(s), ceilTokens(textMilli(s)), `n=${n} lead=${lead.length}`);
        }
      }
    });
  }
  test('1,000 random mixes of long runs and every kind of cut match the reference', () => {
    for (let k = 0; k < 1000; k++) {
      let s = '';
      while (s.length < 400) s += next() < 0.6 ? run(Math.floor(next() * 40)) : cuts[Math.floor(next() * cuts.length)][1];
      assert.equal(estimateTokens(s), ceilTokens(textMilli(s)), JSON.stringify(s));
    }
  });
});

test.describe('estimateTokens(string): long strings', () => {
  test('10,000,000 ASCII letters are 2,500,000 tokens', () => {
    assert.equal(estimateTokens('a'.repeat(10_000_000)), 2_500_000);
  });
  test('10,000,000 periods are 5,000,000 tokens', () => {
    assert.equal(estimateTokens('.'.repeat(10_000_000)), 5_000_000);
  });
  test('10,000,000 CJK characters (30 MB of UTF-8) are 15,000,000 tokens', () => {
    assert.equal(estimateTokens('中'.repeat(10_000_000)), 15_000_000);
  });
  test('10,000,000 mixed code points "ab c" are 2,500,000 tokens', () => {
    assert.equal(estimateTokens('ab c'.repeat(2_500_000)), 2_500_000);
  });
  test('an odd offset of surrogate pairs is never split across chunks: "a" + 3,000,000 emoji', () => {
    // 0.25 + 3,000,000 x 0.5 = 1,500,000.25 -> 1,500,001
    assert.equal(estimateTokens('a' + '😀'.repeat(3_000_000)), 1_500_001);
  });
  test('a long string equals the reference estimate on every class', () => {
    const s = 'Hello 世界, 😀 ok\u3000\u00a0'.repeat(300_000);
    assert.equal(estimateTokens(s), ceilTokens(textMilli(s)));
  });
});

test.describe('estimateTokens(messages): structures are walked, not dumped', () => {
  test('[{role:"user", content:"hi"}] is ceil(4 + 0.5) = 5', () => {
    assert.equal(estimateTokens([{ role: 'user', content: 'hi' }]), 5);
  });
  test('the per-message overhead is 4 tokens: an empty message is 4', () => {
    assert.equal(estimateTokens([{ role: 'user', content: '' }]), 4);
  });
  test('the ceiling is taken once over the whole list: two "a" messages are ceil(8.5) = 9', () => {
    assert.equal(estimateTokens([{ role: 'user', content: 'a' }, { role: 'assistant', content: 'a' }]), 9);
  });
  test('a single message object is estimated as a one-message list', () => {
    assert.equal(estimateTokens({ role: 'user', content: 'hi' }), 5);
  });
  test('Anthropic text blocks count by their text only', () => {
    assert.equal(estimateTokens([{ role: 'user', content: [{ type: 'text', text: 'abcd' }, { type: 'text', text: 'efgh' }] }]), 6);
  });
  test('an Anthropic tool call is its name plus its arguments\' keys and values (no id, no "type")', () => {
    // 4 + "bash" 1 + "command" 1.75 + "ls" 0.5 = 7.25 -> 8
    const msgs = [{ role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_0123456789abcdef', name: 'bash', input: { command: 'ls' } }] }];
    assert.equal(estimateTokens(msgs), 8);
  });
  test('nested tool arguments count every key and value, numbers by their text', () => {
    // name "grep" 1; keys pattern(1.75) path(1) opts(1) n(0.25) i(0.25); values "TODO"(1) "src"(0.75) 10(0.5) true(1)
    const msgs = [{ role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'grep', input: { pattern: 'TODO', path: 'src', opts: { n: 10, i: true } } }] }];
    assert.equal(estimateTokens(msgs), ceilTokens(4000 + 1000 + 1750 + 1000 + 1000 + 250 + 250 + 1000 + 750 + 500 + 1000));
  });
  test('an OpenAI arguments string counts by its text, punctuation included', () => {
    // 4 + "bash" 1 + '{"command":"ls"}' (9 alnum 2.25 + 7 other 3.5) = 10.75 -> 11
    const msgs = [{ role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'bash', arguments: '{"command":"ls"}' } }] }];
    assert.equal(estimateTokens(msgs), 11);
  });
  test('an AI SDK tool call counts like the Anthropic one', () => {
    const msgs = [{ role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'bash', input: { command: 'ls' } }] }];
    assert.equal(estimateTokens(msgs), 8);
  });
  test('a tool result counts by its content', () => {
    const msgs = [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: 'abcdefgh' }] }];
    assert.equal(estimateTokens(msgs), 6);
  });
  test('an OpenAI tool message counts by its content', () => {
    assert.equal(estimateTokens([{ role: 'tool', tool_call_id: 'call_1', content: 'abcdefgh' }]), 6);
  });
  test('an AI SDK tool result counts by its output value', () => {
    const msgs = [{ role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c', toolName: 'bash', output: { type: 'text', value: 'abcdefgh' } }] }];
    assert.equal(estimateTokens(msgs), 6);
  });
  test('an Anthropic image is 1,600 tokens whatever the size of its data', () => {
    const small = [{ role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } }] }];
    const big = [{ role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'A'.repeat(2_000_000) } }] }];
    assert.equal(estimateTokens(small), 1604);
    assert.equal(estimateTokens(big), 1604);
  });
  test('an OpenAI image_url part is 1,600 tokens', () => {
    const msgs = [{ role: 'user', content: [{ type: 'text', text: 'abcd' }, { type: 'image_url', image_url: { url: 'https://example.com/a.png', detail: 'high' } }] }];
    assert.equal(estimateTokens(msgs), 4 + 1 + 1600);
  });
  test('an AI SDK image part is 1,600 tokens', () => {
    const msgs = [{ role: 'user', content: [{ type: 'image', image: 'data:image/png;base64,' + 'B'.repeat(10_000), mediaType: 'image/png' }] }];
    assert.equal(estimateTokens(msgs), 1604);
  });
  test('an image inside a tool result is 1,600 tokens, its text blocks by their text', () => {
    const msgs = [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: [
      { type: 'text', text: 'abcd' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'Zm9v' } },
    ] }] }];
    assert.equal(estimateTokens(msgs), 4 + 1 + 1600);
  });
  test('a document with a text source counts by its text; a binary one is 3,000 tokens', () => {
    const text = [{ role: 'user', content: [{ type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'abcdefgh' } }] }];
    const pdf = [{ role: 'user', content: [{ type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0x' } }] }];
    assert.equal(estimateTokens(text), 6);
    assert.equal(estimateTokens(pdf), 3004);
  });
  test('thinking counts by its text, not by its signature', () => {
    const msgs = [{ role: 'assistant', content: [{ type: 'thinking', thinking: 'abcd', signature: 'S'.repeat(4000) }] }];
    assert.equal(estimateTokens(msgs), 5);
  });
  test('an AI SDK reasoning part counts by its text', () => {
    const msgs = [{ role: 'assistant', content: [{ type: 'reasoning', text: 'abcdefgh' }] }];
    assert.equal(estimateTokens(msgs), 6);
  });
  test('the estimate is not the JSON dump: field names and ids are not counted', () => {
    const msgs = [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_' + 'x'.repeat(400), content: 'ok' }] }];
    assert.equal(estimateTokens(msgs), 5);
    assert.ok(estimateTokens(JSON.stringify(msgs)) > 100);
  });
  test('Chinese in a tool result counts 1.5 per character', () => {
    const msgs = [{ role: 'tool', tool_call_id: 'c', content: '文件不存在' }];
    assert.equal(estimateTokens(msgs), ceilTokens(4000 + 5 * 1500));
  });
  for (const name of fixtureNames()) {
    test(`fixture ${name}: equals the documented walk (4 per message + parts), rounded once`, () => {
      const msgs = loadFixture(name);
      assert.equal(estimateTokens(msgs), ceilTokens(messagesMilli(msgs, fixtureFormat(name))));
    });
  }
  test('an explicit format gives the same estimate as detection on a fixture', () => {
    const msgs = loadFixture('coding-session.openai');
    assert.equal(estimateTokens(msgs, { format: 'openai' }), estimateTokens(msgs));
  });
  test('the profile "bareagent" is the default', () => {
    const msgs = loadFixture('coding-session.anthropic');
    assert.equal(estimateTokens(msgs, { profile: 'bareagent' }), estimateTokens(msgs));
    assert.equal(estimateTokens('中文', { profile: 'bareagent' }), 3);
  });
});

test.describe('estimateTokens(request body): system and tools are in the window too', () => {
  const tools = [{ name: 'bash', description: 'Run a shell command', input_schema: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] } }];
  const messages = [{ role: 'user', content: 'hi' }];
  test('{messages, system, tools} counts the messages, the system text and the tool definitions', () => {
    const body = { model: 'claude-sonnet-4-5', max_tokens: 1024, system: 'You are terse.', tools, messages };
    const expected = 4000 + 500 + textMilli('You are terse.') + valueMilli(tools);
    assert.equal(estimateTokens(body), ceilTokens(expected));
  });
  test('a body with only messages equals the messages alone', () => {
    assert.equal(estimateTokens({ messages }), estimateTokens(messages));
  });
  test('adding a system prompt adds exactly its text', () => {
    const sys = 'You are a careful assistant. Answer in one sentence.';
    assert.equal(estimateTokens({ system: sys, messages }), ceilTokens(4500 + textMilli(sys)));
  });
  test('a system prompt given as Anthropic text blocks counts by its text, as the same blocks in a message do', () => {
    const blocks = [{ type: 'text', text: 'You are terse.', cache_control: { type: 'ephemeral' } }];
    // In a message the blocks count by their text (4 + 3.75); as body.system they must too (3.75).
    assert.equal(estimateTokens([{ role: 'system', content: blocks }], { format: 'anthropic' }), ceilTokens(4000 + textMilli('You are terse.')));
    assert.equal(estimateTokens({ system: blocks, messages }), ceilTokens(4500 + textMilli('You are terse.')));
  });
  test('OpenAI-style tools count by their keys and values', () => {
    const oaTools = [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }];
    assert.equal(estimateTokens({ messages, tools: oaTools }), ceilTokens(4500 + valueMilli(oaTools)));
  });
});

test.describe('estimateTokens(any JSON value)', () => {
  test('a number counts by its text: 12345 is 1.25 -> 2', () => assert.equal(estimateTokens(12345), 2));
  test('a negative decimal counts its sign and point as other: -1.5 is 1.5 -> 2', () => assert.equal(estimateTokens(-1.5), 2));
  test('a large number counts by its JavaScript text "1e+21" (e,1,2,1 alnum; + other) -> 2', () => assert.equal(estimateTokens(1e21), 2));
  test('true is its literal "true": 1', () => assert.equal(estimateTokens(true), 1));
  test('null is its literal "null": 1', () => assert.equal(estimateTokens(null), 1));
  test('an empty object and an empty array are 0', () => {
    assert.equal(estimateTokens({}), 0);
    assert.equal(estimateTokens([]), 0);
  });
  test('an object counts keys and values, not braces or quotes: {"ab":"cd"} is 1', () => {
    assert.equal(estimateTokens({ ab: 'cd' }), 1);
  });
  test('nested objects and arrays: {a:{b:[1,2]}} is 4 x 0.25 = 1', () => assert.equal(estimateTokens({ a: { b: [1, 2] } }), 1));
  test('an array of strings sums, then rounds once: ["a","a","a","a"] is 1', () => {
    assert.equal(estimateTokens(['a', 'a', 'a', 'a']), 1);
  });
  test('an arbitrary record equals the reference walk', () => {
    const v = { id: 42, name: 'Zoë 张', tags: ['α', 'β', null, false], nested: { ok: true, ratio: 0.125, note: '一二三' } };
    assert.equal(estimateTokens(v), ceilTokens(valueMilli(v)));
  });
  test('undefined and function members are skipped like JSON.stringify does', () => {
    const v = { a: 'x', b: undefined, c() { return 1; }, d: Symbol('s') };
    assert.equal(estimateTokens(v), estimateTokens({ a: 'x' }));
    assert.equal(estimateTokens(v), 1);
  });
  test('undefined and functions inside arrays become null like JSON.stringify does', () => {
    assert.equal(estimateTokens([undefined, () => 1]), estimateTokens([null, null]));
    assert.equal(estimateTokens([undefined, () => 1]), 2);
  });
  test('NaN and Infinity count as null', () => {
    assert.equal(estimateTokens([NaN, Infinity]), estimateTokens([null, null]));
  });
  test('a Date counts by its toJSON() text', () => {
    const d = new Date(Date.UTC(2024, 2, 14, 10, 21, 0));
    assert.equal(estimateTokens({ at: d }), estimateTokens({ at: d.toJSON() }));
    assert.equal(estimateTokens({ at: d }), ceilTokens(textMilli('at') + textMilli('2024-03-14T10:21:00.000Z')));
  });
  test('a custom toJSON() is honoured inside messages', () => {
    const content = { toJSON: () => 'abcdefgh' };
    assert.equal(estimateTokens([{ role: 'user', content }]), 6);
  });
  test('values of every prototype are read as JSON.stringify reads them (from another realm, with a null prototype, an array with toJSON)', async () => {
    const vm = await import('node:vm');
    // Another realm's plain objects, boxed values and buffers are not this realm's Object.prototype's.
    const foreign = vm.runInNewContext('({ o: { k: "v" }, s: new String("boxed text"), n: new Number(42), list: [1, "two"] })');
    assert.equal(estimateTokens(foreign), estimateTokens({ o: { k: 'v' }, s: 'boxed text', n: 42, list: [1, 'two'] }));
    const bytes = vm.runInNewContext('new Uint8Array(4000)');
    assert.equal(estimateTokens({ image: bytes }), estimateTokens({ image: new Uint8Array(4000) }));
    const bare = Object.assign(Object.create(null), { role: 'user', content: 'a null prototype' });
    assert.equal(estimateTokens([bare]), estimateTokens([{ role: 'user', content: 'a null prototype' }]));
    const spoofed = Object.assign(Object.create(null), { [Symbol.toStringTag]: 'String', a: 'an object that only says it is a String' });
    assert.equal(estimateTokens(spoofed), estimateTokens({ a: 'an object that only says it is a String' }));
    assert.throws(() => estimateTokens({ n: vm.runInNewContext('Object(7n)') }), { code: 'unsupported-value' });
    const shown = Object.assign(['hidden', 'items'], { toJSON: () => 'what toJSON says' });
    assert.equal(estimateTokens({ shown }), estimateTokens({ shown: 'what toJSON says' }));
  });
  test('estimating never changes the input', () => {
    const msgs = loadFixture('coding-session.anthropic');
    const before = structuredClone(msgs);
    estimateTokens(msgs);
    assert.deepEqual(msgs, before);
  });
});
