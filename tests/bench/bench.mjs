#!/usr/bin/env node
/**
 * bench.mjs — `make bench`: midfold against what a user would use instead, measured in
 * the same run, printed as markdown tables with the machine and date.
 *
 *   node tests/bench/bench.mjs [--quick]
 *
 * 1. Text estimation (MB/s of UTF-8 input, MB = 10^6 bytes) on ASCII (English prose and
 *    code) and Chinese at 1 KB, 100 KB and 10 MB, with the default profile and with the
 *    fitted ones.
 * 2. Conversations (Anthropic format, coding agent) of 100, 1,000 and 10,000 messages, one
 *    of ~5.3 MB (as in shared/MEASUREMENTS.md) and one of 1,000 messages whose texts and
 *    tool outputs are Chinese: estimate, micro-compact, plan a compaction, serialize,
 *    against a plain JS walker of the same weights and JSON.stringify; and on the first
 *    three, against LangChain (countTokensApproximately, trimMessages, ClearToolUsesEdit)
 *    and the AI SDK (pruneMessages), on copies converted once outside the timing
 *    (peers.mjs). A peer call too slow to finish in the run's budget is stopped at a
 *    deadline and its full time extrapolated from the share of its work done.
 * 3. Download size (gzip -9) of what a browser loads (size.mjs): first the download table,
 *    each page's import line bundled and minified by esbuild plus the .wasm it fetches —
 *    midfold's browser entry (a page that estimates and compacts, one that only estimates,
 *    the whole entry) and midfold/memory, against tokenx, gpt-tokenizer and the AI SDK's
 *    pruneMessages; then the import graph of each entry file by file, unminified, with
 *    tiktoken and js-tiktoken.
 *
 * Every figure is the median of several interleaved samples; ratios compare
 * implementations measured in the same run. Nothing here asserts on time; the only
 * check is that midfold and the plain JS reference count exactly the same.
 * The diagnostic behind the analysis is boundary.mjs (where estimateTokens' time goes).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { init, digest, estimateTokens, microCompact, planCompaction, serialize } from '../../js/hosts/node.js';
import {
  asciiText, chineseConversation, chineseText, conversation, conversationOfSize, consume, fmt, jsEstimateMessages, jsEstimateText,
  machine, measure, measureAsync, rng, Stopped, table,
} from './lib.mjs';
import { clearWork, countingCounter, toAiSdk, toLangChain, trimWork } from './peers.mjs';
import { downloadTable, importGraph, resolvePackage, sizes } from './size.mjs';

const QUICK = process.argv.includes('--quick');
const ROUNDS = QUICK ? 3 : 9;
const SAMPLE_MS = QUICK ? 15 : 60;
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const t0 = performance.now();
const log = (...a) => console.log(...a);
const note = (s) => process.stderr.write(`# ${s}\n`);

// Nothing here may reach the network: any fetch is refused and reported.
const networkAttempts = [];
globalThis.fetch = async (url) => {
  networkAttempts.push(String(url && url.url ? url.url : url));
  throw new Error('bench.mjs: network access refused');
};

let tokenx = null, gpt = null;
try { tokenx = await import('tokenx'); } catch { note('tokenx not installed (npm ci): its rows are skipped'); }
try { gpt = await import('gpt-tokenizer'); } catch { note('gpt-tokenizer not installed (npm ci): its rows are skipped'); }
// The peers of section 2 (devDependencies); a missing or failing one is said in the output.
const peerProblems = [];
const tryImport = async (spec, what) => {
  try { return await import(spec); } catch (e) {
    peerProblems.push(`${what} (${spec}) could not be loaded: ${e.message.split('\n')[0]}`);
    note(`${spec} not usable (npm ci?): its rows are skipped`);
    return null;
  }
};
const lcMessages = await tryImport('@langchain/core/messages', 'LangChain trimMessages');
const langchain = await tryImport('langchain', 'LangChain ClearToolUsesEdit and countTokensApproximately');
const aiSdk = await tryImport('ai', 'AI SDK pruneMessages');
if (langchain && typeof langchain.ClearToolUsesEdit !== 'function') peerProblems.push('langchain does not export ClearToolUsesEdit');
if (aiSdk && typeof aiSdk.pruneMessages !== 'function') peerProblems.push('ai does not export pruneMessages (it needs ai v5 or later)');
const version = (name) => {
  try { return JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules', name, 'package.json'), 'utf8')).version; } catch { return '?'; }
};

await init();

const m = machine();
log(`# midfold benchmarks${QUICK ? ' (--quick)' : ''}\n`);
log(`- date: ${m.date}`);
log(`- machine: ${m.cpu}, ${m.cores} cores, ${m.platform}; load average (1 min) at the start ${m.load.toFixed(2)} (other processes share the cores when it is near or above the core count)`);
log(`- node ${m.node} (V8 ${m.v8}); tokenx ${version('tokenx')}, gpt-tokenizer ${version('gpt-tokenizer')} (o200k), @langchain/core ${version('@langchain/core')}, langchain ${version('langchain')}, ai ${version('ai')}, tiktoken ${version('tiktoken')}, js-tiktoken ${version('js-tiktoken')}`);
log(`- method: each cell is the median of ${ROUNDS} samples of ≥${SAMPLE_MS} ms (or one call), implementations interleaved round by round; MB = 10^6 bytes (UTF-8 of the text; JSON.stringify length for conversations)`);
log('');

// ------------------------------------------------------------------ warm-up
// On short inputs first: a JS function whose first calls see one huge string can be
// deoptimized by V8 and stay slow (MEASUREMENTS.md).
const encoder = new TextEncoder();
let encBuf = new Uint8Array(1 << 16);
function encodeIntoOnly(s) {
  if (encBuf.length < s.length * 3) encBuf = new Uint8Array(s.length * 3);
  return encoder.encodeInto(s, encBuf).written;
}
const TEXT_IMPLS = [
  { name: 'midfold estimateTokens', fn: (s) => estimateTokens(s) },
  // The fitted profiles run the feature pass (classes, runs, letter pairs) instead of the class counts.
  { name: "midfold estimateTokens, profile 'o200k'", fn: (s) => estimateTokens(s, { profile: 'o200k' }) },
  { name: "midfold estimateTokens, profile 'safe' (5 profiles)", fn: (s) => estimateTokens(s, { profile: 'safe' }) },
  { name: 'plain JS loop (same weights)', fn: jsEstimateText },
  ...(tokenx ? [{ name: `tokenx estimateTokenCount`, fn: (s) => tokenx.estimateTokenCount(s) }] : []),
  ...(gpt ? [{ name: 'gpt-tokenizer countTokens (o200k, exact)', fn: (s) => gpt.countTokens(s), maxBytes: 200_000 }] : []),
  { name: 'TextEncoder.encodeInto alone (crossing floor)', fn: encodeIntoOnly },
];
{
  const r = rng(99);
  const shorts = [];
  for (let i = 0; i < 40; i++) shorts.push(asciiText(r, 40 + i * 25), chineseText(r, 40 + i * 25));
  for (const im of TEXT_IMPLS) for (let k = 0; k < 30; k++) for (const s of shorts) consume(im.fn(s));
  const small = conversation(20, 5);
  for (let k = 0; k < 50; k++) {
    consume(estimateTokens(small)); consume(jsEstimateMessages(small)); consume(JSON.stringify(small));
    consume(serialize(small)); consume(microCompact(structuredClone(small), { keepRecent: 3 }).cleared);
  }
}

// ------------------------------------------------------------------ 1. text
const SIZES = [['1 KB', 1_000, 64], ['100 KB', 100_000, 4], ['10 MB', 10_000_000, 1]];
const checks = [];
const textResults = {};
for (const [lang, gen] of [['ASCII (English prose + code)', asciiText], ['Chinese', chineseText]]) {
  textResults[lang] = {};
  for (const [label, bytes, poolSize] of SIZES) {
    const r = rng(bytes + lang.length);
    const pool = [];
    for (let i = 0; i < poolSize; i++) pool.push(gen(r, bytes));
    const poolBytes = pool.map((s) => Buffer.byteLength(s));
    const avgBytes = poolBytes.reduce((a, b) => a + b, 0) / pool.length;
    // correctness, untimed: midfold and the JS loop agree exactly
    if (estimateTokens(pool[0]) !== jsEstimateText(pool[0])) checks.push(`text ${lang} ${label}: midfold ${estimateTokens(pool[0])} ≠ JS ${jsEstimateText(pool[0])}`);
    const impls = TEXT_IMPLS.filter((im) => !im.maxBytes || bytes <= im.maxBytes)
      .map((im) => ({ name: im.name, run: (i) => im.fn(pool[i % pool.length]) }));
    const res = measure(impls, { rounds: ROUNDS, sampleMs: SAMPLE_MS });
    for (const k in res) res[k].mbps = avgBytes / 1e6 / (res[k].ms / 1e3);
    textResults[lang][label] = res;
    note(`text ${lang} ${label} done (${((performance.now() - t0) / 1e3).toFixed(1)} s)`);
  }
}

log('## 1. Text estimation (MB/s of UTF-8 input; × = speed relative to midfold in the same run, >1 is faster)\n');
for (const lang in textResults) {
  log(`### ${lang}\n`);
  const head = ['implementation'];
  for (const [label] of SIZES) head.push(`${label} MB/s`, '×');
  const rows = TEXT_IMPLS.map((im) => {
    const row = [im.name];
    for (const [label] of SIZES) {
      const res = textResults[lang][label];
      const x = res[im.name];
      if (!x) { row.push('— (too slow)', ''); continue; }
      row.push(fmt(x.mbps), fmt(x.mbps / res['midfold estimateTokens'].mbps, 2));
    }
    return row;
  });
  log(table(head, rows));
  log('');
}

// ------------------------------------------------------------------ 2. conversations
const CONV_SIZES = [['100 msgs', () => conversation(100, 11)], ['1,000 msgs', () => conversation(1000, 12)],
  ['10,000 msgs', () => conversation(10000, 13)], ['5.3 MB', () => conversationOfSize(5_300_000, 14)],
  ['1,000 msgs, Chinese texts and outputs', () => chineseConversation(1000, 15)]];
const GROWTH = CONV_SIZES.slice(0, 3).map(([label]) => label); // the peers run on these
const TAIL_TOKENS = 10000;
const KEEP = 3;
// A peer call at most this long; a longer one is stopped and its time extrapolated.
const PEER_DEADLINE_MS = QUICK ? 2000 : 10000;
// The time one slow implementation may spend in the timed rounds of one conversation.
const SLOW_BUDGET_MS = QUICK ? 800 : 3000;
const N = {
  est: 'midfold estimateTokens(messages)',
  estSafe: "midfold estimateTokens(messages, profile 'safe') (the Compactor's default)",
  walker: 'plain JS walker (same weights)',
  json: 'JSON.stringify(messages)',
  ser: 'midfold serialize(messages)',
  digest: 'midfold digest(messages) (the offline summary, 2,000 tokens)',
  micro: `midfold microCompact (keepRecent ${KEEP})`,
  plan: `midfold planCompaction (keepTailTokens ${TAIL_TOKENS})`,
  microAi: `midfold microCompact on the AI SDK copy (keepRecent ${KEEP})`,
  lcCount: 'LangChain countTokensApproximately(messages)',
  lcTrim: `LangChain trimMessages (strategy last, maxTokens ${TAIL_TOKENS})`,
  lcClear: `LangChain ClearToolUsesEdit.apply (keep ${KEEP} results)`,
  prune: `AI SDK pruneMessages (toolCalls before-last-${2 * KEEP}-messages)`,
};
const CONV_IMPLS = [N.est, N.estSafe, N.walker, N.json, N.ser, N.digest, N.micro, N.plan];
// Each peer beside the midfold operation that does its job (the ratio column).
const PEERS = [[N.lcCount, N.est], [N.lcTrim, N.plan], [N.lcClear, N.micro], [N.prune, N.microAi]]
  .filter(([name]) => (name === N.prune ? aiSdk : name === N.lcTrim ? lcMessages : lcMessages && langchain));
const PEER_ROWS = [N.est, N.plan, N.micro, N.microAi, ...PEERS.map(([name]) => name)];
// LangChain's approximate counter (characters / 4, tool calls as JSON), which its
// context-editing middleware uses by default; a plain length-based one if langchain is missing.
const approxCounter = langchain ? langchain.countTokensApproximately
  : (list) => Math.ceil(list.reduce((a, x) => a + (typeof x.content === 'string' ? x.content.length : JSON.stringify(x.content).length), 0) / 4);

/**
 * The implementations timed on one conversation. `withPeers` adds the LangChain and AI SDK
 * rows (on copies converted here, untimed). `last` receives what the latest call did.
 */
