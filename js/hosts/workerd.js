/**
 * workerd.js — midfold's entry for Cloudflare Workers and workerd (the `workerd` export
 * condition). workerd compiles no wasm from bytes at run time and has no
 * import.meta.url, so the module is imported the workerd way: the import below gives a
 * WebAssembly.Module, compiled when the worker is loaded, which init() instantiates.
 *
 * A bundler that understands .wasm imports (wrangler, workerd's own config) resolves
 * the import below to a WebAssembly.Module; with raw workerd, list `wasm/midfold.wasm`
 * as a `wasm` module next to the js files (see web-demo/edge/config.capnp).
 */
import wasmModule from '../../wasm/midfold.wasm';
import { MidfoldError } from '../core/errors.js';
import { COMPACT, ESTIMATE, FULL, defaultReleaseMemoryAbove, initTier } from '../core/api.js';
import { fetchSource } from '../sources/fetch.js';

// What every entry exports alike (public.js); this entry adds its init functions and memory tool.
export * from './public.js';

// (pure: a bundler drops it with the entry when a page imports nothing that uses it)
const resolveSource = /* @__PURE__ */ fetchSource(() => wasmModule);
// Every tier is the full module here: it is compiled with the worker, never fetched.
const SOURCES = [resolveSource, resolveSource, resolveSource];

// A Worker keeps its instance unless init is told otherwise: workerd's V8 collects a dropped
// instance's memory only at a full garbage collection, and wasm memory alone never brings one
// on (measured: 40 MB more resident per dropped instance, 233 MB to 698 MB over 12 calls on a
// 23 MB conversation, while a kept instance stays at 272 MB, reusing its memory;
// tests/hosts/workerd-memory.test.mjs). Replacing would then add memory, not give it back.
defaultReleaseMemoryAbove(Infinity);

/** A failure to compile bytes, explained for workerd. */
function workerdFailure(source, e) {
  if (source === undefined || source instanceof WebAssembly.Module || !(e instanceof MidfoldError) || e.code !== 'init-failed') return e;
  return new MidfoldError('init-failed',
    `${e.message} (workerd does not compile wasm from bytes at run time: call init() with no argument, or pass the WebAssembly.Module of \`import wasm from 'midfold/midfold.wasm'\`)`,
    { cause: e });
}

/**
 * Loads the wasm module; call once and await before any other function (later calls
 * return at once). By default the bundled module (imported as a WebAssembly.Module) is
 * used. A WebAssembly.Module may be given instead, e.g. from
 * `import wasm from 'midfold/midfold.wasm'`; bytes, a Response or a URL only work where
 * the runtime allows compiling wasm at run time, which Cloudflare Workers do not. The
 * estimator alone (midfold-estimate.wasm) is refused as `source`: it cannot compact.
 * Ownership: the compiled module lives as long as the process (or isolate), its instance until a
 * call leaves its memory above `releaseMemoryAbove`; bytes or a Response given are read once and
 * not kept.
 * @param {WebAssembly.Module | BufferSource | Response | URL | string} [source]
 * @param {{releaseMemoryAbove?: number}} [options] after a call that leaves the module's memory
 *   above this many bytes, the next runs on a fresh instance; here Infinity unless given (see
 *   below the imports; docs/api.md)
 * @returns {Promise<void>}
 */
export function init(source, options) {
  return initTier(COMPACT, source, SOURCES, options).catch((e) => { throw workerdFailure(source, e); });
}

/**
 * init() here, whose bundled module is the full one (validate() and digest() included),
 * except that it refuses the lite module as `source` too (init() refuses only the estimator's,
 * midfold-estimate.wasm); in the browser, init() loads the lite module and initFull() the full
 * one.
 * Ownership: the compiled module lives as long as the process (or isolate), its instance until a
 * call leaves its memory above `releaseMemoryAbove`; bytes or a Response given are read once and
 * not kept.
 * @param {WebAssembly.Module | BufferSource | Response | URL | string} [source]
 * @param {{releaseMemoryAbove?: number}} [options] after a call that leaves the module's memory
 *   above this many bytes, the next runs on a fresh instance; here Infinity unless given (see
 *   below the imports; docs/api.md)
 * @returns {Promise<void>}
 */
export function initFull(source, options) {
  return initTier(FULL, source, SOURCES, options).catch((e) => { throw workerdFailure(source, e); });
}

/**
 * init() here, whose bundled module is the full one, except that it takes any of midfold's
 * modules as `source`; in the browser, initEstimator() loads the estimator alone.
 * Ownership: the compiled module lives as long as the process (or isolate), its instance until a
 * call leaves its memory above `releaseMemoryAbove`; bytes or a Response given are read once and
 * not kept.
 * @param {WebAssembly.Module | BufferSource | Response | URL | string} [source]
 * @param {{releaseMemoryAbove?: number}} [options] after a call that leaves the module's memory
 *   above this many bytes, the next runs on a fresh instance; here Infinity unless given (see
 *   below the imports; docs/api.md)
 * @returns {Promise<void>}
 */
export function initEstimator(source, options) {
  return initTier(ESTIMATE, source, SOURCES, options).catch((e) => { throw workerdFailure(source, e); });
}
// The memory tool is midfold/memory's: its own wasm module, embedded beside midfold.wasm.
export { createMemoryTool, memoryStore, localStorageStore, kvStore } from '../memory/workerd.js';
