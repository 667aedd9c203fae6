/**
 * proxy-state.mjs — what carried compaction state changes, measured (a table, never a test):
 *
 *   1. the edge proxy in real workerd (web-demo/edge/worker.js, with and without its SESSIONS Durable
 *      Object) against a stateful Compactor on the same sessions: summaries written per 10- and 100-turn
 *      session, and the share of each forwarded request's bytes that the next one repeats verbatim (what a
 *      provider's prompt cache can reuse);
 *      and, for conversations that open alike (one state key) interleaved turn by turn, the summaries the
 *      proxy wrote against a stateful Compactor per conversation (--alike: how many conversations, 2,6);
 *   2. compactHistory in Node: the cost of one call at 100, 1,000 and 10,000 messages with carried state,
 *      without (a fresh plan each call), and a stateful Compactor's, and the stored state's size; and the
 *      same call under a key seven other conversations share, with and without the snapshots' byte lengths.
 *
 *   node tests/bench/proxy-state.mjs [--threshold 4000] [--alike 2,6] [--proxy-only]
 *
 * A turn is a user request and the tool loop answering it: two proxy calls (the request; the tool calls
 * with their results). Sessions are tests/helpers/long-session.mjs (OpenAI shape, seeded). Summaries are
 * the mock upstream's deterministic answers, so the proxy and the Node Compactor fold the same text.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { init, Compactor, SessionState, compactHistory, digestSummarizer } from '../../js/hosts/node.js';
import { defaultSummary, startMockLLM } from '../helpers/mock-llm.mjs';
import { ROOT, startWorkerd, workerConfig } from '../helpers/workerd.mjs';
import { longSession } from '../helpers/long-session.mjs';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const THRESHOLD = arg('threshold', 4000);
const ALIKE = process.argv.includes('--alike') ? String(process.argv[process.argv.indexOf('--alike') + 1]).split(',').map(Number) : [2, 6];
const TOKEN = 'bench-token';
const WORKER = path.join(ROOT, 'web-demo/edge/worker.js');

function commonPrefix(a, b) {
  let i = 0;
  while (i < a.length && i < b.length && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}
const bindings = (upstream) => [['UPSTREAM_URL', upstream], ['UPSTREAM_KEY', 'bench-upstream-key'], ['CLIENT_TOKEN', TOKEN],
  ['THRESHOLD', String(THRESHOLD)]];
const mean = (xs) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);
const pct = (x) => `${(100 * x).toFixed(1)} %`;

/** One session through the proxy at `url`, and through a stateful Compactor alongside. */
async function replay(llm, url, calls) {
  let statefulSummaries = 0;
  const stateful = new Compactor({ threshold: THRESHOLD, summarize: (r) => { statefulSummaries++; return defaultSummary(r); } });
  const held = [];
  const history = [];
  const out = { summaries: 0, reuse: [], statefulReuse: [] };
  let previous = null;
  let previousHeld = null;
  for (const added of calls) {
    held.push(...structuredClone(added));
    history.push(...structuredClone(added));
    await stateful.compact(held);
    const seen = llm.requests.length;
    const res = await fetch(url, {
      method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
      body: JSON.stringify({ model: 'bench', messages: history }),
    });
    if (res.status !== 200) throw new Error(`proxy answered ${res.status}: ${await res.text()}`);
    await res.arrayBuffer();
    out.summaries += llm.requests.length - seen - 1;
    const raw = llm.requests.at(-1).rawBody;
    const heldRaw = JSON.stringify({ model: 'bench', messages: held });
    if (previous) {
      out.reuse.push(commonPrefix(previous, raw) / previous.length);
      out.statefulReuse.push(commonPrefix(previousHeld, heldRaw) / previousHeld.length);
    }
    previous = raw;
    previousHeld = heldRaw;
  }
  out.statefulSummaries = statefulSummaries;
  return out;
}

/**
 * Conversations that open alike (one state key), replayed turn by turn in round-robin through the proxy at
 * `url`, and each through a stateful Compactor of its own: the summaries each side wrote.
 */
