// midfold — hand-written types for the public API (js/hosts/node.js, js/hosts/browser.js).
// Ownership: every function reads the values it is given and keeps no reference to
// them after it returns, except where noted (microCompact and Compactor.compact edit the
// caller's array in place; Compactor.observeUsage remembers the array it is given).
//
// Messages go in as the caller's own type (Anthropic.MessageParam, OpenAI's
// ChatCompletionMessageParam or Responses input items, AI SDK ModelMessage or UIMessage, a
// LanguageModelV3/V4 prompt) and come back as that type: the functions are generic over
// M extends MessageLike. Arrays midfold only reads are `readonly M[]`; the two that edit
// the caller's array (microCompact, Compactor.compact) take `M[]`.

import type { Summarize as BaseSummarize, SummarizeRequest, ProviderCompactionResult } from './compaction/summarizers.js';
export * from './compaction/summarizers.js';

/**
 * What midfold accepts as one message: an object with a `role` (a chat message of any
 * format), or a Responses API input item (which has a `type` and may lack `role`). It is
 * loose on purpose: the SDKs' types are interfaces, which never match an index signature,
 * and the shape is checked at run time (validate, MidfoldError). Functions take
 * `M extends MessageLike` so an array literal keeps its own element type.
 */
export type MessageLike = { readonly role: string } | { readonly type?: string | null };

/** A message written by hand, in any format: a role, or a Responses item type, plus any fields. */
export type Message =
  | { role: string; content?: unknown; [key: string]: unknown }
  | { type: string; [key: string]: unknown };

export type Format = 'anthropic' | 'openai' | 'ai-sdk' | 'openai-responses' | 'ai-sdk-ui' | 'langchain';
/** Estimator profiles. 'bareagent' is the reference (the default of estimateTokens,
 * microCompact, planCompaction and digest); the others are fitted to a tokenizer: 'o200k'
 * (GPT-4o, GPT-4.1, GPT-5), 'cl100k' (GPT-4, GPT-3.5), 'deepseek' (DeepSeek-V3), 'qwen'
 * (Qwen3), 'claude'; 'safe' is the largest of those five, text by text (the Compactor's
 * default). A fitted profile prices each string on its own, with a term growing like the
 * square root of its length: short strings carry more slack for their size than long ones. */
export type Profile = 'bareagent' | 'o200k' | 'cl100k' | 'deepseek' | 'qwen' | 'claude' | 'safe';

/** The one error type of the synchronous API. */
export declare class MidfoldError extends Error {
  name: 'MidfoldError';
  /** e.g. 'not-initialized', 'invalid-input', 'invalid-option', 'cycle', 'too-deep' (nesting
   * past 512 levels), 'too-large' (over 1 GiB of input, or a list of more than 1,000,000
   * messages: told from its length, before any message is read, by every function that takes
   * messages), 'unsupported-value', 'invalid-shape', 'unknown-format', 'read-only-input',
   * 'out-of-memory' */
  code: string;
  /** A byte offset for parse errors; a message index for 'invalid-shape'. */
  position?: number;
  /** Where in a JS value the trouble is, like `input[3].content[0].input`. */
  path?: string;
}

/** Loads the wasm module; await once before anything else (later calls return at once).
 * Defaults to the bundled .wasm; a Module, bytes, a Response or a URL may be given.
 * In the browser the default is midfold-lite.wasm: everything but `validate` and `digest`
 * (20 KB gzipped less); `digestSummarizer` and the Compactor's `fallback: 'digest'` load
 * the full module by themselves. In Node and workerd the default is the full module.
 * After initEstimator() it loads the lite module in that one's place; it rejects with
 * 'invalid-option' when the source given is midfold-estimate.wasm (which cannot compact). */
export declare function init(source?: WasmModule | ArrayBuffer | ArrayBufferView | Response | URL | string, options?: InitOptions): Promise<void>;

/** Loads midfold.wasm, the full module (`validate` and `digest` too), in place of init()'s
 * lite one or instead of init(); resolves at once when it is in use. The source as for
 * init(); rejects with 'invalid-option' when it is the lite module. In Node and workerd,
 * init() already loads it. */
export declare function initFull(source?: WasmModule | ArrayBuffer | ArrayBufferView | Response | URL | string, options?: InitOptions): Promise<void>;

/** Loads the estimator alone, in the browser midfold-estimate.wasm (13.5 KB gzipped less than
 * init()'s): `estimateTokens`, `EstimateCache` and `detectFormat` work; `serialize`,
 * `microCompact`, `planMicroCompact` and `planCompaction` throw 'not-initialized' until init().
 * A Compactor (and the integrations built on one) fetches the lite module by itself: in the
 * background once its conversation is half way to its first trigger, at the latest at the
 * call that has to plan a clearing or a fold; if that call cannot fetch it, it changes
 * nothing and reports 'module-unavailable'; simulate() fetches it for a policy that clears.
 * Resolves at once when any module is in use. The source as for init() (any of midfold's
 * modules). In Node and workerd it is init(). */
export declare function initEstimator(source?: WasmModule | ArrayBuffer | ArrayBufferView | Response | URL | string, options?: InitOptions): Promise<void>;

/** The options of init(), initFull() and initEstimator(); a later call sets them too. */
export interface InitOptions {
  /** After a call that leaves the module's wasm memory above this many bytes, the next call
   * runs on a fresh instance of the same compiled module, back at its initial 4 MiB (wasm
   * memory never shrinks; the old instance is dropped). Default 64 MiB, in workerd Infinity
   * (its V8 collects a dropped instance's memory only at a full garbage collection); `Infinity`
   * keeps the instance for good, 0 replaces it after every call (docs/api.md#wasm-memory). */
  releaseMemoryAbove?: number;
}

/** The wasm memory midfold's module holds (memoryUsage()). */
export interface MemoryUsage {
  /** memory.buffer.byteLength of the instance in use now; 0 before init. */
  wasmBytes: number;
  /** The most an instance held at the end of any call (or now). */
  peakWasmBytes: number;
  /** How many times a call that left the memory above `releaseMemoryAbove` was followed by a fresh instance. */
  releases: number;
  /** The bound in use (InitOptions.releaseMemoryAbove). */
  releaseMemoryAbove: number;
}

/** The wasm memory midfold's module holds now, its peak and how often it was given back. */
export declare function memoryUsage(): MemoryUsage;

/** WebAssembly.Module where the program's lib declares it (DOM, webworker); nothing where it
 * does not (a Node project without the DOM lib: @types/node has no WebAssembly types). */
type WasmModule = typeof globalThis extends { WebAssembly: { Module: { prototype: infer T } } } ? T : never;

/** True once init(), initFull() or initEstimator() has finished (the functions its module has then work synchronously). */
export declare function isReady(): boolean;

/** Estimated tokens of a string, a message, a list of messages, a request body
 * ({messages, system, tools}) or any JSON value; a whole number, rounded up once. */
export declare function estimateTokens(input: unknown, options?: { profile?: Profile; format?: Format | 'auto'; cache?: EstimateCache }): number;

/**
 * Per-message estimates kept between calls: a conversation that grew by one turn costs the new
 * turn. Each message's structure is compared with what it held when it was priced, so a changed
 * string, block, array or order is never priced from a stale figure. Holds messages weakly,
 * except the last call's list, which it keeps until the next call or clear(), and the entries
 * of earlier calls it may look up by content (for objects rebuilt with the same values),
 * which it keeps until its snapshot store is next rebuilt (when it has grown to twice what
 * the last lists use) or clear().
 */
