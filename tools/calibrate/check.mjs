#!/usr/bin/env node
// The held-out figures of already-fitted profiles on the corpus as it is now: run it after rebuilding the corpus
// (corpus.mjs --force, count.mjs) to see whether the shipped weights still hold on another draw of documents.
//
//   node check.mjs [PROFILES_JSON]     (profiles.json by default)
//
// Held-out is decided per (class, document) by lib.mjs isHeldOut, the same in every build, so a held-out
// document of a rebuilt corpus was never in the fit of the profiles checked. The profiles are priced with the
// committed boundary and common-ideograph tables, which are what the C core uses; prints one markdown row per
// profile: median ratio / 1st percentile / share under, per class (quantiles as fit.mjs computes them). Features are
// computed once per chunk and priced by every profile, hence features + priceMilli rather than estimate.
import fs from 'node:fs';
import path from 'node:path';
import { CACHE, CLASSES, CLASS_LABEL, HERE, isHeldOut, quantile, readJSONL } from './lib.mjs';
import { features, priceMilli } from './model.mjs';

const file = process.argv[2] || path.join(HERE, 'profiles.json');
const profiles = JSON.parse(fs.readFileSync(file, 'utf8')).profiles;
const counts = new Map(readJSONL(path.join(CACHE, 'counts.jsonl')).map((r) => [r.id, r]));
const held = readJSONL(path.join(CACHE, 'corpus.jsonl')).filter(isHeldOut).map((c) => ({ c, x: features(c.text) }));

console.log(`${held.length} held-out chunks of ${path.join(CACHE, 'corpus.jsonl')}, priced by ${file}\n`);
console.log(`| profile | ${CLASSES.map((k) => `${CLASS_LABEL[k]} (${held.filter((h) => h.c.cls === k).length})`).join(' | ')} |`);
console.log(`|---|${CLASSES.map(() => '---:').join('|')}|`);
for (const [name, p] of Object.entries(profiles)) {
  const cells = CLASSES.map((cls) => {
    const r = held.filter((h) => h.c.cls === cls)
      .map((h) => priceMilli(h.x, p.weights_milli) / 1000 / counts.get(h.c.id)[p.tokenizer]).sort((a, b) => a - b);
    if (r.length === 0) return '–';
    const under = r.filter((v) => v < 1).length / r.length;
    return `${quantile(r, 0.5).toFixed(3)} / ${quantile(r, 0.01).toFixed(2)} / ${(100 * under).toFixed(1)} %`; // as fit.mjs reports
  });
  console.log(`| ${name} | ${cells.join(' | ')} |`);
}
