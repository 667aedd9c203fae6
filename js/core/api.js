/**
 * core/api.js — midfold's synchronous API over the wasm module, host-agnostic. Each host
 * entry (node.js, browser.js, workerd.js) supplies how the module's bytes are found and
 * re-exports everything here.
 *
 * The boundary: a conversation is written into wasm memory once per call in the binary
 * tree encoding (encode.js), parsed there into a document, and results come back as
 * small buffers (a number, the transcript text, an edit plan, a problem list). Edits are
 * applied here, to the caller's own objects. Which module is in use, and loading a higher
 * tier in its place, is tier-loader.js's.
 */
import { MidfoldError } from './errors.js';
import { Scratch, encodeValue, encodeTextChunk } from './encode.js';
import { COMPACT, FULL, TierLoader } from './tier-loader.js';
import { applyEdits, applyEditsCopyingReadOnly, isInputEdit } from './apply.js';
import { messagesFromViews, plainInput, viewList } from './langchain.js';
import { DROP_KINDS, dropThinkingAfterEdits, dropsMilli } from './thinking.js';
import { applyMicroRules, checkRulesCanLand, microKnobs } from './micro-rules.js';
import { FORMAT_NAMES, checkConversationSize, count, formatIndex, isArray, messagesArray, optionsObject, profileIndex, stringList } from './options.js';

export { MidfoldError } from './errors.js';
export { ESTIMATE, COMPACT, FULL } from './tier-loader.js';

/** This instance's module (tier-loader.js). */
const tiers = /* @__PURE__ */ new TierLoader();

/**
 * What a shared options object holds, so `{profile, format}` can be passed to every function:
 * a function that does not count (serialize, validate) takes `profile` and ignores it.
 */
const SHARED_OPTIONS = ['profile', 'format'];

const TEXT_CHUNK = 1 << 20; // UTF-16 units per crossing for long strings: bounds the scratch size

/**
 * An entry's init function (TierLoader.init): loads the module of `tier` from `source`, or
 * the entry's default of `sources`, unless one of that tier or a higher one is in use.
 * `options.releaseMemoryAbove` (bytes) is the bound past which a call's memory is given back.
 * @param {number} tier ESTIMATE (initEstimator), COMPACT (init) or FULL (initFull)
 * @param {unknown} source
 * @param {((source: unknown) => Promise<unknown>)[]} sources
 * @param {{releaseMemoryAbove?: number}} [options]
 */
export function initTier(tier, source, sources, options) { return tiers.init(tier, source, sources, options); }

/**
 * For midfold's own async paths that need a tier the entry's init may not have loaded
 * (TierLoader.ensure). Rejects with 'not-initialized' before any init.
 * @param {number} tier
 * @returns {Promise<void>}
 */
export function ensureTier(tier) { return tiers.ensure(tier); }

/** True once a module of at least `tier` is the one in use. */
export function tierLoaded(tier) { return tiers.loaded(tier); }

/**
 * The module in use, for midfold's own modules that call an export of `tier` (recall/search.js):
 * throws MidfoldError('not-initialized') for `fn` unless a module with that tier's exports is
 * loaded (TierLoader.require). The instance is valid until the next init of a higher tier.
 * @param {string} fn
 * @param {number} tier
 * @returns {import('./wasm.js').Wasm}
 */
export function moduleFor(fn, tier) {
  tiers.require(fn, tier);
  return tiers.ready();
}

/** True once init(), initFull() or initEstimator() has finished. */
export function isReady() { return tiers.wasm !== null; }

/**
 * An entry's own default for init's `releaseMemoryAbove`, set when the entry is evaluated
 * (an init option given later still wins): workerd.js keeps its instance (Infinity).
 * @param {number} bytes
 */
export function defaultReleaseMemoryAbove(bytes) { tiers.releaseAbove = bytes; }

/**
 * The wasm memory midfold's module holds (TierLoader.usage): `wasmBytes` now, `peakWasmBytes`
 * the most it held at the end of any call, `releases` how many times a call that left it above
 * `releaseMemoryAbove` was followed by a fresh instance. All 0 before init.
 * @returns {{wasmBytes: number, peakWasmBytes: number, releases: number, releaseMemoryAbove: number}}
 */
export function memoryUsage() { return tiers.usage(); }

/**
 * Encodes a value (recording each message's snapshot with `recorder`), parses it in wasm,
 * runs fn(doc) and frees the document.
 */
function withDoc(value, fn, recorder) {
  const w = tiers.ready();
  try {
    const scratch = /** @type {import('./encode.js').Scratch} */ (tiers.scratch);
    // LangChain messages cross as their plain views, index for index (langchain.js).
    const len = encodeValue(scratch, plainInput(value), recorder);
    w.check(w.x.mfw_doc_parse(scratch.ptr, len, w.slots, w.err));
    const doc = w.u32(w.slots);
    try {
      return fn(w, doc);
    } finally {
      w.x.mfw_doc_free(doc);
    }
  } finally {
    tiers.settle(); // a call that grew the memory past the bound leaves a fresh instance
  }
}

