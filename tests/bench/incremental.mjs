// Per-turn cost of a conversation that grows by one turn per call: the plain JS walker re-reading everything,
// estimateTokens without a cache, EstimateCache (first call, then each later call after one more turn), and the
// Compactor's check under its triggers (first call, then later calls), beside planMicroCompact, which is what the
// Compactor ran on every call before it kept estimates; then one Compactor kept across several turns, its second
// call apart from the later ones.
// Prints tables with ratios against the walker measured in the same run. Not a test: nothing here asserts time.
//
//   node tests/bench/incremental.mjs [--rounds N]
import { init, estimateTokens, planMicroCompact, EstimateCache, Compactor, digestSummarizer } from '../../js/hosts/node.js';
import { freeze } from 'immer';
import { chineseConversation, conversation, consume, fmt, jsEstimateMessages, machine, median, now } from './lib.mjs';

const ROUNDS = Number(process.argv[process.argv.indexOf('--rounds') + 1]) || 15;
await init();

/** The conversation split into a starting part and the turns (pairs of messages) appended afterwards. */
function scenario(make, size) {
  const all = make(size + 2 * ROUNDS * 3);
  return { start: all.slice(0, size), turns: Array.from({ length: ROUNDS * 3 }, (_, i) => all.slice(size + 2 * i, size + 2 * i + 2)) };
}

/**
 * The floor of any check that walks the structure: a for-in walk that reads every key and
 * value of every message and compares nothing (what EstimateCache's later call does, minus
 * its comparisons against the snapshot).
 */
function walkStructure(messages) {
  let leaves = 0;
  const walk = (v) => {
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) { const x = v[i]; if (typeof x === 'object' && x !== null) walk(x); else leaves++; }
      return;
    }
    for (const k in v) { const x = v[k]; if (typeof x === 'object' && x !== null) walk(x); else leaves++; }
  };
  for (let i = 0; i < messages.length; i++) walk(messages[i]);
  return leaves;
}

function timeOnce(fn) {
  const t0 = now();
  consume(fn());
  return now() - t0;
}

// A store kept with Immer deep-freezes every message: such a message, once it has matched its
// snapshot, is compared by identity alone (EstimateCache.holds).
const frozen = (make) => (n) => make(n).map((m) => freeze(m, true));
const CONVERSATIONS = [
  ['English + code', (n) => conversation(n, 21)], ['Chinese', (n) => chineseConversation(n, 22)],
  ['Chinese, deep-frozen (Immer)', frozen((n) => chineseConversation(n, 22))],
];

const rows = [];
for (const [label, make] of CONVERSATIONS) {
  for (const size of [1000, 10000]) {
    const { start, turns } = scenario(make, size);
    // warm every path on a small copy first (V8 tiers up)
    const warm = new EstimateCache({ profile: 'safe' });
    for (let i = 0; i < 5; i++) { jsEstimateMessages(start.slice(0, 50)); estimateTokens(start.slice(0, 50), { profile: 'safe' }); warm.tokens(start.slice(0, 50 + i)); }
    const walker = [], full = [], first = [], later = [], check = [], checkFirst = [], micro = [], floor = [];
    // Each turn's own ratios to the walker timed in that turn: on this shared machine the walker's
    // time moves 2x between runs, and the median of paired ratios moves less than a ratio of medians.
    const laterPaired = [], checkPaired = [], floorPaired = [];
    for (let r = 0; r < ROUNDS; r++) {
      const messages = start.slice();
      const cache = new EstimateCache({ profile: 'safe' });
      first.push(timeOnce(() => cache.tokens(messages)));
      micro.push(timeOnce(() => planMicroCompact(messages, { profile: 'safe', trigger: 1e9 })));
      // A Compactor under both of its triggers (threshold, micro-compaction): its per-turn check.
      const compactor = new Compactor({ summarize: digestSummarizer(), threshold: 1e9, microTrigger: 1e9 });
      const t0 = now();
      await compactor.compact(messages);
      checkFirst.push(now() - t0);
      for (let t = 0; t < 3; t++) {
        messages.push(...turns[r * 3 + t]);
        walker.push(timeOnce(() => jsEstimateMessages(messages)));
        full.push(timeOnce(() => estimateTokens(messages, { profile: 'safe' })));
        later.push(timeOnce(() => cache.tokens(messages)));
        const t0 = now();
        const report = await compactor.compact(messages);
        check.push(now() - t0);
        // The floor, timed as the later call is: right after a pass that read every string.
        jsEstimateMessages(messages);
        floor.push(timeOnce(() => walkStructure(messages)));
        const wt = walker.at(-1);
        laterPaired.push(later.at(-1) / wt);
        checkPaired.push(check.at(-1) / wt);
        floorPaired.push(floor.at(-1) / wt);
        if (report.reason !== 'below-threshold' || report.micro.cleared) throw new Error('the check should do nothing');
      }
      if (cache.tokens(messages) !== estimateTokens(messages, { profile: 'safe' })) throw new Error('the cache disagrees with estimateTokens');
    }
    const w = median(walker);
    rows.push([label, size.toLocaleString('en'), fmt(w), `${fmt(median(full))} (${fmt(median(full) / w, 2)}×)`,
      `${fmt(median(first))} (${fmt(median(first) / w, 2)}×)`, `${fmt(median(later))} (${fmt(median(later) / w, 3)}×) [${fmt(median(laterPaired), 3)}×]`,
      `${fmt(median(micro))} (${fmt(median(micro) / w, 2)}×)`, `${fmt(median(checkFirst))} (${fmt(median(checkFirst) / w, 2)}×)`,
      `${fmt(median(check))} (${fmt(median(check) / w, 3)}×) [${fmt(median(checkPaired), 3)}×]`, `${fmt(median(floor))} (${fmt(median(floor) / w, 3)}×) [${fmt(median(floorPaired), 3)}×]`]);
  }
}

