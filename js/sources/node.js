/**
 * sources/node.js — how the Node entries (hosts/node.js, memory/node.js) turn init's argument
 * into what instantiate() takes: a file URL or path is read from disk, any other URL is
 * fetched, and nothing given means the module bundled with the package.
 */
import { readFile } from 'node:fs/promises';

/**
 * The resolver for one module, `bundled` being the URL of its .wasm in the package.
 * @param {URL} bundled
 * @returns {(source: unknown) => Promise<unknown>}
 */
export function nodeSource(bundled) {
  return async (source) => {
    if (source === undefined) return readFile(bundled);
    if (source instanceof URL || typeof source === 'string') {
      const url = source instanceof URL ? source : new URL(source, bundled);
      if (url.protocol === 'file:') return readFile(url);
      return fetch(url);
    }
    return source;
  };
}
