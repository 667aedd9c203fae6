/**
 * sources/fetch.js — how the browser and workerd entries (hosts/browser.js, hosts/workerd.js
 * and their memory/ twins) turn init's argument into what instantiate() takes: a URL is fetched, a
 * Module, bytes or a Response pass as they are, and nothing given means the entry's own
 * module. That default stays a function in the entry, so a bundler still sees the entry's
 * `new URL('….wasm', import.meta.url)` (or its static wasm import) where it is written.
 */

/**
 * The resolver for one module, `bundled()` giving its default source.
 * @param {() => unknown} bundled
 * @returns {(source: unknown) => Promise<unknown>}
 */
export function fetchSource(bundled) {
  return async (source) => {
    if (source === undefined) return bundled();
    if (source instanceof URL || typeof source === 'string') return fetch(source);
    return source;
  };
}
