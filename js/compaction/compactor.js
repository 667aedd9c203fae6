/**
 * compactor.js — compaction: when the window is still too full after micro-compaction,
 * fold the resolved middle of the conversation into a summary written by the host's
 * summarizer, keep system messages and the live tail verbatim, and change nothing at
 * all when the summary fails.
 */
import { holdsCompaction } from './server-context.js';
import { MidfoldError } from '../core/errors.js';
import { applyEditsCopyingReadOnly, applyEditsToCopy, editedValue, isInputEdit } from '../core/apply.js';
import {
  COMPACT, FULL, compactionOptions, detectFormat, digest, ensureTier, estimateTokens, holdHistory, microReport, planMicroCompact, signedThinking,
  tierLoaded,
} from '../core/api.js';
import { summaryMessages } from './summary-messages.js';
import { recallSetup } from '../recall/options.js';
import { resultEntries } from '../recall/micro.js';
import { foldEntry, foldHeader, markerIds } from '../recall/fold.js';
import { collapseConfigurationUpdates } from './config-updates.js';
import { applyDrops, dropThinkingAfterEdits } from '../core/thinking.js';
import { applyMicroRules, checkRulesCanLand, hasRules, microKnobs } from '../core/micro-rules.js';
import { EstimateCache } from '../core/estimate-cache.js';
import { matches, record } from '../core/snapshot.js';
import { checkMessageCount, optionsObject, stringList } from '../core/options.js';
import { isLangChainList, messagesFromViews, viewList } from '../core/langchain.js';
import { SEED_POLICY, deprecated } from '../core/deprecation.js';

// Cache-aware defaults, chosen with `midfold simulate` (docs/cost.md): clearing
// old results in one batch once the estimate passes 80 % of the threshold, and only when
// 40 % of it can go (40,000 and 20,000 at the default 50,000), rewrites a provider's prompt
// cache every few turns instead of on every turn.
const MICRO_TRIGGER_SHARE = 0.8;
const CLEAR_AT_LEAST_SHARE = 0.4;
// A summarizer that never answers would hold the conversation's compaction (and the calls
// queued behind it on the same array) for ever: after this long it counts as failed, as the
// CLI's --timeout does. 0 waits for ever.
const DEFAULT_TIMEOUT_MS = 120000;
// On the browser's estimator alone (initEstimator()), the share of the first trigger at which
// the compaction module is fetched in the background (see run()).
const PREFETCH_SHARE = 0.5;

// The default threshold by the provider whose prompt cache the requests go through (the
// `pricing` option), chosen with `midfold simulate` over generated sessions of 20 to 500
// turns, three seeds each (tests/bench/simulate.mjs --thresholds; docs/cost.md).
// Where a cached read costs a tenth of an uncached token (Anthropic, OpenAI's GPT-5 family),
// 50,000. Where it costs a fiftieth (DeepSeek V4 Flash; a thirtieth on Pro), a clearing
// rewrites all that follows it at the full price and saves a fiftieth per token per turn
// after it, so it is repaid only some 50 turns later: any threshold up to 130,000 billed
// more than no management (up to 1.18x) on sessions that ended soon after one; 150,000
// billed at most as much on every session, and those models' window is 1M tokens.
const DEFAULT_THRESHOLD = { anthropic: 50000, openai: 50000, deepseek: 150000 };
// Marked pure (both calls: esbuild keeps a pure call's impure arguments) so that a page
// without the Compactor holds none of this module.
/** The names `pricing` takes (the integrations map a model's provider to one). */
export const PRICING_NAMES = /* @__PURE__ */ Object.freeze(/* @__PURE__ */ Object.keys(DEFAULT_THRESHOLD));

/** Compactions queued per array, so two calls on the same array run one after the other. */
const queues = new WeakMap();
/** The functions digestSummarizer() made: a Compactor using one preloads the full module. */
const digestSummarizers = new WeakSet();

function optionError(message) { return new MidfoldError('invalid-option', message); }

/** The Compactor's options (index.d.ts CompactorOptions): any other name is a misspelling. */
const OPTION_NAMES = ['summarize', 'pricing', 'threshold', 'contextWindow', 'keepRecent', 'excludeTools', 'policy', 'microTrigger', 'clearAtLeast',
  'keepTail', 'maxSummaryTokens', 'maxTranscriptTokens', 'language', 'instructions', 'profile', 'format', 'timeoutMs',
  'fallback', 'thinking', 'clearToolInputs', 'dropToolCalls', 'reasoning', 'onWarn', 'onArchive', 'recall'];
/** What one compact() call takes. */
const COMPACT_OPTIONS = ['force', 'signal', 'instructions', 'usage'];

/** The largest count the core takes (js/core/options.js count()): a budget passed on to it. */
const CORE_MAX = 0xffffffff;
/** setTimeout's longest delay: a longer one fires at once. */
const TIMER_MAX = 0x7fffffff;

/** A whole number from 0 to `max`, or `fallback` when left out; the error names what was given. */
function wholeNumber(value, name, fallback, max = Number.MAX_SAFE_INTEGER) {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > max)
    throw optionError(`${name} must be a whole number from 0 to ${max}, got ${typeof value === 'string' ? JSON.stringify(value) : String(value)}`);
  return value;
}

/** A default derived from the threshold, within what the core takes (an unreachable figure either way). */
const derived = (value) => Math.min(Math.floor(value), CORE_MAX);

/**
 * The fraction of `threshold: {fraction}`, checked (above 0, at most 1), or undefined when the
 * threshold is a number or left out. Throws 'invalid-option' for any other shape. The
 * integrations ask it to tell whether the threshold waits for a model's window.
 * @param {unknown} threshold
 * @returns {number | undefined}
 */
export function thresholdFraction(threshold) {
  if (threshold === null || typeof threshold !== 'object') return undefined;
  if (Array.isArray(threshold)) throw optionError('threshold must be a whole number of tokens or {fraction: 0.8}');
  for (const key of Object.keys(threshold)) {
    if (key !== 'fraction') throw optionError(`threshold: unknown key ${JSON.stringify(key)}; known: fraction`);
  }
  const f = threshold.fraction;
  if (typeof f !== 'number' || !(f > 0 && f <= 1))
    throw optionError(`threshold.fraction must be a number above 0 and at most 1, got ${typeof f === 'string' ? JSON.stringify(f) : String(f)}`);
  return f;
}

/**
 * The threshold in tokens: a number as given; {fraction} of `contextWindow` (rounded down),
 * which it then needs (the integrations find it from the model's id); else `fallback`.
 */
function thresholdTokens(threshold, contextWindow, fallback) {
  const fraction = thresholdFraction(threshold);
  if (fraction === undefined) return wholeNumber(threshold, 'threshold', fallback);
  if (contextWindow === undefined)
    throw optionError('threshold {fraction} needs contextWindow (the model\'s window in tokens); compactStep, midfoldMiddleware and compactionFilter find it from the model id');
  return Math.max(1, Math.floor(fraction * contextWindow));
}

