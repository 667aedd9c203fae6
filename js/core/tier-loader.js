/**
 * tier-loader.js — which wasm module is in use and how a higher tier is loaded in its place: the
 * estimator alone (ESTIMATE), the lite module (COMPACT), the full one (FULL). Each tier has
 * every export of the one before it (wasm/bridge*.c).
 *
 * A loader holds one module at a time; core/api.js makes one, so each instance of api.js
 * (a test may import it twice, once per module) has a module of its own.
 */
import { MidfoldError } from './errors.js';
import { Wasm, instantiate } from './wasm.js';
import { Scratch } from './encode.js';

/** What a module can do: each tier has every export of the one before it (wasm/bridge*.c). */
export const ESTIMATE = 0, COMPACT = 1, FULL = 2;
/** Each tier's module, as an error names it. */
const TIER_MODULES = ['the estimator alone (midfold-estimate.wasm)', 'the lite one (midfold-lite.wasm)', 'the full one'];
/** The entry function that loads each tier (what to await, what an error names). */
const TIER_INITS = ['initEstimator', 'init', 'initFull'];

function loadFailure(e) {
  return e instanceof MidfoldError ? e : new MidfoldError('init-failed', `midfold could not load its wasm module: ${e && e.message}`, { cause: e });
}

/**
 * The module in use and the loads in progress. Ownership: keeps the instance it installed
 * (and its scratch buffer) until a higher tier replaces it; keeps the entry's resolvers.
 */
export class TierLoader {
  constructor() {
    /** @type {Wasm | null} */
    this.wasm = null;
    /** @type {Scratch | null} */
    this.scratch = null;
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
      const w = new Wasm(await instantiate(await resolve(source), fn));
      if (w.tier < 0) // another module's exports (midfold-memory.wasm's): it cannot even estimate
        throw new MidfoldError('invalid-option', `${fn}(source): the module given is no midfold core module (it lacks the estimator's exports, core/tiers.js)`);
      if (w.tier < tier)
        throw new MidfoldError('invalid-option', `${fn}(source): the module given is ${TIER_MODULES[w.tier]}, which cannot ${tier === FULL ? 'validate or digest' : 'compact'}`);
      // A load of a higher tier may have finished first: the higher module stays.
      if (!this.wasm || w.tier > this.wasm.tier) this.install(w);
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
   */
  init(tier, source, sources) {
    this.sources = sources;
    return this.load(tier, source, sources[tier], TIER_INITS[tier]);
  }

  install(w) {
    this.wasm = w;
    this.scratch = new Scratch(w);
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