export declare class EstimateCache {
  constructor(options?: { profile?: Profile; format?: Format | 'auto' });
  readonly profile?: Profile;
  readonly format?: Format | 'auto';
  /** How many messages the last call had to estimate (new or changed ones). */
  readonly lastEstimated: number;
  /** The estimate in milli-tokens before rounding. */
  milli(messages: readonly unknown[]): number;
  /** The estimate in whole tokens, as estimateTokens(messages, { profile, format }) gives it. */
  tokens(messages: readonly unknown[]): number;
  /** An upper bound (milli-tokens) of what micro-compaction with `keepRecent` could free. */
  clearableMilli(messages: readonly unknown[], keepRecent: number): number;
  /** milli() and clearableMilli() in one pass. */
  figures(messages: readonly unknown[], keepRecent: number): { milli: number; clearable: number };
  /**
   * The same, or null with nothing estimated when more than `maxFresh` messages are new or
   * changed (the caller reads the history another way, then calls fill()).
   */
  figures(messages: readonly unknown[], keepRecent: number, maxFresh: number): { milli: number; clearable: number } | null;
  /**
   * Prices `messages` from per-message figures computed in the same pass over them (a
   * micro-compaction plan's), so the next call estimates only what is new. Figures of
   * another length are ignored.
   */
  fill(messages: readonly unknown[], figures: readonly { milli: number; results: number; hasResults: boolean; compaction: boolean }[]): void;
  /**
   * For each message, `compute(message)`, kept with the message's entry and computed again
   * only once the message changes (the session state derives each message's canonical bytes
   * so). `compute` names the value: pass the same function each time.
   */
  derivedEach<T>(messages: readonly unknown[], compute: (message: unknown) => T): T[];
  /** Lets `copy` (holding the same values as `original`) use `original`'s entry; it is still compared before use. */
  share(copy: object, original: object): void;
  /**
   * The entries the last derivedEach() compared its messages with, by index (opaque; valid
   * until the cache's next call).
   */
  derivedEntries(): readonly unknown[];
  /**
   * Tells the next estimate on `list` that `entries[k]` (from derivedEntries() of the same
   * call) holds what `list[k]` holds, a copy made since of a message that matched it: it is
   * used without comparing, once. Keeps `list` and `entries` until then.
   */
  vouch(list: readonly unknown[], entries: readonly unknown[]): void;
  /** Forgets every entry and the last call's list of messages. */
  clear(): void;
}


/** The transcript a summarizer reads: "[role]" sections, "[tool_use:NAME] {json}",
 * "[tool_result:NAME] text", a blank line between messages. Content never reads as a marker:
 * a content line that opens with a bracket is written "\[…", a closing "</transcript" in any
 * form a reader may take for one gets a "\" before its slash (docs/transcript.md). */
export declare function serialize<M extends MessageLike>(messages: readonly M[], options?: { format?: Format | 'auto'; /** Taken and ignored, so a shared {profile, format} fits. */ profile?: Profile }): string;

export interface MicroOptions {
  /** Tool-result turns kept whole, counted from the end (3). */
  keepRecent?: number;
  /** Tools whose results are never cleared. */
  excludeTools?: readonly string[];
  /** Clear nothing unless at least this many tokens are freed (0). */
  clearAtLeast?: number;
  /** Clear nothing while the estimate is at or below this (0 = always). */
  trigger?: number;
  profile?: Profile;
  format?: Format | 'auto';
  /** The thinking policy (docs/provider-rules.md): 'prefix-bound' (default) clears nothing while a signed tool loop is in
   * flight; `{keep: N}` also drops the signed thinking of finished turns except the last N thinking turns (ThinkingKeep). */
  thinking?: ThinkingOption;
  /** The calls of cleared results lose their large input strings too: each becomes "[truncated: NAME input, N chars]"
   * (N: its code points); keys, numbers and short strings stay, so the call stays valid in its format (an object input,
   * a string of JSON arguments). Default false. */
  clearToolInputs?: boolean;
  /** pruneMessages-style: the calls of these tools go, each with its results, before the last `beforeLast` messages
   * (a call whose result is in them stays, and so does the pending turn). */
  dropToolCalls?: DropToolCalls;
  /** pruneMessages-style: the thinking and reasoning of the assistant messages before the pending turn go
   * (a Responses reasoning item, OpenAI's encrypted reasoning and Chat's reasoning_content stay). */
  reasoning?: 'before-last-message';
}

/** dropToolCalls: the tools whose calls go, and how many last messages keep theirs. */
export interface DropToolCalls { tools: readonly string[]; beforeLast: number }

/** thinking {keep: N}: the last N thinking turns keep their signed thinking (Anthropic's clear_thinking_20251015
 * `keep: {type: 'thinking_turns', value: N}`). With the 'prefix-bound' binding (the default) the client drops it only
 * where no kept signature follows (keep 0 at a turn boundary), and otherwise leaves it to the provider's edit: the
 * integrations and anthropicServerContext send clear_thinking_20251015; the report says `thinkingKeep.by`. */
export interface ThinkingKeep { keep: number; binding?: ThinkingPolicy }

/** A thinking policy, or the policy with a keep rule. */
export type ThinkingOption = ThinkingPolicy | ThinkingKeep;

/** 'prefix-bound': edits wait while a signed tool loop is in flight, kept turns lose their signed thinking after a fold
 * (neither for a fold by a summarizer that `preservesThinking`: anthropicCompaction with `preservedThinking`);
 * 'unbound': for providers that check only the in-flight message's thinking. */
export type ThinkingPolicy = 'prefix-bound' | 'unbound';

/** One edit of a micro-compaction: a result replaced by its marker, or (`input: true`, clearToolInputs) the
 * input of its call, `chars` the code points of the strings replaced. */
export interface MicroEdit { message: number; part: number; tool: string; chars: number; input?: true;
  /** With recall (recallMicroCompact, a Compactor's `recall`): the id the marker names. */
  recall?: string }

/** What the rules after the clearing did (dropToolCalls, reasoning): calls removed (with their results), messages
 * removed (left empty, or a result or call item of their own), thinking and reasoning parts removed. */
export interface PrunedReport { calls: number; messages: number; reasoning: number }

/** thinking {keep}: how many finished turns lose their thinking, and where: 'client' (removed here) or 'server'
 * (left to the provider's clear_thinking_20251015, which the integrations send). */
export interface ThinkingKeepReport { turns: number; by: 'client' | 'server' }

export interface MicroReport {
  cleared: number;
  charsCleared: number;
  tokensBefore: number;
  tokensAfter: number;
  /** True when trigger or clearAtLeast stopped it. */
  skipped: boolean;
  /** Set when the thinking policy held the clearing back until the turn boundary. */
  deferred?: 'in-flight-thinking';
  /** ('prefix-bound') Signed thinking parts removed from the assistant messages after the first
   * edit: their prefix changed, which the newer Anthropic models reject; finished turns may go
   * without it (an AI SDK tool-call part stripped of the OpenRouter details it carries counts as
   * one). Not counted in tokensAfter. */
  thinkingRemoved?: number;
  /** clearToolInputs: how many calls' inputs were cleared (their edits are in `edits` with `input: true`; `cleared`
   * counts results only, `charsCleared` both). */
  inputsCleared?: number;
  /** dropToolCalls and reasoning: what they removed (tokensAfter then counts what is left). */
  pruned?: PrunedReport;
  /** thinking {keep}: what the rule did. */
  thinkingKeep?: ThinkingKeepReport;
  edits: MicroEdit[];
}

/** Replaces old tool results in place by "[truncated: NAME result, N chars]": the
 * messages' objects are edited (so the array is `M[]`, not readonly); the array keeps its length,
 * unless `dropToolCalls` or `reasoning` remove messages (`pruned` says how many). */
export declare function microCompact<M extends MessageLike>(messages: M[], options?: MicroOptions): MicroReport;

