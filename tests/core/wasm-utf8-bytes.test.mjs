// The module's reference estimate on raw UTF-8 bytes, invalid sequences included. JS
// strings always encode to valid UTF-8, so only a caller of the module's exports can pass
// these; the native tests and fuzzers cover them for the C core built natively, not for
// the module, whose text counter has paths of its own (16-byte ASCII blocks in SIMD, and
// the switches between them and the byte-by-byte loop every 256 bytes). The rule, from
// mf_utf8_decode: a byte that does not start a valid, shortest-form, non-surrogate sequence
// of at most U+10FFFF is one "other" code point (U+FFFD) and consumes one byte.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { IMPORTS, Wasm } from '../../js/core/wasm.js';
import { charClass, WEIGHT_MILLI } from '../helpers/fixtures.mjs';

const { instance } = await WebAssembly.instantiate(readFileSync(new URL('../../wasm/midfold.wasm', import.meta.url)), IMPORTS);
const w = new Wasm(instance);

/** The code point at bytes[i] and its length, or null when no valid sequence starts there. */
function decodeAt(bytes, i) {
  const b = bytes[i];
  if (b < 0x80) return [b, 1];
  const n = b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
  if (!n || i + n > bytes.length) return null;
  let cp = b & (0xff >> (n + 1));
  for (let k = 1; k < n; k++) {
    if ((bytes[i + k] & 0xc0) !== 0x80) return null;
    cp = (cp << 6) | (bytes[i + k] & 0x3f);
  }
  const shortest = [0, 0, 0x80, 0x800, 0x10000][n];
  if (cp < shortest || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return null;
  return [cp, n];
}

/** The reference estimate of raw bytes in milli-tokens. */
function bytesMilli(bytes) {
  let milli = 0;
  for (let i = 0; i < bytes.length;) {
    const d = decodeAt(bytes, i);
    milli += d ? WEIGHT_MILLI[charClass(d[0])] : WEIGHT_MILLI.other;
    i += d ? d[1] : 1;
  }
  return milli;
}

/** mfw_estimate_text(bytes, profile bareagent), in milli-tokens. */
function moduleMilli(bytes) {
  const p = w.alloc(bytes.length || 1);
  try {
    w.bytes().set(bytes, p);
    return w.x.mfw_estimate_text(p, bytes.length, 0);
  } finally {
    w.free(p);
  }
}

let seed = 11;
const next = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
const pick = (xs) => xs[Math.floor(next() * xs.length)];
const utf8 = (s) => [...Buffer.from(s, 'utf8')];
const ideographs = (n) => Array.from({ length: n }, () => utf8(String.fromCodePoint(0x4e00 + Math.floor(next() * 0x5200)))).flat();

// What can break a run of ideographs: ASCII, the hexagrams (E4 B7 xx, "other"), and every
// kind of invalid byte a careless fast path would take for part of an ideograph.
const BREAKS = [
  ['an ASCII letter', [0x61]],
  ['a hexagram (E4 B7 80)', [0xe4, 0xb7, 0x80]],
  ['a lead byte with one continuation byte', [0xe4, 0xb8]],
  ['a lead byte with one continuation byte, then ASCII', [0xe4, 0xb8, 0x61]],
  ['a lead byte alone', [0xe5]],
  ['a stray continuation byte', [0x80]],
  ['a lead byte followed by ASCII', [0xe6, 0x61, 0x62]],
  ['a continuation byte replaced by a lead byte', [0xe7, 0xe8, 0x80]],
  ['an encoded surrogate (ED A0 80)', [0xed, 0xa0, 0x80]],
  ['an overlong encoding (E0 80 80)', [0xe0, 0x80, 0x80]],
  ['a byte never valid (FF)', [0xff]],
];

test.describe('mfw_estimate_text on raw bytes: ideograph runs broken by invalid UTF-8', () => {
  for (const [name, cut] of BREAKS) {
    test(`runs of 0-60 ideographs broken by ${name}, at three alignments, match the reference decoder`, () => {
      for (let n = 0; n <= 60; n++) {
        for (const lead of [[], [0x78], [0x78, 0x79]]) {
          const bytes = Uint8Array.from([...lead, ...ideographs(n), ...cut, ...ideographs(60 - n), ...cut]);
          assert.equal(moduleMilli(bytes), bytesMilli(bytes), `n=${n} lead=${lead.length}`);
        }
      }
    });
  }
  test('500 random mixes of ideographs, ASCII blocks and invalid bytes match the reference decoder', () => {
    for (let k = 0; k < 500; k++) {
      const parts = [];
      let len = 0;
      while (len < 600) {
        const part = next() < 0.5 ? ideographs(Math.floor(next() * 40))
          : next() < 0.5 ? utf8('ascii text, 16+ bytes long '.slice(0, Math.floor(next() * 28))) : pick(BREAKS)[1];
        parts.push(...part);
        len += part.length;
      }
      const bytes = Uint8Array.from(parts);
      assert.equal(moduleMilli(bytes), bytesMilli(bytes), Buffer.from(bytes).toString('hex'));
    }
  });
  test('the reference decoder itself: E4 B8 AD is one ideograph, its first two bytes alone are two others', () => {
    assert.equal(bytesMilli(Uint8Array.from([0xe4, 0xb8, 0xad])), 1500);
    assert.equal(bytesMilli(Uint8Array.from([0xe4, 0xb8])), 1000);
  });
});
