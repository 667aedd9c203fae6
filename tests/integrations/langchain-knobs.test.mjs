// LangChain's compactionMiddleware reads the model's window for threshold {fraction} (as the AI SDK and Agents
// integrations do) and passes the micro-compaction knobs on to its Compactor. A createAgent agent reading logs
// (4,000-character results, every third step two parallel calls) through ChatAnthropic against the strict
// provider, every request checked there.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { HumanMessage } from '@langchain/core/messages';
import { init, digestSummarizer, contextWindowOf } from '../../js/hosts/node.js';
import { compactionMiddleware } from '../../js/integrations/langchain.js';
import { startStrictProvider } from '../helpers/strict-provider.mjs';
import { scriptLoop, mockModel, logAgent } from '../helpers/langchain-agent.mjs';

before(async () => { await init(); });

/** A fresh strict provider per run: scriptLoop counts the steps it answered. */
async function run(options, steps = 12) {
  const provider = await startStrictProvider();
  after(() => provider.close());
  scriptLoop(provider, { steps });
  const first = provider.requests.length;
  const reports = [], warnings = [];
  const agent = logAgent(mockModel('anthropic', provider.url), [compactionMiddleware({ summarize: digestSummarizer(), onReport: (r) => reports.push(r), onWarn: (m) => warnings.push(m), ...options })], 4000);
  const out = await agent.invoke({ messages: [new HumanMessage('检查所有模块的日志。')] });
  return { out, reports, warnings, sent: provider.requests.slice(first) };
}

test('threshold {fraction} is of the model\'s window, read from its id (ChatAnthropic claude-sonnet-4-5)', async () => {
  const window = contextWindowOf('claude-sonnet-4-5');
  assert.equal(window, 200000);
  // 5 % of 200,000: a 10,000-token threshold, whose micro trigger (80 %: 8,000) 12 steps of 4,000-character logs
  // pass; at the default threshold (50,000, trigger 40,000) nothing would be cleared
  const { reports, sent, warnings } = await run({ threshold: { fraction: 0.05 } });
  assert.deepEqual(sent.map((r) => r.status), sent.map(() => 200));
  const cleared = reports.filter((r) => r.micro && r.micro.cleared > 0);
  assert.ok(cleared.length > 0, reports.map((r) => `${r.reason}:${r.tokensBefore}`).join(' '));
  assert.ok(reports.every((r) => r.tokensAfter <= 10000));
  assert.deepEqual(warnings, []);
  const plain = await run({});
  assert.ok(plain.reports.every((r) => !(r.micro && r.micro.cleared)), 'the default threshold clears nothing here');
});

test('the knobs pass through: dropToolCalls and clearToolInputs run with the clearing, the requests are accepted', async () => {
  const { reports, sent } = await run({ threshold: 200000, policy: 'every-turn', keepRecent: 1, clearToolInputs: true,
    dropToolCalls: { tools: ['read_log'], beforeLast: 6 }, reasoning: 'before-last-message', thinking: { keep: 0 } });
  assert.deepEqual(sent.map((r) => r.status), sent.map(() => 200));
  assert.ok(reports.some((r) => r.pruned && r.pruned.calls > 0), 'calls of read_log before the last 6 messages went');
  // what the provider was sent: no read_log call outside the last 6 messages of the request
  const last = sent.at(-1).body.messages;
  const calls = last.flatMap((m, i) => (Array.isArray(m.content) ? m.content : []).filter((b) => b.type === 'tool_use').map(() => i));
  assert.ok(calls.every((i) => i >= last.length - 6), JSON.stringify(calls));
});

test('an ill-typed knob is refused when the middleware is made', () => {
  assert.throws(() => compactionMiddleware({ dropToolCalls: { tools: [], beforeLast: 2 } }), (e) => e.code === 'invalid-option' && e.path === 'dropToolCalls.tools');
});