/** What keepTail knows: each key is a floor of its own on the kept tail. */
const KEEP_TAIL_KEYS = ['tokens', 'messages'];

/**
 * keepTail read and checked: {tokens, messages}. `messages` alone sets no token budget (the
 * caller asked for N messages, not for N plus threshold / 5 tokens' worth); with neither,
 * the tokens default. A key keepTail does not know is an error: {token: 500} read as {}
 * would keep the default tail instead of what was asked for.
 */
function keepTailOption(value, defaultTokens) {
  if (value === undefined) return { tokens: defaultTokens, messages: 0 };
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw optionError('keepTail must be an object like {tokens: 10000} or {messages: 20}');
  for (const key of Object.keys(value)) {
    if (!KEEP_TAIL_KEYS.includes(key)) throw optionError(`keepTail: unknown key ${JSON.stringify(key)}; known: ${KEEP_TAIL_KEYS.join(', ')}`);
  }
  const messages = wholeNumber(value.messages, 'keepTail.messages', 0, CORE_MAX);
  const tokens = wholeNumber(value.tokens, 'keepTail.tokens', value.messages === undefined ? defaultTokens : 0, CORE_MAX);
  return { tokens, messages };
}

function callback(value, name) {
  if (value !== undefined && typeof value !== 'function') throw optionError(`${name} must be a function`);
  return value;
}

/**
 * Folds the middle of a conversation into a summary. Each Compactor has its own options
 * and usage record (give a sub-agent its own). It keeps no reference to a messages array
 * beyond a compaction, except the one passed to observeUsage.
 */
export class Compactor {
  /**
   * @param {object} options
   * @param {(request: {system: string, prompt: string, maxTokens: number, signal?: AbortSignal,
   *   messages: unknown[], format: string, language: string}) => Promise<string | {text: string}>} options.summarize
   *   writes the summary; `messages` (the originals being folded) and `format` are extras
   *   that model-based summarizers can ignore.
   * @param {'anthropic' | 'openai' | 'deepseek'} [options.pricing] whose prompt cache the
   *   requests use; it sets the default threshold (DEFAULT_THRESHOLD: 150,000 for DeepSeek,
   *   whose cached reads cost a fiftieth, 50,000 otherwise)
   * @param {number | {fraction: number}} [options.threshold] compact above this many estimated
   *   tokens (50,000; see `pricing`), or above this fraction of `contextWindow` ({fraction: 0.8})
   * @param {number} [options.contextWindow] the model's context window in tokens: what
   *   `threshold: {fraction}` is a fraction of (the integrations read it from the model id,
   *   js/pricing/windows.js)
   * @param {number} [options.keepRecent] tool-result turns micro-compaction keeps whole (3)
   * @param {string[]} [options.excludeTools] tools whose results micro-compaction never clears
   * @param {'batched' | 'every-turn' | 'seed'} [options.policy] 'batched' (default): micro-compaction
   *   waits for `microTrigger` and clears only when `clearAtLeast` can go, so a prompt cache
   *   is rewritten rarely; 'every-turn': micro-compaction on every call (both 0); 'seed', a
   *   deprecated name of 'every-turn' (announced once)
   * @param {number} [options.microTrigger] micro-compact only above this estimate (80 % of the
   *   threshold: 40,000; the threshold when that is lower)
   * @param {number} [options.clearAtLeast] micro-compact only when this many tokens go (40 % of
   *   the threshold: 20,000); a forced compaction micro-compacts its kept tail regardless
   * @param {{tokens?: number, messages?: number}} [options.keepTail] what a fold keeps verbatim
   *   beyond the pending turn: the recent messages that fit `tokens` (threshold / 5 when neither
   *   is given; 0 when only `messages` is), and at least `messages` messages; never a cut
   *   between a call and its results
   * @param {number} [options.maxSummaryTokens] the summary length asked for (2,000)
   * @param {number} [options.maxTranscriptTokens] cap on the transcript sent (60,000)
   * @param {string} [options.language] 'auto' (default), 'en', 'zh' or another language code
   * @param {string} [options.instructions] a standing focus for every summary
   * @param {string} [options.profile] estimator profile
   * @param {string} [options.format] message format ('auto')
   * @param {number} [options.timeoutMs] give up on the summarizer after this many ms (120,000;
   *   0: wait for ever); the report then says 'timeout' and nothing changes
   * @param {'digest'} [options.fallback] on summarizer failure, use the model-free digest
   * @param {'prefix-bound'|'unbound'|{keep: number, binding?: 'prefix-bound'|'unbound'}} [options.thinking]
   *   the thinking policy (js/core/thinking.js); {keep: N} also drops the signed thinking of
   *   finished turns except the last N thinking turns, on the client where the binding allows
   *   it, else through the provider's clear_thinking edit (js/core/thinking-keep.js):
   *   'prefix-bound' (default) defers every edit while a signed tool loop is in flight and
   *   drops signed thinking from the kept turns after a fold, except with a summarizer that
   *   preservesThinking (anthropicCompaction's preservedThinking), whose folds need neither;
   *   'unbound' does neither
   * @param {boolean} [options.clearToolInputs] the calls of cleared results lose their large
   *   input strings too (each becomes "[truncated: NAME input, N chars]"; the call keeps its shape)
   * @param {{tools: string[], beforeLast: number}} [options.dropToolCalls] micro-compaction also
   *   removes the calls of these tools, with their results, before the last `beforeLast` messages
   * @param {'before-last-message'} [options.reasoning] micro-compaction also removes the thinking
   *   and reasoning of the assistant messages before the pending turn
   * @param {(message: string, error?: unknown) => void} [options.onWarn]
   * @param {(removed: unknown[], summary: string) => void} [options.onArchive] gets the
   *   original messages that were folded, after a successful rebuild (and the configuration
   *   updates that the one kept for their run replaced)
   * @param {boolean | object} [options.recall] markers and summaries name recall ids, and what
   *   they replace is archived first (js/recall/options.js); an archive that cannot be written
   *   stops the edit (reason 'archive-failed')
   */
  constructor(options) {
    if (!options || typeof options !== 'object') throw optionError('Compactor: options with a summarize function are required');
    if (typeof options.summarize !== 'function') throw optionError('Compactor: summarize must be a function (digestSummarizer() needs no model)');
    // A misspelt option would otherwise be ignored without a word (excludeTool, threshhold).
    optionsObject(options, 'Compactor', OPTION_NAMES);
    this.summarize = options.summarize;
    if (options.pricing !== undefined && !PRICING_NAMES.includes(options.pricing))
      throw optionError(`pricing must be one of ${PRICING_NAMES.map((name) => `'${name}'`).join(', ')}, or left out`);
    this.pricing = options.pricing;
    if (options.contextWindow !== undefined && (!Number.isInteger(options.contextWindow) || options.contextWindow < 1))
      throw optionError(`contextWindow must be a whole number of tokens above 0, got ${String(options.contextWindow)}`);
    this.contextWindow = options.contextWindow;
    this.threshold = thresholdTokens(options.threshold, this.contextWindow, DEFAULT_THRESHOLD[this.pricing || 'anthropic']);
    // What goes on to the core is checked against what it takes, here rather than at the first
    // call that plans; what is derived from a threshold beyond it is capped there.
    this.keepRecent = wholeNumber(options.keepRecent, 'keepRecent', 3, CORE_MAX);
    this.excludeTools = options.excludeTools === undefined ? undefined : [...stringList(options.excludeTools, 'excludeTools')];
    if (options.policy !== undefined && options.policy !== 'batched' && options.policy !== 'every-turn' && options.policy !== 'seed')
      throw optionError("policy must be 'batched' or 'every-turn'");
    if (options.policy === 'seed') deprecated(SEED_POLICY, options.onWarn);
    const everyTurn = options.policy === 'every-turn' || options.policy === 'seed';
    this.microTrigger = wholeNumber(options.microTrigger, 'microTrigger', everyTurn ? 0 : derived(this.threshold * MICRO_TRIGGER_SHARE), CORE_MAX);
    this.clearAtLeast = wholeNumber(options.clearAtLeast, 'clearAtLeast', everyTurn ? 0 : derived(this.threshold * CLEAR_AT_LEAST_SHARE), CORE_MAX);
    const tail = keepTailOption(options.keepTail, derived(this.threshold / 5));
    this.keepTailTokens = tail.tokens;
    this.keepTailMessages = tail.messages;
    this.maxSummaryTokens = wholeNumber(options.maxSummaryTokens, 'maxSummaryTokens', 2000, CORE_MAX);
    this.maxTranscriptTokens = wholeNumber(options.maxTranscriptTokens, 'maxTranscriptTokens', 60000, CORE_MAX);
    this.timeoutMs = wholeNumber(options.timeoutMs, 'timeoutMs', DEFAULT_TIMEOUT_MS, TIMER_MAX);
    if (options.fallback !== undefined && options.fallback !== 'digest') throw optionError("fallback must be 'digest' or left out");
    this.fallback = options.fallback;
    this.preloadedFull = false; // (run(): the full module's background fetch was started)
    this.prefetchedCompaction = false; // (run(): the lite module's, on the estimator alone)
    if (options.instructions !== undefined && typeof options.instructions !== 'string') throw optionError('instructions must be a string');
    this.instructions = options.instructions;
    this.language = options.language;
    this.profile = options.profile === undefined ? 'safe' : options.profile;
    this.format = options.format;
    // The micro-compaction knobs (js/core/knobs.js): the thinking binding and keep, clearToolInputs,
    // dropToolCalls, reasoning.
    this.knobs = microKnobs(options);
    this.thinking = this.knobs.policy;
    /** thinking {keep: N}: the thinking turns kept, or undefined. */
    this.thinkingKeep = this.knobs.keep;
    this.clearToolInputs = this.knobs.clearToolInputs;
    /** The summarizer is the provider's compaction that keeps the kept turns' thinking valid. */
    this.preservesThinking = this.summarize.preservesThinking === true;
    this.estimates = new EstimateCache({ profile: this.profile, format: this.format });
    this.onWarn = callback(options.onWarn, 'onWarn');
    this.onArchive = callback(options.onArchive, 'onArchive');
    /** With recall: the archive what is cleared or folded goes to first, and the tool's executor. */
    this.recall = recallSetup(options.recall, 'Compactor');
    this.usage = null;
    // Check language/profile/format now, so a bad option fails here and not mid-compaction
    // (without the module: after the browser's initEstimator() it has no compaction yet).
    compactionOptions({ language: this.language, profile: this.profile, format: this.format === undefined ? undefined : this.format });
  }

