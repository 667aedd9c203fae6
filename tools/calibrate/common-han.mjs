#!/usr/bin/env node
// Picks the ideographs the estimator treats as common and writes common-han.json: the set behind the c_HAN / c_HANR
// split of model.mjs.
//
//   node common-han.mjs [--top 600]        (after corpus.mjs; reads .cache/corpus.jsonl, writes common-han.json)
//
// Why: a byte-level vocabulary holds the frequent ideographs as single tokens and spells the rest in two or three
// byte tokens (cl100k: 83 % of the Han characters of the Chinese corpus are among its ~550 single-token ones, the
// others cost 2-3 tokens each), so the share of rare characters moves a chunk's tokens per character by 20 % and
// more. The set is chosen by frequency alone, not by asking a tokenizer: the `top` most frequent ideographs
// (U+4E00-U+9FFF) of the Simplified Chinese prose of the FIT half (lib.mjs isHeldOut; the held-out half stays
// unseen). Traditional-only characters are rare here, which is what they are for most vocabularies too.
import fs from 'node:fs';
import path from 'node:path';
import { CACHE, HERE, isHeldOut, readJSONL } from './lib.mjs';

const args = process.argv.slice(2);
const TOP = Number(args[args.indexOf('--top') + 1] || 600);
const freq = new Map();
let total = 0;
for (const chunk of readJSONL(path.join(CACHE, 'corpus.jsonl'))) {
  if (isHeldOut(chunk) || chunk.cls !== 'zh') continue;
  for (const ch of chunk.text) {
    const cp = ch.codePointAt(0);
    if (cp < 0x4e00 || cp > 0x9fff) continue;
    freq.set(cp, (freq.get(cp) || 0) + 1);
    total++;
  }
}
// Ties broken by code point, so the same corpus always gives the same set.
const ranked = [...freq.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0]);
const common = ranked.slice(0, TOP).map(([cp]) => cp).sort((a, b) => a - b);
const covered = ranked.slice(0, TOP).reduce((a, [, n]) => a + n, 0);
fs.writeFileSync(path.join(HERE, 'common-han.json'), JSON.stringify({
  about: `the ${TOP} most frequent ideographs (U+4E00-U+9FFF) of the fit half's Chinese prose; written by common-han.mjs`,
  distinct: freq.size, occurrences: total, coverage: Math.round((covered / total) * 1000) / 1000, codePoints: common,
}) + '\n');
console.log(`wrote common-han.json: ${common.length} of ${freq.size} distinct ideographs, ` +
  `${((100 * covered) / total).toFixed(1)} % of ${total} occurrences`);