export interface Problem {
  code: 'not-a-message' | 'unknown-role' | 'bad-content' | 'unknown-block' | 'call-without-result'
    | 'result-without-call' | 'result-not-first' | 'missing-id' | 'duplicate-id'
    /** Warning (Chat Completions): a tool-calling assistant message without the `reasoning_content`
     * other assistant messages carry; DeepSeek's thinking mode answers it with a 400. */
    | 'missing-reasoning'
    /** Warning (Anthropic, Chat Completions): a user or assistant message right after one of the same role.
     * Anthropic combines the two into one turn; deepseek-reasoner refuses them (docs/provider-rules.md). */
    | 'consecutive-role';
  /** The message's index. */
  index: number;
  /** The block's index in content (tool_calls for OpenAI calls), when it is about one. */
  part?: number;
  message: string;
  /** 'error': the provider would refuse it; 'warning': midfold cannot check it (an Anthropic
   * block type it does not know yet: kept, priced by its text) and `ok` stays true. */
  severity: 'error' | 'warning';
}

/** Every provider rule the conversation breaks. In the browser, after initFull() (init()'s lite module
 * has no validation: 'not-initialized'). */
export declare function validate<M extends MessageLike>(messages: readonly M[], options?: { format?: Format | 'auto'; /** Taken and ignored, so a shared {profile, format} fits. */ profile?: Profile }):
  { ok: boolean; format: Format | 'unknown'; problems: Problem[] };

/** The format of a list of messages; plain text conversations are 'openai'. */
export declare function detectFormat<M extends MessageLike>(messages: readonly M[]): Format | 'unknown';

export interface CompactionPlan {
  tailStart: number;
  head: number[];
  middle: number[];
  language: 'en' | 'zh';
  system: string;
  prompt: string;
  acknowledgement: string;
  transcriptChars: number;
  shrunkResults: number;
  omittedMessages: number;
  milliMiddle: number;
  milliTail: number;
  onlyPreviousSummary: boolean;
  /** The message of a tool loop in flight whose thinking is signed, or -1 (docs/thinking.md): a fold waits for it. */
  inFlight: number;
  /** The kept turns' signed parts a fold drops (their prefix changes), in message order. */
  drops: SignedDrop[];
}

/** One signed part that goes because the conversation before it changed (docs/thinking.md): `part` of
 * `message` is removed ('part'), a call part loses OpenRouter's reasoning_details from the metadata `keys`
 * names (1 providerOptions, 2 providerMetadata, 4 callProviderMetadata, 8 resultProviderMetadata:
 * 'details'), or a Chat message loses reasoning_details and reasoning ('beside', `part` -1). `count`: the
 * parts it removes; `alone`: the message holds nothing else; `milli`: what it takes off the estimate. */
export interface SignedDrop {
  message: number; part: number; kind: 'part' | 'details' | 'beside'; count: number; alone: boolean; keys: number; milli: number;
}

/** Where a compaction would cut and what it would ask, without changing anything. */
export declare function planCompaction<M extends MessageLike>(messages: readonly M[], options?: {
  keepTailTokens?: number; keepTailMessages?: number; maxTranscriptTokens?: number; maxSummaryTokens?: number; language?: string;
  instructions?: string; profile?: Profile; format?: Format | 'auto';
}): CompactionPlan;

/** What microCompact would do, without doing it (estimates in milli-tokens). `milliAfter` is the estimate of what
 * microCompact leaves, the later turns' signed thinking that goes with the edits ('prefix-bound') included;
 * `milliThinking` is that thinking's share. `inFlight`: the message of a signed tool loop in flight, or -1 (with
 * 'prefix-bound' the edits then wait: `deferred`); `drops`: the signed parts the edits make go (applied under
 * 'prefix-bound'). */
export declare function planMicroCompact<M extends MessageLike>(messages: readonly M[], options?: MicroOptions): {
  skipped: boolean; milliBefore: number; milliAfter: number; milliThinking: number; charsCleared: number;
  edits: (MicroEdit & { target: number; replacement: string })[];
  inFlight: number; drops: SignedDrop[]; deferred?: 'in-flight-thinking';
};

/** A deterministic model-free summary: the user's own requests, constraints at their latest value, each test
 * suite's latest counts, each command's failures with exit statuses and whether they passed later, files with what
 * happened to them, decisions with their reasons, conclusions, tool activity — the most valuable lines that fit
 * maxTokens, and how many were left out (docs/digest.md). In the browser, after initFull() (init()'s lite module has no digest:
 * 'not-initialized'; digestSummarizer() loads the full module by itself). */
export declare function digest<M extends MessageLike>(messages: readonly M[], options?: {
  maxTokens?: number; language?: string; profile?: Profile; format?: Format | 'auto';
}): string;

/** What the Compactor passes to a summarizer: the base request plus extras. */
export interface CompactorRequest<M extends MessageLike = MessageLike> extends SummarizeRequest {
  /** The original messages being folded (the objects of the caller's array). */
  messages: readonly M[];
  format: Format | 'auto';
  language: 'en' | 'zh';
  /** The Compactor's estimator profile: maxTokens is counted in it. */
  profile: Profile;
}

export type Summarize<M extends MessageLike = MessageLike> = (request: CompactorRequest<M>) => Promise<string | { text: string } | ProviderCompactionResult>;
export type { BaseSummarize };

/** The Compactor's options, checked when it is built ('invalid-option', naming the option and the value
 * given): counts are whole numbers; those the core reads (keepRecent, microTrigger, clearAtLeast,
 * keepTail.tokens, maxSummaryTokens, maxTranscriptTokens) up to 4,294,967,295, timeoutMs up to
 * 2,147,483,647 (setTimeout's longest), threshold up to Number.MAX_SAFE_INTEGER; the defaults derived
 * from a larger threshold are capped at 4,294,967,295, never refused. */
