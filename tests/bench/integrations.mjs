// The integrations' cost per step and what they buy (a benchmark that prints tables; nothing here asserts time):
// 1. per-step time of compactStep (AI SDK), midfoldMiddleware and the proxy-style compactHistory at 100, 1,000 and
//    10,000 messages, with the state carried from the previous step and without (a fresh state each step),
//    against the plain JS walker re-reading the same history;
// 2. summaries written over 10-, 100- and 500-step sessions, against a stateful Compactor on the same session;
// 3. the share of each forwarded prompt that the next one repeats verbatim (what a provider's prompt cache can use).
//
//   node tests/bench/integrations.mjs [--quick]
import { init, Compactor, digestSummarizer, compactHistory, SessionState } from '../../js/hosts/node.js';
import { compactStep } from '../../js/integrations/ai-sdk.js';
import { conversation, consume, fmt, jsEstimateMessages, machine, median, now } from './lib.mjs';

const QUICK = process.argv.includes('--quick');
await init();

/** The same session in AI SDK ModelMessage form (what prepareStep receives). */
function toAISDK(messages) {
  return messages.map((m) => {
    if (typeof m.content === 'string') return { role: m.role, content: m.content };
    if (m.role === 'assistant') {
      return { role: 'assistant', content: m.content.filter((b) => b.type !== 'thinking').map((b) => (b.type === 'tool_use'
        ? { type: 'tool-call', toolCallId: b.id, toolName: b.name, input: b.input } : { type: 'text', text: b.text })) };
    }
    return { role: 'tool', content: m.content.map((b) => ({ type: 'tool-result', toolCallId: b.tool_use_id, toolName: 'tool',
      output: { type: 'text', value: typeof b.content === 'string' ? b.content : b.content.map((t) => t.text).join('\n') } })) };
  });
}

const OPTIONS = { summarize: digestSummarizer(), threshold: 20000 };
const prefixShare = (prev, next) => {
  let same = 0;
  while (same < prev.length && same < next.length && JSON.stringify(prev[same]) === JSON.stringify(next[same])) same++;
  return prev.length ? same / prev.length : 1;
};

// ---- 1. per-step cost ---------------------------------------------------------------------------
const sizes = QUICK ? [100, 1000] : [100, 1000, 10000];
const rows = [];
for (const size of sizes) {
  const raw = conversation(size + 40, 31);
  const all = toAISDK(raw);
  const rounds = size >= 10000 ? 3 : 7;
  const timings = { walker: [], carried: [], rebuilt: [], fresh: [] };
  const prepare = compactStep({ ...OPTIONS });
  // midfoldMiddleware's provider-level prompt: the AI SDK builds new message and part objects
  // for every call, with the same strings in them.
  const rebuilding = compactStep({ ...OPTIONS });
  const rebuild = (list) => list.map((m) => ({ ...m, content: Array.isArray(m.content) ? m.content.map((p) => ({ ...p })) : m.content }));
  let n = size;
  await prepare({ messages: all.slice(0, n) }); // the first call reads everything once
  await rebuilding({ messages: rebuild(all.slice(0, n)) });
  for (let r = 0; r < rounds; r++) {
    n += 2;
    const history = all.slice(0, n);
    // The walker reads the same history in the Anthropic shape it was generated in.
    let t = now(); consume(jsEstimateMessages(raw.slice(0, n))); timings.walker.push(now() - t);
    t = now(); consume(await prepare({ messages: history })); timings.carried.push(now() - t);
    const copies = rebuild(history);
    t = now(); consume(await rebuilding({ messages: copies })); timings.rebuilt.push(now() - t);
    const once = compactStep({ ...OPTIONS });
    t = now(); consume(await once({ messages: history })); timings.fresh.push(now() - t);
  }
  const w = median(timings.walker);
  const cell = (x) => `${fmt(median(x))} (${fmt(median(x) / w, 2)}×)`;
  rows.push([size.toLocaleString('en'), fmt(w), cell(timings.carried), cell(timings.rebuilt), cell(timings.fresh)]);
}
const m = machine();
console.log(`# Integrations (${m.cpu}, ${m.cores} cores, Node ${m.node}, load ${m.load.toFixed(1)})\n`);
console.log('## Per step: compactStep on a history that grew by one turn (ms, medians; × = relative to the plain JS walker over the same history in the same run)\n');
console.log('| messages | plain JS walker | compactStep, state carried | the same, message objects rebuilt each step (as midfoldMiddleware\'s prompt) | compactStep, fresh state each step |');
console.log('|---:|---:|---:|---:|---:|');
for (const r of rows) console.log(`| ${r.join(' | ')} |`);

// ---- 2 and 3. summaries and prefix reuse over whole sessions --------------------------------------------
console.log('\n## Summaries written and prefix reuse over a session (threshold 20,000, digest summaries)\n');
console.log('| steps | stateful Compactor: summaries | compactStep (state carried): summaries | without state: summaries | prefix repeated by the next prompt (carried) | (without state) |');
console.log('|---:|---:|---:|---:|---:|---:|');
for (const steps of QUICK ? [10, 100] : [10, 100, 500]) {
  const all = toAISDK(conversation(2 * steps + 1, 41));
  const reference = new Compactor({ ...OPTIONS, format: 'ai-sdk' });
  // The stateful Compactor edits its array's messages in place: it holds its own copies, so the
  // histories the integrations get stay the host's originals.
  const live = [structuredClone(all[0])];
  let stateful = 0;
  const carried = compactStep({ ...OPTIONS, onReport: (r) => { if (r.compacted) carriedCount++; } });
  let carriedCount = 0, freshCount = 0;
  const shares = { carried: [], fresh: [] };
  let prev = { carried: null, fresh: null };
  for (let s = 0; s < steps; s++) {
    const history = all.slice(0, 2 * s + 1);
    if ((await reference.compact(live)).compacted) stateful++;
    live.push(structuredClone(all[2 * s + 1]), structuredClone(all[2 * s + 2]));
    const a = await carried({ messages: history });
    const sentA = a.messages || history;
    const { messages: sentB, report } = await compactHistory(new Compactor({ ...OPTIONS, format: 'ai-sdk' }), history, {});
    if (report.compacted) freshCount++;
    if (prev.carried) { shares.carried.push(prefixShare(prev.carried, sentA)); shares.fresh.push(prefixShare(prev.fresh, sentB)); }
    prev = { carried: sentA, fresh: sentB };
  }
  const mean = (xs) => (xs.length ? xs.reduce((x, y) => x + y, 0) / xs.length : 1);
  console.log(`| ${steps} | ${stateful} | ${carriedCount} | ${freshCount} | ${(100 * mean(shares.carried)).toFixed(1)} % | ${(100 * mean(shares.fresh)).toFixed(1)} % |`);
}