/** fn(w, doc) on the document `held` holds (holdHistory), or else as withDoc. */
function onDoc(held, value, fn, recorder) {
  if (!held) return withDoc(value, fn, recorder);
  if (held.doc === 0) throw new MidfoldError('internal', 'the held history was released');
  return fn(held.w, held.doc);
}

/**
 * The history of a fold, encoded once and parsed once for the plans made of it:
 * `micro(options, withFigures)` is planMicroCompact's plan (with each message's figures, as
 * planMicroCompactWithFigures', when `withFigures`; `format`, the format it read the history
 * in, is set then), `compaction(options, edits)` planCompaction's plan of the conversation those edits of
 * the micro plan leave, both read from the one document (no edited copy is encoded). Other
 * calls into midfold may come between (the document keeps the buffer it was encoded into; the
 * next encoding gets another). With `recorder`, each message's snapshot is recorded as the
 * history is encoded. Not in the public entries.
 * Ownership: reads `messages` once, here; release() (in a finally) frees the document and its
 * buffer, after which neither plan can be made.
 * @param {unknown[]} messages
 * @param {import('./encode.js').SnapshotRecorder} [recorder]
 */
export function holdHistory(messages, recorder) {
  messagesArray(messages, 'compact');
  tiers.require('compact', COMPACT);
  const w = tiers.ready();
  const scratch = tiers.scratch;
  const len = encodeValue(scratch, plainInput(messages), recorder);
  w.check(w.x.mfw_doc_parse(scratch.ptr, len, w.slots, w.err));
  // The document borrows the buffer's bytes: until it is freed, other encodings use another.
  const own = new Scratch(w);
  tiers.scratch = own;
  const held = {
    w, doc: w.u32(w.slots), format: undefined, formatIndex: 0, figures: undefined,
    micro(options, withFigures) {
      const read = {};
      const plan = planMicro(messages, options, withFigures, undefined, 'planMicroCompact', held, read);
      held.profile = profileIndex(options && options.profile);
      held.formatIndex = read.format;
      held.format = FORMAT_NAMES[read.format];
      held.figures = plan.figures;
      return plan;
    },
    compaction(options, edits) { return compactionPlan(messages, options, held, edits); },
    release() {
      if (held.doc === 0) return;
      w.x.mfw_doc_free(held.doc);
      held.doc = 0;
      // (the buffer the history was written into is the larger: it goes back into use)
      if (tiers.scratch === own && tiers.wasm === w) {
        own.dispose();
        tiers.scratch = scratch;
      } else {
        scratch.dispose();
      }
    },
  };
  return held;
}

function textMilli(w, text, profile) {
  const scratch = tiers.scratch;
  if (text.length <= TEXT_CHUNK) {
    const [bytes] = encodeTextChunk(scratch, text, 0, TEXT_CHUNK);
    return w.x.mfw_estimate_text(scratch.ptr, bytes, profile);
  }
  // Pieces of one text: the wasm side carries the feature pass across them.
  let milli = 0;
  for (let from = 0; from < text.length;) {
    const [bytes, next] = encodeTextChunk(scratch, text, from, TEXT_CHUNK);
    milli = w.x.mfw_estimate_text_piece(scratch.ptr, bytes, profile, (from === 0 ? 1 : 0) | (next >= text.length ? 2 : 0));
    from = next;
  }
  return milli;
}

/**
 * Estimates the tokens of a string, a message, a list of messages, a request body
 * ({messages, system, tools}) or any JSON value, without a tokenizer; errs high.
 * Returns a whole number (the sum is rounded up once). Reads `input`, never keeps it.
 * With `cache` (an EstimateCache), a list of messages is priced from the cache: only the
 * messages that are new or changed since its last call are read.
 * @param {unknown} input
 * @param {{profile?: string, format?: string, cache?: import('./estimate-cache.js').EstimateCache}} [options]
 * @returns {number}
 */
export function estimateTokens(input, options) {
  const o = optionsObject(options, 'estimateTokens', ['profile', 'format', 'cache']);
  checkConversationSize(input, 'estimateTokens');
  if (o.cache !== undefined) {
    if (!o.cache || typeof o.cache.milli !== 'function') throw new MidfoldError('invalid-option', 'estimateTokens: cache must be an EstimateCache');
    if ((o.profile !== undefined && o.profile !== o.cache.profile) || (o.format !== undefined && o.format !== o.cache.format))
      throw new MidfoldError('invalid-option', 'estimateTokens: the cache was made for another profile or format');
    if (Array.isArray(input)) return Math.ceil(o.cache.milli(input) / 1000);
  }
  return Math.ceil(estimateMilli(input, o) / 1000);
}

/**
 * estimateTokens' figure in milli-tokens, before rounding up (for midfold's own modules:
 * EstimateCache agrees with it on lists it cannot price message by message).
 * @param {unknown} input
 * @param {{profile?: string, format?: string}} o
 * @returns {number}
 */