  /**
   * Records the provider's real input token count for the conversation as it was sent,
   * so later estimates use it for that prefix plus an estimate of what came after.
   * Call it when a response arrives, before appending it (or pass `count`, the number
   * of messages that were sent).
   * @param {{inputTokens: number, messages?: unknown[], count?: number}} usage
   */
  observeUsage(usage) {
    if (!usage || typeof usage !== 'object') throw optionError('observeUsage: expected {inputTokens}');
    const inputTokens = wholeNumber(usage.inputTokens, 'inputTokens', undefined);
    if (inputTokens === undefined) throw optionError('observeUsage: inputTokens is required');
    const messages = usage.messages || (this.usage && this.usage.messages);
    if (!Array.isArray(messages)) throw optionError('observeUsage: pass messages the first time');
    const sent = wholeNumber(usage.count, 'count', messages.length);
    if (sent > messages.length) throw optionError('observeUsage: count is larger than the conversation');
    this.usage = { messages, count: sent, last: messages[sent - 1], inputTokens };
  }

  /** The estimate, or the provider's count for the observed prefix plus an estimate of the rest. */
  tokens(messages, milli) {
    const u = this.usage;
    if (u && u.messages === messages && u.count > 0 && messages.length >= u.count && messages[u.count - 1] === u.last) {
      const rest = messages.slice(u.count);
      // (the provider reads from its last compaction on: after one it wrote since, the count is of what it no longer reads)
      if (holdsCompaction(rest)) return Math.ceil(milli / 1000);
      return u.inputTokens + (rest.length ? estimateTokens(rest, { profile: this.profile, format: this.format }) : 0);
    }
    return Math.ceil(milli / 1000);
  }

  /**
   * Compacts `messages` in place when needed (or when `force`, like a /compact command):
   * micro-compaction first, then, if still over the threshold, a summary of the middle.
   * Resolves to a report; never rejects for a summarizer failure (the array is left
   * exactly as it was and the report says why), only for invalid arguments.
   * `usage` ({inputTokens, count?}) is the provider's count for the first `count` messages
   * (default: all), as observeUsage records it, but for this call alone: set when the call
   * starts its turn in the queue, so calls on other arrays in between cannot replace it.
   * @param {unknown[]} messages
   * @param {{force?: boolean, signal?: AbortSignal, instructions?: string, usage?: {inputTokens: number, count?: number}}} [options]
   */
  compact(messages, options = {}) {
    if (!Array.isArray(messages)) return Promise.reject(new MidfoldError('invalid-input', 'compact: messages must be an array'));
    try { checkMessageCount(messages, 'compact'); } catch (e) { return Promise.reject(e); }
    if (!options || typeof options !== 'object') return Promise.reject(optionError('compact: options must be an object'));
    try { optionsObject(options, 'compact', COMPACT_OPTIONS); } catch (e) { return Promise.reject(e); }
    if (options.instructions !== undefined && typeof options.instructions !== 'string')
      return Promise.reject(optionError('compact: instructions must be a string'));
    if (options.usage !== undefined) {
      const u = options.usage;
      const whole = (v) => Number.isInteger(v) && v >= 0;
      if (!u || typeof u !== 'object' || !whole(u.inputTokens) || (u.count !== undefined && (!whole(u.count) || u.count > messages.length)))
        return Promise.reject(optionError('compact: usage must be {inputTokens, count?} with whole numbers, count at most the conversation\'s length'));
    }
    const previous = queues.get(messages) || Promise.resolve();
    const run = previous.then(() => (isLangChainList(messages) ? this.runLangChain(messages, options) : this.run(messages, options)));
    const settled = run.catch(() => {});
    queues.set(messages, settled);
    settled.then(() => { if (queues.get(messages) === settled) queues.delete(messages); });
    return run;
  }