export interface CompactorOptions<M extends MessageLike = MessageLike> {
  /** Any summarizer: one of midfold's adapters (BaseSummarize), digestSummarizer(), or the
   * host's own, which also gets the messages being folded. */
  summarize: Summarize<M>;
  /** Whose prompt cache the requests use; it sets the default threshold: 150,000 for
   * 'deepseek' (V4: cached reads at a fiftieth to a thirtieth of the price, so a long context
   * costs little to keep and a clearing takes ~50 turns to repay; a 1M window), 50,000 for
   * 'anthropic' and 'openai' (a tenth) and when left out. */
  pricing?: 'anthropic' | 'openai' | 'deepseek';
  /** Compact above this many estimated tokens (50,000; 150,000 with pricing 'deepseek'), or above a
   * fraction (above 0, at most 1) of `contextWindow`, rounded down: `{fraction: 0.8}`. The Compactor
   * needs `contextWindow` for a fraction; compactStep, midfoldMiddleware and compactionFilter find it
   * from the model's id (contextWindowOf), and apply the default threshold, with a warning through
   * `onWarn`, for a model the table does not know. */
  threshold?: number | { fraction: number };
  /** The model's context window in tokens, what `threshold: {fraction}` is a fraction of (given, it
   * wins over the integrations' table). */
  contextWindow?: number;
  /** Tool-result turns micro-compaction keeps whole (3). */
  keepRecent?: number;
  /** Tools whose results micro-compaction never clears (as microCompact's). */
  excludeTools?: readonly string[];
  /** 'batched' (default): micro-compaction waits for `microTrigger` and clears only when
   * `clearAtLeast` tokens go, so a prompt cache is rewritten rarely; 'every-turn': it clears on
   * every call (both 0). 'seed' is a deprecated name of 'every-turn' (SeedPolicyName). */
  policy?: 'batched' | 'every-turn' | SeedPolicyName;
  /** Micro-compact only above this estimate (80 % of the threshold: 40,000; 0 with 'every-turn';
   * never above the threshold). */
  microTrigger?: number;
  /** Micro-compact only when at least this many tokens go (40 % of the threshold: 20,000; 0 with
   * 'every-turn'); a forced compaction micro-compacts its kept tail regardless. */
  clearAtLeast?: number;
  /** What a fold keeps verbatim beyond the pending turn, never cut between a call and its results:
   * the recent messages that fit `tokens` (threshold / 5 when neither key is given, 0 when only
   * `messages` is) and at least `messages` messages (system messages not counted; a count that lands
   * among a call's results keeps the call too). Another key is an 'invalid-option' error. */
  keepTail?: { tokens?: number; messages?: number };
  /** The summary length asked for (2,000). */
  maxSummaryTokens?: number;
  /** Cap on the transcript sent to the summarizer (60,000). */
  maxTranscriptTokens?: number;
  /** 'auto' (default), 'en', 'zh' or another language code. */
  language?: string;
  instructions?: string;
  /** The estimator profile of the threshold, the budgets and the report ('safe': it errs high). */
  profile?: Profile;
  format?: Format | 'auto';
  /** Give up on the summarizer after this many milliseconds: the report says 'timeout' and nothing
   * changes (120,000, as the CLI's --timeout; 0 waits for ever). A summarizer that throws a MidfoldError
   * whose code is a reason ('empty-summary', 'bad-summary', 'timeout') is reported with it, as is a
   * SummarizerError with code 'empty' ('empty-summary'); any other error is 'summarizer-error'. */
  timeoutMs?: number;
  /** Use the digest when the summarizer fails (default: leave the conversation unchanged). */
  fallback?: 'digest';
  /** The thinking policy ('prefix-bound', the default, or 'unbound'), or with a keep rule ({keep: N}); see
   * ThinkingPolicy and ThinkingKeep. */
  thinking?: ThinkingOption;
  /** As microCompact's: the calls of cleared results lose their large input strings too (sent to the provider's
   * clearing as clear_tool_inputs while a signed loop waits). */
  clearToolInputs?: boolean;
  /** As microCompact's; the rule runs when micro-compaction runs (past its gates). */
  dropToolCalls?: DropToolCalls;
  /** As microCompact's; the rule runs when micro-compaction runs (past its gates). */
  reasoning?: 'before-last-message';
  onWarn?: (message: string, error?: unknown) => void;
  /** Receives the original messages that were folded, after a successful rebuild, in
   * conversation order (with any configuration updates that the one kept for their run replaced). */
  onArchive?: (removed: M[], summary: string) => void;
  /** Restorable clearing (docs/recall.md): every marker names a recall id and the summary's
   * header names the folded range's; what they replace is written to the archive before the
   * edit, and an archive that cannot be written stops it (reason 'archive-failed'). `true`: an
   * archive in memory for this Compactor. Off by default: the output is then as without it. */
  recall?: boolean | RecallOptions;
}

/** @deprecated 'seed' is the former name of the policy 'every-turn' (micro-compaction on every
 * call), accepted until the next minor version with a one-time warning (the Compactor's `onWarn`
 * when it has one, else a DeprecationWarning in Node, else the console). Use 'every-turn'. */
export type SeedPolicyName = 'seed';

export interface CompactReport {
  compacted: boolean;
  reason: 'compacted' | 'compacted-with-digest' | 'below-threshold' | 'nothing-to-summarize' | 'conflict'
    | 'aborted' | 'timeout' | 'summarizer-error' | 'empty-summary' | 'bad-summary' | 'deferred-thinking'
    /** After the browser's initEstimator(): the compaction module could not be fetched (`error`
     * says why); nothing changed, and the next call that has to plan tries again. */
    | 'module-unavailable'
    /** The fold would have left at least as many tokens as the conversation held (a summary
     * longer than what it replaced): it was not applied, nothing changed (no clearing either). */
    | 'no-gain'
    /** With recall: the archive could not be written (`error` says why); nothing was cleared or folded. */
    | 'archive-failed';
  /** With recall, after a fold: the folded range's recall id, and the entries written. */
  recall?: { id: string; archived: number };
  /** Set when the thinking policy held the compaction back until the turn boundary. */
  deferred?: 'in-flight-thinking';
  /** A forced compaction whose tail budget held the whole conversation cut the tail to half of it. */
  tailShrunk?: boolean;
  /** Signed thinking parts dropped (policy 'prefix-bound'): from the kept turns after a fold, or,
   * after a clearing alone, from the assistant messages after its first edit (their prefix changed).
   * An AI SDK tool-call part stripped of the OpenRouter details it carries counts as one. */
  thinkingRemoved?: number;
  /** dropToolCalls and reasoning, with the clearing: what they removed. */
  pruned?: PrunedReport;
  /** thinking {keep}: what the rule did after the clearing. */
  thinkingKeep?: ThinkingKeepReport;
  tokensBefore: number;
  tokensAfter: number;
  summarizedMessages: number;
  micro: MicroReport;
  error?: unknown;
  summary?: string;
  language?: 'en' | 'zh';
  transcript?: { chars: number; shrunkResults: number; omittedMessages: number };
  /** The integrations (midfold/ai-sdk), while a signed tool loop waits (`deferred-thinking`): 'requested' when
   * the request asks the provider to manage the context itself (`serverEdits`: Anthropic's context-management
   * edits, in the AI SDK's spelling, on Anthropic and Bedrock's InvokeModel; the Responses compaction entry,
   * `{type: 'compaction', compactThreshold}`, on @ai-sdk/openai 4), 'host' when the host's own `contextManagement` was left in place,
   * 'unsupported' when the provider has none (the loop grows until the turn ends; `onWarn` says so once the
   * loop is past the threshold). */
  serverContext?: 'requested' | 'host' | 'unsupported';
  serverEdits?: AnthropicContextEdit[] | Array<{ type: 'compaction'; compactThreshold: number }>;
}

/** One of Anthropic's context-management edits as midfold asks for it (the AI SDK's spelling; the Messages API
 * writes `clear_at_least`, `exclude_tools`). */
export type AnthropicContextEdit =
  | { type: 'clear_tool_uses_20250919'; trigger: { type: 'input_tokens'; value: number }; keep: { type: 'tool_uses'; value: number };
      clearAtLeast?: { type: 'input_tokens'; value: number }; excludeTools?: string[]; clearToolInputs?: boolean }
  | { type: 'clear_thinking_20251015'; keep: { type: 'thinking_turns'; value: number } }
  | { type: 'compact_20260112'; trigger: { type: 'input_tokens'; value: number }; instructions?: string };

/**
 * What to put on an Anthropic Messages request after `compactor.compact(messages)` resolved to `report`:
 * `messages` from the provider's last `compaction` block on (it reads nothing before it), `betas` to add to
 * yours, and, when the report says a signed tool loop waited (`deferred-thinking`), `context_management`: the
 * provider then clears old tool results (thresholds under 50,000, compaction's minimum trigger) or compacts
 * (from 50,000 on, with the Compactor's `instructions`) on its side, after checking the thinking signatures
 * against what was sent. The reply's `usage` counts what the model read when
 * `reply.context_management.applied_edits` is not empty: observe it only when it is empty.
 * Ownership: never changes `messages` (the result's list is new when it was cut, else `messages` itself).
 */
export declare function anthropicServerContext<M extends MessageLike>(compactor: Compactor<M>, messages: M[], report: CompactReport): {
  messages: M[];
  betas: string[];
  context_management?: { edits: Array<Record<string, unknown> & { type: AnthropicContextEdit['type'] }> };
};

/** The Responses API's server-side compaction entry, `{type: 'compaction', compact_threshold}`. */
export type ResponsesContextManagement = Array<{ type: 'compaction'; compact_threshold: number }>;

/**
 * The Responses API's `context_management` at a Compactor's threshold (or at `threshold`): one compaction
 * entry. For `client.responses.create({...})` and the Agents SDK's `modelSettings.contextManagement`.
 * Throws a TypeError without a positive whole threshold. Returns a new array each call.
 */
export declare function responsesContextManagement(compactor: { threshold: number } | number): ResponsesContextManagement;

