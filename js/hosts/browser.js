/**
 * browser.js — midfold's entry for browsers and bundlers: fetches the .wasm that ships
 * beside this file (served as application/wasm for streaming compilation).
 */
import { COMPACT, ESTIMATE, FULL, initTier } from '../core/api.js';
import { fetchSource } from '../sources/fetch.js';

// What every entry exports alike (public.js); this entry adds its init functions and memory tool.
export * from './public.js';

// (pure: a bundler drops them with the entry when a page imports nothing that uses them)
// init() fetches the lite module: everything but validate() and digest(), 20 KB gzipped
// less (wasm/bridge_full.c). initFull() fetches the full one. initEstimator() fetches the
// estimator alone, another 13.5 KB less (wasm/bridge_compact.c); a Compactor on it fetches
// the lite module by itself (compactor.js, run()).
const resolveEstimator = /* @__PURE__ */ fetchSource(() => fetch(new URL('../../wasm/midfold-estimate.wasm', import.meta.url)));
const resolveSource = /* @__PURE__ */ fetchSource(() => fetch(new URL('../../wasm/midfold-lite.wasm', import.meta.url)));
const resolveFull = /* @__PURE__ */ fetchSource(() => fetch(new URL('../../wasm/midfold.wasm', import.meta.url)));
/** Each tier's module (core/api.js): the estimator, the lite module, the full one. */
const SOURCES = [resolveEstimator, resolveSource, resolveFull];

/**
 * Loads the wasm module; call once and await before any other function. `source` may
 * be a WebAssembly.Module, bytes, a Response or a URL; by default midfold-lite.wasm
 * beside the package is fetched: every function but validate() and digest(), which need
 * initFull(). digestSummarizer() and the Compactor's `fallback: 'digest'` load the full
 * module themselves. After initEstimator(), it loads the lite module in its place; it
 * refuses midfold-estimate.wasm as `source` (that module cannot compact).
 * Ownership: the compiled module lives as long as the process (or isolate), its instance until a
 * call leaves its memory above `releaseMemoryAbove`; bytes or a Response given are read once and
 * not kept.
 * @param {WebAssembly.Module | BufferSource | Response | URL | string} [source]
 * @param {{releaseMemoryAbove?: number}} [options] after a call that leaves the module's memory
 *   above this many bytes (default 64 MiB), the next runs on a fresh instance (docs/api.md)
 * @returns {Promise<void>}
 */
export function init(source, options) {
  return initTier(COMPACT, source, SOURCES, options);
}

/**
 * Loads midfold.wasm, the full module (validate() and digest() too), in place of init()'s
 * lite one, or first; resolves at once when it is loaded. `source` as for init(), by
 * default midfold.wasm beside the package.
 * Ownership: the compiled module lives as long as the process (or isolate), its instance until a
 * call leaves its memory above `releaseMemoryAbove`; bytes or a Response given are read once and
 * not kept.
 * @param {WebAssembly.Module | BufferSource | Response | URL | string} [source]
 * @param {{releaseMemoryAbove?: number}} [options] after a call that leaves the module's memory
 *   above this many bytes (default 64 MiB), the next runs on a fresh instance (docs/api.md)
 * @returns {Promise<void>}
 */
export function initFull(source, options) {
  return initTier(FULL, source, SOURCES, options);
}

/**
 * Loads midfold-estimate.wasm, the estimator alone: estimateTokens(), EstimateCache and
 * detectFormat() work, and a page that only estimates downloads 13.5 KB gzipped less than
 * init()'s module. serialize(), microCompact(), planMicroCompact() and planCompaction() throw
 * 'not-initialized' until init() has loaded the lite module; a Compactor (and the integrations
 * built on it) fetches that module by itself, in the background once its conversation is half
 * way to its first trigger, at the latest at the call that has to plan a clearing or a fold
 * (its checks below the triggers need none); simulate() fetches it for a policy that
 * clears. Resolves at once when a module is loaded already. `source` as for init() (any of midfold's modules), by default
 * midfold-estimate.wasm beside the package.
 * Ownership: the compiled module lives as long as the process (or isolate), its instance until a
 * call leaves its memory above `releaseMemoryAbove`; bytes or a Response given are read once and
 * not kept.
 * @param {WebAssembly.Module | BufferSource | Response | URL | string} [source]
 * @param {{releaseMemoryAbove?: number}} [options] after a call that leaves the module's memory
 *   above this many bytes (default 64 MiB), the next runs on a fresh instance (docs/api.md)
 * @returns {Promise<void>}
 */
export function initEstimator(source, options) {
  return initTier(ESTIMATE, source, SOURCES, options);
}
// The memory tool is midfold/memory's: its own wasm module, fetched at its first command
// (a page that never runs one never downloads it; one that never imports it bundles none of it).
export { createMemoryTool, memoryStore, localStorageStore, kvStore } from '../memory/browser.js';
