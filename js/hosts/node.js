/**
 * node.js — midfold's entry for Node: finds the bundled .wasm next to the package.
 */
import { COMPACT, ESTIMATE, FULL, initTier } from '../core/api.js';
import { nodeSource } from './source-node.js';

// The public part of core/api.js, by name: its other exports (initTier, microReport, …) are
// for midfold's own modules. tests/types.test.mjs checks that these names are exactly
// the values index.d.ts declares.
export {
  MidfoldError, isReady, estimateTokens, serialize, microCompact, planMicroCompact, planCompaction, digest, validate,
  detectFormat,
} from '../core/api.js';

const resolveSource = nodeSource(new URL('../../wasm/midfold.wasm', import.meta.url));
// Every tier is the full module here: bytes read from disk cost nothing on a wire.
const SOURCES = [resolveSource, resolveSource, resolveSource];

/**
 * Loads the wasm module; call once and await before any other function (later calls
 * return at once). `source` may be a WebAssembly.Module, the module's bytes, a fetch
 * Response, or a URL / path of the .wasm; by default the bundled file is read. The
 * estimator alone (midfold-estimate.wasm) is refused as `source`: it cannot compact.
 * Ownership: the instance lives as long as the process (or isolate); bytes or a Response given
 * are read once and not kept.
 * @param {WebAssembly.Module | BufferSource | Response | URL | string} [source]
 * @returns {Promise<void>}
 */
export function init(source) {
  return initTier(COMPACT, source, SOURCES);
}

/**
 * init() here, whose bundled module is the full one (validate() and digest() included),
 * except that it refuses the lite module as `source` too (init() refuses only the estimator's,
 * midfold-estimate.wasm); in the browser, init() loads the lite module and initFull() the full
 * one.
 * Ownership: the instance lives as long as the process (or isolate); bytes or a Response given
 * are read once and not kept.
 * @param {WebAssembly.Module | BufferSource | Response | URL | string} [source]
 * @returns {Promise<void>}
 */
export function initFull(source) {
  return initTier(FULL, source, SOURCES);
}

/**
 * init() here, whose bundled module is the full one, except that it takes any of midfold's
 * modules as `source`, midfold-estimate.wasm included; in the browser, initEstimator()
 * loads the estimator alone (a page that only estimates downloads 13.5 KB less).
 * Ownership: the instance lives as long as the process (or isolate); bytes or a Response given
 * are read once and not kept.
 * @param {WebAssembly.Module | BufferSource | Response | URL | string} [source]
 * @returns {Promise<void>}
 */
export function initEstimator(source) {
  return initTier(ESTIMATE, source, SOURCES);
}
export { Compactor, digestSummarizer } from '../compaction/compactor.js';
export { EstimateCache } from '../core/estimate-cache.js';
export { openAISummarizer, anthropicSummarizer, anthropicCompaction, openAIResponsesCompaction, SummarizerError } from '../compaction/summarizers.js';
export { anthropicServerContext } from '../compaction/server-context.js';
// The memory tool is midfold/memory's (its own wasm module, read at its first command).
export { createMemoryTool, memoryStore, localStorageStore, kvStore } from '../memory/node.js';
export { SessionState, compactHistory, memoryStateStore, conversationKey, canonicalJSON } from '../state/index.js';
export { simulate } from '../simulate/simulate.js';
export { pricingOfURL } from '../pricing/hosts.js';
export { simulationChart } from '../simulate/chart.js';
export { readAgentLog, agentLogFormat } from '../logs/index.js';
