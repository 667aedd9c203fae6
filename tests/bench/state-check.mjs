// The per-call check of a conversation that grows by one turn a call, below every trigger, four ways in one run:
// compactHistory with a SessionState carried from call to call (what the AI SDK middleware, compactStep, the
// Agents filter and the proxy run on every call), the stateful Compactor's own check (one Compactor holding the
// array), LangChain's summarizationMiddleware beforeModel (its check: count the messages, compare with the
// trigger) and the AI SDK's pruneMessages, each on its own shape of the same conversation (peers.mjs, converted
// outside the timing). Both midfold rows run before any fold (the state remembers nothing yet) and after one (the
// state holds the folded form, which every call matches and extends).
// Three more midfold columns: the match alone (the history's canonical pieces and SessionState's match); the call
// through the states the integrations keep when given none (conversationStates); the call on a history rebuilt
// from its JSON before each call (untimed), as a proxy receives it, beside what that host's JSON.parse of it costs.
// Prints one markdown table; ratios are against the stateful check of the same row. Nothing here asserts time.
//
//   node tests/bench/state-check.mjs [--rounds N]
import { init, Compactor, SessionState, compactHistory, digestSummarizer } from '../../js/hosts/node.js';
import { conversation, fmt, machine, median, now, table } from './lib.mjs';
import { toAiSdk, toLangChain } from './peers.mjs';
import { historyBytes } from '../../js/state/hash.js';
import { compactorSettings } from '../../js/state/compact-history.js';
import { ConversationStates } from '../../js/state/conversation-states.js';

const ROUNDS = Number(process.argv[process.argv.indexOf('--rounds') + 1]) || 15;
const KEEP = 3;
await init();

const optional = async (spec) => { try { return await import(spec); } catch { return null; } };
const langchain = await optional('langchain');
const lcMessages = await optional('@langchain/core/messages');
const lcTesting = await optional('@langchain/core/utils/testing');
const aiSdk = await optional('ai');

// Under both triggers: every call is a check that changes nothing (the fold below is forced; the generated
// session ends inside a signed tool loop, which the default policy would not fold under).
const options = () => ({ summarize: digestSummarizer(), threshold: 1e9, microTrigger: 1e9, thinking: 'unbound' });

/** Per-call times (ms) of `step(n, input)` for histories of `size` + 2, `size` + 4, …: `rounds` calls after two warm
 * ones; `prepare(n)`, untimed, makes each call's input (a history rebuilt from JSON, as a proxy receives it). */
async function perCall(size, step, rounds = ROUNDS, prepare = () => undefined) {
  const times = [];
  for (let r = 0; r < rounds + 2; r++) {
    const n = size + 2 * (r + 1);
    const input = prepare(n);
    const t0 = now();
    await step(n, input);
    if (r >= 2) times.push(now() - t0);
  }
  // On a shared machine a call now and then waits for the CPU: the fastest call says what the
  // work costs, the median what a caller sees.
  return { median: median(times), best: Math.min(...times) };
}

/** A cell: the median and fastest call, and their ratios to `base` (another cell). */
const cell = (x, base) => (base ? `${fmt(x.median)} / ${fmt(x.best)} (${fmt(x.median / base.median, 2)}× / ${fmt(x.best / base.best, 2)}×)`
  : `${fmt(x.median)} / ${fmt(x.best)}`);

