#!/usr/bin/env node
// Shows the held-out chunks a profile estimates worst, to see what the features miss.
//
//   node inspect.mjs PROFILE CLASS [low|high] [N] [PROFILES_JSON]     e.g. node inspect.mjs o200k code low 10
//   (PROFILES_JSON: another fit's output, e.g. a `fit.mjs --no-margins` measurement; profiles.json by default)
import fs from 'node:fs';
import path from 'node:path';
import { CACHE, HERE, isHeldOut, readJSONL } from './lib.mjs';
import { estimate } from './model.mjs';

const [name = 'o200k', cls = 'prose', which = 'low', n = '10', file = path.join(HERE, 'profiles.json')] = process.argv.slice(2);
const prof = JSON.parse(fs.readFileSync(file, 'utf8')).profiles[name];
if (!prof) throw new Error(`no profile ${name} in ${file}`);
const counts = new Map(readJSONL(path.join(CACHE, 'counts.jsonl')).map((r) => [r.id, r]));
const rows = readJSONL(path.join(CACHE, 'corpus.jsonl'))
  .filter((c) => c.cls === cls && isHeldOut(c))
  .map((c) => ({ c, y: counts.get(c.id)[prof.tokenizer], est: estimate(c.text, prof.weights_milli) }))
  .map((r) => ({ ...r, r: r.est / r.y }))
  .sort((a, b) => (which === 'high' ? b.r - a.r : a.r - b.r));
for (const { c, y, est, r } of rows.slice(0, Number(n))) {
  console.log(`${r.toFixed(3)}  est ${est.toFixed(0)} exact ${y}  ${c.group}\n    ${JSON.stringify(c.text.slice(0, 200))}`);
}
