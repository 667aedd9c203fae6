// midfold/langchain: compactionMiddleware inside a real createAgent (langchain 1.x), its model a real
// @langchain/anthropic or @langchain/openai (Responses API) client talking to the strict mock provider on 127.0.0.1,
// which answers 400 where the real API would (orphaned tool results, missing ones, changed signed thinking).
import test from 'node:test';
import assert from 'node:assert/strict';
import { HumanMessage, ToolMessage } from '@langchain/core/messages';
import { init, estimateTokens, validate } from '../../js/hosts/node.js';
import { SessionState, compactionMiddleware, langchainSummarizer } from '../../js/integrations/langchain.js';
import { startStrictProvider } from '../helpers/strict-provider.mjs';
import { logAgent, mockModel, scriptLoop } from '../helpers/langchain-agent.mjs';

await init();

const ask = (agent, messages) => agent.invoke({ messages }, { recursionLimit: 200 });
const refused = (p) => p.requests.filter((r) => r.status !== 200).map((r) => r.error && r.error.message);

for (const kind of ['anthropic', 'openai']) {
  test(`${kind}: a long tool loop is compacted before each call; every request is accepted; the agent's state keeps all`, async () => {
    const p = await startStrictProvider();
    try {
      scriptLoop(p, { steps: 24 });
      const reports = [];
      const agent = logAgent(mockModel(kind, p.url), [compactionMiddleware({ threshold: 6000, onReport: (r) => reports.push(r) })], 4000);
      const out = await ask(agent, [new HumanMessage('检查所有模块的日志,然后告诉我结果。')]);
      assert.deepEqual(refused(p), []);
      // The state holds the whole history (the request is what changes): 24 steps, some with two calls, each answered.
      const results = out.messages.filter((m) => m instanceof ToolMessage);
      assert.ok(results.length > 24, `${results.length} results`);
      assert.ok(results.every((m) => m.content.length === 4000), 'the state\'s results are whole');
      assert.ok(reports.some((r) => r.compacted), 'a fold happened');
      // The summary was written by the agent's own model (its endpoint and model name), once per fold, from
      // midfold's transcript.
      const summaries = p.requests.filter((r) => JSON.stringify(r.body).includes('[tool_use:read_log]'));
      assert.equal(summaries.length, p.tally.summaries);
      assert.ok(summaries.every((r) => r.body.model === p.requests[0].body.model));
      assert.equal(p.tally.summaries, reports.filter((r) => r.compacted).length);
      // A fold is written once and reused: far fewer summaries than calls.
      assert.ok(p.tally.summaries >= 1 && p.tally.summaries <= 8, `${p.tally.summaries} summaries in 24 calls`);
      // What is sent stays near the threshold while the history grows past four times it.
      assert.ok(reports.every((r) => r.tokensAfter < 6000 * 1.5), reports.map((r) => r.tokensAfter).join(' '));
      assert.ok(estimateTokens(out.messages, { profile: 'safe' }) > 4 * 6000);
      assert.equal(validate(out.messages).ok, true);
    } finally {
      await p.close();
    }
  });
}

test('anthropic with signed thinking: nothing is edited while the loop is in flight; the next turn folds; all accepted', async () => {
  const p = await startStrictProvider(); // prefix binding on: a changed prefix before signed thinking is a 400
  try {
    scriptLoop(p, { steps: 10, thinking: true });
    const reports = [];
    const agent = logAgent(mockModel('anthropic', p.url, { thinking: true }), [compactionMiddleware({ threshold: 12000, onReport: (r) => reports.push(r) })], 4000);
    const first = await ask(agent, [new HumanMessage('检查 m0 到 m12 的日志。')]);
    assert.deepEqual(refused(p), []);
    assert.ok(reports.some((r) => r.reason === 'deferred-thinking'), 'the in-flight loop deferred');
    assert.ok(!reports.some((r) => r.compacted));
    scriptLoop(p, { steps: p.requests.length + 3, thinking: true });
    reports.length = 0;
    await ask(agent, [...first.messages, new HumanMessage('再检查一遍 m0。')]);
    assert.deepEqual(refused(p), []);
    // At the turn boundary the finished loop is edited (cleared, or folded) and the kept turns' thinking goes.
    assert.notEqual(reports[0].reason, 'deferred-thinking');
    assert.equal(reports[0].session.changed, true);
    assert.ok(reports[0].micro.cleared > 0 || reports[0].compacted);
  } finally {
    await p.close();
  }
});

test('a failing summarizer leaves every request as the history was, and the agent goes on', async () => {
  const p = await startStrictProvider();
  try {
    scriptLoop(p, { steps: 12 });
    const warnings = [];
    const reports = [];
    const agent = logAgent(mockModel('anthropic', p.url), [compactionMiddleware({
      threshold: 6000, onWarn: (m) => warnings.push(m), onReport: (r) => reports.push(r),
      summarize: async () => { throw new Error('summarizer down'); },
    })], 4000);
    const out = await ask(agent, [new HumanMessage('检查日志。')]);
    assert.deepEqual(refused(p), []);
    assert.ok(reports.some((r) => r.reason === 'summarizer-error'));
    assert.ok(warnings.some((w) => /summarizer-error/.test(w)));
    assert.ok(out.messages.filter((m) => m instanceof ToolMessage).length > 12);
    assert.equal(validate(out.messages).ok, true);
  } finally {
    await p.close();
  }
});

test('usage_metadata anchors the next call: its estimate is the provider\'s count for the prefix plus the new messages', async () => {
  const p = await startStrictProvider();
  try {
    scriptLoop(p, { steps: 3 });
    const reports = [];
    const agent = logAgent(mockModel('anthropic', p.url), [compactionMiddleware({ threshold: 100000, onReport: (r) => reports.push(r) })], 4000);
    const out = await ask(agent, [new HumanMessage('检查日志。')]);
    // Call 2 continues call 1's prompt (one human message) with its answer and the tool result.
    const counted = out.messages[1].usage_metadata.input_tokens;
    // (the Compactor estimates with the 'safe' profile)
    const rest = estimateTokens(out.messages.slice(1, 3), { profile: 'safe' });
    assert.equal(reports[1].tokensBefore, counted + rest);
    assert.notEqual(reports[1].tokensBefore, estimateTokens(out.messages.slice(0, 3), { profile: 'safe' }));
  } finally {
    await p.close();
  }
});

test('options: state carries the fold across middleware instances; langchainSummarizer needs a model; bad options fail at once', async () => {
  assert.throws(() => langchainSummarizer({}), /chat model/);
  assert.throws(() => compactionMiddleware({ onReport: 1 }), /onReport/);
  assert.throws(() => compactionMiddleware({ keepRecnt: 2 }), /keepRecnt/);
  const p = await startStrictProvider();
  try {
    scriptLoop(p, { steps: 14 });
    const state = new SessionState();
    const agent = logAgent(mockModel('openai', p.url), [compactionMiddleware({ threshold: 6000, state })], 4000);
    await ask(agent, [new HumanMessage('检查日志。')]);
    assert.deepEqual(refused(p), []);
    assert.ok(JSON.stringify(state.toJSON()).includes('[Context Compressed]'));
  } finally {
    await p.close();
  }
});
