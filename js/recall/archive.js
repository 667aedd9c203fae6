/**
 * archive.js — where what midfold clears or folds is kept, so the model can have it back
 * (the recall tool): one conversation's entries in a store the host owns. The store is the
 * state stores' shape (js/state/stores.js: async get(key) and put(key, JSON text), delete
 * optional): memoryStateStore, a Workers KV binding or Durable Object storage, Web Storage or
 * the memory tool's stores, fileStateStore in Node (./file-store.js), IndexedDB in two lines.
 *
 * Keys, under `recall:<conversation>:`: `key` (the conversation's secret, which names every
 * recall id: made at the first write, never leaves the store), `index` (the entries, oldest
 * first, with their size and time) and one key per entry id. An entry is written before the
 * index names it, so a reader never meets a name without its entry; what the bounds push
 * out (bytes, entries, age) is deleted after the index that no longer names it is written.
 */
import { MidfoldError } from '../core/errors.js';

// (nothing of js/state/ or js/memory/ is imported: the Compactor imports this module, and a page
// that bundles the Compactor carries neither; the stores of both fit as they are)
const encoder = /* @__PURE__ */ new TextEncoder();

const CONVERSATION = /^[\w.:@-]{1,200}$/;

function limit(value, name, fallback) {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value <= 0) throw new MidfoldError('invalid-option', `${name} must be a positive whole number`);
  return value;
}

const toHex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
function fromHex(text) {
  if (typeof text !== 'string' || !/^(?:[0-9a-f]{2}){16,64}$/.test(text)) throw new MidfoldError('invalid-input', 'the recall secret in the store is not 16 to 64 bytes of hex');
  return Uint8Array.from(text.match(/../g), (h) => parseInt(h, 16));
}

/** A store in a Map: what `recall: true` archives in (one process, gone when it ends). */
export function memoryArchiveStore() {
  const map = new Map();
  return { async get(k) { return map.has(k) ? map.get(k) : null; }, async put(k, v) { map.set(k, v); }, async delete(k) { map.delete(k); } };
}

/**
 * One conversation's archive over `store`. Bounded: at most `maxBytes` of entries (UTF-8 of
 * their JSON, default 16 MiB) and `maxEntries` (2000), none older than `maxAgeMs` (30 days);
 * past a bound the oldest go first. An entry larger than maxBytes on its own is refused (the
 * write fails, so the edit that needed it is not made). `now` (ms) and `random` (fills a
 * Uint8Array) are for tests; by default Date.now and crypto.getRandomValues.
 * Ownership: keeps `store` by reference; writes are queued per archive object, so two edits
 * of one conversation through one archive never interleave their index writes.
 * @param {{store: object, conversation: string, maxBytes?: number, maxEntries?: number,
 *   maxAgeMs?: number, now?: () => number, random?: (bytes: Uint8Array) => Uint8Array}} options
 */