export function estimateMilli(input, o) {
  const profile = profileIndex(o.profile);
  const format = formatIndex(o.format);
  const w = tiers.ready();
  if (typeof input === 'string') {
    try {
      return textMilli(w, input, profile);
    } finally {
      tiers.settle();
    }
  }
  return withDoc(input, (w2, doc) => {
    w2.check(w2.x.mfw_doc_estimate(doc, format, profile, w2.slots + 8, w2.err));
    return w2.f64(w2.slots + 8);
  });
}

/**
 * Per-message figures for callers that keep them (EstimateCache): for each message
 * `{milli, results, hasResults}` — its estimate in milli-tokens (their sum is
 * estimateTokens' before rounding), the milli-tokens of its tool results not yet cleared, and
 * whether it holds tool results, and whether it holds the provider's own compaction (the
 * provider reads from the last one on). A list whose messages mix formats is read in the format of
 * the whole conversation when `wholeFormatOf` is given. Reads `messages`, never keeps it.
 * With `recorder`, each message's snapshot is recorded as the messages are encoded.
 * @param {unknown[]} messages
 * @param {{profile?: string, format?: string}} [options]
 * @param {unknown[]} [wholeFormatOf] the conversation these messages belong to
 * @param {import('./encode.js').SnapshotRecorder} [recorder] appended to, never kept
 * @returns {{milli: number, results: number, hasResults: boolean, compaction: boolean}[]}
 */
export function estimateEach(messages, options, wholeFormatOf, recorder) {
  const o = optionsObject(options, 'estimateEachMilli', ['profile', 'format']);
  const profile = profileIndex(o.profile);
  const given = formatIndex(o.format);
  messagesArray(messages, 'estimateEachMilli');
  const mark = recorder ? recorder.store.length : 0;
  const each = (format, askWhole) => {
    // (read a second time in the whole conversation's format: recorded once, from the start)
    if (recorder) { recorder.store.length = mark; recorder.ranges.length = 0; }
    return withDoc(messages, (w, doc) => {
      if (askWhole && format === 0 && FORMAT_NAMES[w.x.mfw_doc_detect(doc)] === 'unknown') return null;
      const out = w.alloc(24 * Math.max(1, messages.length));
      try {
        w.check(w.x.mfw_doc_estimate_each(doc, format, profile, out, messages.length, w.err));
        const view = new DataView(w.memory.buffer);
        return Array.from({ length: messages.length }, (_, i) =>
          figuresOf(view.getFloat64(out + 24 * i, true), view.getFloat64(out + 24 * i + 8, true), view.getFloat64(out + 24 * i + 16, true)));
      } finally {
        w.free(out);
      }
    }, recorder);
  };
  const figures = each(given, !!wholeFormatOf && wholeFormatOf !== messages);
  if (figures) return figures;
  // These messages alone mix formats: only the whole conversation tells (a rare, slower path);
  // when it mixes them too, the estimate fails as estimateTokens' does.
  const whole = detectFormat(wholeFormatOf);
  return each(whole === 'unknown' ? given : formatIndex(whole), false);
}

/**
 * The transcript of a conversation, as a summarizer reads it (docs/transcript.md). Reads
 * `messages`, never keeps it.
 * @param {unknown[]} messages
 * @param {{format?: string}} [options]
 * @returns {string}
 */
export function serialize(messages, options) {
  const o = optionsObject(options, 'serialize', SHARED_OPTIONS);
  const format = formatIndex(o.format);
  messagesArray(messages, 'serialize');
  tiers.require('serialize', COMPACT);
  return withDoc(messages, (w, doc) =>
    w.result((outPtr, outLen) => w.x.mfw_doc_serialize(doc, format, outPtr, outLen, w.err), (p, n) => w.text(p, n)));
}

/** The micro-compaction plan at `p` (wasm/bridge_compact.c's layout); `read.format`, when
 * `read` is given, receives the format the conversation was read in. */