  /** The report of a check that found nothing to do under the threshold. */
  heldReport(tokens, estimated) {
    const micro = { cleared: 0, charsCleared: 0, tokensBefore: estimated, tokensAfter: estimated, skipped: true, edits: [] };
    return { tokensBefore: tokens, summarizedMessages: 0, micro, compacted: false, reason: 'below-threshold', tokensAfter: tokens };
  }

  /** The report of a call that had to plan without the compaction module, which could not be loaded. */
  unavailableReport(messages, error) {
    const milli = this.estimates.milli(messages);
    return { ...this.heldReport(this.tokens(messages, milli), Math.ceil(milli / 1000)), reason: 'module-unavailable', error };
  }

  warn(message, error) {
    if (!this.onWarn) return;
    try { this.onWarn(message, error); } catch { /* a failing warning hook must not fail the compaction */ }
  }

  /**
   * The micro-compaction plan of a call that has the history's figures already: planMicroCompact's,
   * made on `history()` (holdHistory: the one encoding of `messages` this call's plans read), with
   * each message's figures, which price the compaction plan's messages.
   * (simulate's replay plans the same from what is new: js/simulate/clearing.js.)
   */
  planMicro(messages, options, history) { return history ? history().micro(options, true) : planMicroCompact(messages, options); }

  /**
   * compact() on LangChain messages: the run works on their plain views (js/core/langchain.js),
   * then the caller's array gets the result, each unchanged message its own, each changed one a
   * new message of its class (its id kept), the summary pair messages of the list's kind.
   * Messages appended while the summary was written are kept after the rebuilt list; any other
   * change to the array meanwhile is a conflict (nothing is written).
   */
  async runLangChain(messages, options) {
    const before = messages.slice();
    const views = viewList(before);
    const list = views.slice();
    const u = this.usage;
    if (u && u.messages === messages) this.usage = { ...u, messages: list, last: list[u.count - 1] };
    let report;
    try {
      report = await this.run(list, options, before);
    } finally {
      // (the provider's count stays with the caller's array; a run that edited the list dropped it)
      if (this.usage && this.usage.messages === list) this.usage = { ...this.usage, messages, last: before[this.usage.count - 1] };
    }
    const back = messagesFromViews(list, before);
    const same = back.length === before.length && back.every((m, i) => m === before[i]);
    if (same) return report;
    const changed = messages.length < before.length || before.some((m, i) => messages[i] !== m);
    if (changed) {
      const error = new MidfoldError('conflict', 'the conversation changed while the summary was being written');
      this.warn('midfold: compaction abandoned, the conversation is unchanged: conflict', error);
      this.usage = null;
      return { ...report, compacted: false, reason: 'conflict', error, tokensAfter: report.tokensBefore };
    }
    if (!Object.isExtensible(messages) || Object.isSealed(messages) || Object.isFrozen(messages))
      throw new MidfoldError('read-only-input', 'compact: the messages array is frozen or sealed; it is rebuilt in place, nothing was changed');
    const appended = messages.slice(before.length);
    const result = [...back, ...appended];
    for (let i = 0; i < result.length; i++) messages[i] = result[i];
    messages.length = result.length;
    if (this.usage && this.usage.messages === messages && result[this.usage.count - 1] !== this.usage.last) this.usage = null;
    return report;
  }

  /**
   * One call of compact() (its turn in the array's queue): decide, then fold if the decision says
   * so. `originals` (LangChain: the caller's messages, index for index with the views in
   * `messages`) are what the summarizer and onArchive get.
   */
  async run(messages, options, originals) {
    const decided = await this.decide(messages, options);
    return decided.fold ? this.rebuild(messages, options, decided.fold, originals) : decided.report;
  }

  /**
   * What a call does with `messages`: resolves to `{report}` when it ends without a fold (held
   * under the triggers, deferred by a signed tool loop in flight, cleared below the threshold,
   * nothing to summarize, the module unavailable; a clearing is applied here), or to `{fold}`,
   * the compaction plan and what the rebuild needs of this decision. Changes `messages` only by
   * the clearing of a call that ends here.
   */
  async decide(messages, options) {
    // The digest needs the full module, which the browser's init() does not load. It is
    // fetched at the first call, not when the summarizer fails: that is often because the
    // network did. Once per Compactor: a module that cannot be fetched is not asked for again
    // on every turn (the digest itself still tries when it is needed).
    if (!this.preloadedFull && (this.fallback === 'digest' || digestSummarizers.has(this.summarize)) && !tierLoaded(FULL)) {
      this.preloadedFull = true;
      ensureTier(FULL).catch(() => {});
    }
    if (options.usage) {
      // (the array may have shrunk while an earlier call on it ran: the count is capped)
      const count = Math.min(options.usage.count ?? messages.length, messages.length);
      if (count > 0) this.observeUsage({ inputTokens: options.usage.inputTokens, messages, count });
    }
    const common = { profile: this.profile, format: this.format };
    // Under the threshold, with micro-compaction held back by its trigger or by too little to
    // clear, nothing can happen; the per-message estimates tell so without reading the history
    // again (only messages that are new or changed are estimated).
    let cold = false;
    if (!options.force && (this.microTrigger > 0 || this.clearAtLeast > 0)) {
      // With most of the history new to the cache (the first call), the plan below reads it
      // once and fills the cache from the same pass, rather than the cache reading it first.
      // (without the compaction module, after the browser's initEstimator(), the cache reads it)
      const figures = this.estimates.figures(messages, this.keepRecent, tierLoaded(COMPACT) ? messages.length >>> 1 : Infinity);
      cold = figures === null;
      if (figures) {
        const estimated = Math.ceil(figures.milli / 1000);
        const tokens = this.tokens(messages, figures.milli);
        const firstTrigger = Math.min(this.microTrigger || this.threshold, this.threshold);
        const held = (this.microTrigger > 0 && estimated <= firstTrigger)
          // what could be freed, rounded as the plan rounds (it compares whole tokens)
          || (this.clearAtLeast > 0 && figures.clearable < (this.clearAtLeast - 1) * 1000);
        // On the estimator alone, the compaction module is fetched in the background once the
        // conversation is half way to its first trigger: the clearing or fold that needs it then
        // neither waits on the network nor fails if the network has gone by then. A conversation
        // that stays short never fetches it. (Once per Compactor: the call that needs it retries.)
        if (!this.prefetchedCompaction && !tierLoaded(COMPACT) && estimated > PREFETCH_SHARE * firstTrigger) {
          this.prefetchedCompaction = true;
          ensureTier(COMPACT).catch(() => {});
        }
        if (held && tokens <= this.threshold) return { report: this.heldReport(tokens, estimated) };
      }
    }
    // After the browser's initEstimator() the module in use estimates and nothing more: a call
    // that has to plan awaits the lite module (fetched above half way to the trigger, or now).
    // If it cannot be had, nothing changes, and the next call that has to plan tries again.
    if (!tierLoaded(COMPACT)) {
      try {
        await ensureTier(COMPACT);
      } catch (error) {
        this.warn('midfold: the compaction module (midfold-lite.wasm) could not be loaded', error);
        return { report: this.unavailableReport(messages, error) };
      }
    }
    // Past the threshold micro-compaction runs whatever microTrigger says, still only when it
    // frees clearAtLeast: a clearing that buys a turn or two costs more cache than a summary.
    const gate = options.force ? {} : { trigger: Math.min(this.microTrigger, this.threshold), clearAtLeast: this.clearAtLeast };
    // The history is encoded once for both plans (holdHistory), when the first needs it; the
    // first call records each message's snapshot for the cache as it encodes it.
    const recorder = cold ? this.estimates.recorder() : undefined;
    // With recall the markers name ids made of the conversation's secret, kept in its archive.
    let keyError = null;
    const recallKey = this.recall ? await this.recall.archive.key().catch((e) => { keyError = e; }) : undefined;
    let held = null;
    const history = () => held || (held = holdHistory(messages, recorder));
    try {
      // (awaited here: the history is released only once the plans, and the archive writes between them, are done)
      return await this.planFold(messages, options, common, cold, gate, history, recorder, { key: recallKey, error: keyError });
    } finally {
      if (held) held.release();
    }
  }