/** One size's rows: [before any fold, after a fold], each [cells…]. */
async function rowsOf(size, rounds) {
  const rows = [];
  const all = conversation(size + 2 * (rounds + 4), 41);
  for (const folded of [false, true]) {
    // The stateful Compactor: one array, one Compactor, a turn appended before each check.
    const held = all.slice(0, size);
    const stateful = new Compactor(options());
    await stateful.compact(held, folded ? { force: true } : {});
    let had = size;
    const check = await perCall(size, async (n) => {
      held.push(...all.slice(had, n)); had = n;
      const report = await stateful.compact(held);
      if (report.reason !== 'below-threshold') throw new Error(`the stateful check did ${report.reason}`);
    }, rounds);
    // compactHistory: the whole history each call, the state carried.
    const state = new SessionState();
    const stateless = new Compactor(options());
    const first = await compactHistory(stateless, all.slice(0, size), { state, ...(folded ? { force: true } : {}) });
    if (folded !== first.report.compacted) throw new Error(`the first call should fold only when forced: ${first.report.reason}`);
    const carried = await perCall(size, async (n) => {
      const { report } = await compactHistory(stateless, all.slice(0, n), { state });
      if (report.reason !== 'below-threshold' || report.session.matched !== (folded ? n - 2 : 0))
        throw new Error(`compactHistory: ${report.reason}, matched ${report.session.matched}`);
    }, rounds);
    // The same through the states an integration keeps when the host gives none (conversationStates: found by the
    // conversation's opening, measured after every call that records a snapshot), bounded as the module's are.
    const states = new ConversationStates(4096, 'bench', { maxBytes: 64 * 1024 * 1024 });
    const keptCompactor = new Compactor(options());
    await compactHistory(keptCompactor, all.slice(0, size), { state: await states.of(all.slice(0, size)), ...(folded ? { force: true } : {}) });
    const kept = await perCall(size, async (n) => {
      const history = all.slice(0, n);
      const { report } = await compactHistory(keptCompactor, history, { state: await states.of(history) });
      if (report.reason !== 'below-threshold' || report.session.matched !== (folded ? n - 2 : 0))
        throw new Error(`compactHistory (integration states): ${report.reason}, matched ${report.session.matched}`);
    }, rounds);
    // The match alone, what compactHistory does before it builds the array the Compactor checks: the history's
    // canonical pieces through the estimate cache (one structural walk), then the state's match (a prefix of
    // pieces seen before reuses its hash). On a state of its own, which remembers the first call's prefix.
    const matchState = new SessionState();
    const matchCompactor = new Compactor(options());
    await compactHistory(matchCompactor, all.slice(0, size), { state: matchState, ...(folded ? { force: true } : {}) });
    const settings = compactorSettings(matchCompactor);
    const match = await perCall(size, async (n) => {
      const { snapshot, flight } = await matchState.begin(historyBytes(all.slice(0, n), matchCompactor.estimates), settings);
      matchState.end(flight);
      if ((snapshot ? snapshot.count : 0) !== (folded ? size : 0)) throw new Error('the match found another prefix');
    }, rounds);
    // The same, each call's history new objects parsed from its JSON (a proxy, the AI SDK's prompt): the parse is
    // the host's and is not timed.
    const rebuiltState = new SessionState();
    const rebuiltCompactor = new Compactor(options());
    await compactHistory(rebuiltCompactor, all.slice(0, size), { state: rebuiltState, ...(folded ? { force: true } : {}) });
    const rebuilt = await perCall(size, async (n, input) => {
      const { report } = await compactHistory(rebuiltCompactor, input, { state: rebuiltState });
      if (report.reason !== 'below-threshold' || report.session.matched !== (folded ? n - 2 : 0))
        throw new Error(`compactHistory (rebuilt): ${report.reason}, matched ${report.session.matched}`);
    }, rounds, (n) => JSON.parse(JSON.stringify(all.slice(0, n))));
    // For scale, what such a host pays itself before the call: JSON.parse of the history's text (the request body).
    const parse = folded ? null : await perCall(size, (n, text) => { JSON.parse(text); }, rounds, (n) => JSON.stringify(all.slice(0, n)));
    const row = [size.toLocaleString('en'), folded ? 'after a fold' : 'before any fold', cell(check), cell(carried, check), cell(match, check), cell(kept, check), cell(rebuilt, check), parse ? cell(parse, check) : ''];
    if (!folded) {
      // The peers have no fold to carry: measured once per size, on the row before any fold.
      let lc = null;
      if (langchain && lcMessages && lcTesting) {
        const lcAll = toLangChain(all, lcMessages);
        const middleware = langchain.summarizationMiddleware({ model: new lcTesting.FakeListChatModel({ responses: ['-'] }),
          trigger: { tokens: 1e9 }, keep: { messages: 20 } });
        const lcSize = toLangChain(all.slice(0, size), lcMessages).length;
        lc = await perCall(lcSize, async (n) => {
          if ((await middleware.beforeModel({ messages: lcAll.slice(0, n) }, { context: {} })) !== undefined) throw new Error('LangChain summarized');
        }, rounds);
      }
      let prune = null;
      if (aiSdk && typeof aiSdk.pruneMessages === 'function') {
        const aiAll = toAiSdk(all);
        const aiSize = toAiSdk(all.slice(0, size)).length;
        prune = await perCall(aiSize, (n) => aiSdk.pruneMessages({ messages: aiAll.slice(0, n), toolCalls: `before-last-${2 * KEEP}-messages` }), rounds);
      }
      row.push(lc === null ? '— (not installed)' : cell(lc, check), prune === null ? '— (not installed)' : cell(prune, check));
    } else row.push('', '');
    rows.push(row);
  }
  return rows;
}

// Every path once on a short conversation first, untimed (V8 compiles what runs often).
await rowsOf(300, 20);
const rows = [...await rowsOf(1000, 3 * ROUNDS), ...await rowsOf(10000, ROUNDS)];

const m = machine();
console.log(`# The per-call check beside its peers (${m.cpu}, ${m.cores} cores, Node ${m.node}, load ${m.load.toFixed(1)}, ${m.date}; ms per call, median / fastest of ${3 * ROUNDS} calls at 1,000 messages and ${ROUNDS} at 10,000, each call one turn longer; × = the same relative to the stateful Compactor's check of the same row)\n`);
console.log(table(['messages', 'state', 'stateful Compactor check', 'compactHistory + SessionState', 'of which the match', "the same, the integrations' states", 'the same, history rebuilt from JSON each call', "(the host's JSON.parse of that history)", "LangChain summarizationMiddleware's check",
  `AI SDK pruneMessages (toolCalls before-last-${2 * KEEP}-messages)`], rows));
