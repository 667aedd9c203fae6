// The memory tool's stores: in memory, Web Storage with a prefix, a Cloudflare-KV-shaped
// namespace, and a host's own store; store failures become error results.
import test from 'node:test';
import assert from 'node:assert/strict';
// midfold/memory's Node entry: the tool loads its own wasm module at its first command, no init().
import { createMemoryTool, memoryStore, localStorageStore, kvStore, MidfoldError } from '../../js/memory/node.js';

const HEADER = (p) => `Here're the files and directories up to 2 levels deep in ${p}, excluding hidden items and node_modules:\n`;

/** A Web Storage object (the localStorage interface) over a Map, with a byte quota. */
class FakeStorage {
  constructor(entries = {}, quota = Infinity) { this.map = new Map(Object.entries(entries)); this.quota = quota; }
  get length() { return this.map.size; }
  key(i) { return [...this.map.keys()][i] ?? null; }
  getItem(k) { return this.map.has(k) ? this.map.get(k) : null; }
  setItem(k, v) {
    let used = 0;
    for (const [key, value] of this.map) if (key !== k) used += key.length + value.length;
    if (used + k.length + String(v).length > this.quota)
      throw new DOMException(`Setting the value of '${k}' exceeded the quota.`, 'QuotaExceededError');
    this.map.set(k, String(v));
  }
  removeItem(k) { this.map.delete(k); }
}

/** A namespace shaped like Workers KV: sorted keys, `pageSize` keys a page, a cursor. */
function fakeKV({ pageSize = 2 } = {}) {
  const data = new Map();
  const calls = [];
  return {
    calls,
    data,
    async get(key) { calls.push(`get ${key}`); return data.has(key) ? data.get(key).value : null; },
    async put(key, value, options) {
      calls.push(`put ${key}`);
      if (Buffer.byteLength(key) > 512) throw new Error(`KV PUT failed: 414 key length ${Buffer.byteLength(key)} exceeds the limit of 512`);
      data.set(key, { value, metadata: options?.metadata });
    },
    async delete(key) { calls.push(`delete ${key}`); data.delete(key); },
    async list({ prefix = '', cursor } = {}) {
      calls.push(`list ${prefix}${cursor ? ' @' + cursor : ''}`);
      const keys = [...data.keys()].filter((k) => k.startsWith(prefix)).sort();
      const from = cursor ? Number(cursor) : 0;
      const complete = from + pageSize >= keys.length;
      return {
        keys: keys.slice(from, from + pageSize).map((name) => ({ name, metadata: data.get(name).metadata })),
        list_complete: complete,
        ...(complete ? {} : { cursor: String(from + pageSize) }),
      };
    },
  };
}

test.describe('memoryStore', () => {
  test('is seeded from an object or from pairs, and lists paths with their UTF-8 sizes', async () => {
    const a = memoryStore({ '/memories/a.md': 'héllo' });
    const b = memoryStore(new Map([['/memories/a.md', 'héllo']]));
    assert.deepEqual(await a.list('/memories/'), [{ path: '/memories/a.md', size: 6 }]);
    assert.deepEqual(await b.list('/memories/'), [{ path: '/memories/a.md', size: 6 }]);
    assert.equal(await a.get('/memories/none'), null);
    await a.rename('/memories/a.md', '/memories/b.md');
    assert.deepEqual(await a.list(''), [{ path: '/memories/b.md', size: 6 }]);
  });

  test('is the default store of createMemoryTool, one per tool', async () => {
    const t1 = createMemoryTool(), t2 = createMemoryTool();
    await t1.execute({ command: 'create', path: '/memories/x.md', file_text: 'x' });
    assert.equal(await t1.store.get('/memories/x.md'), 'x');
    assert.equal(await t2.store.get('/memories/x.md'), null);
  });
});