const m = machine();
console.log(`# Per-turn estimate of a growing conversation (${m.cpu}, ${m.cores} cores, Node ${m.node}, load ${m.load.toFixed(1)}, ${ROUNDS} rounds × 3 turns, medians in ms; × = time relative to the walker in the same run; in brackets the median of each turn's own ratio to the walker timed in that turn)\n`);
console.log('| conversation | messages | plain JS walker | estimateTokens (no cache) | EstimateCache, first call | EstimateCache, after one more turn | planMicroCompact (the check before the cache) | Compactor.compact under its triggers, first call | the same, after one more turn | a bare walk of the structure (the floor of any check that walks it) |');
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const r of rows) console.log(`| ${r.join(' | ')} |`);

// A Compactor as a conversation keeps it: one per conversation, checking every turn. Here nothing else runs
// between the turns but the walker, so the second call (right after the first, which allocated the whole
// cache) and the calls after it are told apart; the table above mixes them with other work.
const KEPT_TURNS = 8;
const kept = [];
for (const [label, make] of CONVERSATIONS) {
  for (const size of [1000, 10000]) {
    const all = make(size + 2 * KEPT_TURNS * ROUNDS);
    const walker = [], second = [], after = [], paired = [];
    for (let r = 0; r < Math.ceil(ROUNDS / 2); r++) {
      const messages = all.slice(0, size);
      const compactor = new Compactor({ summarize: digestSummarizer(), threshold: 1e9, microTrigger: 1e9 });
      await compactor.compact(messages);
      for (let t = 0; t < KEPT_TURNS; t++) {
        messages.push(...all.slice(size + 2 * (r * KEPT_TURNS + t), size + 2 * (r * KEPT_TURNS + t) + 2));
        walker.push(timeOnce(() => jsEstimateMessages(messages)));
        const t0 = now();
        const report = await compactor.compact(messages);
        (t === 0 ? second : after).push(now() - t0);
        if (t > 0) paired.push(after.at(-1) / walker.at(-1));
        if (report.reason !== 'below-threshold' || report.micro.cleared) throw new Error('the check should do nothing');
      }
    }
    const w = median(walker);
    kept.push([label, size.toLocaleString('en'), fmt(w), `${fmt(median(second))} (${fmt(median(second) / w, 3)}×)`,
      `${fmt(median(after))} (${fmt(median(after) / w, 3)}×) [${fmt(median(paired), 3)}×]`]);
  }
}
console.log(`\n## One Compactor kept across ${KEPT_TURNS} turns (${Math.ceil(ROUNDS / 2)} conversations; medians in ms, × and brackets as above)\n`);
console.log('| conversation | messages | plain JS walker | Compactor.compact, second call | third call on |');
console.log('|---|---:|---:|---:|---:|');
for (const r of kept) console.log(`| ${r.join(' | ')} |`);
