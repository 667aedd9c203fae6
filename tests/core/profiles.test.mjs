// The calibrated profiles from JS: every name is accepted, each prices text exactly as
// its specification (tools/calibrate/model.mjs with the fitted weights) does — long
// strings crossing into wasm in pieces included — and 'safe' is never below any of them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { encode as o200kEncode } from 'gpt-tokenizer/encoding/o200k_base';
import { encode as cl100kEncode } from 'gpt-tokenizer/encoding/cl100k_base';
import { init, estimateTokens, MidfoldError } from '../../js/hosts/node.js';
import { features, priceMilli } from '../../tools/calibrate/model.mjs';
import { fixtureNames, loadFixture } from '../helpers/fixtures.mjs';

await init();
const fitted = JSON.parse(readFileSync(new URL('../../tools/calibrate/profiles.json', import.meta.url), 'utf8')).profiles;
const FITTED = ['o200k', 'cl100k', 'deepseek', 'qwen', 'claude'];

/** The specification's estimate in whole tokens: its milli-token price of the feature counts, rounded up once. */
const specified = (text, profile) => Math.ceil(priceMilli(features(text), fitted[profile].weights_milli) / 1000);

const SAMPLES = {
  prose: 'The compactor folds the resolved middle of the conversation into a summary and keeps the live tail verbatim.',
  code: 'export function parseConfig(path) {\n  const raw = fs.readFileSync(path, "utf8");\n  return TOML.parse(raw); // v2.3.1\n}\n',
  json: '{"id":"9f8e7d6c-5b4a-4321-8fed-cba987654321","created_at":"2026-11-30T08:28:17Z","items":[1,2,3],"ok":true}',
  shell: '-rw-r--r--  1 root root  4096 Nov 30 08:28 package.json\ndrwxr-xr-x 12 root root  4096 Nov 30 08:30 node_modules\n',
  chinese: '我们明天去昆明，天气预报说有小雨，气温十五到二十二度。请帮我把行程改到下午。',
  mixed: '请运行 `npm test -- --grep "date"`，然后把 src/format-date.js 第 28 行的 utcToZonedTime 改成 toZonedTime。',
  emoji: 'ship it 🚀🚀 — done ✅ (naïve café, Ελληνικά, русский)',
};

for (const profile of FITTED) {
  test(`${profile}: every sample is priced exactly as the specification prices it`, () => {
    for (const [name, text] of Object.entries(SAMPLES))
      assert.equal(estimateTokens(text, { profile }), specified(text, profile), `${name}`);
  });
}

