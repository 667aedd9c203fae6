/**
 * node.js — midfold's entry for Node: finds the bundled .wasm next to the package.
 */
import { initFullWith, initWith } from '../core/api.js';
import { nodeSource } from './source-node.js';

// The public part of core/api.js, by name: its other exports (initWith, microReport, …) are
// for midfold's own modules. tests/types.test.mjs checks that these names are exactly
// the values index.d.ts declares.
export {
  MidfoldError, isReady, estimateTokens, serialize, microCompact, planMicroCompact, planCompaction, digest, validate,
  detectFormat,
} from '../core/api.js';

const resolveSource = nodeSource(new URL('../../wasm/midfold.wasm', import.meta.url));

/**
 * Loads the wasm module; call once and await before any other function (later calls
 * return at once). `source` may be a WebAssembly.Module, the module's bytes, a fetch
 * Response, or a URL / path of the .wasm; by default the bundled file is read.
 * Ownership: the instance lives as long as the process (or isolate); bytes or a Response given
 * are read once and not kept.
 * @param {WebAssembly.Module | BufferSource | Response | URL | string} [source]
 * @returns {Promise<void>}
 */
export function init(source) {
  return initWith(source, resolveSource);
}

/**
 * init() here, whose bundled module is the full one (validate() and digest() included),
 * except that it refuses the lite module as `source`; in the browser, init() loads the
 * lite module and initFull() the full one.
 * Ownership: the instance lives as long as the process (or isolate); bytes or a Response given
 * are read once and not kept.
 * @param {WebAssembly.Module | BufferSource | Response | URL | string} [source]
 * @returns {Promise<void>}
 */
export function initFull(source) {
  return initFullWith(source, resolveSource);
}
export { Compactor, digestSummarizer } from '../compaction/compactor.js';
export { EstimateCache } from '../core/estimate-cache.js';
export { openAISummarizer, anthropicSummarizer, anthropicCompaction, openAIResponsesCompaction, SummarizerError } from '../compaction/summarizers.js';
// The memory tool is midfold/memory's (its own wasm module, read at its first command).
export { createMemoryTool, memoryStore, localStorageStore, kvStore } from '../memory/node.js';
export { SessionState, compactHistory, memoryStateStore, conversationKey, canonicalJSON } from '../state/index.js';
export { simulate } from '../simulate/simulate.js';
export { pricingOfURL } from '../pricing/hosts.js';
export { simulationChart } from '../simulate/chart.js';
