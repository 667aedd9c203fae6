#!/usr/bin/env node
/**
 * simulate.mjs — what each context policy bills on the bundled sessions and on generated
 * long ones (30, 100, 300, 500 turns; sessions.mjs), by `simulate()`; the table the
 * docs/cost.md's tables and the Compactor's defaults come from. Prints markdown; nothing
 * is timed or asserted.
 *
 *   node tests/bench/simulate.mjs [--pricing anthropic|openai|deepseek] [--model M] [--match breakpoints|prefix]
 *                                 [--turns 30,100] [--seed 1] [--policies a,,b] [--sweep] [--no-bundled]
 *   node tests/bench/simulate.mjs --thresholds 50,60,70 [--pricing P] [--model M] [--turns …] [--seeds 1,2,3]
 *   node tests/bench/simulate.mjs --growth-only [--growth-turns 1806] [--runs 3]
 *
 * --sweep adds Compactor candidates (microTrigger / clearAtLeast / threshold); the last
 * table says whether midfold's defaults meet the targets (at most "no management" + 5 %
 * where that fits the 200k window, at most 0.8x the every-turn policy from 100 turns on, never
 * over the window). --policies takes names or specs separated by ",,".
 *
 * The last table ("what simulate costs") times each built-in policy alone on a generated
 * session of about 8 MB and 3,600 messages (--growth-turns; --no-growth leaves it out), as the
 * CLI does it (the safe profile): the file read and parsed, then simulate(); against one
 * `midfold estimate` of the same file (read, parsed, estimateTokens), medians of --runs runs.
 * The target: at most 20x.
 *
 * --thresholds is how the Compactor's default threshold per provider was chosen
 * (DEFAULT_THRESHOLD in js/compaction/compactor.js): for each threshold (in thousands, the Compactor's
 * other defaults following it) and each generated session of each seed, what it bills as a
 * multiple of what the targets compare it with: "no management" where that fits the
 * window (target <= 1.05), else the every-turn policy (target <= 0.8 from 100 turns on).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { init, estimateTokens } from '../../js/hosts/node.js';
import { POLICIES, simulate } from '../../js/simulate/simulate.js';
import { agentSession } from './sessions.mjs';
import { machine, median, table } from './lib.mjs';

const { values: args } = parseArgs({
  options: {
    pricing: { type: 'string', default: 'anthropic' }, model: { type: 'string' }, thresholds: { type: 'string' },
    seeds: { type: 'string', default: '1,2,3' }, match: { type: 'string', default: 'breakpoints' },
    turns: { type: 'string', default: '30,100,300,500' }, policies: { type: 'string' }, seed: { type: 'string', default: '1' },
    sweep: { type: 'boolean', default: false }, 'no-bundled': { type: 'boolean', default: false },
    'growth-turns': { type: 'string', default: '1806' }, runs: { type: 'string', default: '3' },
    'growth-only': { type: 'boolean', default: false }, 'no-growth': { type: 'boolean', default: false },
  },
});

const BUNDLED = [
  'web-demo/samples/coding-session.anthropic.json', 'web-demo/samples/coding-session.openai.json',
  'web-demo/samples/travel-planning.zh.anthropic.json',
  ...fs.readdirSync('tests/fixtures/compactor').filter((f) => f.endsWith('.json')).map((f) => `tests/fixtures/compactor/${f}`),
];

const SWEEP = [
  'compactor:microTrigger=30k,clearAtLeast=15k', 'compactor:microTrigger=40k,clearAtLeast=20k',
  'compactor:microTrigger=50k,clearAtLeast=20k', 'compactor:microTrigger=50k,clearAtLeast=30k',
  'compactor:threshold=100k,microTrigger=60k,clearAtLeast=30k', 'compactor:threshold=100k,microTrigger=80k,clearAtLeast=40k',
  'compactor:microTrigger=40k,clearAtLeast=20k,keepRecent=5',
];
const policies = args.policies ? args.policies.split(',,') : ['none', 'every-turn', 'context-editing', 'micro-every-turn', 'micro-batched', 'defaults', ...(args.sweep ? SWEEP : [])];

await init();
if (args.thresholds) {
  await thresholdTable();
  process.exit(0);
}
if (args['growth-only']) {
  await growthTable();
  process.exit(0);
}
const sessions = [];
if (!args['no-bundled']) for (const file of BUNDLED) sessions.push({ name: file.split('/').pop().replace('.json', ''), session: JSON.parse(fs.readFileSync(file, 'utf8')), long: false });
for (const n of args.turns.split(',').filter(Boolean).map(Number)) sessions.push({ name: `generated, ${n} turns${args.seed === '1' ? '' : ` (seed ${args.seed})`}`, session: agentSession(n, Number(args.seed)), long: n >= 100 });

const M = (tokens) => (tokens >= 1e6 ? `${(tokens / 1e6).toFixed(2)} M` : `${(tokens / 1e3).toFixed(1)} k`);
const K = (tokens) => `${Math.round(tokens / 1000)}k`;

console.log(`# midfold simulate: ${args.pricing} pricing, ${args.match} cache matching (${machine().date.slice(0, 10)})\n`);
console.log('Billed input in base-price input tokens (summaries included); cached share; peak context; summaries; turns over the 200k window.');
console.log("\"every turn\" is the Compactor with policy 'every-turn' (micro-compaction on every call), \"midfold's defaults\" the Compactor as it ships.\n");
const checks = [];
for (const { name, session, long } of sessions) {
  const report = await simulate(session, { pricing: args.pricing, model: args.model, cacheMatch: args.match, policies });
  const rows = report.results.map((r) => [r.label, M(r.billedTokens), `${Math.round(r.cachedShare * 100)} %`, K(r.peakContext), K(r.meanContext),
    String(r.summaries), r.turnsOverWindow ? `${r.turnsOverWindow} (from turn ${r.firstTurnOverWindow + 1})` : '0']);
  console.log(`## ${name} (${report.turns} turns, ${report.provider} ${report.model})\n`);
  console.log(table(['policy', 'billed input', 'cached', 'peak', 'mean', 'summaries', 'over window'], rows));
  console.log('');
  const by = Object.fromEntries(report.results.map((r) => [r.name, r]));
  if (by.defaults && by.none && by['every-turn']) {
    const d = by.defaults;
    const vsNone = by.none.turnsOverWindow === 0 ? d.billedTokens / by.none.billedTokens : null;
    const vsEveryTurn = d.billedTokens / by['every-turn'].billedTokens;
    checks.push([name, vsNone === null ? 'overflows' : vsNone.toFixed(3), vsEveryTurn.toFixed(3), String(d.turnsOverWindow),
      (vsNone === null || vsNone <= 1.05) && (!long || vsEveryTurn <= 0.8) && d.turnsOverWindow === 0 ? 'yes' : 'NO']);
  }
}
if (checks.length) {
  console.log('## Targets for midfold\'s defaults\n');
  console.log(table(['session', 'defaults ÷ no management (fits window)', 'defaults ÷ every turn', 'turns over window', 'met'], checks));
}

if (!args['no-growth']) await growthTable();

/**
 * What simulate costs as the session grows: each built-in policy alone, timed as the CLI runs
 * it (read the file, parse it, simulate), against one estimate of the same file.
 */