/**
 * What to put on a Responses create request after `compactor.compact(items)` resolved to `report`: `input`
 * from the last `compaction` item on (items before it may be dropped; leading system and developer messages
 * are kept), and, when a loop with encrypted reasoning waited (`deferred-thinking`), `context_management`
 * at the Compactor's threshold: the server then compacts inside the loop and returns a compaction item, which
 * the next request goes on from. Ownership: never changes `items` (`input` is new when it was cut, else
 * `items` itself).
 */
export declare function responsesServerContext<M extends MessageLike>(compactor: Compactor<M>, items: M[], report: CompactReport): {
  input: M[];
  context_management?: ResponsesContextManagement;
};

/** Folds the resolved middle of a conversation into a summary (docs/compaction.md). `M` is the
 * caller's message type (inferred from onArchive or summarize, or given:
 * `new Compactor<Anthropic.MessageParam>(...)`); the summary messages it inserts are
 * written in the conversation's own style. */
export declare class Compactor<M extends MessageLike = MessageLike> {
  constructor(options: CompactorOptions<M>);
  /** Edits `messages` in place on success; leaves it exactly as it was on any failure. A
   * message in it that cannot be written (frozen: Immer's state) is replaced by an edited copy;
   * a fold of a frozen array is 'read-only-input', before the summary is asked for. */
  /** `usage`: the provider's count for the first `count` messages (default: all), for this call
   * alone (as observeUsage, but no call on another array in between can replace it). */
  compact(messages: M[], options?: { force?: boolean; signal?: AbortSignal; instructions?: string;
    usage?: { inputTokens: number; count?: number } }): Promise<CompactReport>;
  /** The provider's real input token count for the conversation as sent. The array is
   * remembered (by identity), not copied. */
  observeUsage(usage: { inputTokens: number; messages?: readonly M[]; count?: number }): void;
  /** With the `recall` option: the archive, and the recall tool's executor over it; else null. */
  readonly recall: { archive: RecallArchive; executor: RecallExecute } | null;
}

// ---- recall (docs/recall.md) ------------------------------------------------------------

/** An entry of the archive: a cleared result's original value, or a folded range's messages. */
export type RecallEntry =
  | { id: string; kind: 'result'; tool: string; chars: number; value: unknown; at: number }
  | { id: string; kind: 'fold'; format: string; messages: unknown[]; at: number };

/** One conversation's archive (recallArchive). */
export interface RecallArchive {
  readonly conversation: string;
  readonly limits: { maxBytes: number; maxEntries: number; maxAgeMs: number };
  /** The conversation's secret (32 bytes), made and stored at the first call. */
  key(): Promise<Uint8Array>;
  /** Writes entries, then the index naming them; the oldest past a bound go. Rejects when a write fails. */
  put(entries: readonly object[]): Promise<{ written: number; evicted: string[] }>;
  /** The entry under `id`, or null (never archived here, pushed out, expired). */
  get(id: string): Promise<RecallEntry | null>;
  /** Every entry held, oldest first. */
  entries(): Promise<RecallEntry[]>;
}

export interface RecallArchiveOptions {
  /** Any async get/put (delete optional) of JSON text: memoryStateStore, KV, a Durable Object's storage. */
  store: StateStore & { delete?(key: string): Promise<void> };
  /** The conversation's name in the store: 1 to 200 of letters, digits, _ . : @ - */
  conversation: string;
  /** Bytes of entries kept (16 MiB). */
  maxBytes?: number;
  /** Entries kept (2000). */
  maxEntries?: number;
  /** An entry's lifetime in ms (30 days). */
  maxAgeMs?: number;
  now?: () => number;
  random?: (bytes: Uint8Array) => Uint8Array;
}

/** The archive of one conversation over a store the host owns, bounded; oldest first out. */
export declare function recallArchive(options: RecallArchiveOptions): RecallArchive;

/** A search over the archive for `{query}` calls: entries in, ranked hits out. */
export type RecallSearch = (entries: { id: string; text: string }[], query: string, options: { limit: number })
  => { id: string; score: number; snippet: string }[] | Promise<{ id: string; score: number; snippet: string }[]>;

export interface RecallOptions extends Partial<Omit<RecallArchiveOptions, 'now' | 'random'>> {
  /** An archive of recallArchive (instead of store and conversation). */
  archive?: RecallArchive;
  /** Tokens per page of a recalled content (2000). */
  pageTokens?: number;
  /** Ranks the archive for {query} calls; null: no search (a query is an error answer). */
  search?: RecallSearch | null;
}

/** The tool's answer to an input: error answers say what is wrong, never content. */
export type RecallExecute = (input: unknown) => Promise<{ isError: boolean; text: string }>;

/** microCompact whose markers name recall ids, archiving what it clears first; nothing is
 * cleared when the archive cannot be written (`recall.error`). */
export declare function recallMicroCompact<M extends MessageLike>(messages: M[], options: MicroOptions & { archive: RecallArchive }):
  Promise<MicroReport & { recall: { archived: number; evicted: string[] } | { archived: 0; error: string } }>;

/** The recall tool's input schema (JSON Schema). */
export interface RecallInputSchema { type: 'object'; properties: Record<'id' | 'page' | 'query', object>; additionalProperties: false }
export declare function recallInputSchema(): RecallInputSchema;
/** The recall tool for the Anthropic Messages API's `tools`. */
export declare function anthropicRecallTool(): { name: 'recall'; description: string; input_schema: RecallInputSchema };
/** The recall tool for OpenAI Chat Completions' `tools`. */
export declare function openAIChatRecallTool(): { type: 'function'; function: { name: 'recall'; description: string; parameters: RecallInputSchema } };
/** The recall tool for the OpenAI Responses API's `tools`. */
export declare function responsesRecallTool(): { type: 'function'; name: 'recall'; description: string; parameters: RecallInputSchema; strict: false };

/** The recall tool for a loop of the host's own: definitions, and answers in each API's shape. */
export interface RecallTool {
  readonly name: 'recall';
  readonly definition: ReturnType<typeof anthropicRecallTool>;
  readonly chatDefinition: ReturnType<typeof openAIChatRecallTool>;
  readonly responsesDefinition: ReturnType<typeof responsesRecallTool>;
  execute: RecallExecute;
  toolResult(block: { id: string; input: unknown }): Promise<{ type: 'tool_result'; tool_use_id: string; content: string; is_error?: true }>;
  chatToolMessage(call: { id: string; function: { arguments: string } }): Promise<{ role: 'tool'; tool_call_id: string; content: string }>;
  responsesOutput(item: { call_id: string; arguments: string }): Promise<{ type: 'function_call_output'; call_id: string; output: string }>;
}
export declare function createRecallTool(options: ({ compactor: Compactor<any> } | { archive: RecallArchive })
  & { pageTokens?: number; search?: RecallSearch | null; random?: (bytes: Uint8Array) => Uint8Array }): RecallTool;

/** A summarizer with no model and no network (the digest). */
export declare function digestSummarizer(options?: { maxTokens?: number }): Summarize;

// ---- memory tool --------------------------------------------------------------------

/**
 * Where the memory tool keeps its files. Paths reach the store already checked: they
 * start with "/memories/", hold no "..", no percent escapes, no backslashes, no control
 * characters. Directories are not stored: a directory is the set of files under its
 * path. Every method may return a value or a promise; a thrown error becomes an error
 * result of the command, never an exception of execute().
 */
export interface MemoryStore {
  /** The file's text, or null when there is no such file. */
  get(path: string): Promise<string | null> | string | null;
  /** Creates or replaces the file. */
  put(path: string, text: string): Promise<void> | void;
  /** Removes the file; a missing file is not an error. */
  delete(path: string): Promise<void> | void;
  /** Every stored path that starts with `prefix`, with its UTF-8 size when known (else
   * the tool reads the file to measure it). */
  list(prefix: string): Promise<Array<string | { path: string; size?: number }>> | Array<string | { path: string; size?: number }>;
  /** Optional: moves a file. Without it the tool uses get, put and delete. */
  rename?(from: string, to: string): Promise<void> | void;
}