function convImpls(msgs, withPeers, last) {
  let clones = [];
  const impls = [
    { name: N.est, run: () => estimateTokens(msgs) },
    // The fitted profiles' feature pass, five prices: what a compaction trigger pays per check.
    { name: N.estSafe, run: () => estimateTokens(msgs, { profile: 'safe' }) },
    { name: N.walker, run: () => jsEstimateMessages(msgs) },
    { name: N.json, run: () => JSON.stringify(msgs) },
    { name: N.ser, run: () => serialize(msgs) },
    { name: N.digest, run: () => digest(msgs, { maxTokens: 2000 }) },
    {
      name: N.micro,
      prepare: (k) => { clones = []; for (let i = 0; i < k; i++) clones.push(structuredClone(msgs)); },
      run: (i) => microCompact(clones[i], { keepRecent: KEEP }).cleared,
    },
    { name: N.plan, run: () => planCompaction(msgs, { keepTailTokens: TAIL_TOKENS }).tailStart },
  ];
  if (!withPeers) return { impls };
  const lcMsgs = lcMessages ? toLangChain(msgs, lcMessages) : null;
  const aiMsgs = toAiSdk(msgs);
  let aiClones = [];
  impls.push({
    name: N.microAi,
    prepare: (k) => { aiClones = []; for (let i = 0; i < k; i++) aiClones.push(structuredClone(aiMsgs)); },
    run: (i) => (last.microAi = microCompact(aiClones[i], { keepRecent: KEEP }).cleared),
  });
  const counters = {};
  if (langchain && lcMsgs) impls.push({ name: N.lcCount, run: () => approxCounter(lcMsgs) });
  if (lcMessages) {
    const c = counters[N.lcTrim] = countingCounter(approxCounter, Stopped);
    c.work = () => trimWork(lcMsgs, TAIL_TOKENS, approxCounter);
    impls.push({
      name: N.lcTrim, deadlineMs: PEER_DEADLINE_MS, budgetMs: SLOW_BUDGET_MS,
      run: async (i, deadline) => {
        c.state.deadline = deadline; c.state.counted = 0;
        const kept = await lcMessages.trimMessages(lcMsgs, { maxTokens: TAIL_TOKENS, strategy: 'last', tokenCounter: c.fn });
        return (last.trimKept = kept.length);
      },
    });
  }
  if (langchain && lcMessages) {
    const c = counters[N.lcClear] = countingCounter(approxCounter, Stopped);
    c.work = () => clearWork(lcMsgs, KEEP, (x) => lcMessages.ToolMessage.isInstance(x));
    const edit = new langchain.ClearToolUsesEdit({ trigger: { tokens: 1 }, keep: { messages: KEEP } });
    let copies = [];
    impls.push({
      name: N.lcClear, deadlineMs: PEER_DEADLINE_MS, budgetMs: SLOW_BUDGET_MS,
      prepare: (k) => { copies = []; for (let i = 0; i < k; i++) copies.push(lcMsgs.slice()); },
      run: async (i, deadline) => {
        c.state.deadline = deadline; c.state.counted = 0;
        await edit.apply({ messages: copies[i], countTokens: c.fn });
        let cleared = 0;
        for (const x of copies[i]) if (x.content === '[cleared]') cleared++;
        return (last.lcCleared = cleared);
      },
    });
  }
  if (aiSdk) {
    impls.push({
      name: N.prune,
      run: () => (last.pruned = aiSdk.pruneMessages({ messages: aiMsgs, toolCalls: `before-last-${2 * KEEP}-messages` }).length),
    });
  }
  return { impls, counters, lcCount: lcMsgs ? lcMsgs.length : 0, aiCount: aiMsgs.length, aiMsgs };
}

