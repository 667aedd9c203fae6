// Agents SDK sessions side by side (a benchmark that prints a table; nothing here asserts): the same 14-turn
// workload (tests/helpers/agents-workload.mjs: Chinese and English turns, encrypted reasoning, parallel tool
// calls over real files) run by the real @openai/agents Runner against the strict provider on 127.0.0.1, once
// per session:
// - the SDK's MemorySession alone (no management);
// - the SDK's OpenAIResponsesCompactionSession over a MemorySession, its client pointed at the same server
//   (store: false, so it sends the stored items to POST /v1/responses/compact), as the runner drives it, and with
//   runCompaction() also called by hand after each run (the SDK's manual use);
// - midfoldSession over a MemorySession (the offline digest as summarizer), at two thresholds.
// Every request the server saw (model calls and compaction calls) is priced in order by priceRequests
// (js/simulate/requests.js: OpenAI's prefix caching and gpt-5.4's prices from js/pricing/openai.js).
//
//   node tests/bench/agents-session.mjs
import { MemorySession } from '@openai/agents';
import { OpenAIResponsesCompactionSession } from '@openai/agents-openai';
import OpenAI from 'openai';
import { init, digestSummarizer } from '../../js/hosts/node.js';
import { midfoldSession } from '../../js/integrations/openai-agents.js';
import { priceRequests } from '../../js/simulate/requests.js';
import { startStrictProvider } from '../helpers/strict-provider.mjs';
import { agentsWorkload } from '../helpers/agents-workload.mjs';

await init();
const provider = await startStrictProvider();
const client = new OpenAI({ apiKey: 'sk-test', baseURL: `${provider.url}/v1` });

const POLICIES = [
  { label: 'MemorySession (no management)', make: () => new MemorySession() },
  { label: 'OpenAIResponsesCompactionSession (as the runner drives it)',
    make: () => new OpenAIResponsesCompactionSession({ client, underlyingSession: new MemorySession(), model: 'gpt-5.4' }) },
  { label: 'OpenAIResponsesCompactionSession, runCompaction() also called after each run', manual: true,
    make: () => new OpenAIResponsesCompactionSession({ client, underlyingSession: new MemorySession(), model: 'gpt-5.4' }) },
  { label: 'midfoldSession, threshold 8,000 (digest)',
    make: () => midfoldSession({ underlyingSession: new MemorySession(), summarize: digestSummarizer(), threshold: 8000, keepTail: { tokens: 3000 } }) },
  { label: 'midfoldSession, threshold 16,000 (digest)',
    make: () => midfoldSession({ underlyingSession: new MemorySession(), summarize: digestSummarizer(), threshold: 16000, keepTail: { tokens: 4000 } }) },
];

const rows = [];
for (const policy of POLICIES) {
  const session = policy.make();
  const w = agentsWorkload(provider);
  const from = provider.requests.length;
  const stored = [];
  let history = 0;
  for (const text of w.turns) {
    const result = await w.runner.run(w.agent, text, { session, maxTurns: 8 });
    if (policy.manual) await session.runCompaction();
    history = result.history.length;
    stored.push((await session.getItems()).length);
  }
  const sent = provider.requests.slice(from);
  const model = sent.filter((r) => r.path === '/v1/responses');
  const compact = sent.filter((r) => r.path === '/v1/responses/compact');
  const bill = priceRequests(sent.map((r) => r.body), { pricing: 'openai', model: 'gpt-5.4' });
  rows.push({
    label: policy.label,
    accepted: `${sent.filter((r) => r.status === 200).length} / ${sent.length}`,
    model: model.length, compact: compact.length,
    stored: `${stored.at(-1)} (max ${Math.max(...stored)})`, history,
    input: bill.inputTokens, peak: bill.peakInput, cached: bill.inputTokens ? bill.cachedTokens / bill.inputTokens : 0,
    usd: bill.inputUsd,
  });
}
await provider.close();

const n = (x) => x.toLocaleString('en');
console.log('## Agents SDK sessions on one 14-turn workload (real Runner, strict Responses mock; gpt-5.4, OpenAI prefix caching)\n');
console.log('| session | requests accepted | model calls | /responses/compact calls | stored items at the end (max after a turn) | result.history, last turn | input tokens sent | largest request | cached share | billed input (USD) |');
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const r of rows) {
  console.log(`| ${r.label} | ${r.accepted} | ${r.model} | ${r.compact} | ${r.stored} | ${r.history} | ${n(r.input)} | ${n(r.peak)} | ${(100 * r.cached).toFixed(0)} % | $${r.usd.toFixed(4)} |`);
}
