/**
 * browser.js — midfold's entry for browsers and bundlers: fetches the .wasm that ships
 * beside this file (served as application/wasm for streaming compilation).
 */
import { initWith } from './core.js';
import { createMemoryToolWith } from './memory.js';

// The public part of core.js, by name: its other exports (initWith, microReport, …) are
// for midfold's own modules. tests/types.test.mjs checks that these names are exactly
// the values index.d.ts declares.
export {
  MidfoldError, isReady, estimateTokens, serialize, microCompact, planMicroCompact, planCompaction, digest, validate,
  detectFormat,
} from './core.js';

async function resolveSource(source) {
  if (source === undefined) return fetch(new URL('../wasm/midfold.wasm', import.meta.url));
  if (source instanceof URL || typeof source === 'string') return fetch(source);
  return source;
}

/**
 * Loads the wasm module; call once and await before any other function. `source` may
 * be a WebAssembly.Module, bytes, a Response or a URL; by default the .wasm beside the
 * package is fetched.
 * @param {WebAssembly.Module | BufferSource | Response | URL | string} [source]
 * @returns {Promise<void>}
 */
export function init(source) {
  return initWith(source, resolveSource);
}
export { Compactor, digestSummarizer } from './compactor.js';
export { EstimateCache } from './estimate-cache.js';
export { openAISummarizer, anthropicSummarizer, anthropicCompaction, openAIResponsesCompaction, SummarizerError } from './summarizers.js';
export { memoryStore, localStorageStore, kvStore } from './memory-stores.js';
export { SessionState, compactHistory, memoryStateStore, conversationKey, canonicalJSON } from './state/index.js';
export { simulate } from './simulate.js';
export { simulationChart } from './simulate-chart.js';

/**
 * midfold/memory's createMemoryTool. Its loader (memory-browser.js) and its wasm module are
 * reached by a dynamic import at the first command, so a page that never runs one
 * downloads neither (a bundler makes the import a chunk of its own).
 * @param {{store?: object, maxFileBytes?: number, maxFiles?: number, maxViewBytes?: number}} [options]
 */
export function createMemoryTool(options) {
  return createMemoryToolWith(options, () => import('./memory-browser.js').then((m) => m.initMemory()));
}