// warm-up of every implementation on a small conversation
{
  const small = conversation(20, 5);
  const { impls } = convImpls(small, true, {});
  for (let k = 0; k < 20; k++) for (const im of impls) { if (im.prepare) im.prepare(1); consume(await im.run(0, Infinity)); }
}

const convResults = {};
const convInfo = {};
const modelNotes = [];
let schemaChecked = false, modelChecked = 0;
for (const [label, make] of CONV_SIZES) {
  let msgs = make();
  const withPeers = GROWTH.includes(label);
  const bytes = JSON.stringify(msgs).length;
  const est = estimateTokens(msgs), walk = jsEstimateMessages(msgs);
  if (est !== walk) checks.push(`conversation ${label}: midfold ${est} ≠ JS walker ${walk}`);
  const probe = structuredClone(msgs);
  const cleared = microCompact(probe, { keepRecent: KEEP }).cleared;
  const plan = planCompaction(msgs, { keepTailTokens: TAIL_TOKENS });
  const last = {};
  const { impls, counters, lcCount, aiCount, aiMsgs } = convImpls(msgs, withPeers, last);
  // untimed: the AI SDK copy is what the AI SDK itself accepts
  if (aiMsgs && aiSdk && aiSdk.modelMessageSchema && label === GROWTH[0]) {
    const bad = aiMsgs.findIndex((x) => !aiSdk.modelMessageSchema.safeParse(x).success);
    if (bad >= 0) modelNotes.push(`the AI SDK copy of ${label} fails the AI SDK's modelMessageSchema at message ${bad}`);
    else schemaChecked = true;
  }
  const res = await measureAsync(impls, { rounds: ROUNDS, sampleMs: SAMPLE_MS * 2 });
  for (const [name, c] of Object.entries(counters || {})) {
    const x = res[name];
    const work = c.work();
    if (x.stopped) {
      x.done = c.state.counted / work;
      x.est = x.ms / Math.max(x.done, 1e-9);
    } else if (c.state.counted === work) modelChecked++;
    else {
      modelNotes.push(`${name} on ${label}: counted ${c.state.counted.toLocaleString('en-US')} messages, the work model says ${work.toLocaleString('en-US')}`);
    }
  }
  for (const k in res) res[k].mbps = bytes / 1e6 / (time(res[k]) / 1e3);
  convResults[label] = res;
  convInfo[label] = {
    messages: msgs.length, bytes, tokens: est, cleared, transcript: serialize(msgs).length, planKept: msgs.length - plan.tailStart,
    lcCount, aiCount, ...last, trimStopped: res[N.lcTrim]?.stopped, clearStopped: res[N.lcClear]?.stopped,
  };
  msgs = null;
  note(`conversation ${label} done (${((performance.now() - t0) / 1e3).toFixed(1)} s)`);
}