function readPlan(w, p, read) {
  const dv = new DataView(w.memory.buffer);
  const edits = [];
  const countEdits = dv.getUint32(p, true);
  const plan = {
    skipped: dv.getUint32(p + 4, true) === 1,
    milliBefore: dv.getFloat64(p + 8, true),
    milliAfter: dv.getFloat64(p + 16, true),
    charsCleared: dv.getFloat64(p + 24, true),
    edits,
  };
  let at = p + 32;
  for (let i = 0; i < countEdits; i++) {
    const message = dv.getUint32(at, true);
    const part = dv.getUint32(at + 4, true);
    const target = dv.getUint32(at + 8, true);
    const chars = dv.getFloat64(at + 12, true);
    const rlen = dv.getUint32(at + 20, true);
    const replacement = w.text(at + 24, rlen);
    at += 24 + rlen;
    const nlen = dv.getUint32(at, true);
    const tool = w.text(at + 4, nlen);
    at += 4 + nlen;
    const idLen = dv.getUint32(at, true);
    const recall = idLen ? w.text(at + 4, idLen) : '';
    at += 4 + idLen;
    const edit = { message, part: part === 0xffffffff ? -1 : part, target, chars, replacement, tool };
    if (recall) edit.recall = recall;
    edits.push(edit);
  }
  const countFigures = dv.getUint32(at, true);
  at += 4;
  if (countFigures) {
    plan.figures = new Array(countFigures);
    for (let i = 0; i < countFigures; i++, at += 20) plan.figures[i] = figuresOf(dv.getFloat64(at, true), dv.getFloat64(at + 8, true), dv.getUint32(at + 16, true));
  }
  const countThinking = dv.getUint32(at, true);
  at += 4;
  plan.thinking = new Array(countThinking);
  for (let i = 0; i < countThinking; i++, at += 16) {
    const part = dv.getUint32(at + 4, true);
    plan.thinking[i] = { message: dv.getUint32(at, true), part: part === 0xffffffff ? -1 : part, milli: dv.getFloat64(at + 8, true) };
  }
  if (read) read.format = dv.getUint32(at, true);
  Object.assign(plan, readSigned(dv, at + 4));
  return plan;
}

/** The core's signed-thinking answers at `at` (put_signed in wasm/bridge_compact.c): {inFlight, inFlightOpen, drops}. */
function readSigned(dv, at) {
  const index = (v) => (v === 0xffffffff ? -1 : v);
  const inFlight = index(dv.getUint32(at, true));
  const inFlightOpen = dv.getUint32(at + 4, true) === 1;
  const countDrops = dv.getUint32(at + 16, true);
  at += 20;
  const drops = new Array(countDrops);
  for (let i = 0; i < countDrops; i++, at += 32) {
    drops[i] = signedDrop(dv.getUint32(at, true), index(dv.getUint32(at + 4, true)), dv.getUint32(at + 8, true),
      dv.getUint32(at + 12, true), dv.getUint32(at + 16, true), dv.getUint32(at + 20, true), dv.getFloat64(at + 24, true));
  }
  return { inFlight, inFlightOpen, drops };
}

/** One of the core's drops (mf_signed_drop) as thinking.js applies it. */
function signedDrop(message, part, kind, count, alone, keys, milli) {
  return { message, part, kind: DROP_KINDS[kind], count, alone: alone === 1, keys, milli };
}

/**
 * What the core says of a list's signed thinking (src/signed.c): `inFlight`, the message of a
 * signed tool loop in flight (-1: none); `inFlightOpen`, true when messages before the list could
 * change that answer (it read back to the first one); `drops`, the signed parts a fold drops from
 * messages[from..] (their prefix changed). Reads `messages`, never keeps it. Not in the public
 * entries.
 * @param {unknown[]} messages
 * @param {{format?: string, profile?: string, from?: number}} [options]
 * @returns {{inFlight: number, inFlightOpen: boolean, drops: import('./thinking.js').SignedDrop[]}}
 */
export function signedThinking(messages, options = {}) {
  const format = formatIndex(options.format);
  const profile = profileIndex(options.profile);
  messagesArray(messages, 'signedThinking');
  tiers.require('signedThinking', COMPACT);
  return withDoc(messages, (w, doc) => w.result(
    (outPtr, outLen) => w.x.mfw_doc_signed(doc, format, options.from || 0, profile, outPtr, outLen, w.err),
    (p) => readSigned(new DataView(w.memory.buffer), p)));
}

/** One message's figures as the core gives them (mf_msg_figures). */
function figuresOf(milli, results, flags) {
  return { milli, results, hasResults: (flags & 1) !== 0, compaction: (flags & 2) !== 0 };
}

/**
 * The micro-compaction plan for `messages` without applying it: what microCompact
 * would change, and the estimates before and after. Reads `messages`, never keeps it.
 * @param {unknown[]} messages
 * @param {object} [options] as for microCompact
 */
export function planMicroCompact(messages, options) { return planMicro(messages, options, false, undefined, 'planMicroCompact'); }

/**
 * planMicroCompact's plan plus `figures`: each message's figures as estimateEach gives
 * them, from the same pass over the history (the Compactor fills its EstimateCache so),
 * and with `recorder` each message's snapshot, recorded as the history is encoded.
 * Not in the public entries.
 * @param {unknown[]} messages
 * @param {object} [options] as for microCompact
 * @param {import('./encode.js').SnapshotRecorder} [recorder] appended to, never kept
 */
export function planMicroCompactWithFigures(messages, options, recorder) { return planMicro(messages, options, true, recorder, 'planMicroCompact'); }

/**
 * planMicroCompact's plan plus `inFlightOpen` (signedThinking's): for a plan of the end of a
 * longer list, whether its `inFlight` holds for the whole. Not in the public entries.
 * @param {unknown[]} messages
 * @param {object} [options] as for microCompact
 */
export function planMicroCompactOfEnd(messages, options) { return planMicro(messages, options, false, undefined, 'planMicroCompact', undefined, undefined, true); }

