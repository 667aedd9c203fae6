/**
 * memory/stores.js — where the memory tool keeps its files. A store is a small async
 * interface over paths that the tool has already checked (they all start with
 * "/memories/"; see docs/memory-tool.md):
 *
 *   get(path)          → the file's text, or null when there is no such file
 *   put(path, text)    → stores the text (creating or replacing the file)
 *   delete(path)       → removes the file (no error when it is missing)
 *   list(prefix)       → every stored path that starts with prefix, as strings or as
 *                        {path, size} (size: UTF-8 bytes; the tool asks get() for sizes it
 *                        is not told)
 *   rename?(from, to)  → optional: moves a file; without it the tool uses get, put, delete
 *
 * Any method may return a value or a promise. Directories are not stored: a directory
 * is the set of files under its path. Three stores ship here: in memory (the default),
 * a Web Storage (localStorage) namespace, and a Cloudflare-KV-shaped namespace.
 */
import { MidfoldError } from '../core/errors.js';

/** UTF-8 bytes of a string, without encoding it (a lone surrogate counts as U+FFFD). */
export function utf8Length(text) {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

/** Where a shipped store keeps its files: see backingOf. */
const BACKING = Symbol('midfold.memory.backing');

/**
 * What a store writes to, as the tool's locks tell stores apart (tool.js): for the stores of
 * this file, the Storage or KV namespace and the key prefix, so that two stores made over one
 * namespace (a Worker that builds kvStore(env.MEMORY) for each request) lock as one; any other
 * store is its own.
 * @param {object} store
 * @returns {{target: object, prefix: string}}
 */
export function backingOf(store) {
  return store[BACKING] ?? { target: store, prefix: '' };
}

function text(value, what) {
  if (typeof value !== 'string') throw new MidfoldError('invalid-option', `${what} must be a string`);
  return value;
}

/**
 * Files kept in a Map, gone when the process ends: the default store, and the one for
 * tests. `initial` seeds it ({path: text} or [path, text] pairs).
 * Ownership: copies `initial`'s entries once, keeps no reference to it.
 * @param {Record<string, string> | Iterable<[string, string]>} [initial]
 */
export function memoryStore(initial) {
  /** @type {Map<string, {text: string, size: number}>} */
  const files = new Map();
  const entries = initial === undefined ? [] : Symbol.iterator in Object(initial) ? initial : Object.entries(initial);
  for (const [path, value] of entries) files.set(text(path, 'a path'), { text: text(value, 'a file text'), size: utf8Length(value) });
  return {
    kind: 'memory',
    async get(path) { return files.get(path)?.text ?? null; },
    async put(path, value) { files.set(path, { text: text(value, 'a file text'), size: utf8Length(value) }); },
    async delete(path) { files.delete(path); },
    async list(prefix) {
      const out = [];
      for (const [path, f] of files) if (path.startsWith(prefix)) out.push({ path, size: f.size });
      return out;
    },
    async rename(from, to) {
      const f = files.get(from);
      if (!f) throw new Error(`no file at ${from}`);
      files.set(to, f);
      files.delete(from);
    },
  };
}

/**
 * Files in a Web Storage object (localStorage by default), each under `prefix` + path,
 * so the tool shares the storage with the rest of the page. Writes can throw the
 * storage's QuotaExceededError: the tool reports it as an error result.
 * Ownership: keeps `storage` by reference and reads and writes it on every command.
 * @param {Storage} [storage]
 * @param {{prefix?: string}} [options]
 */
export function localStorageStore(storage = globalThis.localStorage, options = {}) {
  if (!storage || typeof storage.getItem !== 'function' || typeof storage.key !== 'function')
    throw new MidfoldError('invalid-option', 'localStorageStore needs a Storage (localStorage or sessionStorage)');
  const prefix = text(options.prefix ?? 'midfold:', 'prefix');
  return {
    kind: 'localStorage',
    [BACKING]: { target: storage, prefix },
    async get(path) { return storage.getItem(prefix + path); },
    async put(path, value) { storage.setItem(prefix + path, value); },
    async delete(path) { storage.removeItem(prefix + path); },
    async list(p) {
      const keys = [];
      for (let i = 0; i < storage.length; i++) {
        const key = storage.key(i);
        if (key !== null && key.startsWith(prefix + p)) keys.push(key);
      }
      return keys.map((key) => ({ path: key.slice(prefix.length), size: utf8Length(storage.getItem(key) ?? '') }));
    },
  };
}

/**
 * Files in a key-value namespace shaped like Cloudflare Workers KV: get(key) → string or
 * null, put(key, value, {metadata}), delete(key), list({prefix, cursor}) → {keys:
 * [{name, metadata}], list_complete, cursor}. Each file's size rides in its metadata
 * so that listing a directory reads no values. KV is eventually consistent across
 * locations, and caps keys at 512 bytes (a longer path fails to store, as an error result).
 * Ownership: keeps `namespace` by reference and calls it on every command.
 * @param {{get: Function, put: Function, delete: Function, list: Function}} namespace
 * @param {{prefix?: string}} [options]
 */
export function kvStore(namespace, options = {}) {
  if (!namespace || ['get', 'put', 'delete', 'list'].some((m) => typeof namespace[m] !== 'function'))
    throw new MidfoldError('invalid-option', 'kvStore needs a KV namespace binding (get, put, delete, list)');
  const prefix = text(options.prefix ?? '', 'prefix');
  return {
    kind: 'kv',
    [BACKING]: { target: namespace, prefix },
    async get(path) { return (await namespace.get(prefix + path)) ?? null; },
    async put(path, value) { await namespace.put(prefix + path, value, { metadata: { size: utf8Length(value) } }); },
    async delete(path) { await namespace.delete(prefix + path); },
    async list(p) {
      const out = [];
      let cursor;
      for (let pages = 0; ; pages++) {
        if (pages > 100000) throw new Error('the KV listing never completes');
        const page = await namespace.list(cursor === undefined ? { prefix: prefix + p } : { prefix: prefix + p, cursor });
        for (const k of page.keys ?? []) {
          const size = k.metadata && Number.isInteger(k.metadata.size) ? k.metadata.size : undefined;
          out.push(size === undefined ? k.name.slice(prefix.length) : { path: k.name.slice(prefix.length), size });
        }
        if (page.list_complete !== false || !page.cursor) return out;
        cursor = page.cursor;
      }
    },
  };
}
