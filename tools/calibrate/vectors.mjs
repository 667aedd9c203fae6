#!/usr/bin/env node
// Writes tests/fixtures/estimator/vectors.json: feature counts and per-profile estimates (milli-tokens) of small
// tricky inputs, the C port's known answers (tests/native/test_profiles.c). Each input is given as UTF-8 bytes in hex, so invalid UTF-8 can be included; `text` is what
// the JS reference sees (the bytes decoded the way src/utf8.c decodes them: each invalid byte -> U+FFFD).
//
//   node vectors.mjs
import fs from 'node:fs';
import path from 'node:path';
import { HERE } from './lib.mjs';
import { FEATURES, features, priceMilli } from './model.mjs';

// Decoder with src/utf8.c semantics (not TextDecoder's): an invalid lead byte, a truncated or bad sequence, an
// overlong form, a surrogate or a value above U+10FFFF yields U+FFFD and consumes one byte.
function decodeLikeC(bytes) {
  let out = '';
  for (let i = 0; i < bytes.length;) {
    const c = bytes[i];
    if (c < 0x80) { out += String.fromCharCode(c); i++; continue; }
    let need, v, min;
    if (c >= 0xc2 && c <= 0xdf) { need = 2; v = c & 0x1f; min = 0x80; }
    else if (c >= 0xe0 && c <= 0xef) { need = 3; v = c & 0x0f; min = 0x800; }
    else if (c >= 0xf0 && c <= 0xf4) { need = 4; v = c & 0x07; min = 0x10000; }
    else { out += '\ufffd'; i++; continue; }
    let ok = bytes.length - i >= need;
    for (let k = 1; ok && k < need; k++) { if ((bytes[i + k] & 0xc0) !== 0x80) ok = false; else v = (v << 6) | (bytes[i + k] & 0x3f); }
    if (!ok || v < min || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff)) { out += '\ufffd'; i++; continue; }
    out += String.fromCodePoint(v);
    i += need;
  }
  return out;
}

const enc = (s) => Buffer.from(s, 'utf8');
const inputs = [
  enc(''), enc(' '), enc('a'), enc('hello world'), enc('Hello, World!\n'), enc('  indented\n\tline\r\n'),
  enc('getElementById XMLHttpRequest HTTP_SERVER snake_case'), enc('strncpy mkdir rwxrwxr-x'),
  enc('a1b2c3d4 3f9a0c7e2b 550e8400-e29b-41d4-a716-446655440000 sha256:9f86d081884c7d65'),
  enc('id: 123, count: 4567890, x 9'), enc('{"name": "midfold", "version": "1.0.0", "list": [1, 2, 3]}'),
  enc('-------- ======== ....  ////'), enc('中文文本，测试。混合 English 和 代码 `foo()`'), enc('日本語のテキスト、カタカナ'),
  enc('한국어 텍스트'), enc('Привет, мир! Ελληνικά'), enc('naïve café façade Việt Nam'), enc('emoji 😀👍🏽 🇨🇳 ❤️ ✅'),
  enc('arrows → ⇒ and box ─│┌┐ “quotes” — dash…'), enc('𠀀𠀁 astral ideographs'), enc('\x00\x01\x7f control'),
  Buffer.from([0x61, 0xff, 0x62, 0xc3, 0x28, 0xed, 0xa0, 0x80, 0xf0, 0x9f, 0x98]), // invalid UTF-8 + truncated emoji
  enc('The XMLHttpRequest thinks xzqpf; GLUT_FORCE_DIRECT mIxEd'), enc('測試繁體字與罕見字：龘 的 㐀 豈'),
  enc('ends with space '), enc('digits after space 42'), enc('\n\n\n'), enc('Ωmega αβγ'),
];
const prof = JSON.parse(fs.readFileSync(path.join(HERE, 'profiles.json'), 'utf8'));
const vectors = inputs.map((b) => {
  const text = decodeLikeC(b);
  const x = features(text);
  const counts = Object.fromEntries(FEATURES.map((f, j) => [f, x[j]]).filter(([, v]) => v !== 0));
  const estimates = Object.fromEntries(Object.entries(prof.profiles).map(([name, p]) =>
    [name, priceMilli(x, p.weights_milli)]));
  return { utf8_hex: b.toString('hex'), text, counts, estimates_milli: estimates };
});
// Lone surrogates exist only on the JS side: they must count like U+FFFD.
const lone = features('a\ud800b\udc00');
const viaFFFD = features('a\ufffdb\ufffd');
if (FEATURES.some((_, j) => lone[j] !== viaFFFD[j])) throw new Error('lone surrogate != U+FFFD');
const OUT = path.join(HERE, '../../tests/fixtures/estimator/vectors.json');
fs.writeFileSync(OUT, JSON.stringify({ features: FEATURES, vectors }, null, 1) + '\n');
console.log(`wrote ${path.relative(process.cwd(), OUT)} (${vectors.length} inputs)`);
