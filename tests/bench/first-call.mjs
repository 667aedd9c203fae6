// The Compactor's first call on a conversation against planMicroCompact, the check it ran on every call
// before it kept estimates: both interleaved, each on a fresh copy of the conversation, and, with --against,
// the same two of another checkout (its js/hosts/node.js and built wasm) in the same run, so that "no slower than
// before" compares with the code before a change rather than with today's planMicroCompact.
// Prints a table of medians and ratios. Not a test: nothing here asserts time.
//
//   node --expose-gc tests/bench/first-call.mjs [--rounds N] [--fold-rounds N] [--against DIR]
//
// With --expose-gc each copy is collected into the old generation before it is timed, as a conversation a
// host has held for a while is; without it, the young copy's promotion is paid by whichever call runs first.
import fs from 'node:fs';
import { pathToFileURL } from 'node:url';
import path from 'node:path';
import * as here from '../../js/hosts/node.js';
import { chineseConversation, conversation, fmt, machine, median, now } from './lib.mjs';

const arg = (name) => { const i = process.argv.indexOf(name); return i > 0 ? process.argv[i + 1] : undefined; };
const ROUNDS = Number(arg('--rounds')) || 20;
const againstDir = arg('--against');

const builds = { here };
// A build from before js/ was grouped by role (c. 2026-12-02) has its Node entry at js/node.js.
const entryOf = (dir) => ['js/hosts/node.js', 'js/node.js'].map((f) => path.resolve(dir, f)).find((f) => fs.existsSync(f));
if (againstDir) builds.before = await import(pathToFileURL(entryOf(againstDir)).href);
for (const b of Object.values(builds)) await b.init();

const impls = {};
for (const [name, b] of Object.entries(builds)) {
  impls[`planMicroCompact (${name})`] = (m) => { b.planMicroCompact(m, { profile: 'safe', trigger: 1e9 }); };
  impls[`Compactor, first call (${name})`] = (m) =>
    new b.Compactor({ summarize: b.digestSummarizer(), threshold: 1e9, microTrigger: 1e9 }).compact(m);
}
const names = Object.keys(impls);
const collect = typeof globalThis.gc === 'function' ? globalThis.gc : () => {};

const rows = [];
for (const [label, make] of [['English + code', (n) => conversation(n, 21)], ['Chinese', (n) => chineseConversation(n, 22)]]) {
  for (const size of [1000, 10000]) {
    const base = make(size);
    const copy = () => base.map((x) => JSON.parse(JSON.stringify(x)));
    const times = Object.fromEntries(names.map((k) => [k, []]));
    for (let r = 0; r < ROUNDS + 2; r++) { // the first two rounds warm every path up
      for (const k of r % 2 ? names : [...names].reverse()) {
        const messages = copy();
        collect();
        const t0 = now();
        await impls[k](messages);
        if (r >= 2) times[k].push(now() - t0);
      }
    }
    const med = Object.fromEntries(names.map((k) => [k, median(times[k])]));
    // The ratio of the medians, and in brackets the median of the rounds' own ratios: the
    // two timings of one round ran back to back, so a slow stretch of the shared machine
    // moves both (the paired figure moves less from run to run).
    const ratio = (a, b) => `${fmt(med[a] / med[b], 3)}× (${fmt(median(times[a].map((t, i) => t / times[b][i])), 3)}×)`;
    const row = [label, size.toLocaleString('en'), ...names.map((k) => fmt(med[k])),
      ratio('Compactor, first call (here)', 'planMicroCompact (here)')];
    if (againstDir) row.push(ratio('Compactor, first call (here)', 'planMicroCompact (before)'),
      ratio('Compactor, first call (before)', 'planMicroCompact (before)'),
      ratio('Compactor, first call (here)', 'Compactor, first call (before)'));
    rows.push(row);
  }
}

// A first call that folds (a conversation loaded past the threshold): the Compactor's whole compact(),
// with a summarizer that answers at once, against one estimateTokens of the same messages. The fold
// reads the history for its micro-compaction plan and its compaction plan (and, before it read the
// history once, encoded it again for the compaction plan, to detect its format and for the estimate
// after). Interleaved as above, on fresh copies.
const FOLD_ROUNDS = Number(arg('--fold-rounds')) || 8;
const SUMMARY = 'The user is fixing the report totals; the tests fail on rounding in two modules.';
const foldImpls = {};
for (const [name, b] of Object.entries(builds)) {
  foldImpls[`estimateTokens (${name})`] = (msgs) => { b.estimateTokens(msgs, { profile: 'safe' }); };
  foldImpls[`Compactor, first-call fold (${name})`] = async (msgs) => {
    const report = await new b.Compactor({ summarize: () => SUMMARY }).compact(msgs);
    if (report.reason !== 'compacted') throw new Error(`the first call did not fold: ${report.reason}`);
  };
}
const foldNames = Object.keys(foldImpls);
const foldRows = [];
for (const [label, make] of [['English + code', (n) => conversation(n, 21)], ['Chinese', (n) => chineseConversation(n, 22)]]) {
  for (const size of [1000, 10000]) {
    const base = make(size);
    const copy = () => base.map((x) => JSON.parse(JSON.stringify(x)));
    const times = Object.fromEntries(foldNames.map((k) => [k, []]));
    for (let r = 0; r < FOLD_ROUNDS + 1; r++) { // the first round warms every path up
      for (const k of r % 2 ? foldNames : [...foldNames].reverse()) {
        const messages = copy();
        collect();
        const t0 = now();
        await foldImpls[k](messages);
        if (r >= 1) times[k].push(now() - t0);
      }
    }
    const med = Object.fromEntries(foldNames.map((k) => [k, median(times[k])]));
    const ratio = (a, b) => `${fmt(med[a] / med[b], 3)}× (${fmt(median(times[a].map((t, i) => t / times[b][i])), 3)}×)`;
    const row = [label, size.toLocaleString('en'), ...foldNames.map((k) => fmt(med[k])),
      ratio('Compactor, first-call fold (here)', 'estimateTokens (here)')];
    if (againstDir) row.push(ratio('Compactor, first-call fold (before)', 'estimateTokens (before)'));
    foldRows.push(row);
  }
}

const m = machine();
console.log(`# The Compactor's first call (${m.cpu}, ${m.cores} cores, Node ${m.node}, load ${m.load.toFixed(1)}, ${ROUNDS} interleaved rounds, medians in ms${typeof globalThis.gc === 'function' ? ', each copy collected before it is timed' : ''}; ratios: of the medians, and (in brackets) the median of each round's own ratio)\n`);
const head = ['conversation', 'messages', ...names, 'first call ÷ planMicroCompact'];
if (againstDir) head.push('first call ÷ planMicroCompact before', 'before: first call ÷ its planMicroCompact', 'first call ÷ first call before');
console.log(`| ${head.join(' | ')} |`);
console.log(`|${head.map((_, i) => (i < 2 ? '---' : '---:')).join('|')}|`);
for (const r of rows) console.log(`| ${r.join(' | ')} |`);

console.log(`\n# A first call that folds (${FOLD_ROUNDS} interleaved rounds, medians in ms; ratios as above)\n`);
const foldHead = ['conversation', 'messages', ...foldNames, 'fold ÷ estimateTokens'];
if (againstDir) foldHead.push('before: fold ÷ its estimateTokens');
console.log(`| ${foldHead.join(' | ')} |`);
console.log(`|${foldHead.map((_, i) => (i < 2 ? '---' : '---:')).join('|')}|`);
for (const r of foldRows) console.log(`| ${r.join(' | ')} |`);
