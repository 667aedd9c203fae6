// midfold's compactionMiddleware beside LangChain's own summarizationMiddleware and contextEditingMiddleware, on the
// same createAgent workloads (a benchmark that prints a table; nothing here asserts time). Each run is a real
// createAgent (langchain 1.x) whose model is a real @langchain/anthropic or @langchain/openai (Responses) client
// talking to the strict mock provider on 127.0.0.1 (tests/helpers/strict-provider.mjs), which refuses with a 400
// what the real API refuses: tool results without their call, calls without their result, signed thinking whose
// conversation before it changed. Per run:
//   accepted   model requests answered 200, of those sent (a refused request ends the agent's run)
//   pairs      requests whose messages keep every tool call with its result (validate, the provider's format)
//   summaries  summary requests the middleware made
//   sent       tokens the agent's model calls sent (midfold's estimate of each request body, 'claude' profile),
//              summary requests not included; summary tokens on their own
//   bill       USD at claude-sonnet-4-5 prices (js/pricing/anthropic.js) with prompt caching: each request reads the
//              longest prefix of messages it shares with the previous one at the cache-read price and writes the rest
//              (1.25x); summary requests are billed uncached. The same bill for both providers, so rows compare.
//
//   node tests/bench/langchain.mjs [--quick]
import { HumanMessage } from '@langchain/core/messages';
import { ClearToolUsesEdit, contextEditingMiddleware, summarizationMiddleware } from 'langchain';
import { init, estimateTokens, validate } from '../../js/hosts/node.js';
import { compactionMiddleware } from '../../js/integrations/langchain.js';
import { PRICING } from '../../js/pricing/index.js';
import { startStrictProvider } from '../helpers/strict-provider.mjs';
import { logAgent, mockModel, scriptLoop } from '../helpers/langchain-agent.mjs';

const QUICK = process.argv.includes('--quick');
await init();

const THRESHOLD = 20000; // tokens: every middleware's trigger
const PRICE = PRICING.anthropic.models['claude-sonnet-4-5'];

const MIDDLEWARES = {
  none: () => [],
  'summarization (LangChain)': (model) => [summarizationMiddleware({ model, trigger: { tokens: THRESHOLD }, keep: { messages: 20 } })],
  'context editing (LangChain)': () => [contextEditingMiddleware({ edits: [new ClearToolUsesEdit({ trigger: { tokens: THRESHOLD }, keep: { messages: 3 } })] })],
  'midfold compactionMiddleware': () => [compactionMiddleware({ threshold: THRESHOLD })],
};

// One workload: `turns` user turns of `steps` tool-calling model calls each, `chars` per tool result.
const WORKLOADS = [
  { name: 'one long tool loop', turns: 1, steps: QUICK ? 20 : 48, chars: 5000, thinking: false },
  { name: 'five turns of tool loops', turns: 5, steps: QUICK ? 4 : 10, chars: 5000, thinking: false },
  { name: 'five turns, signed thinking', turns: 5, steps: QUICK ? 4 : 10, chars: 5000, thinking: true, only: 'anthropic' },
];

const messagesOf = (api, body) => (api === 'anthropic' ? body.messages : body.input);
const isSummary = (api, body) => !JSON.stringify(body.tools ?? []).includes('read_log');

/** Messages two requests share from the start (canonical JSON per message). */
function sharedPrefix(a, b) {
  let i = 0;
  while (i < a.length && i < b.length && JSON.stringify(a[i]) === JSON.stringify(b[i])) i++;
  return i;
}

async function run(workload, kind, middlewareName) {
  const p = await startStrictProvider();
  const model = mockModel(kind, p.url, { thinking: workload.thinking });
  const agent = logAgent(model, MIDDLEWARES[middlewareName](mockModel(kind, p.url)), workload.chars);
  let messages = [];
  let completed = true;
  for (let t = 0; t < workload.turns && completed; t++) {
    scriptLoop(p, { steps: p.requests.filter((r) => r.status === 200 && !isSummary(r.api, r.body)).length + workload.steps, thinking: workload.thinking });
    try {
      const out = await agent.invoke({ messages: [...messages, new HumanMessage(`第 ${t + 1} 轮:检查接下来的 ${workload.steps} 个模块。`)] }, { recursionLimit: 500 });
      messages = out.messages;
    } catch {
      completed = false;
    }
  }
  const calls = p.requests.filter((r) => r.body && !isSummary(r.api, r.body));
  const summaries = p.requests.filter((r) => r.body && isSummary(r.api, r.body));
  const format = kind === 'anthropic' ? 'anthropic' : 'openai-responses';
  const pairsIntact = calls.filter((r) => validate(messagesOf(r.api, r.body), { format }).problems
    .every((x) => x.code !== 'call-without-result' && x.code !== 'result-without-call')).length;
  const tokensOf = (r) => estimateTokens(r.api === 'anthropic' ? r.body : { messages: r.body.input, tools: r.body.tools }, { profile: 'claude' });
  let sent = 0, bill = 0, previous = null;
  for (const r of calls) {
    const tokens = tokensOf(r);
    sent += tokens;
    const list = messagesOf(r.api, r.body);
    const shared = previous ? sharedPrefix(previous, list) : 0;
    const read = shared ? Math.min(tokens, estimateTokens(list.slice(0, shared), { profile: 'claude' })) : 0;
    bill += (read * PRICE.cacheRead + (tokens - read) * PRICE.cacheWrite5m + 20 * PRICE.output) / 1e6;
    previous = list;
  }
  let summaryTokens = 0;
  for (const r of summaries) {
    const tokens = tokensOf(r);
    summaryTokens += tokens;
    bill += (tokens * PRICE.input + 200 * PRICE.output) / 1e6;
  }
  const refusal = p.requests.find((r) => r.status !== 200);
  await p.close();
  return {
    refusal: refusal && refusal.error ? refusal.error.message.slice(0, 160) : '',
    accepted: `${calls.filter((r) => r.status === 200).length}/${calls.length}`,
    completed, pairs: `${pairsIntact}/${calls.length}`, summaries: summaries.length, sent, summaryTokens, bill,
  };
}

const rows = [];
const refusals = [];
for (const workload of WORKLOADS) {
  for (const kind of ['anthropic', 'openai']) {
    if (workload.only && workload.only !== kind) continue;
    for (const name of Object.keys(MIDDLEWARES)) {
      const r = await run(workload, kind, name);
      rows.push([workload.name, kind, name, r.accepted + (r.completed ? '' : ' (run failed)'), r.pairs, String(r.summaries),
        r.sent.toLocaleString('en-US'), r.summaryTokens.toLocaleString('en-US'), `$${r.bill.toFixed(3)}`]);
      if (r.refusal) refusals.push(`${workload.name}, ${kind}, ${name}: ${r.refusal}`);
    }
  }
}
const head = ['workload', 'provider', 'middleware', 'accepted', 'pairs intact', 'summaries', 'tokens sent', 'summary tokens', 'bill'];
console.log(`| ${head.join(' | ')} |\n|${head.map(() => '---').join('|')}|`);
for (const row of rows) console.log(`| ${row.join(' | ')} |`);
if (refusals.length) console.log(`\nFirst refusal of each run that had one:\n${refusals.map((r) => `- ${r}`).join('\n')}`);
