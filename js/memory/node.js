/**
 * memory/node.js — midfold/memory's entry for Node: the memory tool, whose wasm module
 * (wasm/midfold-memory.wasm) is read from the package at the first command.
 */
import { createMemoryToolWith, initMemoryWith } from './tool.js';
import { nodeSource } from '../sources/node.js';

export { MidfoldError } from '../core/errors.js';
export { memoryStore, localStorageStore, kvStore } from './stores.js';

const resolveSource = nodeSource(new URL('../../wasm/midfold-memory.wasm', import.meta.url));

/**
 * Loads the memory tool's wasm module ahead of the first command (which otherwise loads
 * it); later calls return at once. `source` may be a WebAssembly.Module, bytes, a fetch
 * Response, or a URL / path of midfold-memory.wasm; by default the bundled file is read.
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
 * createMemoryToolWith for what it returns). Needs no init(): its module is loaded at
 * the first command.
 * @param {{store?: object, maxFileBytes?: number, maxFiles?: number, maxViewBytes?: number}} [options]
 */
export function createMemoryTool(options) {
  return createMemoryToolWith(options, () => initMemory());
}
