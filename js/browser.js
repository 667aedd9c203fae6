/**
 * browser.js — midfold's entry for browsers and bundlers: fetches the .wasm that ships
 * beside this file (served as application/wasm for streaming compilation).
 */
import { initWith } from './core.js';
import { fetchSource } from './source-fetch.js';

// The public part of core.js, by name: its other exports (initWith, microReport, …) are
// for midfold's own modules. tests/types.test.mjs checks that these names are exactly
// the values index.d.ts declares.
export {
  MidfoldError, isReady, estimateTokens, serialize, microCompact, planMicroCompact, planCompaction, digest, validate,
  detectFormat,
} from './core.js';

// (pure: a bundler drops it with the entry when a page imports nothing that uses it)
const resolveSource = /* @__PURE__ */ fetchSource(() => fetch(new URL('../wasm/midfold.wasm', import.meta.url)));

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
// The memory tool is midfold/memory's: its own wasm module, fetched at its first command
// (a page that never runs one never downloads it; one that never imports it bundles none of it).
export { createMemoryTool, memoryStore, localStorageStore, kvStore } from './memory/browser.js';
export { SessionState, compactHistory, memoryStateStore, conversationKey, canonicalJSON } from './state/index.js';
export { simulate } from './simulate.js';
export { simulationChart } from './simulate-chart.js';