test.describe('localStorageStore', () => {
  test('keeps files under its prefix and leaves the page\'s other keys alone', async () => {
    const storage = new FakeStorage({ theme: 'dark', 'midfold:/memories/old.md': 'from last visit\n' });
    const tool = createMemoryTool({ store: localStorageStore(storage) });
    assert.equal((await tool.execute({ command: 'create', path: '/memories/todo.md', file_text: '- 买牛奶\n' })).isError, false);
    assert.deepEqual(await tool.execute({ command: 'view', path: '/memories' }), {
      content: HEADER('/memories') + '28B\t/memories\n16B\t/memories/old.md\n12B\t/memories/todo.md', isError: false,
    });
    assert.equal(storage.getItem('midfold:/memories/todo.md'), '- 买牛奶\n');
    await tool.execute({ command: 'delete', path: '/memories/old.md' });
    assert.deepEqual([...storage.map.keys()].sort(), ['midfold:/memories/todo.md', 'theme']);
  });

  test('two prefixes are two separate memories in one storage', async () => {
    const storage = new FakeStorage();
    const alice = createMemoryTool({ store: localStorageStore(storage, { prefix: 'user:alice:' }) });
    const bob = createMemoryTool({ store: localStorageStore(storage, { prefix: 'user:bob:' }) });
    await alice.execute({ command: 'create', path: '/memories/name.md', file_text: 'Alice' });
    assert.equal((await bob.execute({ command: 'view', path: '/memories/name.md' })).isError, true);
    await bob.execute({ command: 'create', path: '/memories/name.md', file_text: 'Bob' });
    assert.deepEqual([...storage.map.entries()].sort(), [['user:alice:/memories/name.md', 'Alice'], ['user:bob:/memories/name.md', 'Bob']]);
  });

  test('a full storage gives an error result and changes nothing', async () => {
    const storage = new FakeStorage({ 'midfold:/memories/a.md': 'small' }, 80);
    const tool = createMemoryTool({ store: localStorageStore(storage) });
    const r = await tool.execute({ command: 'create', path: '/memories/big.md', file_text: 'x'.repeat(100) });
    assert.equal(r.isError, true);
    assert.match(r.content, /^Error: The memory store failed: Setting the value of 'midfold:\/memories\/big.md' exceeded the quota\.$/);
    assert.deepEqual([...storage.map.keys()], ['midfold:/memories/a.md']);
  });

  test('needs a Storage', () => {
    assert.throws(() => localStorageStore(null), (e) => e instanceof MidfoldError && e.code === 'invalid-option');
    assert.throws(() => localStorageStore({}), MidfoldError);
  });
});

test.describe('kvStore', () => {
  test('lists through every page, with sizes from metadata so a directory view reads no values', async () => {
    const ns = fakeKV({ pageSize: 2 });
    const tool = createMemoryTool({ store: kvStore(ns) });
    for (const [p, t] of [['a.md', 'aa'], ['b.md', 'bbb'], ['dir/c.md', 'cccc'], ['dir/d.md', '中'], ['e.md', '']])
      assert.equal((await tool.execute({ command: 'create', path: `/memories/${p}`, file_text: t })).isError, false);
    assert.deepEqual(ns.data.get('/memories/dir/d.md'), { value: '中', metadata: { size: 3 } });
    ns.calls.length = 0;
    assert.deepEqual(await tool.execute({ command: 'view', path: '/memories' }), {
      content: HEADER('/memories') + '12B\t/memories\n2B\t/memories/a.md\n3B\t/memories/b.md\n7B\t/memories/dir\n' +
        '4B\t/memories/dir/c.md\n3B\t/memories/dir/d.md\n0B\t/memories/e.md',
      isError: false,
    });
    assert.deepEqual(ns.calls, ['list /memories/', 'list /memories/ @2', 'list /memories/ @4']);
  });

  test('renames and deletes directories with get, put and delete (KV has no rename)', async () => {
    const ns = fakeKV({ pageSize: 1 });
    const tool = createMemoryTool({ store: kvStore(ns, { prefix: 'tenant-7:' }) });
    await tool.execute({ command: 'create', path: '/memories/p/1.md', file_text: 'one' });
    await tool.execute({ command: 'create', path: '/memories/p/2.md', file_text: 'two' });
    assert.deepEqual(await tool.execute({ command: 'rename', old_path: '/memories/p', new_path: '/memories/q' }),
      { content: 'Successfully renamed /memories/p to /memories/q', isError: false });
    assert.deepEqual([...ns.data.keys()].sort(), ['tenant-7:/memories/q/1.md', 'tenant-7:/memories/q/2.md']);
    assert.deepEqual(ns.data.get('tenant-7:/memories/q/2.md').metadata, { size: 3 });
    assert.equal((await tool.execute({ command: 'delete', path: '/memories/q' })).isError, false);
    assert.equal(ns.data.size, 0);
  });

  test('a key over KV\'s 512-byte limit fails as an error result, storing nothing', async () => {
    const ns = fakeKV();
    const tool = createMemoryTool({ store: kvStore(ns) });
    const r = await tool.execute({ command: 'create', path: '/memories/' + 'k'.repeat(251) + '/' + 'k'.repeat(251), file_text: 'x' });
    assert.equal(r.isError, true);
    assert.match(r.content, /^Error: The memory store failed: KV PUT failed: 414/);
    assert.equal(ns.data.size, 0);
  });

  test('needs a namespace binding', () => {
    assert.throws(() => kvStore({ get() {} }), (e) => e instanceof MidfoldError && e.code === 'invalid-option');
  });
});

