/**
 * stores.js — where a SessionState keeps its data between calls. A store is any object
 * with async `get(key)` and `put(key, value)`; values are JSON text. Workers KV and
 * Durable Object storage have that shape already; Redis (`set`) or IndexedDB take a
 * three-line adapter (see docs/state.md).
 */
import { MidfoldError } from '../core/errors.js';

/**
 * A store in a Map, for one process (the default when a host wants several
 * conversations in one place). `initial` seeds it with key → JSON text.
 * Ownership: copies `initial`'s entries into its own Map (exposed as `map`), keeps no reference to it.
 * @param {Record<string, string> | Iterable<[string, string]>} [initial]
 */
export function memoryStateStore(initial) {
  const map = new Map(initial && typeof initial[Symbol.iterator] === 'function' ? initial : Object.entries(initial || {}));
  return {
    map,
    async get(key) { return map.has(key) ? map.get(key) : null; },
    async put(key, value) { map.set(key, value); },
    async delete(key) { map.delete(key); },
  };
}

/** Throws unless `store` has get and put functions. */
export function checkStore(store) {
  if (!store || typeof store.get !== 'function' || typeof store.put !== 'function')
    throw new MidfoldError('invalid-option', 'store must have async get(key) and put(key, value) functions');
  return store;
}
