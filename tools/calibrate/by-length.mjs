#!/usr/bin/env node
// The held-out ratio estimate / exact of one profile by chunk length: 1st percentile, median and share under per
// content class and length band. What the length term (model.mjs section 6) is for: without it the low tail sits at
// the short chunks and the long ones are over-covered.
//
//   node by-length.mjs [PROFILE] [PROFILES_JSON]      e.g. node by-length.mjs o200k /tmp/old-profiles.json
import fs from 'node:fs';
import path from 'node:path';
import { CACHE, HERE, isHeldOut, quantile, readJSONL } from './lib.mjs';
import { estimate } from './model.mjs';

const [name = 'o200k', file = path.join(HERE, 'profiles.json')] = process.argv.slice(2);
const prof = JSON.parse(fs.readFileSync(file, 'utf8')).profiles[name];
if (!prof) throw new Error(`no profile ${name} in ${file}`);
const counts = new Map(readJSONL(path.join(CACHE, 'counts.jsonl')).map((r) => [r.id, r]));
const rows = readJSONL(path.join(CACHE, 'corpus.jsonl'))
  .filter((c) => isHeldOut(c))
  .map((c) => {
    const r = counts.get(c.id);
    return { cls: c.cls, bytes: r.bytes, ratio: estimate(c.text, prof.weights_milli) / r[prof.tokenizer] };
  });
const BANDS = [[0, 500], [500, 1500], [1500, 5000], [5000, Infinity]];
console.log(`${name}: p1 / median / under, by chunk length (bytes)`);
console.log(['class'.padEnd(8), ...BANDS.map(([lo, hi]) => `${lo}–${hi === Infinity ? '' : hi}`.padEnd(22))].join(' | '));
for (const cls of ['prose', 'code', 'json', 'shell', 'zh', 'zhcode', 'zhtw', 'intl']) {
  const cells = BANDS.map(([lo, hi]) => {
    const v = rows.filter((x) => x.cls === cls && x.bytes >= lo && x.bytes < hi).map((x) => x.ratio).sort((a, b) => a - b);
    if (!v.length) return '-'.padEnd(22);
    const under = v.filter((r) => r < 1).length / v.length;
    return `${quantile(v, 0.01).toFixed(3)} / ${quantile(v, 0.5).toFixed(3)} / ${(100 * under).toFixed(1)}%`.padEnd(22);
  });
  console.log([cls.padEnd(8), ...cells].join(' | '));
}