test.describe('a host\'s own store', () => {
  test('plain synchronous methods and a list of bare paths are enough; sizes are then read with get', async () => {
    const map = new Map([['/memories/a.md', 'abc'], ['/memories/sub/b.md', 'de']]);
    const gets = [];
    const store = {
      get: (p) => { gets.push(p); return map.get(p) ?? null; },
      put: (p, t) => { map.set(p, t); },
      delete: (p) => { map.delete(p); },
      list: (prefix) => [...map.keys()].filter((p) => p.startsWith(prefix)),
    };
    const tool = createMemoryTool({ store });
    assert.deepEqual(await tool.execute({ command: 'view', path: '/memories' }), {
      content: HEADER('/memories') + '5B\t/memories\n3B\t/memories/a.md\n2B\t/memories/sub\n2B\t/memories/sub/b.md', isError: false,
    });
    assert.deepEqual(gets.sort(), ['/memories/a.md', '/memories/sub/b.md']);
    assert.equal((await tool.execute({ command: 'rename', old_path: '/memories/a.md', new_path: '/memories/c.md' })).isError, false);
    assert.deepEqual([...map.keys()].sort(), ['/memories/c.md', '/memories/sub/b.md']);
  });

  test('a store that throws while reading gives an error result', async () => {
    const store = { ...memoryStore(), get: async () => { throw new Error('database is locked'); } };
    const tool = createMemoryTool({ store });
    assert.deepEqual(await tool.execute({ command: 'view', path: '/memories/a.md' }),
      { content: 'Error: The memory store failed: database is locked', isError: true });
  });

  test('a store that answers with the wrong types gives an error result', async () => {
    const bad = createMemoryTool({ store: { ...memoryStore(), get: async () => 42 } });
    assert.deepEqual(await bad.execute({ command: 'view', path: '/memories/a.md' }),
      { content: 'Error: The memory store failed: get(/memories/a.md) gave number, not a string or null', isError: true });
    const badList = createMemoryTool({ store: { ...memoryStore(), list: async () => 'nope' } });
    assert.deepEqual(await badList.execute({ command: 'view', path: '/memories' }),
      { content: 'Error: The memory store failed: list(/memories/) gave no array', isError: true });
  });

  test('a write failing halfway through a directory move says how far it got, and loses no file', async () => {
    const inner = memoryStore({ '/memories/d/1.md': 'one', '/memories/d/2.md': 'two', '/memories/d/3.md': 'three' });
    let puts = 0;
    const store = { get: inner.get, delete: inner.delete, list: inner.list,
      put: async (p, t) => { if (++puts === 2) throw new Error('disk full'); return inner.put(p, t); } };
    const tool = createMemoryTool({ store });
    assert.deepEqual(await tool.execute({ command: 'rename', old_path: '/memories/d', new_path: '/memories/e' }),
      { content: 'Error: The memory store failed after 1 of 3 changes: disk full', isError: true });
    const left = Object.fromEntries(await Promise.all((await inner.list('')).map(async (e) => [e.path, await inner.get(e.path)])));
    assert.equal(Object.keys(left).length, 3);
    assert.deepEqual(Object.values(left).sort(), ['one', 'three', 'two']);
  });
});
