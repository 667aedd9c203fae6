// The module tiers of js/core/api.js (the estimator, the lite module, the full one) under
// every interleaving a page can make of init(), initEstimator(), initFull() and midfold's own
// ensureTier() (the Compactor's and the digest's): each fetch answers when the test says, some
// fail. What must hold whatever the order: a call that resolves leaves a module of its tier in
// use; a failed load leaves the module in use as it was; a tier is never fetched twice at once;
// the module in use never goes down a tier. Seeded, so a failure names a schedule to replay.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { prng } from '../helpers/prng.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
// Compiled once: each load instantiates its own instance of the module of its tier.
const MODULES = ['midfold-estimate.wasm', 'midfold-lite.wasm', 'midfold.wasm'].map((f) => new WebAssembly.Module(readFileSync(path.join(ROOT, 'wasm', f))));

/** One trial: a fresh api.js, `calls` calls in a seeded order, fetches answered in a seeded order. */
async function trial(seed) {
  const random = prng(seed);
  const api = await import(`../../js/core/api.js?tiers=${seed}`);
  const inFlight = [0, 0, 0];
  const waiting = []; // fetches not answered yet: {answer()}
  const problems = [];
  let highest = -1; // the highest tier seen in use
  const observe = () => {
    let now = -1;
    for (let t = 0; t <= 2; t++) if (api.tierLoaded(t)) now = t;
    if (now < highest) problems.push(`the module in use went down from tier ${highest} to ${now}`);
    highest = Math.max(highest, now);
  };
  const sources = [0, 1, 2].map((tier) => () => new Promise((resolve, reject) => {
    if (++inFlight[tier] > 1) problems.push(`tier ${tier} fetched twice at once`);
    // (a call for a lower tier waits for a higher one in flight rather than fetching its own)
    for (let higher = tier + 1; higher <= 2; higher++) if (inFlight[higher]) problems.push(`tier ${tier} fetched while tier ${higher} was in flight`);
    const fails = random() < 0.3;
    waiting.push({
      answer() {
        inFlight[tier]--;
        if (fails) reject(new TypeError('Failed to fetch'));
        else resolve(MODULES[tier]);
      },
    });
  }));
  const calls = [];
  let unsettled = 0;
  let initsUnsettled = 0; // entry inits in progress: while one is, there is a load to wait for
  const start = (kind, tier) => {
    const idle = highest < 0 && initsUnsettled === 0;
    const p = kind === 'init' ? api.initTier(tier, undefined, sources) : api.ensureTier(tier);
    unsettled++;
    if (kind === 'init') initsUnsettled++;
    calls.push(p.finally(() => { unsettled--; if (kind === 'init') initsUnsettled--; }).then(
      () => { observe(); if (!api.tierLoaded(tier)) problems.push(`${kind}(${tier}) resolved without tier ${tier} in use`); },
      (e) => {
        observe();
        // (midfold's own paths are refused only when nothing is in use and nothing is loading)
        const expected = kind === 'ensure' && idle ? ['not-initialized'] : ['init-failed'];
        if (!expected.includes(e.code)) problems.push(`${kind}(${tier}) failed with ${e.code}: ${e.message}`);
      }));
  };
  // The first call is always an entry's init (midfold's own paths run after one).
  start('init', Math.floor(random() * 3));
  for (let step = 0; step < 12; step++) {
    const r = random();
    if (r < 0.35 && waiting.length) waiting.splice(Math.floor(random() * waiting.length), 1)[0].answer();
    else if (r < 0.7) start('init', Math.floor(random() * 3));
    else start('ensure', Math.floor(random() * 3));
    await new Promise((resolve) => setTimeout(resolve, 0));
    observe();
  }
  // The rest, in a seeded order; a call waiting on another may start a fetch once that one settles.
  for (let ticks = 0; unsettled > 0 || waiting.length; ticks++) {
    if (ticks > 5000) { problems.push(`${unsettled} calls never settled`); return problems; }
    if (waiting.length) waiting.splice(Math.floor(random() * waiting.length), 1)[0].answer();
    await new Promise((resolve) => setTimeout(resolve, 1));
    observe();
  }
  await Promise.all(calls);
  // Whatever was installed still works as its tier says.
  if (api.tierLoaded(0)) assert.equal(api.estimateTokens('上下文压缩 context'), 10, `seed ${seed}`);
  if (api.tierLoaded(1)) assert.equal(api.planMicroCompact([]).edits.length, 0, `seed ${seed}`);
  return problems;
}

test('the module tiers hold under 200 seeded interleavings of init, initEstimator, initFull and ensureTier, with failing fetches', async () => {
  for (let seed = 1; seed <= 200; seed++) assert.deepEqual(await trial(seed), [], `seed ${seed}`);
});
