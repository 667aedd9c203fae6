/**
 * memory/browser.js — midfold/memory's entry for browsers and bundlers: the memory tool,
 * whose wasm module (midfold-memory.wasm, beside midfold.wasm) is fetched at the first
 * command, so a page that never runs one never downloads it.
 */
import { createMemoryToolWith, initMemoryWith } from './tool.js';
import { fetchSource } from '../sources/fetch.js';

export { MidfoldError } from '../core/errors.js';
export { memoryStore, localStorageStore, kvStore } from './stores.js';

// (pure: a bundler drops it with the entry when a page imports nothing that uses it)
const resolveSource = /* @__PURE__ */ fetchSource(() => fetch(new URL('../../wasm/midfold-memory.wasm', import.meta.url)));

/**
 * Loads the memory tool's wasm module ahead of the first command (which otherwise loads
 * it); later calls return at once. `source` may be a WebAssembly.Module, bytes, a
 * Response or a URL; by default the .wasm beside the package is fetched.
 * Ownership: the instance lives as long as the process (or isolate); bytes or a Response given
 * are read once and not kept.
 * @param {WebAssembly.Module | BufferSource | Response | URL | string} [source]
 * @returns {Promise<void>}
 */
export function initMemory(source) {
  return initMemoryWith(source, resolveSource);
}

/**
 * Anthropic's memory tool over a store the host owns (see memory.js's
 * createMemoryToolWith for what it returns). Needs no init(): its module is fetched at
 * the first command.
 * @param {{store?: object, maxFileBytes?: number, maxFiles?: number, maxViewBytes?: number}} [options]
 */
export function createMemoryTool(options) {
  return createMemoryToolWith(options, () => initMemory());
}