const MICRO_OPTIONS = ['keepRecent', 'excludeTools', 'clearAtLeast', 'trigger', 'profile', 'format', 'thinking',
  'clearToolInputs', 'dropToolCalls', 'reasoning', 'recallKey'];

/**
 * The micro-compaction plan of `messages` (options as planMicroCompact's), on the document
 * `held` holds when given (holdHistory: `messages` are the ones it encoded), else on an
 * encoding of its own; `read.format`, when `read` is given, receives the format it was read in;
 * `ofEnd` keeps the plan's `inFlightOpen` (messages are the end of a longer list).
 */
function planMicro(messages, options, withFigures, recorder, fn, held, read, ofEnd = false) {
  const o = optionsObject(options, fn, MICRO_OPTIONS);
  const keepRecent = count(o.keepRecent, 'keepRecent', 3);
  const exclude = stringList(o.excludeTools, 'excludeTools');
  const clearAtLeast = count(o.clearAtLeast, 'clearAtLeast', 0);
  const trigger = count(o.trigger, 'trigger', 0);
  const profile = profileIndex(o.profile);
  const format = formatIndex(o.format);
  const knobs = microKnobs(o);
  const thinking = knobs.policy;
  const recallKey = recallKeyOption(o.recallKey, fn);
  messagesArray(messages, fn);
  tiers.require(fn, COMPACT);
  const plan = onDoc(held, messages, (w, doc) => {
    let names = 0;
    let key = 0;
    if (exclude.length) {
      const joined = new TextEncoder().encode(exclude.join('\0') + '\0');
      names = w.alloc(joined.length);
      w.bytes().set(joined, names);
    }
    try {
      if (recallKey) {
        key = w.alloc(recallKey.length);
        w.bytes().set(recallKey, key);
      }
      return w.result(
        (outPtr, outLen) => w.x.mfw_doc_micro(doc, format, keepRecent, names, exclude.length, clearAtLeast, trigger,
          profile, (withFigures ? 1 : 0) | (knobs.clearToolInputs ? 2 : 0), key, recallKey ? recallKey.length : 0, outPtr, outLen, w.err),
        (p) => readPlan(w, p, read));
    } finally {
      w.free(names);
      w.free(key);
    }
  }, recorder);
  // (the core's answers: `inFlight`, the signed loop in flight; `drops`, the signed parts the edits make go)
  if (!ofEnd) delete plan.inFlightOpen;
  // Every edit lies before the pending turn: with a signed tool loop in flight, it waits.
  if (thinking === 'prefix-bound' && plan.edits.length && plan.inFlight >= 0) {
    return { ...plan, edits: [], charsCleared: 0, milliAfter: plan.milliBefore, milliThinking: 0, drops: [], deferred: 'in-flight-thinking' };
  }
  // The later turns' signed thinking goes with the edits (dropThinkingAfterEdits): the figure
  // after is what is left once it has, in the plan's own prices.
  plan.milliThinking = dropsMilli(plan.drops, thinking);
  plan.milliAfter -= plan.milliThinking;
  return plan;
}

/**
 * The `recallKey` option of planMicroCompact: the conversation's recall secret (16 to 64
 * bytes; js/recall/archive.js keeps it), with which every marker names its result's recall id
 * and each edit carries it (`recall`). microCompact refuses it: a marker that names an id must
 * have its result archived first (recallMicroCompact does both).
 */
function recallKeyOption(key, fn) {
  if (key === undefined) return null;
  if (fn === 'microCompact')
    throw new MidfoldError('invalid-option', 'microCompact does not archive what it clears: use recallMicroCompact (midfold) with an archive for recall ids');
  if (!(key instanceof Uint8Array) || key.length < 16 || key.length > 64)
    throw new MidfoldError('invalid-option', 'recallKey must be a Uint8Array of 16 to 64 bytes');
  return key;
}

/**
 * Micro-compaction: replaces old tool results in place by one line,
 * `[truncated: bash result, 1204 chars]`, keeping the last `keepRecent` tool-result
 * turns whole. Edits the caller's array and objects in place (untouched messages keep
 * their identity); nothing changes when an error is thrown.
 * @param {unknown[]} messages
 * With `thinking: 'prefix-bound'` (the default) nothing is cleared while a tool loop whose
 * assistant message carries signed thinking is in flight (the report says `deferred:
 * 'in-flight-thinking'`): the provider binds that thinking to everything before it.
 * @param {{keepRecent?: number, excludeTools?: string[], clearAtLeast?: number,
 *   trigger?: number, profile?: string, format?: string, thinking?: 'prefix-bound' | 'unbound'}} [options]
 * @returns {{cleared: number, charsCleared: number, tokensBefore: number, tokensAfter: number,
 *   skipped: boolean, edits: {message: number, part: number, tool: string, chars: number}[]}}
 */
export function microCompact(messages, options) {
  return applyMicroPlan(messages, planMicro(messages, options, false, undefined, 'microCompact'), options);
}

