/**
 * storage-store.js — a midfold SessionState store over a Durable Object's own storage (`ctx.storage`), so the
 * compaction state of a chat lives in the object that holds the chat. Values are stored as their UTF-8 bytes:
 * a string holding any character past U+00FF is stored as UTF-16, two bytes a character, and a value (with its
 * key) may be at most 2 MB in a SQLite-backed object (Cloudflare's Durable Objects limits page); as bytes it is
 * what the SessionState's `maxBytes` measures.
 */

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * The store: `get(key)` resolves to the JSON text stored under `prefix + key`, or null; `put(key, text)` stores it.
 * @param {DurableObjectStorage} storage  the object's `ctx.storage`
 * @param {string} [prefix]  kept in front of every key, apart from the keys the object's own code uses
 */
export function storageStore(storage, prefix = 'midfold:') {
  return {
    async get(key) {
      const bytes = await storage.get(prefix + key);
      return bytes === undefined ? null : decoder.decode(bytes);
    },
    async put(key, text) {
      await storage.put(prefix + key, encoder.encode(text));
    },
  };
}
