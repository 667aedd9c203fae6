/**
 * tier-loader.js — which wasm module is in use and how a higher tier is loaded in its place: the
 * estimator alone (ESTIMATE), the lite module (COMPACT), the full one (FULL). Each tier has
 * every export of the one before it (wasm/bridge*.c).
 *
 * A loader holds one module at a time; core/api.js makes one, so each instance of api.js
 * (a test may import it twice, once per module) has a module of its own.
 */
import { MidfoldError } from './errors.js';
import { IMPORTS, Wasm, instantiateModule } from './wasm.js';
import { Scratch } from './encode.js';
import { optionsObject } from './options.js';

/** What a module can do: each tier has every export of the one before it (wasm/bridge*.c). */
export const ESTIMATE = 0, COMPACT = 1, FULL = 2;
/** Each tier's module, as an error names it. */
const TIER_MODULES = ['the estimator alone (midfold-estimate.wasm)', 'the lite one (midfold-lite.wasm)', 'the full one'];
/** The entry function that loads each tier (what to await, what an error names). */
const TIER_INITS = ['initEstimator', 'init', 'initFull'];

/**
 * init's `releaseMemoryAbove` when it is not given (workerd's entry sets Infinity): 64 MiB. A
 * module at rest holds 4 MiB (its initial memory); a conversation of up to 35–50 MB of JSON (by its
 * shape) keeps its instance and pays nothing, a larger one is followed by a fresh instance, and the
 * next large call grows the memory again, which costs V8 a full garbage collection at each
 * growth past about 64 MB (docs/performance.md#memory): a bound below that would make
 * middle-sized conversations pay for regrowing on every call.
 */
export const RELEASE_MEMORY_ABOVE = 64 * 1024 * 1024;

function loadFailure(e) {
  return e instanceof MidfoldError ? e : new MidfoldError('init-failed', `midfold could not load its wasm module: ${e && e.message}`, { cause: e });
}

/**
 * The module in use and the loads in progress. Ownership: keeps the instance it installed
 * (and its scratch buffer) until a higher tier replaces it or a call leaves its memory above
 * `releaseAbove` (settle); keeps the compiled module of that instance and the entry's
 * resolvers.
 *
 * Why instances are replaced: wasm memory only grows, so one large conversation would leave
 * its size with the page or Worker for good. A fresh instance of the compiled module costs
 * about 2 ms; growing the memory again costs more (docs/performance.md#memory); the old one, its memory included, is
 * garbage once dropped.
 */
export class TierLoader {
  constructor() {
    /** @type {Wasm | null} */
    this.wasm = null;
    /** @type {Scratch | null} */
    this.scratch = null;
    /**
     * The compiled module of the instance in use, from which settle() makes a fresh one.
     * @type {WebAssembly.Module | null}
     */
    this.module = null;
    /** After a call that leaves the memory above this many bytes, the instance is replaced. */
    this.releaseAbove = RELEASE_MEMORY_ABOVE;
    /** The largest memory an instance reached at the end of a call, and the instances replaced so. */
    this.peak = 0;
    this.releases = 0;
    /**
     * The load in progress for each tier (ESTIMATE, COMPACT, FULL), if any: a caller asking for a
     * tier waits for a load of that tier or a higher one.
     * @type {(Promise<void> | null)[]}
     */
    this.pending = [null, null, null];
    /**
     * How the entry finds its module of each tier (the browser: midfold-estimate.wasm,
     * midfold-lite.wasm, midfold.wasm; Node and workerd: midfold.wasm for all three), so that
     * midfold's own async paths can load a higher tier than the one loaded (ensure). Set by
     * the entry's init functions.
     * @type {((source: unknown) => Promise<unknown>)[]}
     */
    this.sources = [];
  }

  /** The module in use; throws 'not-initialized' before any init has finished. */
  ready() {
    if (!this.wasm) throw new MidfoldError('not-initialized', 'call and await init() before using midfold');
    return this.wasm;
  }

  /**
   * Throws, as ready() does, unless the module loaded has `tier`'s exports: for `fn`, which
   * needs them (compaction: COMPACT; validate and the digest: FULL).
   */
  require(fn, tier) {
    const w = this.ready();
    if (w.tier >= tier) return;
    const needs = tier === FULL ? "midfold's full module" : "midfold's compaction";
    throw new MidfoldError('not-initialized',
      `${fn}() needs ${needs}, and the one loaded is ${TIER_MODULES[w.tier]}: await ${TIER_INITS[tier]}() first`);
  }