/** The time a row stands for: the median, or the extrapolation of a stopped call. */
function time(x) { return x.stopped ? x.est : x.ms; }
const approxMark = (x) => (x.stopped ? '≈' : '');
const num = (v) => (v === undefined ? '—' : v.toLocaleString('en-US'));

log('## 2. Conversations (Anthropic format, coding agent; from JS objects)\n');
log(table(['conversation', 'messages', 'JSON bytes', 'estimate (tokens)', 'cleared by microCompact', 'tail kept by planCompaction (messages)', 'transcript chars'],
  CONV_SIZES.map(([label]) => {
    const i = convInfo[label];
    return [label, num(i.messages), num(i.bytes), num(i.tokens), num(i.cleared), num(i.planKept), num(i.transcript)];
  })));
log('');
log('Each cell: ms per call (median) · MB/s of the JSON size · time relative to the plain JS walker on the same conversation (<1 is faster than the walker)\n');
{
  const head = ['operation', ...CONV_SIZES.map(([label]) => label)];
  log(table(head, CONV_IMPLS.map((name) => {
    const row = [name];
    for (const [label] of CONV_SIZES) {
      const x = convResults[label][name], w = convResults[label][N.walker];
      row.push(`${fmt(x.ms)} ms · ${fmt(x.mbps)} · ${fmt(x.ms / w.ms, 2)}×`);
    }
    return row;
  })));
  log('');
  const [a, b, c] = GROWTH;
  const br = (p, q) => convInfo[q].bytes / convInfo[p].bytes;
  log(`Growth (time ratio between sizes; linear = the size ratio: ${fmt(br(a, b), 3)}× bytes from ${a} to ${b}, ${fmt(br(b, c), 3)}× from ${b} to ${c})\n`);
  log(table(['operation', `${b} ÷ ${a}`, `${c} ÷ ${b}`, `MB/s at ${a} → ${b} → ${c}`, '× walker at each size (steady = grows like the walker; less sensitive to machine noise)'], CONV_IMPLS.map((name) => {
    const x = (l) => convResults[l][name];
    const wr = (l) => fmt(x(l).ms / convResults[l][N.walker].ms, 2);
    return [name, `${fmt(x(b).ms / x(a).ms)}×`, `${fmt(x(c).ms / x(b).ms)}×`, `${fmt(x(a).mbps)} → ${fmt(x(b).mbps)} → ${fmt(x(c).mbps)}`, `${wr(a)} → ${wr(b)} → ${wr(c)}`];
  })));
  log('');
}