/** A memory-tool command as the model sends it (the tool_use input). */
export type MemoryCommand =
  | { command: 'view'; path: string; view_range?: [number, number] }
  | { command: 'create'; path: string; file_text: string }
  | { command: 'str_replace'; path: string; old_str: string; new_str?: string }
  | { command: 'insert'; path: string; insert_line: number; insert_text: string }
  | { command: 'delete'; path: string }
  | { command: 'rename'; old_path: string; new_path: string };

export interface MemoryResult {
  /** The tool result text, in the words of Anthropic's memory tool. */
  content: string;
  /** True for every refusal or failure (bad path, missing file, store error). */
  isError: boolean;
}

export interface MemoryToolOptions {
  /** Where files live (memoryStore(), one per tool, by default). */
  store?: MemoryStore;
  /** The most UTF-8 bytes one file may hold after create, str_replace or insert (1 MiB). */
  maxFileBytes?: number;
  /** The most files create may bring the store to (1000). Counted: the keys under /memories/ that are valid paths;
   * others (another writer's keys, /memories itself) are never shown and never counted (docs/memory-tool.md, "Limits"). */
  maxFiles?: number;
  /** The most bytes of numbered lines or listing one view returns; view_range pages on (32 KiB, at least 256). */
  maxViewBytes?: number;
}

export interface MemoryTool {
  /** The Anthropic tool entry for `tools`: {type: 'memory_20250818', name: 'memory'}. */
  definition: { type: 'memory_20250818'; name: 'memory' };
  /** The same commands as an OpenAI-style function tool (Chat Completions `tools` entry). */
  functionDefinition: {
    type: 'function';
    function: { name: 'memory'; description: string; parameters: Record<string, unknown> };
  };
  store: MemoryStore;
  limits: Required<Omit<MemoryToolOptions, 'store'>>;
  /** Runs one command (the input object or its JSON text). Commands whose paths overlap
   * run one after another, in call order, whichever tool of this process runs them on the
   * same store (the same store object; for localStorageStore and kvStore, the same Storage or
   * namespace and prefix); errors are results, not exceptions (only a
   * failure to load the memory tool's wasm module, MidfoldError 'init-failed', throws). */
  execute(input: MemoryCommand | Record<string, unknown> | string): Promise<MemoryResult>;
  /** Executes an Anthropic tool_use block and gives the tool_result block answering it. */
  toolResult(block: { id: string; input: unknown }): Promise<{
    type: 'tool_result'; tool_use_id: string; content: string; is_error?: true;
  }>;
}

/** Anthropic's memory tool (memory_20250818) over a store the host owns. It is
 * midfold/memory's: its wasm module (midfold-memory.wasm) is loaded at the first command,
 * never by init(); in a browser, even its loader is a dynamic import. */
export declare function createMemoryTool(options?: MemoryToolOptions): MemoryTool;
/** Files in a Map (the default store). `initial` seeds it. */
export declare function memoryStore(initial?: Record<string, string> | Iterable<readonly [string, string]>): MemoryStore;
/** Files in a Web Storage object (localStorage by default), each key `prefix` + path
 * ('midfold:' by default). */
export declare function localStorageStore(storage?: {
  readonly length: number;
  key(index: number): string | null;
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}, options?: { prefix?: string }): MemoryStore;
/** Files in a Cloudflare-KV-shaped namespace binding (get, put with metadata, delete,
 * list with prefix and cursor); sizes ride in each key's metadata. */
export declare function kvStore(namespace: {
  get(key: string): Promise<string | null>;
  put(key: string, value: string, options?: { metadata?: unknown }): Promise<void>;
  delete(key: string): Promise<void>;
  list(options: { prefix?: string; cursor?: string }): Promise<{
    keys: { name: string; metadata?: unknown }[]; list_complete: boolean; cursor?: string;
  }>;
}, options?: { prefix?: string }): MemoryStore;

// ---------------------------------------------------------------- simulate (js/simulate/simulate.js)

/** A provider's prices and caching rules as data (js/pricing/*.js; docs/cost.md). */
export interface Pricing {
  provider: string;
  /** 'breakpoints' (Anthropic), 'prefix' (OpenAI), 'units' (DeepSeek). */
  caching: 'breakpoints' | 'prefix' | 'units';
  /** The estimator profile the provider's tokens are counted in. */
  profile: Profile;
  defaultModel: string;
  /** USD per million tokens, per model: Anthropic {input, cacheWrite5m, cacheWrite1h, cacheRead,
   * output, minCacheable}, OpenAI {input, cachedInput, output}, DeepSeek {cacheHit, cacheMiss, output};
   * a `note` may say which variant a price is (peak hours, a former alias). */
  models: Record<string, Record<string, number | string>>;
  ttlSeconds: Record<string, number>;
  defaultTtl: string;
  sources: { url: string; read: string; for: string }[];
  [rule: string]: unknown;
}

/** A context policy the simulator replays: a name (see SimulateOptions.policies) or its parts. */
export type SimulatePolicy = string | {
  name?: string;
  label?: string;
  /** microCompact options, applied before each call to the policy's own conversation. */
  micro?: { keepRecent?: number; trigger?: number; clearAtLeast?: number; excludeTools?: string[]; profile?: Profile; clearToolInputs?: boolean };
  /** Compactor options (the summarizer is the offline digest, priced as a call). With thinking {keep} under the
   * 'prefix-bound' binding, each request is priced as the provider reads it after its clear_thinking edit (the
   * cache holds up to the first thinking cleared). */
  compactor?: Omit<CompactorOptions, 'summarize'>;
  /** Anthropic's server-side clearing, applied anew to the full history on every request. */
  contextEditing?: { trigger?: number; keep?: number; clearAtLeast?: number };
  /** A provider's server-side compaction (Anthropic's compact_20260112, the Responses API's compaction): once
   * what the server reads reaches `trigger` (default 150,000) it is summarized (the offline digest, at most
   * `maxSummaryTokens`, default 2,000), and later requests read from the summary on. */
  serverCompaction?: { trigger?: number; maxSummaryTokens?: number };
  /** The recall model (docs/recall.md, "What it costs"): what is cleared or folded is archived, and a later
   * call that reads the same thing again (the same file path, command or input) recalls it instead of running
   * again, in pages of `page` tokens (2,000), each page after the first one more request. */
  recall?: { page?: number };
};

export interface SimulateOptions {
  /** 'anthropic' (default), 'openai', 'deepseek', or a Pricing object. */
  pricing?: 'anthropic' | 'openai' | 'deepseek' | Pricing;
  /** A model of the price list (default: its defaultModel). */
  model?: string;
  /** Cache lifetime: '5m' | '1h' (Anthropic), 'in_memory' | '24h' (OpenAI). */
  ttl?: string;
  /** Names: 'none', 'every-turn', 'context-editing', 'micro-every-turn', 'micro-batched', 'defaults', or
   * 'micro:trigger=60k,clearAtLeast=30k', 'compactor:threshold=50k,microTrigger=40k' (also
   * threshold=80%, a fraction of contextWindow=N or else of `window`; keepTailMessages=20; clearToolInputs=true;
   * thinkingKeep=1 with thinking=prefix-bound|unbound; dropTools=grep|glob with dropBeforeLast=4;
   * reasoning=before-last-message; 'micro:' takes clearToolInputs=true too),
   * 'context-editing:trigger=100k,keep=3', 'server-compaction:trigger=150k,maxSummaryTokens=2000', 'recall' or
   * 'recall:page=4000' (with another part: the recall model), and 'recall' alone, a named policy: fold at 20k,
   * clear at 12k, with recall (parts joined by '+'). Default: none, every-turn,
   * context-editing, micro-batched, defaults. The name 'seed' is deprecated (SeedPolicyName):
   * it still runs 'every-turn', with a one-time DeprecationWarning. */
  policies?: SimulatePolicy[];
  /** The context window, for "turns over the window" (200,000). */
  window?: number;
  /** Seconds between turns; default: the messages' timestamp / created_at fields, else 0
   * (every turn inside the cache lifetime). */
  turnSeconds?: number;
  /** Anthropic only: 'breakpoints' (default; the breakpoint on the last message, 20-block
   * lookback) or 'prefix' (every earlier prefix cached: an upper bound). */
  cacheMatch?: 'breakpoints' | 'prefix';
  /** The profile tokens are counted in (default: the provider's). */
  profile?: Profile;
  /** Called after each turn of each policy is replayed (a progress display; it may not change
   * the session). A replay costs about what the session's length does: on an 8 MB session each
   * built-in policy takes a few seconds. */
  onProgress?: (progress: SimulateProgress) => void;
}