  /**
   * Makes sure a module of at least `tier` is the one in use: resolves at once when it is,
   * waits for a load of that tier or a higher one in progress, else loads one from `source`
   * (or, when it is undefined, the entry's default for the tier) in place of the one in use.
   * Nothing of an instance outlives a call (documents, plans and results live within one), so
   * the swap is invisible to callers. A module below `tier` given as `source` is refused with
   * 'invalid-option'. Failure leaves the module in use as it was, so a later call can retry.
   * @param {number} tier ESTIMATE, COMPACT or FULL
   * @param {unknown} source
   * @param {(source: unknown) => Promise<unknown>} resolve the entry's resolver for the tier
   * @param {string} fn the entry function, for errors
   */
  load(tier, source, resolve, fn) {
    if (this.wasm && this.wasm.tier >= tier) return Promise.resolve();
    for (let t = FULL; t >= tier; t--) if (this.pending[t]) return this.pending[t];
    const load = (async () => {
      const { module, instance } = await instantiateModule(await resolve(source), fn);
      const w = new Wasm(instance);
      if (w.tier < 0) // another module's exports (midfold-memory.wasm's): it cannot even estimate
        throw new MidfoldError('invalid-option', `${fn}(source): the module given is no midfold core module (it lacks the estimator's exports, core/tiers.js)`);
      if (w.tier < tier)
        throw new MidfoldError('invalid-option', `${fn}(source): the module given is ${TIER_MODULES[w.tier]}, which cannot ${tier === FULL ? 'validate or digest' : 'compact'}`);
      // A load of a higher tier may have finished first: the higher module stays.
      if (!this.wasm || w.tier > this.wasm.tier) this.install(w, module);
    })().catch((e) => {
      throw loadFailure(e);
    }).finally(() => {
      if (this.pending[tier] === load) this.pending[tier] = null;
    });
    this.pending[tier] = load;
    return load;
  }

  /**
   * An entry's init function: `sources` holds the entry's resolver of each tier (what a
   * caller's argument or, for undefined, the entry's default module becomes: a Module, bytes or
   * a Response), and the module of `tier` is loaded from `source` unless one of that tier or a
   * higher one is in use already (later calls resolve at once).
   * @param {number} tier ESTIMATE (initEstimator), COMPACT (init) or FULL (initFull)
   * @param {unknown} source
   * @param {((source: unknown) => Promise<unknown>)[]} sources
   * @param {{releaseMemoryAbove?: number}} [options] checked at once (a bad one rejects, nothing
   *   loaded); set for the module in use and every later one
   */
  init(tier, source, sources, options) {
    try {
      this.configure(options, TIER_INITS[tier]);
    } catch (e) {
      return Promise.reject(e);
    }
    this.sources = sources;
    return this.load(tier, source, sources[tier], TIER_INITS[tier]);
  }

  /** Reads an init function's options (MidfoldError 'invalid-option' for a bad one). */
  configure(options, fn) {
    const o = optionsObject(options, fn, ['releaseMemoryAbove']);
    if (o.releaseMemoryAbove === undefined) return;
    const bytes = o.releaseMemoryAbove;
    if (typeof bytes !== 'number' || Number.isNaN(bytes) || bytes < 0)
      throw new MidfoldError('invalid-option', `${fn}: releaseMemoryAbove must be a number of bytes >= 0 (Infinity: never), got ${String(bytes)}`);
    this.releaseAbove = bytes;
  }

  /** Puts instance `w` of `module` in use, with a scratch buffer of its own. */
  install(w, module) {
    this.wasm = w;
    this.module = module;
    this.scratch = new Scratch(w);
  }

  /**
   * Run after every call into the module, once nothing of it is read any more (errors too):
   * when the call left the memory above `releaseAbove` bytes, the next call runs on a fresh
   * instance of the same compiled module, back at the module's initial size, and the old
   * instance is dropped. Nothing of an instance outlives a call (documents, plans, results and
   * the error record are read within it; EstimateCache keeps figures in JavaScript, no
   * pointers), so callers cannot tell. Should instantiating fail (no memory for even the
   * initial size), the instance in use stays.
   */
  settle() {
    const w = this.wasm;
    if (!w || !this.module) return;
    const bytes = w.memory.buffer.byteLength;
    if (bytes > this.peak) this.peak = bytes;
    if (bytes <= this.releaseAbove) return;
    let fresh;
    try {
      fresh = new Wasm(new WebAssembly.Instance(this.module, IMPORTS));
    } catch {
      return;
    }
    this.install(fresh, this.module);
    this.releases++;
  }

  /**
   * The wasm memory of the module in use: its bytes now, the most any instance held at the end
   * of a call, how many instances settle() replaced, and the bound it replaces them above.
   * @returns {{wasmBytes: number, peakWasmBytes: number, releases: number, releaseMemoryAbove: number}}
   */
  usage() {
    const bytes = this.wasm ? this.wasm.memory.buffer.byteLength : 0;
    return { wasmBytes: bytes, peakWasmBytes: Math.max(this.peak, bytes), releases: this.releases, releaseMemoryAbove: this.releaseAbove };
  }

  /**
   * For midfold's own async paths that need a tier the entry's init may not have loaded (the
   * Compactor's compaction after initEstimator(); digestSummarizer and the digest fallback after
   * the browser's init()): waits for a load in progress, then loads the tier from the entry's
   * default if the module in use is below it. Rejects with 'not-initialized' before any init.
   * @param {number} tier
   * @returns {Promise<void>}
   */
  ensure(tier) {
    if (this.wasm && this.wasm.tier >= tier) return Promise.resolve();
    const loading = this.pending.filter(Boolean);
    if (!this.wasm && loading.length === 0) return Promise.reject(new MidfoldError('not-initialized', 'call and await init() before using midfold'));
    return Promise.all(loading).then(() => (this.wasm && this.wasm.tier >= tier ? undefined : this.load(tier, undefined, this.sources[tier], TIER_INITS[tier])));
  }

  /** True once a module of at least `tier` is the one in use. */
  loaded(tier) { return this.wasm !== null && this.wasm.tier >= tier; }
}