/**
 * Applies a plan of planMicroCompact to the `messages` it was made from, as microCompact does,
 * and returns microCompact's report (for js/recall/, which archives what the plan clears
 * between the two). Not in the public entries.
 * @param {unknown[]} messages
 * @param {ReturnType<typeof planMicroCompact>} plan
 * @param {object} [options] as for microCompact
 */
export function applyMicroPlan(messages, plan, options) {
  const knobs = microKnobs(options || {});
  const views = viewList(messages);
  // (the rules that remove messages need an array that takes it: checked before anything changes)
  if (!plan.deferred) checkRulesCanLand(messages, knobs);
  let thinkingRemoved;
  if (views === messages) {
    applyEdits(messages, plan.edits);
    // The turns after the first edit now follow a changed prefix: their signed thinking goes.
    thinkingRemoved = dropThinkingAfterEdits(messages, plan, knobs.policy);
  } else {
    // LangChain messages are immutable: each changed one is replaced in the array by a new
    // message of its class (its id kept); the others stay the caller's own.
    thinkingRemoved = replaceLangChainMessages(messages, views, (edited) => {
      applyEditsCopyingReadOnly(edited, plan.edits);
      return dropThinkingAfterEdits(edited, plan, knobs.policy);
    });
  }
  const report = microReport(plan);
  if (thinkingRemoved) report.thinkingRemoved = thinkingRemoved;
  // dropToolCalls, reasoning and thinking {keep}: after the clearing, and waiting as it waits
  const rules = plan.deferred ? { changed: false, deferred: plan.deferred } : applyMicroRules(messages, knobs, signedThinking);
  return withRules(report, rules, messages, options);
}

/**
 * A micro report with what the rules after the plan did (micro-rules.js): their figures, and
 * the estimate after them when they changed the conversation (what the plan's figure cannot know).
 */
function withRules(report, rules, messages, options) {
  const out = { ...report };
  if (rules.pruned) out.pruned = rules.pruned;
  if (rules.thinkingRemoved) out.thinkingRemoved = (out.thinkingRemoved || 0) + rules.thinkingRemoved;
  if (rules.thinkingKeep) out.thinkingKeep = rules.thinkingKeep;
  if (rules.deferred && !out.deferred) out.deferred = rules.deferred;
  if (rules.changed) out.tokensAfter = estimateTokens(messages, { profile: options && options.profile, format: options && options.format });
  return out;
}

/**
 * Runs `edit` on a copy of the views of `messages` (a LangChain list), then puts a new message
 * in each slot whose view changed; nothing is written when the array cannot take it. Returns
 * what `edit` returns.
 * @template T
 * @param {unknown[]} messages
 * @param {unknown[]} views viewList(messages)
 * @param {(edited: unknown[]) => T} edit
 * @returns {T}
 */
function replaceLangChainMessages(messages, views, edit) {
  const edited = views.slice();
  const result = edit(edited);
  const back = messagesFromViews(edited, messages);
  const changed = [];
  for (let i = 0; i < back.length; i++) if (back[i] !== messages[i]) changed.push(i);
  for (const i of changed) {
    const slot = Object.getOwnPropertyDescriptor(messages, i);
    if (!slot || !slot.writable)
      throw new MidfoldError('read-only-input', `messages[${i}] cannot be replaced (the array is frozen or read-only); nothing was changed`, { position: i });
  }
  for (const i of changed) messages[i] = back[i];
  return result;
}

/**
 * The recall id of `text` under the conversation's secret `key` (mf_recall_id: "r" and 8
 * base32 characters), computed by the same C function that names the markers' results. For
 * js/recall/ (a fold's range is named so); not in the public entries. Reads both, keeps neither.
 * @param {Uint8Array} key
 * @param {string} text
 * @returns {string}
 */
export function recallId(key, text) {
  tiers.require('recallId', COMPACT);
  const w = tiers.ready();
  const bytes = new TextEncoder().encode(text);
  const k = w.alloc(key.length), d = w.alloc(Math.max(1, bytes.length)), out = w.alloc(9);
  try {
    w.bytes().set(key, k);
    w.bytes().set(bytes, d);
    w.x.mfw_recall_id(k, key.length, d, bytes.length, out);
    return w.text(out, 9);
  } finally {
    w.free(k);
    w.free(d);
    w.free(out);
  }
}

/** The report of an applied micro-compaction plan. */
export function microReport(plan) {
  const inputs = plan.edits.filter(isInputEdit);
  return {
    cleared: plan.edits.length - inputs.length,
    ...(inputs.length ? { inputsCleared: inputs.length } : {}),
    charsCleared: plan.charsCleared,
    tokensBefore: Math.ceil(plan.milliBefore / 1000),
    tokensAfter: Math.ceil(plan.milliAfter / 1000),
    skipped: plan.skipped,
    ...(plan.deferred ? { deferred: plan.deferred } : {}),
    edits: plan.edits.map((e) => (isInputEdit(e) ? { message: e.message, part: e.part, tool: e.tool, chars: e.chars, input: true }
      : e.recall ? { message: e.message, part: e.part, tool: e.tool, chars: e.chars, recall: e.recall }
        : { message: e.message, part: e.part, tool: e.tool, chars: e.chars })),
  };
}