/** Where a replay is: policy `policyIndex` (0-based) of `policies`, `turn` of `turns` done. */
export interface SimulateProgress {
  policy: string;
  /** The policy's label, as the report's result names it. */
  label: string;
  policyIndex: number;
  policies: number;
  turn: number;
  turns: number;
}

export interface SimulateTurn {
  /** Tokens sent. */
  context: number;
  /** Tokens read from the cache; written to it (Anthropic) at the write price. */
  read: number;
  written: number;
  /** This call's input cost plus any summary written before it, in USD. */
  usd: number;
  cumulativeUsd: number;
}

export interface SimulateResult {
  name: string;
  label: string;
  /** Every request's input at the cache's prices, in USD. */
  inputUsd: number;
  /** The summarizer's calls (input + output at base prices), in USD. */
  summaryUsd: number;
  totalUsd: number;
  /** totalUsd in base-price input tokens. */
  billedTokens: number;
  inputTokens: number;
  /** Share of input tokens served from the cache. */
  cachedShare: number;
  peakContext: number;
  meanContext: number;
  summaries: number;
  summaryInputTokens: number;
  summaryOutputTokens: number;
  turnsOverWindow: number;
  /** The first such turn (0-based), or -1. */
  firstTurnOverWindow: number;
  /** For a policy with a Compactor: its settings as resolved (the defaults follow `pricing`:
   * under 'deepseek' prices the threshold is 150,000). */
  compactor?: { threshold: number; contextWindow?: number; microTrigger: number; clearAtLeast: number; keepRecent: number; keepTailMessages?: number };
  /** For a policy with the recall model (Anthropic Messages and OpenAI Chat sessions). */
  recall?: SimulateRecall;
  perTurn: SimulateTurn[];
}

/** What the recall model counted over a replay. peakContext counts the extra requests too; meanContext is per turn. */
export interface SimulateRecall {
  /** Calls that read again what was archived, made recalls of it. */
  recalls: number;
  /** Calls that read again what was still in the context verbatim (run again, as in the session). */
  reRuns: number;
  /** Pages returned (a recall's first page and each further one). */
  roundTrips: number;
  /** Requests for a page after the first (each one more request, priced as any other). */
  extraRequests: number;
  /** The recall calls' tokens, billed as output (outputUsd, included in totalUsd). */
  recallOutputTokens: number;
  outputUsd: number;
  /** Tokens of the pages returned. */
  recalledTokens: number;
  archivedResults: number;
  /** UTF-8 bytes of the results that left the context (cleared or folded), and of what the archive holds. */
  clearedBytes: number;
  archivedBytes: number;
  /** Bytes of results out of the context that the archive does not hold as they were: 0 unless the model is broken. */
  unrecoverableBytes: number;
}

export interface SimulateReport {
  provider: string;
  model: string;
  ttl: string;
  profile: Profile;
  cacheMatch?: 'breakpoints' | 'prefix';
  window: number;
  /** Model calls replayed: one per run of assistant messages. */
  turns: number;
  prices: Record<string, number | string>;
  sources: { url: string; read: string; for: string }[];
  results: SimulateResult[];
}

/** The Compactor `pricing` a URL's host implies: 'deepseek' for api.deepseek.com (its Chat Completions and its
 * Anthropic API at /anthropic alike), 'anthropic' for api.anthropic.com, 'openai' for api.openai.com; undefined for
 * any other host (a gateway, a local server) and for what is not a URL. For a proxy: `new Compactor({summarize,
 * pricing: pricingOfURL(upstream)})`. */
export declare function pricingOfURL(url: string | URL): 'anthropic' | 'openai' | 'deepseek' | undefined;

/** The context window in tokens of a model id the table knows (Claude, GPT-5.x, GPT-4.1, DeepSeek, Gemini 2.x;
 * docs/compaction.md lists it with its sources), read through provider prefixes ('openai/gpt-5.4'), Bedrock and
 * Vertex ids and date suffixes; undefined for any other id. What `threshold: {fraction}` is a fraction of in the
 * integrations. For a host's own loop: `new Compactor({summarize, threshold: {fraction: 0.8},
 * contextWindow: contextWindowOf(model)})`. */
export declare function contextWindowOf(id: string): number | undefined;

/** Replays a session (the final messages array, a request body {messages, system?, tools?},
 * or a Responses body {input, instructions?, tools?}) turn by turn under each policy and
 * prices every request with the provider's prompt caching. Never changes the session.
 * Rejects with MidfoldError ('invalid-option', 'invalid-input'). */
export declare function simulate<M = Message>(
  session:
    | readonly M[]
    | { messages: readonly M[]; system?: unknown; tools?: unknown }
    | { input: readonly M[]; instructions?: unknown; tools?: unknown },
  options?: SimulateOptions,
): Promise<SimulateReport>;

/** A simulate() report as a standalone SVG document: context per turn (and the window) and
 * cumulative cost per turn, a line per policy, each in its own colour (Okabe and Ito's
 * palette), dash pattern and marker; a policy's cost stops at its first turn over the window,
 * marked with a cross. Its text is 11 px at `width` (760): draw it at the width it is shown
 * at. `title: ''` draws no title; `legend: false` leaves the legend to the page. No <style>
 * element (CSP-safe inline). */
export declare function simulationChart(report: SimulateReport, options?: { width?: number; title?: string; legend?: boolean }): string;

// ---------------------------------------------------------------- agent logs (js/logs/, docs/agent-logs.md)

/** What readAgentLog found in an agent's log. */
export interface AgentLog {
  /** 'claude-code': a Claude Code session (.jsonl), read as Anthropic Messages; 'codex': a Codex CLI
   * rollout (.jsonl), read as OpenAI Responses items. */
  format: 'claude-code' | 'codex';
  /** The conversation the provider received, in order: what every midfold function takes. */
  messages: Message[];
  /** When each message was written (ISO 8601, as the log has it), or undefined. */
  times: (string | undefined)[];
  /** Lines left out, by kind: 'sidechain' (a subagent's), 'summary', 'system', 'file-history-snapshot',
   * 'synthetic' (Claude Code's own API-error messages), 'event_msg', 'turn_context', 'session_meta',
   * 'incomplete-line' (a last line the agent was still writing), … */
  skipped: Record<string, number>;
  /** Where the agent's own compaction summaries stand: messages[index] holds one; `line` is the log's line (1-based). */
  compactions: { index: number; line: number }[];
  /** Codex: a call an interrupted turn left without output, now answered "aborted" right after it
   * ('missing-output', as Codex itself answers it), or an output without a call, dropped ('orphan-output'). */
  repaired: { kind: 'missing-output' | 'orphan-output'; callId: string; name?: string }[];
}

/** The conversation in a Claude Code session log or a Codex CLI rollout (the file's text), told apart by
 * what its lines hold. Browser-safe (no file system). Throws MidfoldError 'unknown-format' for text that is
 * neither, 'parse-error' (position: where the line starts) for a line that is not JSON before the last.
 * Ownership: reads `text`; the result is new. */