  /**
   * decide()'s plans, on `history()` (the one encoding of `messages` they read, released by
   * decide): micro-compaction's, then, when the call may fold, the compaction's of the
   * conversation micro-compaction leaves; `recall`: the recall key ({key}, or the archive's {error}).
   * Returns decide()'s answer.
   */
  async planFold(messages, options, common, cold, gate, history, recorder, recall = {}) {
    const microOptions = { ...common, keepRecent: this.keepRecent, excludeTools: this.excludeTools, thinking: this.thinking,
      ...(this.clearToolInputs ? { clearToolInputs: true } : {}), ...gate, ...(recall.key ? { recallKey: recall.key } : {}) };
    const micro = cold ? history().micro(microOptions, true) : this.planMicro(messages, microOptions, history);
    // (a first call fills the cache from the figures; a later one has checked its entries already)
    if (cold && micro.figures) this.estimates.fill(messages, micro.figures, recorder);
    const tokensBefore = this.tokens(messages, micro.milliBefore);
    // What the clearing leaves, in the measure of tokensBefore: with the provider's count as the
    // anchor, the estimator's savings are scaled by how the two compare (as the tail budget is
    // below). Subtracting them unscaled went below zero when the provider counted less than the
    // estimate (a report of 0 tokens after a clearing, and no fold however much was left).
    const estimatedBefore = Math.ceil(micro.milliBefore / 1000);
    const estimatedAfter = Math.ceil(micro.milliAfter / 1000);
    const tokensAfterMicro = tokensBefore === estimatedBefore || estimatedBefore === 0 ? estimatedAfter
      : Math.ceil(tokensBefore * (estimatedAfter / estimatedBefore));
    const base = { tokensBefore, summarizedMessages: 0, micro: microReport(micro) };
    // Nothing is cleared or folded that the archive does not hold first.
    const archiveFailed = (error) => ({ report: { ...base, micro: microReport({ ...micro, edits: [], charsCleared: 0, milliAfter: micro.milliBefore }),
      compacted: false, reason: 'archive-failed', error, tokensAfter: tokensBefore } });
    if (recall.error) return archiveFailed(recall.error);
    // (applied at a turn boundary: the later turns' signed thinking follows a changed prefix and goes)
    // (a message the caller froze gets its edit in a copy: the array is the Compactor's to rebuild)
    // dropToolCalls, reasoning and thinking {keep} follow the clearing (micro-rules.js); their
    // figures go into the report (ruleFields).
    let rules = { changed: false };
    const applyMicro = () => {
      checkRulesCanLand(messages, this.knobs);
      applyEditsCopyingReadOnly(messages, micro.edits);
      if (micro.edits.length) this.usage = null;
      const removed = dropThinkingAfterEdits(messages, micro, this.thinking);
      rules = applyMicroRules(messages, this.knobs, signedThinking);
      if (rules.changed) this.usage = null;
      return removed + (rules.thinkingRemoved || 0);
    };
    const ruleFields = () => {
      if (!hasRules(this.knobs)) return {};
      const out = {};
      if (rules.pruned) out.pruned = rules.pruned;
      if (rules.thinkingKeep) out.thinkingKeep = rules.thinkingKeep;
      if (rules.deferred) out.deferred = rules.deferred;
      if (rules.changed) out.tokensAfter = this.tokens(messages, this.estimates.milli(messages));
      return out;
    };

    // A signed tool loop in flight binds its thinking to everything before it: any fold or
    // clearing now would make the next request fail, so both wait for the turn boundary. A fold
    // the provider writes itself keeps that binding (anthropicCompaction with preservedThinking):
    // over the threshold, it goes ahead, without the clearing, and the loop goes on after it.
    const deferred = { ...base, compacted: false, reason: 'deferred-thinking', deferred: 'in-flight-thinking', tokensAfter: tokensBefore };
    // (the core's answer, src/signed.c: the message of a signed loop in flight, or -1)
    const inFlight = this.thinking === 'prefix-bound' && (!!micro.deferred || micro.inFlight >= 0);
    if (inFlight && (options.force || tokensAfterMicro > this.threshold || micro.deferred)
        && !(this.preservesThinking && (options.force || tokensBefore > this.threshold))) return { report: deferred };
    // Folding with the provider's thinking-preserving compaction, the kept turns go as they are.
    const edits = this.preservesThinking ? [] : micro.edits;
    if (!options.force && tokensAfterMicro <= this.threshold) {
      const failed = await this.archiveCleared(messages, micro.edits);
      if (failed) return archiveFailed(failed);
      const thinkingRemoved = applyMicro();
      return { report: { ...base, compacted: false, reason: 'below-threshold', tokensAfter: tokensAfterMicro, ...(thinkingRemoved ? { thinkingRemoved } : {}), ...ruleFields() } };
    }
    const focus = [this.instructions, options.instructions].filter(Boolean).join('\n');
    // The tail budget is in the provider's tokens when its count is known: the plan
    // measures with the estimator, so scale the budget by how the two compare.
    const estimated = Math.ceil(micro.milliBefore / 1000);
    let keepTailTokens = tokensBefore !== estimated && tokensBefore > 0
      ? derived(this.keepTailTokens * (estimated / tokensBefore)) : this.keepTailTokens;
    // A /compact on a conversation the tail budget holds whole still folds its older part:
    // the tail gets at most half of it (the pending turn stays whatever its size).
    // (the view keeps its thinking until the rebuild: measured as the plan below measures it)
    const afterMicro = Math.ceil((micro.milliAfter + micro.milliThinking) / 1000);
    const tailShrunk = options.force === true && keepTailTokens >= afterMicro;
    if (tailShrunk) keepTailTokens = Math.floor(afterMicro / 2);
    if (tailShrunk) base.tailShrunk = true;
    // (read as the clearing leaves the conversation: the edits are applied in the plan, not to a copy)
    const plan = history().compaction({
      ...common, keepTailTokens, keepTailMessages: this.keepTailMessages, maxTranscriptTokens: this.maxTranscriptTokens,
      maxSummaryTokens: this.maxSummaryTokens, language: this.language, instructions: focus || undefined,
    // (clearToolInputs' edits of the calls are left out of the plan's reading: a call's new input is JSON
    // the core reads back only through cJSON, which the lite module does not link; the plan measures those
    // calls whole, a little over what the rebuild leaves, which applies every edit)
    }, edits.filter((e) => !isInputEdit(e)));
    if (plan.middle.length === 0 || plan.onlyPreviousSummary) {
      if (inFlight) return { report: deferred };
      const failed = await this.archiveCleared(messages, micro.edits);
      if (failed) return archiveFailed(failed);
      const thinkingRemoved = applyMicro();
      return { report: { ...base, compacted: false, reason: 'nothing-to-summarize', tokensAfter: tokensAfterMicro, ...(thinkingRemoved ? { thinkingRemoved } : {}), ...ruleFields() } };
    }
    // The kept turns' thinking stays valid after the provider's block only when they follow the
    // summarized messages at once, the first in another role than the last summarized one
    // (docs/provider-rules.md): no kept system message may come between.
    const keepsThinking = this.preservesThinking && plan.head.length === 0
      && messages[plan.tailStart] && messages[plan.middle[plan.middle.length - 1]].role !== messages[plan.tailStart].role;
    if (inFlight && !keepsThinking) return { report: deferred };
    // (the format the plans read the conversation in: the rebuild writes the summary pair in it)
    return { fold: { plan, inFlight, common, base, tokensBefore, edits, keepsThinking, estimatedBefore, planned: messages.length, format: history().format } };
  }

