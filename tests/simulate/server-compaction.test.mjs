// simulate's `server-compaction` policy: the provider's own compaction (Anthropic's compact_20260112, the Responses
// API's compaction), replayed beside midfold's policies on a generated agent session (tests/bench/sessions.mjs,
// seed 1): the server reads the client's history from its last summary on and summarizes all of it once it
// reaches the trigger.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { init, simulate } from 'midfold';
import { agentSession } from '../bench/sessions.mjs';

before(() => init());

test('the server compacts once what it reads reaches the trigger, and every later request reads from its summary on', async () => {
  const session = agentSession(100, 1);
  const r = await simulate(session, { pricing: 'anthropic', policies: ['none', 'server-compaction:trigger=50k', 'server-compaction:trigger=150k'] });
  const [none, at50, at150] = r.results;
  assert.ok(none.peakContext > 150_000, `the session grows to ${none.peakContext}`);
  assert.ok(at50.summaries >= 2, `${at50.summaries} compactions at 50k`);
  assert.ok(at150.summaries >= 1 && at150.summaries < at50.summaries);
  // A compaction reads the whole request once it reaches the trigger: no request reads more than the trigger plus
  // one turn's growth, and after it the context starts over from the summary.
  const growth = Math.max(...none.perTurn.map((t, i) => (i ? t.context - none.perTurn[i - 1].context : 0)));
  assert.ok(at50.peakContext < 50_000 + growth, `peak ${at50.peakContext} at a 50k trigger (a turn adds up to ${growth})`);
  const after = at50.perTurn.findIndex((t, i) => i > 0 && t.context < at50.perTurn[i - 1].context);
  assert.ok(after > 0 && at50.perTurn[after].context < 10_000, 'the request after a compaction reads the summary and the new turn');
  assert.ok(at50.summaryUsd > 0 && at50.totalUsd < none.totalUsd, 'the summaries are priced, and the whole bills less than no management');
});

test('the grammar: server-compaction:trigger=…,maxSummaryTokens=…; an unknown key is refused', async () => {
  const session = agentSession(40, 1);
  const small = (await simulate(session, { policies: ['server-compaction:trigger=20k,maxSummaryTokens=300'] })).results[0];
  const large = (await simulate(session, { policies: [{ serverCompaction: { trigger: 20000, maxSummaryTokens: 3000 } }] })).results[0];
  assert.ok(small.summaries > 0 && small.summaries === large.summaries);
  assert.ok(small.summaryOutputTokens < large.summaryOutputTokens);
  await assert.rejects(simulate(session, { policies: ['server-compaction:keep=3'] }), /unknown key "keep"/);
  await assert.rejects(simulate(session, { policies: [{ serverCompaction: { threshold: 20000 } }] }), (e) => e.code === 'invalid-option');
});
