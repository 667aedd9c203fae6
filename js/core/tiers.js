/**
 * tiers.js — what each wasm module exports, written once: the Makefile links each module
 * with these lists (it reads the quoted names of each `…_EXPORTS` line below, so keep each
 * list on one line, names separated by single spaces), and core/wasm.js tells a module's tier
 * by them. Each tier has every export of the one before it (wasm/bridge*.c): the estimator
 * (midfold-estimate.wasm: bridge.c), the lite module (midfold-lite.wasm: + bridge_compact.c),
 * the full one (midfold.wasm: + bridge_full.c and bridge_search.c, the archive's search). The memory tool's module is apart
 * (midfold-memory.wasm: bridge_memory.c).
 */
export const ESTIMATE_EXPORTS = 'mfw_alloc mfw_free mfw_realloc mfw_estimate_text mfw_estimate_text_piece mfw_count_code_points mfw_doc_parse mfw_doc_free mfw_doc_detect mfw_doc_estimate mfw_doc_estimate_each';
export const LITE_EXPORTS = 'mfw_doc_serialize mfw_doc_micro mfw_doc_compact mfw_doc_signed mfw_recall_id';
export const FULL_EXPORTS = 'mfw_doc_validate mfw_doc_digest mfw_search_rank';
export const MEMORY_EXPORTS = 'mfw_alloc mfw_free mfw_realloc mfw_memory_step';

/** The exports each tier adds to the one before it, from the estimator (tier 0) up. */
export const TIER_EXPORTS = [ESTIMATE_EXPORTS, LITE_EXPORTS, FULL_EXPORTS].map((list) => list.split(' '));

/**
 * The tier of a module's exports: the highest whose exports, and those of every tier below
 * it, are all functions; -1 when not even the estimator's are (no midfold module).
 * @param {WebAssembly.Exports} exports
 * @returns {number}
 */
export function tierOf(exports) {
  let tier = -1;
  for (const names of TIER_EXPORTS) {
    if (!names.every((name) => typeof exports[name] === 'function')) break;
    tier++;
  }
  return tier;
}
