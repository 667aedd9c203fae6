/**
 * memory/workerd.js — midfold/memory's entry for Cloudflare Workers and workerd: the
 * memory tool's wasm module is imported the workerd way (a WebAssembly.Module compiled
 * when the worker loads; workerd compiles nothing from bytes at run time). With raw
 * workerd, list `wasm/midfold-memory.wasm` as a `wasm` module next to the js files (see
 * web-demo/edge/config.capnp).
 */
import wasmModule from '../../wasm/midfold-memory.wasm';
import { createMemoryToolWith, initMemoryWith } from './tool.js';
import { fetchSource } from '../sources/fetch.js';

export { MidfoldError } from '../core/errors.js';
export { memoryStore, localStorageStore, kvStore } from './stores.js';

// (pure: a bundler drops it with the entry when a page imports nothing that uses it)
const resolveSource = /* @__PURE__ */ fetchSource(() => wasmModule);

/**
 * Makes the memory tool's module ready ahead of the first command (which otherwise does);
 * later calls return at once. By default the module imported above is used; a
 * WebAssembly.Module may be given instead (bytes, a Response or a URL only where the
 * runtime compiles wasm at run time, which Cloudflare Workers do not).
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
 * createMemoryToolWith for what it returns). Needs no init().
 * @param {{store?: object, maxFileBytes?: number, maxFiles?: number, maxViewBytes?: number}} [options]
 */
export function createMemoryTool(options) {
  return createMemoryToolWith(options, () => initMemory());
}