/** Every string of the bundled conversations (tool outputs: file reads, greps, test runs; Chinese answers; code). */
function fixtureTexts() {
  const texts = new Set();
  const walk = (v) => {
    if (typeof v === 'string') texts.add(v);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  for (const name of fixtureNames()) walk(loadFixture(name));
  return [...texts];
}

test('every string of the bundled conversations is priced by every fitted profile as the specification prices it', () => {
  // The C pass has fast paths for lower-case and ideograph runs; real text exercises every way into and out of them.
  const texts = fixtureTexts();
  assert.ok(texts.length >= 200, `${texts.length} strings`);
  for (const profile of FITTED)
    for (const text of texts) assert.equal(estimateTokens(text, { profile }), specified(text, profile), `${profile}: ${JSON.stringify(text.slice(0, 60))}`);
});

// The wasm module counts stretches of ASCII 64 bytes at a time with SIMD masks (src/text_features_ascii.c); native
// tests compare that path with the code-point path on a scalar build of the masks, so the SIMD masks are checked here.
test('every ASCII byte, in a stretch long enough for the 64-byte mask path, is priced as the specification prices it', () => {
  for (let b = 0; b < 128; b++) {
    const ch = String.fromCharCode(b);
    // the byte after a letter, doubled (repeats), before a digit and a capital, eight times over (differences add up)
    const text = `ab${ch}${ch}1 ${ch}Qz${ch}\n  ${ch}x`.repeat(8);
    for (const profile of FITTED) assert.equal(estimateTokens(text, { profile }), specified(text, profile), `${profile}: byte ${b}`);
  }
});

test('random mixes of runs, punctuation, whitespace and non-ASCII hand-overs are priced as the specification prices them', () => {
  const pieces = ['the', 'station', 'rhythm', 'I', 'getHostByName', 'HTTPServer', 'README', 'CONSTANT_NAME',
    'antidisestablishmentarianism', '7', '42', '2026', '1234567', '0x7f3a9c', 'a1b2c3', 'sha256', ' ', ' ', ' ', '  ',
    '    ', '\t', '\n', '\r\n', '\n    ', '\n\t', ' \n ', '----------', '**', '...', ',', '.', ':', '"', '(', ')',
    '[', ']', '{', '}', '{"key": ', '/usr/lib/x86_64-linux-gnu/', '&&', '\\', '@', '`', '~', '_', '\x01', '\x7f',
    'café', 'ещё', '中文', '。', '🚀', '─', 'naïve'];
  let seed = 20261130;
  const random = (n) => { seed = (Math.imul(seed, 1103515245) + 12345) >>> 0; return (seed >>> 8) % n; };
  for (let round = 0; round < 150; round++) {
    let text = '';
    const target = 16 + random(round < 75 ? 200 : 4000);
    while (text.length < target) text += pieces[random(pieces.length)];
    for (const profile of FITTED) assert.equal(estimateTokens(text, { profile }), specified(text, profile), `${profile}: ${JSON.stringify(text.slice(0, 80))}`);
  }
});

test('o200k and cl100k are at or above the exact count (gpt-tokenizer) on every text of 200 bytes or more in the bundled conversations', () => {
  // The texts a compaction trigger sums; below 200 bytes is outside the calibrated range. Before the length term
  // (model.mjs section 6), o200k priced the 484-byte `strace -c` summary of missing-call.anthropic.json at 135
  // tokens for 138: the slack a short text needs now grows with the square root of its length.
  const texts = fixtureTexts().filter((t) => Buffer.byteLength(t) >= 200);
  assert.ok(texts.length >= 30, `${texts.length} texts`);
  assert.ok(texts.some((t) => t.startsWith('strace: Process 4121 attached')), 'the strace -c summary is among them');
  for (const [profile, encode] of [['o200k', o200kEncode], ['cl100k', cl100kEncode]]) {
    for (const text of texts) {
      const exact = encode(text, { disallowedSpecial: new Set() }).length;
      assert.ok(estimateTokens(text, { profile }) >= exact, `${profile} under on ${JSON.stringify(text.slice(0, 60))}`);
    }
  }
});

test('a string longer than one crossing (3 million UTF-16 units) is priced as if whole', () => {
  // Pieces of 1,048,576 units: runs (words, digits, whitespace) straddle every cut.
  const text = (SAMPLES.code + SAMPLES.mixed + SAMPLES.shell).repeat(12000);
  assert.ok(text.length > 3 * (1 << 20));
  for (const profile of ['o200k', 'qwen']) assert.equal(estimateTokens(text, { profile }), specified(text, profile), profile);
});

test("'safe' is at least every fitted profile, sample by sample, and equals the largest", () => {
  for (const text of Object.values(SAMPLES)) {
    const each = FITTED.map((profile) => estimateTokens(text, { profile }));
    assert.equal(estimateTokens(text, { profile: 'safe' }), Math.max(...each));
  }
});

test("the fitted profiles count what the reference under-counts: a UUID-heavy JSON log costs more than 'bareagent' says", () => {
  const log = Array.from({ length: 200 }, (_, i) =>
    `{"ts":"2026-11-30T08:${String(i % 60).padStart(2, '0')}:17.${i}Z","req":"${(0x9f8e7d6c + i * 7919).toString(16)}-4b1a-9c3d-${(i * 104729).toString(16).padStart(12, '0')}","status":${200 + (i % 5)}}`).join('\n');
  for (const profile of FITTED) assert.ok(estimateTokens(log, { profile }) > estimateTokens(log), profile);
});

test('messages are priced per profile, with its own per-message cost', () => {
  const messages = [{ role: 'user', content: SAMPLES.chinese }, { role: 'assistant', content: SAMPLES.prose }];
  for (const profile of FITTED) assert.ok(estimateTokens(messages, { profile }) > specified(SAMPLES.chinese, profile), profile);
  assert.ok(estimateTokens(messages, { profile: 'safe' }) >= Math.max(...FITTED.map((profile) => estimateTokens(messages, { profile }))));
});

test('a message is priced text by text: each text block pays its own length term', () => {
  // The length term (LENGTH x sqrt(code points)) is not additive, so where a message's texts are cut matters: two
  // blocks cost the message cost plus each block's own price, not the price of the two joined.
  const [a, b] = [SAMPLES.prose, SAMPLES.code];
  const messages = [{ role: 'user', content: [{ type: 'text', text: a }, { type: 'text', text: b }] }];
  for (const profile of FITTED) {
    const milli = (text) => priceMilli(features(text), fitted[profile].weights_milli);
    const perMessage = { o200k: 4000, cl100k: 4000, deepseek: 3000, qwen: 9000, claude: 6000 }[profile];
    const apart = Math.ceil((perMessage + milli(a) + milli(b)) / 1000);
    assert.equal(estimateTokens(messages, { profile, format: 'anthropic' }), apart, profile);
    assert.ok(apart > Math.ceil((perMessage + milli(a + b)) / 1000), `${profile}: apart costs more than joined`);
  }
});

test('an unknown profile is a MidfoldError naming the known ones', () => {
  assert.throws(() => estimateTokens('x', { profile: 'gpt2' }), (e) =>
    e instanceof MidfoldError && e.code === 'invalid-option' && /bareagent, o200k, cl100k, deepseek, qwen, claude, safe/.test(e.message));
});