const LANGUAGES = { auto: 0, en: 1, zh: 2 };

/** 'auto' | 'en' | 'zh' | another language code → [mf_language, code or ''] */
function languageOption(language) {
  if (language === undefined) return [0, ''];
  if (typeof language !== 'string' || !/^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8})*$|^auto$/.test(language))
    throw new MidfoldError('invalid-option', `language must be 'auto' or a language code like 'en' or 'zh', got ${String(language)}`);
  const lower = language.toLowerCase();
  if (lower === 'auto' || lower === 'en') return [LANGUAGES[lower], ''];
  if (lower === 'zh' || lower.startsWith('zh-') || lower.startsWith('zh_')) return [2, ''];
  return [1, language];
}

function withCString(w, text, fn) {
  if (!text) return fn(0, 0);
  const bytes = new TextEncoder().encode(text + '\0');
  const p = w.alloc(bytes.length);
  try {
    w.bytes().set(bytes, p);
    return fn(p, bytes.length - 1);
  } finally {
    w.free(p);
  }
}

/**
 * planCompaction's options, checked and read (throws 'invalid-option' as planCompaction
 * does); needs no module, so the Compactor checks its options with it when it is built.
 * @param {unknown} options
 */
export function compactionOptions(options) {
  const o = optionsObject(options, 'planCompaction',
    ['keepTailTokens', 'keepTailMessages', 'maxTranscriptTokens', 'maxSummaryTokens', 'language', 'instructions', 'profile', 'format']);
  const keepTail = count(o.keepTailTokens, 'keepTail.tokens', 10000);
  const keepTailMessages = count(o.keepTailMessages, 'keepTail.messages', 0);
  const maxTranscript = count(o.maxTranscriptTokens, 'maxTranscriptTokens', 60000);
  const maxSummary = count(o.maxSummaryTokens, 'maxSummaryTokens', 2000);
  const [language, code] = languageOption(o.language);
  if (o.instructions !== undefined && typeof o.instructions !== 'string')
    throw new MidfoldError('invalid-option', 'instructions must be a string');
  return { keepTail, keepTailMessages, maxTranscript, maxSummary, language, code, instructions: o.instructions,
    profile: profileIndex(o.profile), format: formatIndex(o.format) };
}

/**
 * Plans a compaction without changing anything: where the conversation is cut (head:
 * kept system messages, middle: summarized, tail from `tailStart`: kept verbatim) and the
 * summarizer request (`system`, `prompt`). The tail holds the pending turn and the recent
 * messages that fit `keepTailTokens`, and at least `keepTailMessages` messages (0: no such
 * floor), never starting between a call and its results. Reads `messages`, never keeps it.
 * @param {unknown[]} messages
 * @param {{keepTailTokens?: number, keepTailMessages?: number, maxTranscriptTokens?: number, maxSummaryTokens?: number,
 *   language?: string, instructions?: string, profile?: string, format?: string}} [options]
 */
export function planCompaction(messages, options) { return compactionPlan(messages, options); }

/**
 * planCompaction's plan, on the document `held` holds when given (holdHistory), read with the
 * micro-compaction `edits` applied (as applyEditsToCopy would leave the messages), else on an
 * encoding of its own.
 */
function compactionPlan(messages, options, held, edits = []) {
  const { keepTail, keepTailMessages, maxTranscript, maxSummary, language, code, instructions, profile, format } = compactionOptions(options);
  messagesArray(messages, 'planCompaction');
  tiers.require('planCompaction', COMPACT);
  // (the micro plan's figures were made in its profile: with another, the plan estimates each message)
  const figures = held && held.figures && held.profile === profile ? held.figures : [];
  return onDoc(held, messages, (w, doc) => withCString(w, code, (codePtr) => withCString(w, instructions, (insPtr, insLen) =>
    withEdits(w, edits, (editsPtr, editsSize) => withFigures(w, figures, (milliPtr) =>
      w.result((outPtr, outLen) => w.x.mfw_doc_compact(doc, format, keepTail, keepTailMessages, maxTranscript, maxSummary, language, codePtr,
        insPtr, insLen, profile, editsPtr, editsSize, edits.length, milliPtr, figures.length, held ? held.formatIndex : 0,
        outPtr, outLen, w.err), (p, n) => readCompactionPlan(JSON.parse(w.text(p, n)))))))));
}

/** fn(pointer) with each message's estimate of `figures` (a micro plan's) as f64s in wasm memory, 0 for none. */
function withFigures(w, figures, fn) {
  if (!figures.length) return fn(0);
  const p = w.alloc(8 * figures.length);
  try {
    const milli = new Float64Array(w.memory.buffer, p, figures.length);
    for (let i = 0; i < figures.length; i++) milli[i] = figures[i].milli;
    return fn(p);
  } finally {
    w.free(p);
  }
}

