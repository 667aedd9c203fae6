/**
 * session-store.js — the proxy's compaction state in a Durable Object: one object per
 * client scope (the hash of its token), one stored value per conversation (keyed by
 * the content hash of its opening, see midfold's conversationKey). The object only
 * stores and returns JSON text; the compaction runs in the worker.
 */
import { DurableObject } from 'cloudflare:workers';

/** The Durable Object class (bound as SESSIONS in config.capnp). */
export class SessionStore extends DurableObject {
  /** The stored JSON text under `key`, or null. */
  async getState(key) {
    const value = await this.ctx.storage.get(key);
    return value === undefined ? null : value;
  }

  /** Stores JSON text under `key`. */
  async putState(key, value) {
    if (typeof value !== 'string') throw new TypeError('putState: the value must be JSON text');
    await this.ctx.storage.put(key, value);
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