async function growthTable() {
  const turns = Number(args['growth-turns']);
  const runs = Number(args.runs);
  // Results of 0.8-7.2 KB: about 8 MB in 3,600 messages at 1,806 turns, the size of a long
  // coding session.
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'midfold-bench-')), 'session.json');
  fs.writeFileSync(file, JSON.stringify(agentSession(turns, 1, { resultBytes: [800, 7200] })));
  const seconds = async (work) => {
    const times = [];
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      await work(JSON.parse(fs.readFileSync(file, 'utf8')));
      times.push((performance.now() - t0) / 1000);
    }
    return median(times);
  };
  try {
    const session = JSON.parse(fs.readFileSync(file, 'utf8'));
    const size = fs.statSync(file).size;
    // (in the CLI's profile, the Compactor's: midfold estimate and midfold simulate count in it)
    await seconds((s) => estimateTokens(s, { profile: 'safe' })); // warm
    const estimate = await seconds((s) => estimateTokens(s, { profile: 'safe' }));
    const rows = [['one estimate', estimate.toFixed(3), '1']];
    for (const name of Object.keys(POLICIES)) {
      const s = await seconds((m) => simulate(m, { pricing: args.pricing, model: args.model, cacheMatch: args.match, policies: [name], profile: 'safe' }));
      rows.push([name, s.toFixed(2), (s / estimate).toFixed(1)]);
    }
    console.log(`\n## What simulate costs: ${(size / 1e6).toFixed(1)} MB, ${session.length} messages, ${turns} turns (${args.pricing}; medians of ${runs})\n`);
    console.log('Each policy alone, timed as the CLI runs it: the file read and parsed, then simulate(); the ratio is to one `midfold estimate` of the same file (read, parsed, estimateTokens). Target: at most 20.\n');
    console.log(table(['policy', 'seconds', 'ratio to one estimate'], rows));
  } finally {
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  }
}

/** The --thresholds table: each threshold's bill against the target's reference, per session. */
async function thresholdTable() {
  const thresholds = args.thresholds.split(',').map(Number);
  const rows = [];
  const worst = thresholds.map(() => ({ short: 0, long: 0, over: 0 }));
  let provider, model;
  for (const seed of args.seeds.split(',').map(Number)) {
    for (const n of args.turns.split(',').filter(Boolean).map(Number)) {
      const report = await simulate(agentSession(n, seed), {
        pricing: args.pricing, model: args.model, cacheMatch: args.match,
        policies: ['none', 'every-turn', ...thresholds.map((t) => `compactor:threshold=${t}k`)],
      });
      ({ provider, model } = report);
      const [none, everyTurn, ...candidates] = report.results;
      const fits = none.turnsOverWindow === 0;
      const reference = fits ? none : everyTurn;
      rows.push([`seed ${seed}, ${n} turns`, fits ? 'no management' : 'every turn', ...candidates.map((c, i) => {
        const ratio = c.billedTokens / reference.billedTokens;
        if (fits) worst[i].short = Math.max(worst[i].short, ratio);
        else if (n >= 100) worst[i].long = Math.max(worst[i].long, ratio);
        worst[i].over += c.turnsOverWindow;
        return `${ratio.toFixed(3)}${c.turnsOverWindow ? ` (${c.turnsOverWindow} over)` : ''}`;
      })]);
    }
  }
  console.log(`# Compactor thresholds: ${provider} ${model}, ${args.match} cache matching (${machine().date.slice(0, 10)})\n`);
  console.log('Billed input (summaries included) as a multiple of the reference; the Compactor\'s other defaults follow the threshold.\n');
  rows.push(['worst: fits ÷ none (<= 1.05), longer ÷ every turn (<= 0.8)', '', ...worst.map((w) => `${w.short.toFixed(3)} / ${w.long.toFixed(3)}`)]);
  rows.push(['meets every target', '', ...worst.map((w) => (w.short <= 1.05 && w.long <= 0.8 && w.over === 0 ? 'yes' : 'NO'))]);
  console.log(table(['session', 'reference', ...thresholds.map((t) => `${t}k`)], rows));
}