log('### Against LangChain and the Vercel AI SDK\n');
log([
  `Same conversations, same runs (the peers' rows were timed interleaved with midfold's above). Each peer gets the conversation in its own shape, converted once outside the timing (tests/bench/peers.mjs): LangChain BaseMessages (an AIMessage with tool_calls; one ToolMessage per tool result) and AI SDK ModelMessages (tool-call parts; a \`tool\` message of tool-result parts).`,
  `- ${N.lcCount}: LangChain's approximate counter (characters / 4, tool calls as JSON; langchain ${version('langchain')}), the counter its context-editing middleware uses by default. Beside midfold estimateTokens(messages).`,
  `- ${N.lcTrim}: trimMessages from @langchain/core/messages ${version('@langchain/core')}, keeping the last ${TAIL_TOKENS.toLocaleString('en-US')} tokens with ${langchain ? 'countTokensApproximately as tokenCounter' : 'a plain characters / 4 tokenCounter (langchain not loadable)'}, no partial messages. Beside midfold planCompaction (which finds the tail of ${TAIL_TOKENS.toLocaleString('en-US')} tokens to keep and builds the summary request for the rest).`,
  `- ${N.lcClear}: the context-editing strategy of langchain ${version('langchain')} (agents/middleware, what contextEditingMiddleware runs), used standalone: \`new ClearToolUsesEdit({trigger: {tokens: 1}, keep: {messages: ${KEEP}}}).apply({messages, countTokens: countTokensApproximately})\` on a fresh copy of the array each call (it edits the array in place). It keeps the ${KEEP} most recent tool results (ToolMessages), midfold the ${KEEP} most recent tool-result turns; both clear unconditionally here. Beside midfold microCompact.`,
  `- ${N.prune}: pruneMessages from ai ${version('ai')} (ai 7 declares engines node >=22; 6.x is the newest line for Node 20), which drops the tool calls and results before the last ${2 * KEEP} messages (≈ ${KEEP} call/result turns) and returns a new array. Beside midfold microCompact on the same AI SDK messages (which midfold reads natively).`,
  `- A call is stopped after ${PEER_DEADLINE_MS / 1000} s (its token counter throws at the deadline) and its full time extrapolated linearly from the share of its work done (an estimate: complete calls can take tens of percent more or less): trimMessages counts the prefixes of the reversed list from all N messages down to the kept tail (N + (N−1) + … + kept messages counted), ClearToolUsesEdit counts the whole list once and again after each result it clears; the counts are checked against these models on every call that finishes. ≈ marks an extrapolated figure; slow calls join only as many rounds as fit in ${SLOW_BUDGET_MS / 1000} s.`,
  '',
].join('\n'));
if (peerProblems.length) log(`**Not measured**:\n- ${peerProblems.join('\n- ')}\n`);
log(table(['conversation', 'LangChain messages', 'AI SDK messages', 'planCompaction tail (messages)', 'trimMessages keeps (messages)', 'microCompact clears (Anthropic / AI SDK)', 'ClearToolUsesEdit clears', 'pruneMessages leaves (messages)'],
  GROWTH.map((label) => {
    const i = convInfo[label];
    return [label, num(i.lcCount), num(i.aiCount), num(i.planKept), i.trimStopped ? '— (stopped)' : num(i.trimKept),
      `${num(i.cleared)} / ${num(i.microAi)}`, i.clearStopped ? '— (stopped)' : num(i.lcCleared), num(i.pruned)];
  })));