  /**
   * The fold `decide` planned: asks the summarizer (or the digest), checks that the planned
   * part did not change meanwhile and that the fold gains, then rebuilds `messages` in place.
   * Resolves to the call's report; on any failure the array is left exactly as it was.
   * `originals` as in run().
   */
  async rebuild(messages, options, { plan, inFlight, common, base, tokensBefore, edits, keepsThinking, estimatedBefore, planned, format }, originals) {
    // The rebuild writes into the caller's array: find out now, before paying for a summary.
    if (!Object.isExtensible(messages) || Object.isSealed(messages))
      throw new MidfoldError('read-only-input', 'compact: the messages array is frozen or sealed; it is rebuilt in place, nothing was changed');

    const snapshot = messages.slice();
    // What each planned message holds, deep (the caller may edit one in place while the summary is written).
    const held = holdings(snapshot);
    const middle = plan.middle.map((i) => snapshot[i]);
    let summary;
    let provided = null; // the provider's own compaction messages, when its summarizer gave them
    let usedFallback = false;
    try {
      // (LangChain: the summarizer gets the caller's messages, not their views)
      const folded = originals ? messagesFromViews(middle, originals) : middle;
      const answer = await this.callSummarizer(plan, folded, options.signal);
      summary = answer.text;
      if (answer.messages) provided = answer;
    } catch (failure) {
      const reason = failure.reason || 'summarizer-error';
      let fallbackText = '';
      // (not while a signed loop is in flight: a summary of the client's own would break its thinking)
      if (this.fallback === 'digest' && reason !== 'aborted' && !inFlight) {
        // An empty digest (nothing fits maxSummaryTokens) or a failing one is no summary either.
        try {
          await ensureTier(FULL);
          fallbackText = digest(middle, { ...common, maxTokens: this.maxSummaryTokens, language: plan.language }).trim();
        } catch (e) {
          if (e instanceof MidfoldError && e.code === 'init-failed') this.warn('midfold: the digest fallback could not load midfold.wasm', e);
        }
      }
      if (fallbackText) {
        this.warn(`midfold: the summarizer failed (${reason}); using the digest instead`, failure.error);
        summary = fallbackText;
        usedFallback = true;
      } else {
        this.warn(`midfold: compaction skipped, the conversation is unchanged: ${reason}`, failure.error);
        return { ...base, compacted: false, reason, error: failure.error, tokensAfter: tokensBefore };
      }
    }

    // With recall, the folded range (and what the kept tail's clearing replaces) is archived before
    // anything is rebuilt; the summary's header names it (not inside a provider's own block).
    let recalled = null;
    if (this.recall) {
      try {
        recalled = await this.archiveFold(snapshot, middle, edits.filter((e) => e.message >= plan.tailStart));
      } catch (error) {
        this.warn('midfold: compaction skipped, the conversation is unchanged: the recall archive could not be written', error);
        const micro = { ...base.micro, cleared: 0, charsCleared: 0, tokensAfter: base.micro.tokensBefore, edits: [] };
        return { ...base, micro, compacted: false, reason: 'archive-failed', error, tokensAfter: tokensBefore };
      }
      if (!provided) summary = `${recalled.header}\n\n${summary}`;
    }

    // Messages appended meanwhile are fine; any change to the planned part is not, in place included:
    // the summary did not read it, and what the host wrote is never lost.
    const changed = messages.length < snapshot.length || snapshot.some((m, i) => messages[i] !== m) || !stillHolds(snapshot, held);
    if (changed) {
      const error = new MidfoldError('conflict', 'the conversation changed while the summary was being written');
      this.warn('midfold: compaction abandoned, the conversation is unchanged: conflict', error);
      return { ...base, compacted: false, reason: 'conflict', error, tokensAfter: tokensBefore };
    }

    // The head gathers the middle's configuration updates; a run of them must become one.
    const { head, dropped } = collapseConfigurationUpdates(plan.head.map((i) => messages[i]));
    const removed = dropped.length === 0 ? middle
      : [...plan.middle, ...dropped.map((d) => plan.head[d])].sort((a, b) => a - b).map((i) => snapshot[i]);
    const fold = {
      head, tailStart: plan.tailStart, provided,
      // (the kept tail gets its micro-compaction; the folded middle goes to the archive whole)
      tailEdits: edits.filter((e) => e.message >= plan.tailStart),
      // The kept turns now follow a new prefix: their signed thinking would no longer verify, unless
      // the provider wrote the block that stands for it (and the tail follows it as required).
      dropThinking: this.thinking === 'prefix-bound' && !(keepsThinking && provided),
      // (as the plans read it, unless messages were appended meanwhile: then as they now read)
      pair: { format: this.format && this.format !== 'auto' ? this.format
        : format && messages.length === snapshot.length ? format : detectFormat(messages), summary, acknowledgement: plan.acknowledgement },
    };
    // Which of the kept turns' signed parts go is the plan's answer (src/signed.c); messages
    // appended meanwhile are asked about on their own.
    fold.drops = !fold.dropThinking ? [] : messages.length <= planned ? plan.drops
      : [...plan.drops, ...appendedDrops(messages.slice(planned), planned, fold.pair.format, common.profile)];
    // A fold that leaves as much as there was is no fold: first built of copies, and measured
    // against the conversation as it is now (with what was appended meanwhile). Both are priced
    // from the estimates the plans' pass filled (the per-message figures): only the messages the
    // fold makes (the summary pair, the edited and stripped copies) and those appended are read.
    const tokensNow = messages.length === snapshot.length ? estimatedBefore : Math.ceil(this.estimates.milli(messages) / 1000);
    const trial = foldedList(messages, fold, true);
    const tokensAfter = Math.ceil(this.estimates.milli(trial.list) / 1000);
    if (tokensAfter >= tokensNow) {
      this.warn(`midfold: compaction skipped, the conversation is unchanged: no-gain (the fold would leave ${tokensAfter} of its ${tokensNow} tokens)`);
      return { ...base, compacted: false, reason: 'no-gain', tokensAfter: tokensBefore };
    }
    const { list, thinkingRemoved } = foldedList(messages, { ...fold, carry: trial.carry }, false);
    for (let i = 0; i < list.length; i++) messages[i] = list[i];
    messages.length = list.length;
    this.usage = null;

    if (this.onArchive) {
      try { this.onArchive(originals ? messagesFromViews(removed, originals) : removed, summary); } catch (e) { this.warn('midfold: onArchive threw', e); }
    }
    return {
      ...base,
      compacted: true,
      reason: usedFallback ? 'compacted-with-digest' : 'compacted',
      tokensAfter,
      summarizedMessages: middle.length,
      ...(thinkingRemoved ? { thinkingRemoved } : {}),
      ...(recalled ? { recall: { id: recalled.id, archived: recalled.archived } } : {}),
      summary,
      language: plan.language,
      transcript: { chars: plan.transcriptChars, shrunkResults: plan.shrunkResults, omittedMessages: plan.omittedMessages },
    };
  }

