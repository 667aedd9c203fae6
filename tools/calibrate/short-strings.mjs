#!/usr/bin/env node
// Short strings, below the calibrated 200 B: how often a profile's estimate (rounded up, as estimateTokens does) is
// under o200k's and cl100k's exact count on random 10–50 and 50–200 character snippets of the held-out documents,
// and the mean ratio. Each PROFILES_JSON given is measured on the same snippets (seeded).
//
//   node short-strings.mjs [PROFILES_JSON ...]      e.g. node short-strings.mjs old-profiles.json profiles.json
import fs from 'node:fs';
import path from 'node:path';
import { encode as o200k } from 'gpt-tokenizer/encoding/o200k_base';
import { encode as cl100k } from 'gpt-tokenizer/encoding/cl100k_base';
import { CACHE, HERE, isHeldOut, readJSONL, rng } from './lib.mjs';
import { estimate } from './model.mjs';

const files = process.argv.length > 2 ? process.argv.slice(2) : [path.join(HERE, 'profiles.json')];
const random = rng(7);
const held = readJSONL(path.join(CACHE, 'corpus.jsonl')).filter((c) => isHeldOut(c));
for (const [lo, hi] of [[10, 50], [50, 200]]) {
  const snippets = [];
  for (const c of held) {
    for (let k = 0; k < 2; k++) {
      const len = random.range(lo, hi - 1), at = random.int(Math.max(1, c.text.length - len));
      // never half a surrogate pair at either end
      snippets.push({ cls: c.cls, text: c.text.slice(at, at + len).replace(/^[\udc00-\udfff]|[\ud800-\udbff]$/g, '') });
    }
  }
  for (const file of files) {
    const profiles = JSON.parse(fs.readFileSync(file, 'utf8')).profiles;
    for (const [name, encode] of [['o200k', o200k], ['cl100k', cl100k]]) {
      const by = {};
      for (const s of snippets) {
        const b = (by[s.cls] ??= { under: 0, n: 0, sum: 0 });
        const exact = encode(s.text, { disallowedSpecial: new Set() }).length;
        const est = Math.ceil(estimate(s.text, profiles[name].weights_milli));
        b.n++;
        if (est < exact) b.under++;
        b.sum += est / Math.max(1, exact);
      }
      const cells = Object.entries(by).map(([cls, b]) => `${cls} ${(100 * b.under / b.n).toFixed(1)}% under, mean ${(b.sum / b.n).toFixed(2)}`);
      console.log(`${lo}–${hi} chars  ${path.basename(file)}  ${name}: ${cells.join(' | ')}`);
    }
  }
}