export function recallArchive(options) {
  if (!options || typeof options !== 'object') throw new MidfoldError('invalid-option', 'recallArchive needs {store, conversation}');
  const store = options.store;
  if (!store || typeof store.get !== 'function' || typeof store.put !== 'function')
    throw new MidfoldError('invalid-option', 'recallArchive: store must have async get(key) and put(key, value) functions');
  const conversation = options.conversation;
  if (typeof conversation !== 'string' || !CONVERSATION.test(conversation))
    throw new MidfoldError('invalid-option', 'conversation must be 1 to 200 characters of letters, digits and _ . : @ -');
  // (the defaults here, not in a top-level object: a bundle that never builds an archive keeps none of this file)
  const maxBytes = limit(options.maxBytes, 'maxBytes', 16 * 1024 * 1024);
  const maxEntries = limit(options.maxEntries, 'maxEntries', 2000);
  const maxAgeMs = limit(options.maxAgeMs, 'maxAgeMs', 30 * 24 * 3600 * 1000);
  const now = options.now ?? Date.now;
  const random = options.random ?? ((bytes) => globalThis.crypto.getRandomValues(bytes));
  const prefix = `recall:${conversation}:`;
  let queue = Promise.resolve();
  let secret = null;

  /** Runs `job` after every write queued before it; a failed job does not stop the next. */
  function serially(job) {
    const run = queue.then(job, job);
    queue = run.catch(() => {});
    return run;
  }

  async function readIndex() {
    const text = await store.get(prefix + 'index');
    if (text === null || text === undefined) return [];
    const list = JSON.parse(text);
    if (!Array.isArray(list)) throw new MidfoldError('invalid-input', `the recall index of ${conversation} is not a list`);
    return list;
  }

  const fresh = (e, t) => t - e.at <= maxAgeMs;

  return {
    conversation,
    limits: { maxBytes, maxEntries, maxAgeMs },

    /**
     * The conversation's secret (32 bytes), made and stored at the first call. Rejects when
     * the store fails: an id made of a secret that was not kept could never be answered.
     * @returns {Promise<Uint8Array>}
     */
    key() {
      if (secret) return secret;
      secret = serially(async () => {
        const stored = await store.get(prefix + 'key');
        if (typeof stored === 'string' && stored) return fromHex(JSON.parse(stored));
        const made = random(new Uint8Array(32));
        await store.put(prefix + 'key', JSON.stringify(toHex(made)));
        return made;
      });
      secret.catch(() => { secret = null; }); // (a failed store is asked again next time)
      return secret;
    },

    /**
     * Writes `entries` ({id, kind, ...}: JSON values), then the index naming them; the oldest
     * entries past a bound leave the index and are deleted. Rejects (and names nothing new)
     * when a write fails or an entry alone is larger than maxBytes.
     * @param {{id: string, kind: string}[]} entries
     * @returns {Promise<{written: number, evicted: string[]}>}
     */
    put(entries) {
      return serially(async () => {
        const t = now();
        const texts = entries.map((e) => {
          const text = JSON.stringify({ ...e, at: t });
          const bytes = encoder.encode(text).length;
          if (bytes > maxBytes) throw new MidfoldError('too-large', `recall entry ${e.id} is ${bytes} bytes, over the archive's maxBytes (${maxBytes})`);
          return { id: e.id, text, bytes };
        });
        for (const { id, text } of texts) await store.put(prefix + id, text);
        const index = (await readIndex()).filter((e) => fresh(e, t) && !texts.some((n) => n.id === e.id));
        for (const { id, bytes } of texts) index.push({ id, bytes, at: t });
        let total = index.reduce((n, e) => n + e.bytes, 0);
        const evicted = [];
        while (index.length > maxEntries || total > maxBytes) {
          const old = index.shift();
          total -= old.bytes;
          evicted.push(old.id);
        }
        await store.put(prefix + 'index', JSON.stringify(index));
        if (typeof store.delete === 'function') {
          for (const id of evicted) {
            try { await store.delete(prefix + id); } catch { /* the index no longer names it: unreachable either way */ }
          }
        }
        return { written: texts.length, evicted };
      });
    },

    /**
     * The entry archived under `id`, or null when this conversation holds none (never
     * archived here, pushed out by a bound, expired).
     * @param {string} id
     * @returns {Promise<object | null>}
     */
    async get(id) {
      const index = await readIndex();
      const named = index.find((e) => e.id === id);
      if (!named || !fresh(named, now())) return null;
      const text = await store.get(prefix + id);
      return typeof text === 'string' ? JSON.parse(text) : null;
    },

    /**
     * Every entry the conversation holds, oldest first (for search).
     * @returns {Promise<object[]>}
     */
    async entries() {
      const t = now();
      const out = [];
      for (const e of await readIndex()) {
        if (!fresh(e, t)) continue;
        const text = await store.get(prefix + e.id);
        if (typeof text === 'string') out.push(JSON.parse(text));
      }
      return out;
    },
  };
}