export declare function readAgentLog(text: string): AgentLog;

/** 'claude-code' or 'codex' when `text` is such a log (a look at its first lines), else undefined: a JSON
 * conversation is not one. */
export declare function agentLogFormat(text: string): 'claude-code' | 'codex' | undefined;

// ---- compaction state across stateless calls (js/state/, docs/state.md) ---------------

/**
 * Where a SessionState keeps its data between calls: any async get/put of JSON text
 * (Workers KV and Durable Object storage fit as they are; Redis and IndexedDB take a
 * small adapter). `get` resolves to null/undefined for a missing key.
 */
export interface StateStore {
  get(key: string): Promise<string | object | null | undefined>;
  put(key: string, value: string): Promise<void>;
}

/** One piece of a remembered compacted form: an original message range, an original as
 * micro-compaction left it (`at`), or a message midfold wrote (a summary, its
 * acknowledgement); `ref` indexes the state's shared `messages`. */
export type SessionItem = [from: number, to: number] | { at?: number; ref: number };

/** The JSON of a SessionState (`toJSON()`, accepted by `SessionState.from`). */
export interface SessionStateJSON {
  version: 1;
  /** Every message the snapshots hold, once. */
  messages: Record<string, unknown>[];
  /** Newest first. */
  snapshots: {
    /** The Compactor settings it was planned with; a call prefers a snapshot of its own settings. */
    settings: string;
    /** How many original messages it covers. */
    count: number;
    /** SHA-256 (hex) of those messages' canonical JSON. */
    prefix: string;
    /** Their compacted form. */
    items: SessionItem[];
    /** The compacted form's estimate after the call that made it. */
    tokens?: number;
    /** The byte length of those messages' canonical JSON: a prefix of another length is not
     * hashed to be told apart. Absent in states written before it. */
    bytes?: number;
    /** Its branch: the call that continued a branch's newest snapshot extends it; another
     * call (a fresh plan, a regenerated turn, another conversation under the key) starts one.
     * Retention is per branch. Absent in states written before branches: 0. */
    branch?: number;
    /** The provider's count for the first `count` messages of the compacted form, when the call
     * that recorded it was anchored on that count and changed nothing: a later call that
     * continues the snapshot without a count of its own is anchored on it, when it passes
     * the same `context` to compactHistory (or, like the recording call, none). */
    anchor?: { inputTokens: number; count: number; context?: string };
  }[];
}

export interface SessionStateOptions {
  /** Read before every call and written after every call that changed the state; without
   * one, the object itself is the state (persist it with toJSON / SessionState.from). */
  store?: StateStore;
  /** The store key: one per conversation and scope (see conversationKey). Required with a store. */
  key?: string;
  /** Prefixes remembered per branch, newest first (4): earlier ones serve a regenerated last turn. */
  maxSnapshots?: number;
  /** Branches remembered (32): conversations that open alike and share the key, and the paths of
   * regenerated turns; the least recently extended branch is forgotten first. */
  maxBranches?: number;
  /** The most UTF-8 bytes of JSON the state ever writes (0: no cap; a key-value Durable Object
   * takes 128 KiB a value): snapshots are dropped while it is larger, each branch's earlier
   * ones first, oldest first, then whole branches, least recently extended first; a snapshot
   * that alone is larger is not stored (the report's session.unsaved is 'too-large'). */
  maxBytes?: number;
  /** An unreadable stored value or a failing store is a warning and a fresh plan, never an error. */
  onWarn?: (message: string, error?: unknown) => void;
}

/** The compaction state a stateless host carries between calls. Calls on one object may run
 * at once, except that a call whose history repeats the whole history of a call in flight waits for
 * it and continues its fold; across objects sharing a store key, a save keeps what the others wrote
 * since its load (only writes that meet between its read and its write can lose one), and
 * every remembered prefix is checked by hash against the caller's messages before it is used. */
export declare class SessionState {
  constructor(options?: SessionStateOptions);
  /** Restores `toJSON()` output (object or JSON text; an object's messages are copied, so editing it later changes
   * nothing here); throws MidfoldError('invalid-state'). */
  static from(json: SessionStateJSON | string, options?: SessionStateOptions): SessionState;
  toJSON(): SessionStateJSON;
  /** Reads the store (no-op without one). */
  load(): Promise<void>;
  /** Writes the store, keeping what other calls wrote under the key since the load;
   * resolves to whether it was written. */
  save(): Promise<boolean>;
}

export interface HistoryReport extends CompactReport {
  session: {
    /** Original messages whose remembered compacted form was reused (0: a fresh plan). */
    matched: number;
    /** Whether the returned messages differ from the input at all. */
    changed: boolean;
    /** Whether the state was updated (never after a failed summary). */
    saved: boolean;
    /** Why a result worth remembering was not saved: 'too-large' (its compacted form alone is
     * over the state's maxBytes) or 'store-error' (the store failed to write). */
    unsaved?: 'too-large' | 'store-error';
  };
}

/** A provider's input count for a prompt, for compactHistory's `usage`. */
export interface UsageAnchor {
  inputTokens: number;
  count?: number;
  last?: string;
}

/**
 * Compacts a whole original history into a new array (the caller's array and messages
 * are never changed), carrying what earlier calls did in `options.state`: the result is
 * what a stateful Compactor holding its own array would send.
 */
export declare function compactHistory<M extends object = Message>(
  compactor: Compactor,
  messages: readonly M[],
  options?: { state?: SessionState; force?: boolean;
    /** Aborts the summary; a call that waits for one in flight on the same state (it repeats
     * that call's whole history) stops waiting once aborted and goes on without a summary. */
    signal?: AbortSignal; instructions?: string;
    /** The provider's input count for what the previous call on this state returned, as sent:
     * `count` messages of it when that call changed nothing; `last`, the canonical JSON
     * (canonicalJSON) of the last message counted, makes it apply only where that message
     * ends the prefix. A list: the first anchor that applies (the most recent first). */
    usage?: UsageAnchor | readonly UsageAnchor[];
    /** What a provider's count covers besides the messages (the integrations pass a hash of
     * the system prompt, tools and tool choice). A count this call records with the state is
     * recorded under it, and a later call uses a recorded count only under the same context.
     * The `usage` given are the caller's to choose by context. */
    context?: string;
    /** Write nothing yet: when there is something to remember, the result holds `save()`, to
     * call once the provider accepted the request (a proxy: on the upstream's 2xx status), so
     * a refused request leaves no state. Until it resolves, a call on the same state that
     * continues this one plans from what was saved. */
    deferSave?: boolean },
): Promise<{ messages: M[]; report: HistoryReport;
  /** With deferSave, when there is something to remember: records it (once, however often it
   * is called) and resolves to `report.session`, updated (`saved`, `unsaved`). */
  save?: () => Promise<HistoryReport['session']> }>;

/** A store in a Map, for one process. `initial` seeds it (key → JSON text). */
export declare function memoryStateStore(initial?: Record<string, string> | Iterable<[string, string]>):
  StateStore & { map: Map<string, string>; delete(key: string): Promise<void> };

/** A store key from a conversation's content: SHA-256 (hex) of its messages up to and
 * including the first user message, which every later turn repeats. Rejects with
 * MidfoldError('too-deep') for those nested deeper than the estimator reads (512 levels). */
export declare function conversationKey(messages: readonly object[]): Promise<string>;

/** The canonical JSON a message is hashed by: JSON.stringify's value with sorted keys, and
 * binary data (typed arrays, Buffers, DataViews, ArrayBuffers) as {"$bytes": base64}.
 * Throws MidfoldError: 'too-deep' (naming the path) past 512 levels of nesting, as the
 * estimator does; 'invalid-input' for a cycle or a BigInt. */
export declare function canonicalJSON(value: unknown): string;
