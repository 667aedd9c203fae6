// Mastra side by side: one workload (tests/helpers/mastra-workload.mjs: a real Mastra Agent with memory, two
// turns on one thread, each a tool loop of 8 steps of two parallel reads of the C sources, Chinese text between
// them; @ai-sdk/anthropic sending to the strict mock provider on 127.0.0.1), run once per input processor:
// none, midfold's compactionProcessor, Mastra's TokenLimiter and ToolCallFilter (as configured by default and
// keeping the last two tool steps), the pairing of the two that TokenLimiter's .d.ts describes, and midfold with
// TokenLimiter after it as a hard cap. Prints a markdown table (docs/mastra.md). Tokens are counted with o200k
// (gpt-tokenizer) over each request's system and messages as sent, so no side is measured with its own estimator.
//
//   node tests/bench/mastra.mjs
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { TokenLimiter, ToolCallFilter } from '@mastra/core/processors';
import { init, digestSummarizer } from 'midfold';
import { compactionProcessor, conversationStates } from 'midfold/mastra';
import { startStrictProvider } from '../helpers/strict-provider.mjs';
import { runTurns, pairProblems, toolResults, folded, textOf, FILES, TURNS, STEPS } from '../helpers/mastra-workload.mjs';

const BUDGET = 16_000;
await init();
const provider = await startStrictProvider();
// The offline digest writes midfold's summaries (no model: what it keeps is what the workload did, not a mock's text).
const summarize = digestSummarizer();

const CAP = 24_000;
const midfold = (reports) => compactionProcessor({ threshold: BUDGET, keepTail: { tokens: 4000 }, keepRecent: 2, summarize, onReport: (r) => reports.push(r) });

const CONFIGS = [
  { name: 'no processor', processors: () => [] },
  { name: `midfold compactionProcessor (threshold ${BUDGET})`, processors: (reports) => [midfold(reports)] },
  { name: `TokenLimiter(${BUDGET})`, processors: () => [new TokenLimiter(BUDGET)] },
  { name: 'ToolCallFilter()', processors: () => [new ToolCallFilter()] },
  { name: 'ToolCallFilter({ filterAfterToolSteps: 2 })', processors: () => [new ToolCallFilter({ filterAfterToolSteps: 2 })] },
  { name: `ToolCallFilter() + TokenLimiter(${BUDGET})`, processors: () => [new ToolCallFilter(), new TokenLimiter(BUDGET)] },
  // midfold first, Mastra's limiter after it as a hard cap on what midfold left (a window's size, above the threshold).
  { name: `midfold + TokenLimiter(${CAP}) as a cap`, processors: (reports) => [midfold(reports), new TokenLimiter(CAP)] },
];

// The files the workload reads (two a step), to see which the last request still names anywhere.
const READ = Array.from({ length: TURNS.length * STEPS * 2 }, (_, k) => FILES[k % FILES.length]);
const tokens = (body) => encode(JSON.stringify({ system: body.system ?? null, messages: body.messages })).length;
const isSummary = (m) => m.role === 'user' && textOf(m.content).startsWith('[Context Compressed]');
/** Where a request carries `text`: in a message of its own, only in midfold's summary, or nowhere. */
const where = (body, text) => (body.messages.some((m) => m.role === 'user' && !isSummary(m) && textOf(m.content).includes(text)) ? 'verbatim'
  : body.messages.some((m) => isSummary(m) && textOf(m.content).includes(text)) ? 'in the summary' : 'dropped');

const rows = [];
for (const config of CONFIGS) {
  conversationStates.clear();
  const reports = [];
  const run = { ...await runTurns(provider, { inputProcessors: config.processors(reports), thread: config.name }), reports };
  const sent = run.requests.map((r) => tokens(r.body));
  const ends = TURNS.map((_, t) => run.requests[Math.min(run.requests.length - 1, (t + 1) * (STEPS + 1) - 1)]);
  const last = ends[ends.length - 1].body.messages;
  const results = toolResults(last);
  const expected = TURNS.length * STEPS * 2;
  rows.push({
    name: config.name,
    accepted: `${run.requests.filter((r) => r.status === 200).length}/${run.requests.length}`,
    answered: `${run.texts.filter((t, i) => t && t.endsWith(TURNS[i].answer)).length}/${TURNS.length}`,
    pairs: `${run.requests.filter((r) => pairProblems(r.body.messages).length === 0).length}/${run.requests.length}`,
    total: sent.reduce((a, b) => a + b, 0),
    peak: Math.max(...sent),
    summaries: run.reports.filter((r) => r.compacted).length || '—',
    named: READ.filter((path) => JSON.stringify(last).includes(path)).length,
    question: ends.map((r, t) => where(r.body, TURNS[t].ask)).join(' / '),
    lastResults: `${results.whole} whole, ${results.cleared} cleared, ${expected - results.ids.size} ${folded(last) ? 'folded into the summary' : 'dropped'}`,
  });
}
await provider.close();

console.log(`Workload: ${TURNS.length} turns x ${STEPS} steps x 2 parallel read_file calls (${TURNS.length * STEPS * 2} results), Chinese text, one memory thread; budget ${BUDGET} where a processor takes one.\n`);
console.log('| processor | requests accepted | turns answered | pairs intact | tokens sent (o200k, all requests) | peak request | folds | each turn\'s question at its last request | last request\'s tool results (of 32) | files the last request names (of 32) |');
console.log('|---|---|---|---|---|---|---|---|---|---|');
for (const r of rows) console.log(`| ${r.name} | ${r.accepted} | ${r.answered} | ${r.pairs} | ${r.total.toLocaleString('en-US')} | ${r.peak.toLocaleString('en-US')} | ${r.summaries} | ${r.question} | ${r.lastResults} | ${r.named} |`);