/** fn(pointer, size) with micro-compaction `edits` packed in wasm memory as mfw_doc_compact reads them
 * (per edit: u32 message, u32 part, u32 target, u32 length and the replacement's UTF-8). */
function withEdits(w, edits, fn) {
  if (!edits.length) return fn(0, 0);
  const encoder = new TextEncoder();
  const texts = edits.map((e) => encoder.encode(e.replacement));
  const size = texts.reduce((sum, t) => sum + 16 + t.length, 0);
  const p = w.alloc(size);
  try {
    const view = new DataView(w.memory.buffer);
    const bytes = w.bytes();
    let at = p;
    edits.forEach((e, i) => {
      view.setUint32(at, e.message, true);
      view.setUint32(at + 4, e.part < 0 ? 0xffffffff : e.part, true);
      view.setUint32(at + 8, e.target, true);
      view.setUint32(at + 12, texts[i].length, true);
      bytes.set(texts[i], at + 16);
      at += 16 + texts[i].length;
    });
    return fn(p, size);
  } finally {
    w.free(p);
  }
}

/** The core's compaction plan, its drops ([message, part, kind, count, alone, keys, milli]) as thinking.js applies them. */
function readCompactionPlan(plan) {
  plan.drops = plan.drops.map((d) => signedDrop(...d));
  return plan;
}

/**
 * A summary written without a model (deterministic, offline): the user's own requests (the
 * harness's text and acknowledgements left out) and the latest value of each constraint
 * they stated, each test suite's latest counts, each command's distinct failures with their
 * exit status and whether a later run passed, the files and what happened to them, the
 * assistant's decisions with their reasons and latest conclusions, the tool activity. The
 * most valuable lines that fit `maxTokens` (estimated), and how many were left out
 * (docs/digest.md). Reads `messages`, never keeps it.
 * @param {unknown[]} messages
 * @param {{maxTokens?: number, language?: string, profile?: string, format?: string}} [options]
 * @returns {string}
 */
export function digest(messages, options) {
  const o = optionsObject(options, 'digest', ['maxTokens', 'language', 'profile', 'format']);
  const maxTokens = count(o.maxTokens, 'maxTokens', 2000);
  const [language] = languageOption(o.language);
  const profile = profileIndex(o.profile);
  const format = formatIndex(o.format);
  messagesArray(messages, 'digest');
  tiers.require('digest', FULL);
  return withDoc(messages, (w, doc) =>
    w.result((outPtr, outLen) => w.x.mfw_doc_digest(doc, format, maxTokens, language, profile, outPtr, outLen, w.err),
      (p, n) => w.text(p, n)));
}

/**
 * Lists every provider rule the conversation breaks (tool calls without results,
 * results without calls, misplaced results, unknown roles or block types), each with
 * its message index and a severity: `ok` is false when any is an 'error'; a 'warning'
 * (an Anthropic block type midfold does not know yet) leaves it true. Reads `messages`,
 * never keeps it.
 * @param {unknown[]} messages
 * @param {{format?: string}} [options]
 * @returns {{ok: boolean, format: string, problems: {code: string, index: number, part?: number, message: string,
 *   severity: 'error' | 'warning'}[]}}
 */
export function validate(messages, options) {
  const o = optionsObject(options, 'validate', SHARED_OPTIONS);
  const format = formatIndex(o.format);
  const value = isArray(messages) ? messages : messages === undefined ? null : messages;
  checkConversationSize(value, 'validate');
  tiers.require('validate', FULL);
  const report = withDoc(value, (w, doc) =>
    w.result((outPtr, outLen) => w.x.mfw_doc_validate(doc, format, outPtr, outLen, w.err), (p, n) => JSON.parse(w.text(p, n))));
  const problems = report.problems.map((p) => {
    const out = { code: p.code, index: p.message, message: p.text, severity: p.warning ? 'warning' : 'error' };
    if (p.part >= 0) out.part = p.part;
    return out;
  });
  return { ok: problems.every((p) => p.severity === 'warning'), format: report.format, problems };
}

/**
 * Tells the format of a list of messages: 'anthropic', 'openai', 'openai-responses', 'ai-sdk', 'ai-sdk-ui',
 * 'langchain' (@langchain/core messages, their toJSON() form, stored or dict-form messages) or 'unknown'
 * (not a list of role-tagged messages, or formats mixed). Plain text conversations fit
 * every format and are reported as 'openai'. Reads `messages`, never keeps it.
 * @param {unknown[]} messages
 * @returns {'anthropic' | 'openai' | 'openai-responses' | 'ai-sdk' | 'ai-sdk-ui' | 'langchain' | 'unknown'}
 */
export function detectFormat(messages) {
  if (!isArray(messages)) return 'unknown';
  checkConversationSize(messages, 'detectFormat');
  return /** @type {any} */ (withDoc(messages, (w, doc) => FORMAT_NAMES[w.x.mfw_doc_detect(doc)] || 'unknown'));
}
