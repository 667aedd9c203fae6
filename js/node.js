/**
 * node.js — midfold's entry for Node: finds the bundled .wasm next to the package.
 */
import { readFile } from 'node:fs/promises';
import { initWith } from './core.js';

// The public part of core.js, by name: its other exports (initWith, microReport,
// internalRuntime) are for midfold's own modules. tests/types.test.mjs checks that these
// names are exactly the values index.d.ts declares.
export {
  MidfoldError, isReady, estimateTokens, serialize, microCompact, planMicroCompact, planCompaction, digest, validate,
  detectFormat,
} from './core.js';

const BUNDLED = new URL('../wasm/midfold.wasm', import.meta.url);

async function resolveSource(source) {
  if (source === undefined) return readFile(BUNDLED);
  if (source instanceof URL || typeof source === 'string') {
    const url = source instanceof URL ? source : new URL(source, BUNDLED);
    if (url.protocol === 'file:') return readFile(url);
    return fetch(url);
  }
  return source;
}

/**
 * Loads the wasm module; call once and await before any other function (later calls
 * return at once). `source` may be a WebAssembly.Module, the module's bytes, a fetch
 * Response, or a URL / path of the .wasm; by default the bundled file is read.
 * @param {WebAssembly.Module | BufferSource | Response | URL | string} [source]
 * @returns {Promise<void>}
 */
export function init(source) {
  return initWith(source, resolveSource);
}
export { Compactor, digestSummarizer } from './compactor.js';
export { EstimateCache } from './estimate-cache.js';
export { openAISummarizer, anthropicSummarizer, anthropicCompaction, openAIResponsesCompaction, SummarizerError } from './summarizers.js';
export { createMemoryTool, memoryStore, localStorageStore, kvStore } from './memory.js';
export { SessionState, compactHistory, memoryStateStore, conversationKey, canonicalJSON } from './state/index.js';
export { simulate } from './simulate.js';
export { simulationChart } from './simulate-chart.js';
