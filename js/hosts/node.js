/**
 * node.js — midfold's entry for Node: finds the bundled .wasm next to the package.
 */
import { COMPACT, ESTIMATE, FULL, initTier } from '../core/api.js';
import { nodeSource } from '../sources/node.js';

// What every entry exports alike (public.js); this entry adds its init functions and memory tool.
export * from './public.js';

const resolveSource = nodeSource(new URL('../../wasm/midfold.wasm', import.meta.url));
// Every tier is the full module here: bytes read from disk cost nothing on a wire.
const SOURCES = [resolveSource, resolveSource, resolveSource];

/**
 * Loads the wasm module; call once and await before any other function (later calls
 * return at once). `source` may be a WebAssembly.Module, the module's bytes, a fetch
 * Response, or a URL / path of the .wasm; by default the bundled file is read. The
 * estimator alone (midfold-estimate.wasm) is refused as `source`: it cannot compact.
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
 * init() here, whose bundled module is the full one (validate() and digest() included),
 * except that it refuses the lite module as `source` too (init() refuses only the estimator's,
 * midfold-estimate.wasm); in the browser, init() loads the lite module and initFull() the full
 * one.
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
 * init() here, whose bundled module is the full one, except that it takes any of midfold's
 * modules as `source`, midfold-estimate.wasm included; in the browser, initEstimator()
 * loads the estimator alone (a page that only estimates downloads 13.5 KB less).
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
// The memory tool is midfold/memory's (its own wasm module, read at its first command).
export { createMemoryTool, memoryStore, localStorageStore, kvStore } from '../memory/node.js';
