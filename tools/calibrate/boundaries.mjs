#!/usr/bin/env node
// Measures how often a token boundary falls between two ASCII letters, per letter pair, and writes
// boundaries.json: the letter-pair tables of the estimator's BND / BNDU features (model.mjs, section 5).
//
//   node boundaries.mjs            (after corpus.mjs; reads .cache/corpus.jsonl, writes boundaries.json)
//
// Why: the length of a word says little about how many tokens it costs; whether it is made of letter pairs that a
// byte-pair vocabulary has merged does. "the", "ing", "tion" never split, "xz", "kq", "pf" usually do, so the sum of
// boundary probabilities over a word's letter pairs tracks its token count where word length cannot. The tables are
// 2 x 676 probabilities (one byte each), not a vocabulary: no token, word or string is stored.
//
// Method: every FIT-half chunk (lib.mjs isHeldOut; the held-out half stays unseen) of the ASCII-heavy classes is
// encoded with o200k; a token starts at each offset where a decoded token begins. Chunks whose tokens do not decode
// back to the text piece by piece (a multi-byte character split across tokens) are skipped. For each pair of
// adjacent ASCII letters (case-folded; lower -> upper camel-case steps are left out, the CAMEL feature prices them)
// P(boundary) = (starts + 1) / (pairs + 2), in 1/255 steps. Upper -> upper pairs (ALL_CAPS words) get their own
// table: capitals split far more often than the same letters in lower case.
import fs from 'node:fs';
import path from 'node:path';
import { CACHE, HERE, isHeldOut, readJSONL } from './lib.mjs';

const CLASSES = ['prose', 'code', 'json', 'shell', 'zhcode'];
const TOKENIZER = 'o200k'; // one table for every profile: a cl100k-measured one fitted no better (within ±0.02)
const { encode, decode } = await import(`gpt-tokenizer/encoding/${TOKENIZER}_base`);

const letter = (c) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
const pairs = { lower: new Float64Array(676), caps: new Float64Array(676) };
const starts = { lower: new Float64Array(676), caps: new Float64Array(676) };
let used = 0, skipped = 0;
for (const chunk of readJSONL(path.join(CACHE, 'corpus.jsonl'))) {
  if (isHeldOut(chunk) || !CLASSES.includes(chunk.cls)) continue;
  const text = chunk.text;
  const isStart = new Uint8Array(text.length + 1);
  let at = 0, ok = true;
  for (const id of encode(text, { disallowedSpecial: new Set() })) {
    const piece = decode([id]);
    if (!text.startsWith(piece, at) || piece.includes('\ufffd')) { ok = false; break; }
    isStart[at] = 1;
    at += piece.length;
  }
  if (!ok || at !== text.length) { skipped++; continue; }
  used++;
  for (let i = 1; i < text.length; i++) {
    const a = text.charCodeAt(i - 1), b = text.charCodeAt(i);
    if (!letter(a) || !letter(b) || (a >= 97 && b <= 90)) continue;
    const table = a <= 90 && b <= 90 ? 'caps' : 'lower';
    const k = ((a | 32) - 97) * 26 + ((b | 32) - 97);
    pairs[table][k]++;
    starts[table][k] += isStart[i];
  }
}
const toBytes = (t) => Array.from(pairs[t], (n, k) => Math.round((255 * (starts[t][k] + 1)) / (n + 2)));
const out = {
  about: 'P(a token starts between two adjacent ASCII letters), x255, index (first - a) * 26 + (second - a), case-folded; ' +
    'written by boundaries.mjs',
  tokenizer: TOKENIZER, chunks: used,
  letterPairs: pairs.lower.reduce((a, b) => a + b), capsPairs: pairs.caps.reduce((a, b) => a + b),
  lower: toBytes('lower'), caps: toBytes('caps'),
};
fs.writeFileSync(path.join(HERE, 'boundaries.json'), JSON.stringify(out) + '\n');
const p = (t, s) => out[t][(s.charCodeAt(0) - 97) * 26 + s.charCodeAt(1) - 97];
console.log(`wrote boundaries.json from ${used} chunks (${skipped} skipped): ${out.letterPairs} letter pairs, ` +
  `${out.capsPairs} capital pairs; e.g. th=${p('lower', 'th')} in=${p('lower', 'in')} xz=${p('lower', 'xz')} ` +
  `caps th=${p('caps', 'th')}`);
