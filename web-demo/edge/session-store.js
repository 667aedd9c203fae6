/**
 * session-store.js — the proxy's compaction state in a Durable Object: one object per
 * client scope (the hash of its credential), one stored value per conversation (keyed by
 * the content hash of its opening, see midfold's conversationKey). The object only
 * stores and returns JSON text; the compaction runs in the worker.
 *
 * What one scope may hold is bounded, whoever the client is (in open mode every upstream key
 * that the upstream accepted is a scope of its own): at most `maxConversations` values and
 * `maxBytes` bytes in all, the least recently saved conversation evicted first, and each
 * value expires `ttlMs` after it was last saved. An alarm is set for the next expiry and
 * deletes what expired; an object left with nothing deletes all its storage. An index value
 * (INDEX) keeps each conversation's size and times, so that evicting reads no other value.
 *
 * Values are stored as their UTF-8 bytes, not as strings: a key-value Durable Object holds
 * at most 128 KiB a value, measured as stored, and a string that holds any character past
 * U+00FF is stored as UTF-16 (two bytes for every character, ASCII included), so a state of
 * 84 KB of UTF-8, one character in ten Chinese, would be 140 KB stored and refused. As bytes
 * a value is what the worker's cap (the SessionState's maxBytes, in UTF-8 bytes) measures.
 */
import { DurableObject } from 'cloudflare:workers';

/** Cloudflare's limit of one value of a key-value Durable Object (its Durable Objects limits page). */
export const MAX_VALUE_BYTES = 128 * 1024;

/**
 * The defaults of what one scope keeps, and the bounds of each setting: conversations (the
 * index of 1,000 stays far under a value's 128 KiB), bytes in all (at least one value's
 * worth), and how long a conversation is kept after it was last saved.
 */
export const STATE_LIMITS = {
  STATE_MAX_CONVERSATIONS: { fallback: 256, min: 1, max: 1000 },
  STATE_MAX_BYTES: { fallback: 16 * 1024 * 1024, min: MAX_VALUE_BYTES, max: 2 ** 40 },
  STATE_TTL_SECONDS: { fallback: 7 * 24 * 3600, min: 1, max: 10 * 365 * 24 * 3600 },
};

/**
 * The state limits the worker's settings ask for: `{limits: {maxConversations, maxBytes,
 * ttlMs}}`, or `{error}` naming the first setting that is no whole number in its range
 * (unset or blank: the default).
 * @param {Record<string, unknown>} env
 */
export function stateLimits(env) {
  const read = {};
  for (const [name, { fallback, min, max }] of Object.entries(STATE_LIMITS)) {
    const text = env[name];
    if (text === undefined || text === null || String(text).trim() === '') { read[name] = fallback; continue; }
    const n = Number(text);
    if (!Number.isInteger(n) || n < min || n > max) return { error: `${name} must be a whole number from ${min} to ${max}` };
    read[name] = n;
  }
  return { limits: { maxConversations: read.STATE_MAX_CONVERSATIONS, maxBytes: read.STATE_MAX_BYTES, ttlMs: read.STATE_TTL_SECONDS * 1000 } };
}

/** The key of the index: conversation key -> [bytes, saved at, expires at] (ms), least recently saved first. */
const INDEX = '~index';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The Durable Object class (bound as SESSIONS in config.capnp). */
export class SessionStore extends DurableObject {
  /** The stored JSON text under `key`, or null (none, or expired and waiting for the alarm). */
  async getState(key) {
    const found = await this.ctx.storage.get([key, INDEX]);
    const value = found.get(key);
    if (value === undefined) return null;
    const entry = readIndex(found.get(INDEX)).get(key);
    if (entry && entry[2] <= Date.now()) return null;
    // (a value written before values were bytes is the JSON text itself)
    return typeof value === 'string' ? value : decoder.decode(value);
  }

  /**
   * Stores JSON text under `key`, as UTF-8, within `limits` ({maxConversations, maxBytes,
   * ttlMs}, from stateLimits): refuses more than MAX_VALUE_BYTES, as Cloudflare does, and
   * evicts the least recently saved other conversations while the scope holds too many or
   * too much.
   */
  async putState(key, value, limits) {
    if (typeof value !== 'string') throw new TypeError('putState: the value must be JSON text');
    const bytes = encoder.encode(value);
    if (bytes.byteLength > MAX_VALUE_BYTES)
      throw new RangeError(`putState: a value of ${bytes.byteLength} bytes is over the ${MAX_VALUE_BYTES} a Durable Object stores`);
    const { maxConversations, maxBytes, ttlMs } = limits;
    const index = await this.index(ttlMs);
    const now = Date.now();
    index.delete(key);
    index.set(key, [bytes.byteLength, now, now + ttlMs]);
    let total = 0;
    for (const [n] of index.values()) total += n;
    const evicted = [];
    for (const [k, [n]] of index) {
      if (index.size <= maxConversations && total <= maxBytes) break;
      if (k === key) continue;
      index.delete(k);
      total -= n;
      evicted.push(k);
    }
    await this.ctx.storage.put({ [key]: bytes, [INDEX]: JSON.stringify([...index]) });
    if (evicted.length) await this.ctx.storage.delete(evicted);
    await this.arm(index);
  }

  /** Deletes what expired; an object left with nothing deletes all its storage (and its alarm). */
  async alarm() {
    const index = readIndex(await this.ctx.storage.get(INDEX));
    const now = Date.now();
    const expired = [...index].filter(([, entry]) => entry[2] <= now).map(([k]) => k);
    for (const k of expired) index.delete(k);
    if (index.size === 0) {
      await this.ctx.storage.deleteAll();
      return;
    }
    await this.ctx.storage.delete(expired);
    await this.ctx.storage.put(INDEX, JSON.stringify([...index]));
    await this.arm(index);
  }

  /** The index; without one (values stored before there was one), one that lists them, as saved now. */
  async index(ttlMs) {
    const raw = await this.ctx.storage.get(INDEX);
    if (raw !== undefined) return readIndex(raw);
    const index = new Map();
    const now = Date.now();
    for (const [k, v] of await this.ctx.storage.list()) {
      index.set(k, [typeof v === 'string' ? encoder.encode(v).byteLength : v.byteLength, now, now + ttlMs]);
    }
    return index;
  }

  /** Sets the alarm for the next expiry. */
  async arm(index) {
    let next = Infinity;
    for (const entry of index.values()) next = Math.min(next, entry[2]);
    if (next !== Infinity && (await this.ctx.storage.getAlarm()) !== next) await this.ctx.storage.setAlarm(next);
  }
}

/** The index from its stored JSON text (missing: empty). */
function readIndex(raw) {
  return new Map(raw === undefined ? [] : JSON.parse(raw));
}

/**
 * A midfold session store ({get, put}) over the SessionStore object of `scope`, storing
 * within `limits` (stateLimits).
 * @param {DurableObjectNamespace} namespace
 * @param {string} scope
 * @param {{maxConversations: number, maxBytes: number, ttlMs: number}} limits
 */
export function durableObjectStore(namespace, scope, limits) {
  const stub = namespace.get(namespace.idFromName(scope));
  return {
    get: (key) => stub.getState(key),
    put: (key, value) => stub.putState(key, value, limits),
  };
}
