// The archive: bounded per conversation (entries, bytes, age; the oldest go first), its secret kept
// in the store (a stateless host gets the same ids back), an entry over the bounds refused, files
// in Node; and the rule that nothing is cleared that the archive does not hold: a store that fails
// leaves the history exactly as it was, and the report says why.
import test from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { init, memoryStateStore, kvStore } from '../../js/hosts/node.js';
import { recallArchive } from '../../js/recall/archive.js';
import { fileStateStore } from '../../js/recall/file-store.js';
import { recallMicroCompact } from '../../js/recall/micro.js';
import { loadFixture } from '../helpers/fixtures.mjs';

await init();

const entry = (n, size = 100) => ({ id: `r${String(n).padStart(8, '0')}`, kind: 'result', tool: 'bash', chars: size, value: 'x'.repeat(size) });

test('past maxEntries the oldest entries go first, and their keys are deleted', async () => {
  const store = memoryStateStore();
  const archive = recallArchive({ store, conversation: 'c', maxEntries: 3 });
  for (let i = 1; i <= 5; i++) await archive.put([entry(i)]);
  assert.deepEqual((await archive.entries()).map((e) => e.id), [entry(3).id, entry(4).id, entry(5).id]);
  assert.equal(await archive.get(entry(1).id), null);
  assert.equal(store.map.has(`recall:c:${entry(1).id}`), false);
  assert.equal((await archive.get(entry(5).id)).value, entry(5).value);
});

test('past maxBytes the oldest entries go first; an entry larger than maxBytes alone is refused', async () => {
  const archive = recallArchive({ store: memoryStateStore(), conversation: 'c', maxBytes: 1000 });
  for (let i = 1; i <= 4; i++) await archive.put([entry(i, 300)]);
  const kept = await archive.entries();
  assert.deepEqual(kept.map((e) => e.id), [entry(3).id, entry(4).id]);
  assert.ok(kept.reduce((n, e) => n + JSON.stringify(e).length, 0) <= 1000);
  await assert.rejects(archive.put([entry(9, 5000)]), /over the archive's maxBytes/);
  assert.deepEqual((await archive.entries()).map((e) => e.id), [entry(3).id, entry(4).id]);
});

test('entries older than maxAgeMs are gone', async () => {
  let t = 1_000_000;
  const archive = recallArchive({ store: memoryStateStore(), conversation: 'c', maxAgeMs: 60_000, now: () => t });
  await archive.put([entry(1)]);
  t += 30_000;
  await archive.put([entry(2)]);
  t += 40_000; // the first is 70 s old, the second 40 s
  assert.equal(await archive.get(entry(1).id), null);
  assert.equal((await archive.get(entry(2).id)).id, entry(2).id);
  assert.deepEqual((await archive.entries()).map((e) => e.id), [entry(2).id]);
});

test('the bounds hold under random writes (seeded)', async () => {
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff);
  const store = memoryStateStore();
  const archive = recallArchive({ store, conversation: 'c', maxBytes: 20_000, maxEntries: 25 });
  for (let i = 0; i < 300; i++) {
    const batch = Array.from({ length: 1 + (next() % 4) }, (_, k) => entry(i * 4 + k, next() % 3000));
    await archive.put(batch);
    const index = JSON.parse(store.map.get('recall:c:index'));
    assert.ok(index.length <= 25);
    assert.ok(index.reduce((n, e) => n + e.bytes, 0) <= 20_000);
    // every entry the index names is there, and nothing else of the conversation is
    const keys = [...store.map.keys()].filter((k) => k !== 'recall:c:index' && k !== 'recall:c:key');
    assert.deepEqual(keys.sort(), index.map((e) => `recall:c:${e.id}`).sort());
  }
});

test("the conversation's secret is made once and kept in the store: a new archive object gives the same ids", async () => {
  const store = memoryStateStore();
  const a = recallArchive({ store, conversation: 'c' });
  const b = recallArchive({ store, conversation: 'c' });
  const other = recallArchive({ store, conversation: 'd' });
  assert.deepEqual(await a.key(), await b.key());
  assert.notDeepEqual(await a.key(), await other.key());
  assert.equal((await a.key()).length, 32);
});

test('an archive over the memory tool\'s KV-shaped store and over files in Node', async () => {
  const kv = new Map();
  const namespace = {
    async get(k) { return kv.get(k) ?? null; }, async put(k, v) { kv.set(k, v); }, async delete(k) { kv.delete(k); },
    async list() { return { keys: [...kv.keys()].map((name) => ({ name })), list_complete: true }; },
  };
  const viaKv = recallArchive({ store: kvStore(namespace), conversation: 'c' });
  await viaKv.put([entry(1)]);
  assert.equal((await viaKv.get(entry(1).id)).value, entry(1).value);

  const dir = await mkdtemp(join(tmpdir(), 'midfold-recall-'));
  try {
    const files = recallArchive({ store: fileStateStore(dir), conversation: 'session-1' });
    const messages = loadFixture('coding-session.anthropic');
    const report = await recallMicroCompact(messages, { archive: files, keepRecent: 0 });
    assert.ok(report.cleared > 0);
    // a later process: a new store over the same directory
    const later = recallArchive({ store: fileStateStore(dir), conversation: 'session-1' });
    for (const e of report.edits) assert.equal((await later.get(e.recall)).tool, e.tool);
    assert.ok((await readdir(dir)).every((f) => f.endsWith('.json')));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a conversation name that could reach another key is refused', () => {
  for (const conversation of ['', 'a/b', 'x'.repeat(201), 'a b']) {
    assert.throws(() => recallArchive({ store: memoryStateStore(), conversation }), /conversation must be/);
  }
});

/** A store whose writes of the keys `fails` picks fail (a full quota, a KV outage). */
function failingStore(fails) {
  const inner = memoryStateStore();
  return { ...inner, async put(k, v) { if (fails(k)) throw new Error('QuotaExceededError: the storage is full'); return inner.put(k, v); } };
}

for (const [what, fails] of [
  ['the secret cannot be stored', (k) => k.endsWith(':key')],
  ['the entries cannot be stored', (k) => /:r[0-9a-z]{8}$/.test(k)],
  ['the index cannot be stored', (k) => k.endsWith(':index')],
]) {
  test(`${what}: nothing is cleared and the report says why`, async () => {
    const messages = loadFixture('chinese-coding.anthropic');
    const before = structuredClone(messages);
    const report = await recallMicroCompact(messages, { archive: recallArchive({ store: failingStore(fails), conversation: 'c' }), keepRecent: 0 });
    assert.deepEqual(messages, before);
    assert.equal(report.cleared, 0);
    assert.deepEqual(report.edits, []);
    assert.equal(report.tokensAfter, report.tokensBefore);
    assert.match(report.recall.error, /QuotaExceededError: the storage is full/);
  });
}
