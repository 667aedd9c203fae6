/**
 * browser.js — midfold's entry for browsers and bundlers: fetches the .wasm that ships
 * beside this file (served as application/wasm for streaming compilation).
 */
import { initFullWith, initWith } from '../core/api.js';
import { fetchSource } from './source-fetch.js';

// The public part of core/api.js, by name: its other exports (initWith, microReport, …) are
// for midfold's own modules. tests/types.test.mjs checks that these names are exactly
// the values index.d.ts declares.
export {
  MidfoldError, isReady, estimateTokens, serialize, microCompact, planMicroCompact, planCompaction, digest, validate,
  detectFormat,
} from '../core/api.js';

// (pure: a bundler drops them with the entry when a page imports nothing that uses them)
// init() fetches the lite module: everything but validate() and digest(), 20 KB gzipped
// less (wasm/bridge_full.c). initFull() fetches the full one.
const resolveSource = /* @__PURE__ */ fetchSource(() => fetch(new URL('../../wasm/midfold-lite.wasm', import.meta.url)));
const resolveFull = /* @__PURE__ */ fetchSource(() => fetch(new URL('../../wasm/midfold.wasm', import.meta.url)));

/**
 * Loads the wasm module; call once and await before any other function. `source` may
 * be a WebAssembly.Module, bytes, a Response or a URL; by default midfold-lite.wasm
 * beside the package is fetched: every function but validate() and digest(), which need
 * initFull(). digestSummarizer() and the Compactor's `fallback: 'digest'` load the full
 * module themselves.
 * Ownership: the instance lives as long as the process (or isolate); bytes or a Response given
 * are read once and not kept.
 * @param {WebAssembly.Module | BufferSource | Response | URL | string} [source]
 * @returns {Promise<void>}
 */
export function init(source) {
  return initWith(source, resolveSource, resolveFull);
}

/**
 * Loads midfold.wasm, the full module (validate() and digest() too), in place of init()'s
 * lite one, or first; resolves at once when it is loaded. `source` as for init(), by
 * default midfold.wasm beside the package.
 * Ownership: the instance lives as long as the process (or isolate); bytes or a Response given
 * are read once and not kept.
 * @param {WebAssembly.Module | BufferSource | Response | URL | string} [source]
 * @returns {Promise<void>}
 */
export function initFull(source) {
  return initFullWith(source, resolveFull);
}
export { Compactor, digestSummarizer } from '../compaction/compactor.js';
export { EstimateCache } from '../core/estimate-cache.js';
export { openAISummarizer, anthropicSummarizer, anthropicCompaction, openAIResponsesCompaction, SummarizerError } from '../compaction/summarizers.js';
// The memory tool is midfold/memory's: its own wasm module, fetched at its first command
// (a page that never runs one never downloads it; one that never imports it bundles none of it).
export { createMemoryTool, memoryStore, localStorageStore, kvStore } from '../memory/browser.js';
export { SessionState, compactHistory, memoryStateStore, conversationKey, canonicalJSON } from '../state/index.js';
export { simulate } from '../simulate/simulate.js';
export { pricingOfURL } from '../pricing/hosts.js';
export { simulationChart } from '../simulate/chart.js';
