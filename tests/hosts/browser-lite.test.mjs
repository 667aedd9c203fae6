// The browser entry's lite module and the digest: initFull() refuses the lite module; a full
// module that cannot be fetched fails the digest summarizer and changes nothing; a
// Compactor with `fallback: 'digest'` fetches the full module at its first call, so when the
// summarizer later fails because the network went down, the digest still folds the history.
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
const missing = new Set(); // files the server answers 404 for (a bundler that did not emit them)
globalThis.fetch = async (url) => {
  if (offline) throw new TypeError('Failed to fetch');
  const u = new URL(String(url));
  const file = path.relative(ROOT, fileURLToPath(u));
  fetched.push(file);
  if (missing.has(file)) return new Response('not found\n', { status: 404, headers: { 'content-type': 'text/plain' } });
  return new Response(await readFile(u), { headers: { 'content-type': 'application/wasm' } });
};
const midfold = await import('../../js/hosts/browser.js');
const session = () => JSON.parse(readFileSync(path.join(ROOT, 'tests/fixtures/coding-session.anthropic.json'), 'utf8'));

test('initFull() refuses the lite module and leaves midfold unloaded', async () => {
  const lite = await readFile(path.join(ROOT, 'wasm/midfold-lite.wasm'));
  await assert.rejects(midfold.initFull(lite),
    (e) => e instanceof midfold.MidfoldError && e.code === 'invalid-option' && /lite/.test(e.message));
  assert.equal(midfold.isReady(), false);
  assert.deepEqual(fetched, []);
});

test('a full module that cannot be fetched fails the digest summarizer alone: the conversation stays as it was', async () => {
  await midfold.init();
  assert.deepEqual(fetched, ['wasm/midfold-lite.wasm']);
  missing.add('wasm/midfold.wasm');
  const messages = session();
  const before = JSON.stringify(messages);
  const compactor = new midfold.Compactor({ summarize: midfold.digestSummarizer(), keepTail: { tokens: 0 }, onWarn() {} });
  const report = await compactor.compact(messages, { force: true });
  assert.equal(report.compacted, false);
  assert.equal(report.reason, 'summarizer-error');
  assert.equal(report.error.code, 'init-failed');
  assert.equal(JSON.stringify(messages), before);
  assert.ok(midfold.estimateTokens(messages) > 0, 'the lite module is still in use');
  // The later checks below the threshold do not ask for the missing module again, turn after turn.
  const asked = fetched.length;
  for (let turn = 0; turn < 3; turn++) assert.equal((await compactor.compact(messages)).reason, 'below-threshold');
  await new Promise((r) => setTimeout(r, 0)); // (a background fetch starts within the microtasks before this)
  assert.equal(fetched.length, asked);
  missing.clear();
});

test("fallback: 'digest' fetches the full module at the first call, so the digest works when the network is gone", async () => {
  await midfold.init(); // (loaded already: the lite module)
  const from = fetched.length;
  const messages = session();
  const warnings = [];
  const compactor = new midfold.Compactor({
    summarize: async () => { throw new TypeError('Failed to fetch'); },
    fallback: 'digest', keepTail: { tokens: 0 }, onWarn: (message) => warnings.push(message),
  });
  const first = await compactor.compact(messages);
  assert.equal(first.reason, 'below-threshold');
  // The fetch the first call started, in the background (waited for here without starting one).
  const fullInUse = () => { try { midfold.validate([]); return true; } catch { return false; } };
  for (let waited = 0; !fullInUse() && waited < 10_000; waited += 5) await new Promise((r) => setTimeout(r, 5));
  assert.ok(fullInUse(), 'the full module is in use without initFull()');
  assert.deepEqual(fetched.slice(from), ['wasm/midfold.wasm']);

  offline = true;
  const before = messages.length;
  const report = await compactor.compact(messages, { force: true });
  assert.equal(report.reason, 'compacted-with-digest');
  assert.ok(messages.length < before);
  const summary = messages.find((m) => typeof m.content === 'string' && m.content.startsWith('[Context Compressed]\n'));
  assert.match(summary.content, /invoice/i, 'the digest names what the session worked on');
  assert.deepEqual(midfold.validate(messages).problems, []);
  assert.deepEqual(warnings, ['midfold: the summarizer failed (summarizer-error); using the digest instead']);
  assert.deepEqual(fetched.slice(from), ['wasm/midfold.wasm'], 'nothing more was fetched');
});