  /**
   * With recall, writes what `edits` (a plan of `messages`) replace to the archive before they
   * are applied; resolves to null when they may be, else to the error that says why not (the
   * store failed, or the conversation changed while it was written).
   */
  async archiveCleared(messages, edits) {
    if (!this.recall || !edits.length) return null;
    const entries = resultEntries(viewList(messages), edits);
    try {
      await this.recall.archive.put(entries);
    } catch (error) {
      this.warn('midfold: nothing cleared, the recall archive could not be written', error);
      return error;
    }
    const now = viewList(messages);
    if (edits.some((e, i) => editedValue(now, e) !== entries[i].value))
      return new MidfoldError('conflict', 'the conversation changed while the recall archive was being written');
    return null;
  }

  /**
   * Archives a fold: the range `middle` (of `snapshot`) under its id, and the results the kept
   * tail's `tailEdits` clear. Resolves to the id, the summary's header and the count written.
   */
  async archiveFold(snapshot, middle, tailEdits) {
    const key = await this.recall.archive.key();
    const format = this.format && this.format !== 'auto' ? this.format : detectFormat(snapshot);
    const { transcript, ...entry } = foldEntry(key, middle, format);
    const entries = [entry, ...resultEntries(viewList(snapshot), tailEdits)];
    await this.recall.archive.put(entries);
    return { id: entry.id, header: foldHeader(entry.id, middle.length, markerIds(transcript)), archived: entries.length };
  }

  /** Calls the summarizer with timeout and abort; rejects with {reason, error}. */
  async callSummarizer(plan, middle, signal) {
    if (signal && signal.aborted) throw { reason: 'aborted', error: signal.reason };
    const controller = new AbortController();
    let timer;
    let onAbort;
    const stopped = new Promise((_, reject) => {
      onAbort = () => {
        controller.abort(signal.reason);
        reject({ reason: 'aborted', error: signal.reason });
      };
      if (signal) signal.addEventListener('abort', onAbort, { once: true });
      if (this.timeoutMs) {
        timer = setTimeout(() => {
          const error = new MidfoldError('timeout', `the summarizer did not answer within ${this.timeoutMs} ms`);
          controller.abort(error);
          reject({ reason: 'timeout', error });
        }, this.timeoutMs);
      }
    });
    try {
      const request = {
        system: plan.system, prompt: plan.prompt, maxTokens: this.maxSummaryTokens, signal: controller.signal,
        messages: middle, format: this.format || 'auto', language: plan.language, profile: this.profile,
      };
      let answer;
      try {
        answer = await Promise.race([Promise.resolve().then(() => this.summarize(request)), stopped]);
      } catch (e) {
        if (e && e.reason && Object.prototype.hasOwnProperty.call(e, 'error')) throw e;
        throw { reason: failureReason(e), error: e };
      }
      return summaryAnswer(answer);
    } finally {
      clearTimeout(timer);
      if (signal) signal.removeEventListener('abort', onAbort);
    }
  }
}

/** True when two messages are user or assistant messages of one role. */
function sameRole(a, b) {
  return !!a && !!b && (a.role === 'user' || a.role === 'assistant') && a.role === b.role;
}

/** A message's content as blocks (a string is one text block). */
const turnBlocks = (m) => (Array.isArray(m.content) ? m.content : typeof m.content === 'string' && m.content ? [{ type: 'text', text: m.content }] : []);

/** `message` with the blocks of `lead` (the provider's compaction message) before its own: a new object, the
 * blocks themselves shared (a signed block goes back byte for byte). */
function joinedTurn(lead, message) {
  return { ...message, content: [...turnBlocks(lead), ...turnBlocks(message)] };
}