async function replayAlike(llm, url, sessions) {
  let statefulSummaries = 0;
  const runs = sessions.map((calls) => ({ calls, history: [], held: [],
    stateful: new Compactor({ threshold: THRESHOLD, summarize: (r) => { statefulSummaries++; return defaultSummary(r); } }) }));
  let summaries = 0;
  for (let i = 0; runs.some((run) => i < run.calls.length); i++) {
    for (const run of runs) {
      if (i >= run.calls.length) continue;
      run.held.push(...structuredClone(run.calls[i]));
      run.history.push(...structuredClone(run.calls[i]));
      await run.stateful.compact(run.held);
      const seen = llm.requests.length;
      const res = await fetch(url, {
        method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
        body: JSON.stringify({ model: 'bench', messages: run.history }),
      });
      if (res.status !== 200) throw new Error(`proxy answered ${res.status}: ${await res.text()}`);
      await res.arrayBuffer();
      summaries += llm.requests.length - seen - 1;
    }
  }
  return { summaries, statefulSummaries };
}

async function proxyTable() {
  const llm = await startMockLLM();
  const dir = await mkdtemp(path.join(os.tmpdir(), 'midfold-bench-'));
  const upstream = `${llm.url}/v1`;
  await writeFile(path.join(dir, 'config.capnp'), `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
    (name = "with", worker = .withState), (name = "without", worker = .withoutState),
    (name = "loopback", network = (allow = ["127.0.0.1/32"])),
  ],
  sockets = [
    (name = "with", address = "127.0.0.1:0", http = (), service = "with"),
    (name = "without", address = "127.0.0.1:0", http = (), service = "without"),
  ],
);
${workerConfig('withState', WORKER, dir, bindings(upstream), [], { sessions: true })}
${workerConfig('withoutState', WORKER, dir, bindings(upstream))}
`);
  const wd = await startWorkerd({ config: path.join(dir, 'config.capnp') });
  const rows = [];
  const alikeRows = [];
  try {
    for (const turns of [10, 100]) {
      const { calls } = longSession({ turns, format: 'openai', seed: 31 });
      const after = await replay(llm, `${wd.url('with')}/v1/chat/completions`, calls);
      const before = await replay(llm, `${wd.url('without')}/v1/chat/completions`, calls);
      rows.push([turns, calls.length, after.statefulSummaries, before.summaries, after.summaries,
        pct(mean(before.reuse)), pct(mean(after.reuse)), pct(mean(after.statefulReuse))]);
    }
    // (each session's seed differs; all open with the same system prompt and request)
    for (const count of ALIKE) {
      const sessions = Array.from({ length: count }, (_, k) => longSession({ turns: 40, format: 'openai', seed: 60 + k }).calls);
      const alike = await replayAlike(llm, `${wd.url('with')}/v1/chat/completions`, sessions);
      alikeRows.push([count, sessions.reduce((n, c) => n + c.length, 0), alike.statefulSummaries, alike.summaries]);
    }
  } finally {
    await wd.stop();
    await llm.close();
    await rm(dir, { recursive: true, force: true });
  }
  console.log(`\nThe edge proxy in workerd, THRESHOLD ${THRESHOLD} (safe profile)\n`);
  console.log('| turns | calls | summaries: stateful Compactor | proxy without state | proxy with state | prefix reused: without state | with state | stateful Compactor |');
  console.log('|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of rows) console.log(`| ${r.join(' | ')} |`);
  console.log('\nConversations that open alike (one state key), 40 turns each, interleaved turn by turn through the proxy with state\n');
  console.log('| conversations | calls | summaries: a stateful Compactor each | proxy with state |');
  console.log('|---:|---:|---:|---:|');
  for (const r of alikeRows) console.log(`| ${r.join(' | ')} |`);
}

/**
 * One call under a key that seven other conversations share (conversationKey gives conversations that open
 * alike one key), more recently extended than this one: their snapshots, synthesized from this one's (counts
 * 50-100 % of it, other prefixes and byte lengths), sit first. Timed with the snapshots' byte lengths, and
 * without them (a state written before they were stored: each of the others is hashed to be told apart).
 */
async function sharedKey(snapshot, sent, options, time) {
  const own = JSON.parse(snapshot);
  const newest = own.snapshots[0];
  if (!newest) return ['—', '—', '(nothing remembered)'];
  const others = Array.from({ length: 7 }, (_, k) => ({ ...newest, branch: k + 1, count: Math.max(1, Math.floor(newest.count * (0.5 + k / 14))),
    prefix: (k + 1).toString(16).repeat(64), bytes: newest.bytes + k + 1, items: [[0, 1]] }));
  const state = { ...own, snapshots: [...others, ...own.snapshots.map((s) => ({ ...s, branch: 0 }))] };
  const withoutBytes = { ...state, snapshots: state.snapshots.map(({ bytes, ...s }) => s) };
  const withBytes = await time(() => compactHistory(new Compactor(options), sent, { state: SessionState.from(state) }));
  const hashed = await time(() => compactHistory(new Compactor(options), sent, { state: SessionState.from(withoutBytes) }));
  return [withBytes.toFixed(1), hashed.toFixed(1), (hashed / withBytes).toFixed(2)];
}

async function costTable() {
  const rows = [];
  const shared = [];
  for (const size of [100, 1000, 10000]) {
    // A session of about `size` messages, replayed to its end; the last call is timed.
    const turns = Math.ceil(size / 5);
    const { calls } = longSession({ turns, format: 'openai', seed: 41 });
    let cut = calls.length;
    while (cut > 1 && calls.slice(0, cut - 1).flat().length >= size) cut--;
    const history = calls.slice(0, cut).flat();
    const last = history.length - calls[cut - 1].length;
    const summarize = digestSummarizer();
    const options = { threshold: 50000, summarize };
    const state = new SessionState();
    const stateful = new Compactor(options);
    const held = [];
    for (let i = 0; i < cut - 1; i++) {
      held.push(...structuredClone(calls[i]));
      await stateful.compact(held);
      await compactHistory(new Compactor(options), JSON.parse(JSON.stringify(calls.slice(0, i + 1).flat())), { state });
    }
    const sent = JSON.parse(JSON.stringify(history));
    const time = async (fn, n = 5) => {
      const runs = [];
      for (let i = 0; i < n; i++) { const t = performance.now(); await fn(); runs.push(performance.now() - t); }
      return runs.sort((a, b) => a - b)[Math.floor(n / 2)];
    };
    const snapshot = JSON.stringify(state);
    const withState = await time(() => compactHistory(new Compactor(options), sent, { state: SessionState.from(snapshot) }));
    const fresh = await time(() => compactHistory(new Compactor(options), sent, { state: new SessionState() }));
    const heldNext = [...held, ...structuredClone(calls[cut - 1])];
    const statefulMs = await time(() => new Compactor(options).compact(structuredClone(heldNext)));
    rows.push([history.length, last, withState.toFixed(1), fresh.toFixed(1), statefulMs.toFixed(1), snapshot.length]);
    shared.push([history.length, ...(await sharedKey(snapshot, sent, options, time))]);
  }
  console.log('\ncompactHistory, one call (median of 5, ms; threshold 50,000; the fresh plan pays a summary once the history passes it)\n');
  console.log('| messages sent | of them remembered | with state | fresh state | stateful Compactor (own array, incl. a copy) | state JSON, bytes |');
  console.log('|---:|---:|---:|---:|---:|---:|');
  for (const r of rows) console.log(`| ${r.join(' | ')} |`);
  console.log('\nThe same call under a key seven more recently extended conversations share (median of 5, ms)\n');
  console.log('| messages sent | with the snapshots\' byte lengths | without them (each other prefix hashed) | × |');
  console.log('|---:|---:|---:|---:|');
  for (const r of shared) console.log(`| ${r.join(' | ')} |`);
}

console.log(`midfold proxy-state bench — node ${process.version}, ${os.cpus().length} × ${os.cpus()[0].model}, load ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}, ${new Date().toISOString()}`);
await init();
await proxyTable();
if (!process.argv.includes('--proxy-only')) await costTable();
