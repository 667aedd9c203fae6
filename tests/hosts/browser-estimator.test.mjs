// The browser entry's initEstimator(): a page that only estimates fetches midfold-estimate.wasm
// and nothing else; the functions that compact name init() until it is loaded; a Compactor
// checks below its triggers on the estimator alone, fetches midfold-lite.wasm in the background
// once its conversation is half way to its first trigger (or, at the latest, at the call that
// has to plan), changes nothing and says so when that fetch fails, and writes the same
// conversation as a Compactor that had the compaction module from the start.
// fetch answers from the repository's files until the test takes the network away. Its own
// file: which module is in use is per process.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const fetched = [];
let offline = false;
globalThis.fetch = async (url) => {
  if (offline) throw new TypeError('Failed to fetch');
  const u = new URL(String(url));
  fetched.push(path.relative(ROOT, fileURLToPath(u)));
  return new Response(await readFile(u), { headers: { 'content-type': 'application/wasm' } });
};
const midfold = await import('../../js/hosts/browser.js');
// A real coding session (22 messages, 6,747 tokens): reading files, running tests, fixing a bug.
const session = () => JSON.parse(readFileSync(path.join(ROOT, 'tests/fixtures/coding-session.anthropic.json'), 'utf8'));
// The host's summarizer: what it writes depends on what it was asked to fold.
const summarize = async (request) => `Summary of ${request.messages.length} messages: the invoice work so far.`;
// (the Compactor prices with 'safe', which errs high: the session is 10,885 tokens so)
const OPTIONS = { summarize, threshold: 6000, keepTail: { tokens: 1500 } };
const safe = (messages) => midfold.estimateTokens(messages, { profile: 'safe' });

test('init() refuses the estimator as its module, and nothing is loaded', async () => {
  const bytes = await readFile(path.join(ROOT, 'wasm/midfold-estimate.wasm'));
  await assert.rejects(midfold.init(bytes),
    (e) => e instanceof midfold.MidfoldError && e.code === 'invalid-option' && /^init\(source\): the module given is the estimator alone \(midfold-estimate\.wasm\), which cannot compact$/.test(e.message));
  assert.equal(midfold.isReady(), false);
  assert.deepEqual(fetched, []);
});

test('initEstimator() fetches the estimator alone: it estimates, and what compacts names init()', async () => {
  await midfold.initEstimator();
  assert.deepEqual(fetched, ['wasm/midfold-estimate.wasm']);
  const messages = session();
  assert.equal(midfold.estimateTokens(messages), 6747);
  assert.equal(midfold.detectFormat(messages), 'anthropic');
  const cache = new midfold.EstimateCache();
  assert.equal(midfold.estimateTokens(messages, { cache }), 6747);
  for (const [fn, call] of [['microCompact', () => midfold.microCompact(messages)], ['serialize', () => midfold.serialize(messages)],
    ['planCompaction', () => midfold.planCompaction(messages)], ['planMicroCompact', () => midfold.planMicroCompact(messages)]])
    assert.throws(call, (e) => e.code === 'not-initialized' && e.message === `${fn}() needs midfold's compaction, and the one loaded is the estimator alone (midfold-estimate.wasm): await init() first`);
  await midfold.initEstimator(); // (loaded: resolves at once)
  assert.deepEqual(fetched, ['wasm/midfold-estimate.wasm']);
});

test('a Compactor on the estimator alone that cannot fetch the lite module when it has to plan changes nothing, and says so', async () => {
  // 6,501 tokens at the first call: over the clearing's trigger (4,800), and the network is gone.
  const messages = session().slice(0, 8);
  const before = JSON.stringify(messages);
  const warnings = [];
  const compactor = new midfold.Compactor({ ...OPTIONS, onWarn: (message) => warnings.push(message) });
  offline = true;
  const failed = await compactor.compact(messages);
  offline = false;
  assert.equal(failed.reason, 'module-unavailable');
  assert.equal(failed.compacted, false);
  assert.equal(failed.error.code, 'init-failed');
  assert.equal(failed.tokensBefore, 6501);
  assert.equal(failed.tokensAfter, 6501);
  assert.equal(JSON.stringify(messages), before, 'nothing changed');
  assert.deepEqual(warnings, ['midfold: the compaction module (midfold-lite.wasm) could not be loaded']);
  assert.throws(() => midfold.microCompact([]), /the estimator alone/, 'the estimator is still the module in use');
  assert.deepEqual(fetched, ['wasm/midfold-estimate.wasm']);
});

test('a Compactor checks on the estimator alone, fetches the lite module half way to its trigger, and folds offline', async () => {
  const all = session();
  const messages = all.slice(0, 4);
  const compactor = new midfold.Compactor(OPTIONS);
  // 1,208 tokens: under half the clearing's trigger (2,400): nothing to plan, nothing fetched.
  let report = await compactor.compact(messages);
  assert.equal(report.reason, 'below-threshold');
  assert.equal(report.tokensBefore, safe(messages));
  await new Promise((r) => setTimeout(r, 0));
  assert.deepEqual(fetched, ['wasm/midfold-estimate.wasm']);

  // 3,459 tokens: still nothing to plan, but past half the trigger: the lite module comes in the background.
  messages.push(...all.slice(4, 6));
  report = await compactor.compact(messages);
  assert.equal(report.reason, 'below-threshold');
  assert.equal(report.tokensBefore, safe(messages));
  const liteInUse = () => { try { midfold.planMicroCompact([]); return true; } catch { return false; } };
  for (let waited = 0; !liteInUse() && waited < 10_000; waited += 5) await new Promise((r) => setTimeout(r, 5));
  assert.ok(liteInUse(), 'the lite module is in use without init()');
  assert.deepEqual(fetched, ['wasm/midfold-estimate.wasm', 'wasm/midfold-lite.wasm']);

  // 6,501 tokens, and the network has gone: the fold needs nothing more from it.
  offline = true;
  messages.push(...all.slice(6, 8));
  report = await compactor.compact(messages);
  offline = false;
  assert.equal(report.reason, 'compacted');
  assert.ok(report.summarizedMessages > 0 && report.tokensAfter < 6000, JSON.stringify(report));
  assert.match(JSON.stringify(messages), /Summary of \d+ messages: the invoice work so far\./);

  // The same conversation as a Compactor that had the compaction module from its first call.
  const witness = all.slice(0, 8);
  assert.deepEqual(await new midfold.Compactor(OPTIONS).compact(witness), report);
  assert.deepEqual(witness, messages);

  // Later calls use the module in place; nothing more is fetched.
  messages.push(...all.slice(8, 10));
  await compactor.compact(messages);
  await midfold.init(); // (the lite module is in use: resolves at once)
  assert.ok(midfold.microCompact(session(), { keepRecent: 1 }).cleared > 0);
  assert.deepEqual(fetched, ['wasm/midfold-estimate.wasm', 'wasm/midfold-lite.wasm']);
});
