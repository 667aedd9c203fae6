// compactHistory's deferSave: a host that forwards the compacted messages (a proxy) remembers them only once the
// provider accepted the request, so a request it refuses (a bad key, a malformed body) leaves no state behind.

import test, { before } from 'node:test';
import assert from 'node:assert/strict';

import { init, Compactor, SessionState, compactHistory, digestSummarizer, memoryStateStore, MidfoldError } from '../../js/hosts/node.js';
import { longSession } from '../helpers/long-session.mjs';

before(() => init());

const history = () => longSession({ turns: 30, format: 'openai', seed: 7 }).calls.flat();
const compactor = () => new Compactor({ summarize: digestSummarizer(), threshold: 8000 });

test('with deferSave nothing is written until save(); save() writes once and resolves to the updated session', async () => {
  const store = memoryStateStore();
  let puts = 0;
  const counting = { get: (k) => store.get(k), put: (k, v) => { puts++; return store.put(k, v); } };
  const messages = history();
  const result = await compactHistory(compactor(), messages, { state: new SessionState({ store: counting, key: 'c' }), deferSave: true });
  assert.equal(result.report.session.changed, true);
  assert.equal(typeof result.save, 'function');
  assert.equal(result.report.session.saved, false);
  assert.equal(puts, 0, 'nothing written before save()');
  const [a, b] = await Promise.all([result.save(), result.save()]);
  assert.equal(a, result.report.session);
  assert.equal(b, a);
  assert.equal(a.saved, true);
  assert.equal(puts, 1, 'written once');
  // The next call continues what was saved, as a call without deferSave would.
  const next = [...messages, { role: 'assistant', content: 'The tests pass now.' }, { role: 'user', content: '谢谢，提交吧。' }];
  const again = await compactHistory(compactor(), next, { state: new SessionState({ store: counting, key: 'c' }) });
  assert.equal(again.report.session.matched, messages.length);
});

test('without save() (the provider refused the request) the state stays as it was', async () => {
  const store = memoryStateStore();
  const messages = history();
  const refused = await compactHistory(compactor(), messages, { state: new SessionState({ store, key: 'c' }), deferSave: true });
  assert.equal(typeof refused.save, 'function');
  assert.equal(store.map.size, 0);
  const retry = await compactHistory(compactor(), messages, { state: new SessionState({ store, key: 'c' }) });
  assert.equal(retry.report.session.matched, 0, 'a fresh plan: nothing was remembered');
});

test('with nothing to remember there is no save(); deferSave must be a boolean', async () => {
  const short = [{ role: 'user', content: 'What is the capital of France?' }];
  const r = await compactHistory(compactor(), short, { state: new SessionState(), deferSave: true });
  assert.equal(r.report.session.changed, false);
  assert.equal(r.save, undefined);
  await assert.rejects(compactHistory(compactor(), short, { deferSave: 'yes' }), (e) => e instanceof MidfoldError && e.code === 'invalid-option');
});