/** The signed parts a fold drops from messages appended while its summary was written (`list`, from index `at` on). */
function appendedDrops(list, at, format, profile) {
  const { drops } = signedThinking(list, { format: format === 'unknown' ? undefined : format, profile });
  return drops.map((d) => ({ ...d, message: d.message + at }));
}

/**
 * What the messages of `list` hold, recorded (snapshot.js: their keys and leaf values in walk
 * order, no string copied) so that stillHolds can tell, without reading a string's text again,
 * whether any was edited in place, however deep: a changed string, a key added or removed, a
 * block pushed. Keeps `list`'s leaves until the caller drops the result.
 * @param {unknown[]} list
 */
function holdings(list) {
  const store = [];
  const at = [0];
  for (const m of list) {
    record(m, store, 0);
    at.push(store.length);
  }
  return { store, at };
}

/** True when every message of `list` still holds what holdings(list) recorded. */
function stillHolds(list, { store, at }) {
  for (let i = 0; i < list.length; i++) {
    const m = list[i];
    if (m === null || typeof m !== 'object') {
      if (store[at[i]] !== m) return false;
      continue;
    }
    try {
      if (matches(m, store, at[i], 0) !== at[i + 1]) return false;
    } catch {
      return false; // a getter that throws now: something changed
    }
  }
  return true;
}

/**
 * The conversation a fold leaves: the head, the summary pair (or the provider's own messages),
 * the tail with its clearings, the kept turns' signed thinking dropped (`dropThinking`). As a
 * trial (`trial`), nothing of the caller's is written: edited and stripped messages are copies.
 * Else the clearings and the thinking removal land on the caller's objects (a frozen one gets a
 * copy) and the caller puts the list in place. What is kept may be plain text alone, which reads
 * as OpenAI Chat: the summary pair then carries the format (summary-messages.js), so a later call
 * that detects it reads the conversation as it was written; the trial finds that out (`carry`).
 * @returns {{list: unknown[], thinkingRemoved: number, carry: boolean}}
 */
function foldedList(messages, fold, trial) {
  const source = trial ? applyEditsToCopy(messages, fold.tailEdits) : messages;
  if (!trial) applyEditsCopyingReadOnly(messages, fold.tailEdits);
  const tail = source.slice(fold.tailStart);
  const { head, provided } = fold;
  const pair = { ...fold.pair, tail };
  // The provider's signed block goes back unmodified, where the provider reads it.
  const list = provided ? (provided.first ? [...provided.messages, ...head] : [...head, ...provided.messages])
    : [...head, ...summaryMessages(pair)];
  // A tail that starts in the block message's role joins it: one turn, the block first, as the API
  // returns a compaction with what follows it (and as it would combine two messages of one role).
  let kept = tail;
  if (provided && provided.first && head.length === 0 && tail.length && sameRole(list[list.length - 1], tail[0])) {
    list[list.length - 1] = joinedTurn(list[list.length - 1], tail[0]);
    kept = tail.slice(1);
  }
  // (a joined turn holds the tail's first message: its thinking is the kept turns')
  const tailAt = list.length - (kept === tail ? 0 : 1);
  for (const m of kept) list.push(m);
  // (the joined turn's own blocks follow the block message's: its drops' parts move on by as many)
  const offsets = kept === tail ? undefined : new Map([[fold.tailStart, list[tailAt].content.length - turnBlocks(tail[0]).length]]);
  const thinkingRemoved = applyDrops(list, fold.drops, { shift: tailAt - fold.tailStart, copies: trial, offsets });
  const format = pair.format;
  const carry = trial ? !provided && format !== 'openai' && format !== 'unknown' && detectFormat(list) !== format : fold.carry;
  if (carry) list.splice(head.length, tailAt - head.length, ...summaryMessages({ ...pair, carry: true }));
  return { list, thinkingRemoved, carry };
}

/**
 * The reason a summarizer's own error is reported under: a MidfoldError whose code is one of
 * the Compactor's reasons keeps it (languageModelSummarizer's 'empty-summary' when the model
 * answered no text), as does the fetch adapters' SummarizerError for an answer with no text
 * (code 'empty'); anything else is 'summarizer-error'.
 */
function failureReason(e) {
  if (e instanceof MidfoldError && SUMMARIZER_REASONS.includes(e.code)) return e.code;
  if (e instanceof Error && e.name === 'SummarizerError' && /** @type {any} */ (e).code === 'empty') return 'empty-summary';
  return 'summarizer-error';
}
const SUMMARIZER_REASONS = ['empty-summary', 'bad-summary', 'timeout'];

/**
 * Reads what a summarizer resolved to: a string, `{text}`, or, for the providers' own
 * compaction, `{text, messages, first}` where `messages` replace the summary pair (a
 * signed block the provider wants sent back as is) and `first` puts them before the head.
 * Throws the {reason, error} that callSummarizer reports.
 */
function summaryAnswer(answer) {
  const bad = (message) => ({ reason: 'bad-summary', error: new MidfoldError('bad-summary', message) });
  const text = typeof answer === 'string' ? answer : answer && typeof answer.text === 'string' ? answer.text : null;
  if (text === null) throw bad('the summarizer returned neither a string nor {text}');
  const messages = answer && typeof answer === 'object' ? answer.messages : undefined;
  if (messages !== undefined) {
    if (!Array.isArray(messages) || !messages.length || messages.some((m) => !m || typeof m !== 'object'))
      throw bad('the summarizer returned {messages} that is not a non-empty array of messages');
    return { text: text.trim(), messages, first: answer.first === true };
  }
  if (!text.trim()) throw { reason: 'empty-summary', error: new MidfoldError('empty-summary', 'the summarizer returned an empty summary') };
  return { text: text.trim() };
}

/**
 * A summarizer that needs no model and no network: a deterministic digest of the folded
 * messages (requests, constraints, test and error state, files, decisions, conclusions; the
 * most valuable that fit), built in wasm (docs/digest.md). Use it
 * where no model is configured, or through `fallback: 'digest'`.
 * Ownership: reads `options` once; each call reads the request's messages and keeps nothing.
 * @param {{maxTokens?: number}} [options] caps the digest (default: the request's maxTokens)
 */
export function digestSummarizer(options = {}) {
  const cap = optionsObject(options, 'digestSummarizer', ['maxTokens']).maxTokens;
  const summarize = async function digestSummarize(request) {
    if (!request || !Array.isArray(request.messages))
      throw new MidfoldError('invalid-input', 'digestSummarizer needs request.messages (the Compactor passes them)');
    await ensureTier(FULL); // (in the browser, init() loaded the lite module, which has no digest)
    return digest(request.messages, {
      maxTokens: cap || request.maxTokens, language: request.language, profile: request.profile,
      format: request.format && request.format !== 'auto' ? request.format : undefined,
    });
  };
  digestSummarizers.add(summarize);
  return summarize;
}
