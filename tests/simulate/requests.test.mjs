// priceRequests (js/simulate/requests.js) prices requests as they were sent, by the caching rules simulate() uses.
// Facts: the requests a client without management sends (each turn's prefix of a Responses agent run) cost exactly
// what simulate() bills its 'none' policy for that session; a request whose start was rewritten reads nothing from
// the cache, and one that repeats a recorded prefix reads it in 128-token steps.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { init } from 'midfold';
import { simulate, sessionTurns } from '../../js/simulate/simulate.js';
import { priceRequests } from '../../js/simulate/requests.js';
import { agentRun } from '../fixtures/responses/agent-run.mjs';

before(() => init());

const body = () => ({ input: agentRun(), instructions: 'Investigate before you change anything.',
  tools: [{ type: 'function', name: 'query_logs', parameters: { type: 'object', properties: { service: { type: 'string' } } } }] });

test("an unmanaged run's requests cost what simulate() bills its 'none' policy", async () => {
  const session = body();
  const sim = await simulate(session, { pricing: 'openai', policies: ['none'] });
  const requests = sessionTurns(session.input).map((t) => ({ ...session, input: session.input.slice(0, t.start) }));
  const priced = priceRequests(requests, { pricing: 'openai' });
  assert.equal(priced.requests, sim.turns);
  assert.equal(priced.inputTokens, sim.results[0].inputTokens);
  assert.equal(priced.inputUsd, sim.results[0].inputUsd);
  assert.ok(priced.cachedTokens > 0);
});

test('a rewritten start reads nothing from the cache; a repeated prefix is read in 128-token steps', () => {
  const session = body();
  const rewritten = { ...session, instructions: 'Another system prompt.', input: [{ role: 'user', content: '换一个开头。' }, ...session.input.slice(1)] };
  const priced = priceRequests([session, rewritten, session], { pricing: 'openai', model: 'gpt-5.4' });
  assert.equal(priced.perRequest[0].read, 0);
  assert.equal(priced.perRequest[1].read, 0);
  assert.ok(priced.perRequest[2].read > 1024 && priced.perRequest[2].read % 128 === 0 && priced.perRequest[2].read <= priced.perRequest[2].input);
  assert.throws(() => priceRequests([{ prompt: 'x' }]), /neither input nor messages/);
  assert.throws(() => priceRequests([], { pricing: 'openai', turnSeconds: 5 }), /unknown option/);
});