log('');
const counterpart = Object.fromEntries(PEERS);
{
  log('Each cell: ms per call (median; ≈ extrapolated from a stopped call) · time relative to the midfold operation beside it in the same run (>1 is slower than midfold)\n');
  log(table(['operation', 'beside', ...GROWTH], PEER_ROWS.map((name) => {
    const row = [name, counterpart[name] ? counterpart[name].replace(/ \(.*/, '') : ''];
    for (const label of GROWTH) {
      const res = convResults[label], x = res[name];
      if (!x) { row.push('—'); continue; }
      let cell = `${approxMark(x)}${fmt(time(x))} ms`;
      if (x.stopped) cell += ` (stopped at ${fmt(x.ms / 1000, 2)} s, ${fmt(x.done * 100, 2)}% done)`;
      if (counterpart[name]) cell += ` · ${approxMark(x)}${fmt(time(x) / time(res[counterpart[name]]), 3)}×`;
      row.push(cell);
    }
    return row;
  })));
  log('');
  const [a, b, c] = GROWTH;
  const br = (p, q) => convInfo[q].bytes / convInfo[p].bytes;
  log(`Growth (time ratio between sizes; linear = ${fmt(br(a, b), 3)}× from ${a} to ${b} and ${fmt(br(b, c), 3)}× from ${b} to ${c}; quadratic = about the square)\n`);
  log(table(['operation', `${b} ÷ ${a}`, `${c} ÷ ${b}`, `ms at ${a} → ${b} → ${c}`, '× the midfold operation beside it, at each size'], PEER_ROWS.map((name) => {
    const x = (l) => convResults[l][name];
    if (!x(a) || !x(b) || !x(c)) return [name, '—', '—', '—', '—'];
    const g = (p, q) => `${approxMark(x(p)) || approxMark(x(q))}${fmt(time(x(q)) / time(x(p)))}×`;
    const ms = (l) => `${approxMark(x(l))}${fmt(time(x(l)))}`;
    const vs = (l) => (counterpart[name] ? `${approxMark(x(l))}${fmt(time(x(l)) / time(convResults[l][counterpart[name]]), 3)}` : '');
    return [name, g(a, b), g(b, c), `${ms(a)} → ${ms(b)} → ${ms(c)}`, counterpart[name] ? `${vs(a)} → ${vs(b)} → ${vs(c)}` : '(midfold)'];
  })));
  log('');
  if (modelNotes.length) log(`**Check failed** (a conversion, or a work model the extrapolation assumes):\n- ${modelNotes.join('\n- ')}\n`);
  if (modelChecked) log(`Check: on every conversation where they finished (${modelChecked} cases), trimMessages and ClearToolUsesEdit asked their counter for exactly the messages the work models predict.\n`);
  if (schemaChecked) log(`Check: the AI SDK copy of ${GROWTH[0]} passes the AI SDK's own modelMessageSchema.\n`);
}

// ------------------------------------------------------------------ 3. size
log('## 3. Download size (gzip -9)\n');
log('### What a page downloads: its bundle (esbuild, minified) and the .wasm it fetches\n');
log(await downloadTable());
log('### An entry module and everything it loads, file by file (not minified)\n');
log('The files of each row are its import graph, computed (tests/bench/size.mjs): static and dynamic imports, re-exports and `new URL(…, import.meta.url)` assets, bare specifiers resolved with the browser conditions of package.json "exports". "each file" is what a server sends file by file; "concatenated" approximates a bundle.\n');
{
  const here = fileURLToPath(import.meta.url);
  const rel = (f) => path.relative(ROOT, f).replace(/^node_modules\//, '');
  const graphNotes = [];
  /** The union of the import graphs of some entries (package specifiers or absolute files). */
  const graph = (name, entries) => {
    const files = [];
    for (const e of entries) {
      const file = path.isAbsolute(e) ? e : resolvePackage(e, here);
      if (!file) { graphNotes.push(`${name}: ${e} does not resolve`); return null; }
      const g = importGraph(file);
      for (const b of g.builtins) graphNotes.push(`${name}: ${rel(file)}'s graph loads the Node built-in ${b}`);
      for (const u of g.unresolved) graphNotes.push(`${name}: unresolved import ${u}`);
      for (const f of g.files) if (!files.includes(f)) files.push(f);
    }
    return files;
  };
  const has = (name) => fs.existsSync(path.join(ROOT, 'node_modules', name, 'package.json'));
  const mid = graph('midfold', [path.join(ROOT, 'js', 'hosts', 'browser.js')]);
  const midWasm = mid.filter((f) => f.endsWith('.wasm')), midJs = mid.filter((f) => !f.endsWith('.wasm'));
  const wanted = [
    ...midWasm.map((f) => [`midfold ${rel(f)}`, [f]]),
    [`midfold JS (${midJs.map((f) => path.basename(f)).join(', ')})`, midJs],
    ['**midfold total: js/hosts/browser.js and everything it can load** (midfold-memory.wasm only at the first memory command)', mid],
    ...(tokenx ? [[`tokenx ${version('tokenx')}`, graph('tokenx', ['tokenx'])]] : []),
    ...(gpt ? [[`gpt-tokenizer ${version('gpt-tokenizer')} (default entry: o200k)`, graph('gpt-tokenizer', ['gpt-tokenizer'])]] : []),
    ...(has('tiktoken') ? [
      [`tiktoken ${version('tiktoken')} (wasm build with every encoding inside)`, graph('tiktoken', ['tiktoken'])],
      [`tiktoken ${version('tiktoken')} lite + encoders/o200k_base`, graph('tiktoken lite', ['tiktoken/lite', 'tiktoken/encoders/o200k_base'])],
    ] : []),
    ...(has('js-tiktoken') ? [[`js-tiktoken ${version('js-tiktoken')} lite + ranks/o200k_base`, graph('js-tiktoken', ['js-tiktoken/lite', 'js-tiktoken/ranks/o200k_base'])]] : []),
  ].filter(([, files]) => files);
  if (!has('tiktoken')) graphNotes.push('tiktoken not installed (npm ci): its rows are skipped');
  if (!has('js-tiktoken')) graphNotes.push('js-tiktoken not installed (npm ci): its row is skipped');
  const measured = await Promise.all(wanted.map(([, files]) => sizes(files)));
  log(table(['package', 'files', 'raw bytes', 'gzip bytes (each file)', 'gzip bytes (concatenated)'],
    wanted.map(([name], i) => [name, String(measured[i].files), num(measured[i].raw), num(measured[i].gzEach), num(measured[i].gzOne)])));
  log('');
  if (graphNotes.length) log(`Notes:\n- ${graphNotes.join('\n- ')}\n`);
  note(`sizes done (${((performance.now() - t0) / 1e3).toFixed(1)} s)`);
}

log(checks.length ? `**Check failed** (midfold and the JS reference disagree):\n- ${checks.join('\n- ')}\n`
  : 'Check: midfold and the plain JS reference gave identical counts on every text and conversation measured.\n');
if (networkAttempts.length) log(`**Network**: something tried to fetch ${networkAttempts.join(', ')} (refused).\n`);
log(`Total run ${((performance.now() - t0) / 1e3).toFixed(0)} s; load average (1 min) at the end ${machine().load.toFixed(2)}.`);
