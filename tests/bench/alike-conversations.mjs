/**
 * alike-conversations.mjs — conversations that open alike (the same system prompt and first request: every chat
 * that starts with "Hi") through one integration's states, as midfoldMiddleware, compactStep and
 * compactionFilter keep them (js/state/conversation-states.js: one SessionState per conversationKey, so all of
 * these share one), against the same conversations each with a SessionState of its own, in the same run.
 * Tables, never a test:
 *
 *   1. served at once: N conversations, each a loop of turns (a call, then the model's answer), all running
 *      together as the users of one server; the summarizer takes --delay ms, as a model call does. The time a
 *      call takes, against the same calls with a state each: a call that waits behind another conversation's
 *      summary shows here.
 *   2. served in turn: N conversations, one call each in turn, for 30 rounds: the summaries written against a
 *      stateful Compactor per conversation, and the calls of a remembered conversation that planned afresh
 *      (its fold forgotten, so the whole history folded again).
 *
 *   node tests/bench/alike-conversations.mjs [--delay 300] [--at-once 4,16] [--in-turn 40,100,300]
 *
 * Sessions are tests/helpers/long-session.mjs (OpenAI shape, seeded); summaries are the offline digest.
 */
import { init, Compactor, SessionState, compactHistory, digestSummarizer } from '../../js/hosts/node.js';
import { ConversationStates } from '../../js/state/conversation-states.js';
import { longSession } from '../helpers/long-session.mjs';
import { machine } from './lib.mjs';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const DELAY = Number(arg('delay', 300));
const AT_ONCE = String(arg('at-once', '4,16')).split(',').map(Number);
const IN_TURN = String(arg('in-turn', '40,100,300')).split(',').map(Number);
const THRESHOLD = 8000;
const TURNS = 30;

await init();
const digest = digestSummarizer();
const sleep = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });
const copy = (v) => JSON.parse(JSON.stringify(v));
const sessionOf = (seed) => longSession({ turns: 40, format: 'openai', seed }).calls.slice(0, TURNS);

/** A Compactor at THRESHOLD whose summaries take `delay` ms; `counter.summaries` counts them. */
function slowCompactor(delay, counter) {
  return new Compactor({ threshold: THRESHOLD, summarize: async (r) => { counter.summaries++; if (delay) await sleep(delay); return digest(r); } });
}

const quantile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];

/** Table 1, one row pair: `n` conversations at once, through `stateOf`. */
async function atOnce(n, stateOf) {
  const counter = { summaries: 0 };
  const compactor = slowCompactor(DELAY, counter);
  const times = [];
  const t0 = performance.now();
  await Promise.all(Array.from({ length: n }, async (_, k) => {
    const history = [];
    for (const added of sessionOf(500 + k)) {
      history.push(...added);
      const t = performance.now();
      await compactHistory(compactor, copy(history), { state: await stateOf(k, history) });
      times.push(performance.now() - t);
      await sleep(50 + 10 * k); // the model's answer
    }
  }));
  times.sort((a, b) => a - b);
  return { calls: times.length, summaries: counter.summaries, p50: quantile(times, 0.5), p90: quantile(times, 0.9), max: times.at(-1), wall: performance.now() - t0 };
}

/** Table 2, one row: `n` conversations in turn through one integration's states, against stateful Compactors. */
async function inTurn(n) {
  const shared = { summaries: 0 };
  const compactor = slowCompactor(0, shared);
  const own = { summaries: 0 };
  const states = new ConversationStates();
  const convs = Array.from({ length: n }, (_, k) => ({ calls: sessionOf(700 + k), history: [], held: [], stateful: slowCompactor(0, own), remembered: false }));
  let calls = 0, afresh = 0;
  for (let round = 0; round < TURNS; round++) {
    for (const c of convs) {
      c.history.push(...c.calls[round]);
      c.held.push(...copy(c.calls[round]));
      await c.stateful.compact(c.held);
      const { report } = await compactHistory(compactor, copy(c.history), { state: await states.of(c.history) });
      calls++;
      if (c.remembered && report.session.matched === 0) afresh++;
      if (report.session.saved) c.remembered = true;
    }
  }
  return { calls, summaries: shared.summaries, stateful: own.summaries, afresh };
}

const ms = (v) => v.toFixed(0);
const m = machine();
console.log(`# Conversations that open alike, through one integration's states (${m.cpu}, ${m.cores} cores, Node ${m.node}, ${m.date.slice(0, 10)})\n`);
console.log(`## 1. Served at once (summaries take ${DELAY} ms; ${TURNS} calls per conversation, each after the model's answer)\n`);
console.log('| conversations | states | calls | summaries | call p50 ms | p90 ms | max ms | wall s |');
console.log('|---:|---|---:|---:|---:|---:|---:|---:|');
for (const n of AT_ONCE) {
  const states = new ConversationStates();
  const own = Array.from({ length: n }, () => new SessionState());
  for (const [label, stateOf] of [['one integration\'s (shared by all)', (k, history) => states.of(history)], ['one per conversation', async (k) => own[k]]]) {
    const r = await atOnce(n, stateOf);
    console.log(`| ${n} | ${label} | ${r.calls} | ${r.summaries} | ${ms(r.p50)} | ${ms(r.p90)} | ${ms(r.max)} | ${(r.wall / 1000).toFixed(1)} |`);
  }
}
console.log(`\n## 2. Served in turn (one call each in turn, ${TURNS} rounds; an integration keeps 256 conversations)\n`);
console.log('| conversations | calls | summaries written | by a stateful Compactor each | remembered calls planned afresh |');
console.log('|---:|---:|---:|---:|---:|');
for (const n of IN_TURN) {
  const r = await inTurn(n);
  console.log(`| ${n} | ${r.calls} | ${r.summaries} | ${r.stateful} | ${r.afresh} |`);
}
