/**
 * session-store.js — the proxy's compaction state in a Durable Object: one object per
 * client scope (the hash of its token), one stored value per conversation (keyed by
 * the content hash of its opening, see midfold's conversationKey). The object only
 * stores and returns JSON text; the compaction runs in the worker.
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

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The Durable Object class (bound as SESSIONS in config.capnp). */
export class SessionStore extends DurableObject {
  /** The stored JSON text under `key`, or null. */
  async getState(key) {
    const value = await this.ctx.storage.get(key);
    if (value === undefined) return null;
    // (a value written before values were bytes is the JSON text itself)
    return typeof value === 'string' ? value : decoder.decode(value);
  }

  /** Stores JSON text under `key`, as UTF-8; refuses more than MAX_VALUE_BYTES, as Cloudflare does. */
  async putState(key, value) {
    if (typeof value !== 'string') throw new TypeError('putState: the value must be JSON text');
    const bytes = encoder.encode(value);
    if (bytes.byteLength > MAX_VALUE_BYTES)
      throw new RangeError(`putState: a value of ${bytes.byteLength} bytes is over the ${MAX_VALUE_BYTES} a Durable Object stores`);
    await this.ctx.storage.put(key, bytes);
  }
}
/**
 * A midfold session store ({get, put}) over the SessionStore object of `scope`.
 * @param {DurableObjectNamespace} namespace
 * @param {string} scope
 */
export function durableObjectStore(namespace, scope) {
  const stub = namespace.get(namespace.idFromName(scope));
  return {
    get: (key) => stub.getState(key),
    put: (key, value) => stub.putState(key, value),
  };
}
