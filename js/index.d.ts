// midfold — hand-written types for the public API (js/node.js, js/browser.js).
// Ownership: every function reads the values it is given and keeps no reference to
// them after it returns, except where noted (microCompact and Compactor.compact edit the
// caller's array in place; Compactor.observeUsage remembers the array it is given).

import type { Summarize as BaseSummarize, SummarizeRequest } from './summarizers.js';
export * from './summarizers.js';

/** A message in any of the three formats (Anthropic, OpenAI Chat, AI SDK). */
export type Message = { role: string; content?: unknown; [key: string]: unknown };

export type Format = 'anthropic' | 'openai' | 'ai-sdk';
export type Profile = 'bareagent';

/** The one error type of the synchronous API. */
export declare class MidfoldError extends Error {
  name: 'MidfoldError';
  /** e.g. 'not-initialized', 'invalid-input', 'invalid-option', 'cycle', 'too-deep',
   * 'unsupported-value', 'invalid-shape', 'unknown-format', 'read-only-input', 'out-of-memory' */
  code: string;
  /** A byte offset for parse errors; a message index for 'invalid-shape'. */
  position?: number;
  /** Where in a JS value the trouble is, like `input[3].content[0].input`. */
  path?: string;
}

/** Loads the wasm module; await once before anything else (later calls return at once).
 * Defaults to the bundled .wasm; a Module, bytes, a Response or a URL may be given. */
export declare function init(source?: WebAssembly.Module | BufferSource | Response | URL | string): Promise<void>;

/** Estimated tokens of a string, a message, a list of messages, a request body
 * ({messages, system, tools}) or any JSON value; a whole number, rounded up once. */
export declare function estimateTokens(input: unknown, options?: { profile?: Profile; format?: Format | 'auto' }): number;

/** The transcript a summarizer reads: "[role]" sections, "[tool_use:NAME] {json}",
 * "[tool_result:NAME] text", a blank line between messages. */
export declare function serialize(messages: Message[], options?: { format?: Format | 'auto' }): string;

export interface MicroOptions {
  /** Tool-result turns kept whole, counted from the end (3). */
  keepRecent?: number;
  /** Tools whose results are never cleared. */
  excludeTools?: string[];
  /** Clear nothing unless at least this many tokens are freed (0). */
  clearAtLeast?: number;
  /** Clear nothing while the estimate is at or below this (0 = always). */
  trigger?: number;
  profile?: Profile;
  format?: Format | 'auto';
}

export interface MicroEdit { message: number; part: number; tool: string; chars: number }

export interface MicroReport {
  cleared: number;
  charsCleared: number;
  tokensBefore: number;
  tokensAfter: number;
  /** True when trigger or clearAtLeast stopped it. */
  skipped: boolean;
  edits: MicroEdit[];
}

/** Replaces old tool results in place by "[truncated: NAME result, N chars]". */
export declare function microCompact(messages: Message[], options?: MicroOptions): MicroReport;

export interface Problem {
  code: 'not-a-message' | 'unknown-role' | 'bad-content' | 'unknown-block' | 'call-without-result'
    | 'result-without-call' | 'result-not-first' | 'missing-id' | 'duplicate-id';
  /** The message's index. */
  index: number;
  /** The block's index in content (tool_calls for OpenAI calls), when it is about one. */
  part?: number;
  message: string;
}

/** Every provider rule the conversation breaks. */
export declare function validate(messages: Message[], options?: { format?: Format | 'auto' }):
  { ok: boolean; format: Format | 'unknown'; problems: Problem[] };

/** The format of a list of messages; plain text conversations are 'openai'. */
export declare function detectFormat(messages: Message[]): Format | 'unknown';

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
}

/** Where a compaction would cut and what it would ask, without changing anything. */
export declare function planCompaction(messages: Message[], options?: {
  keepTailTokens?: number; maxTranscriptTokens?: number; maxSummaryTokens?: number; language?: string;
  instructions?: string; profile?: Profile; format?: Format | 'auto';
}): CompactionPlan;

/** What microCompact would do, without doing it (estimates in milli-tokens). */
export declare function planMicroCompact(messages: Message[], options?: MicroOptions): {
  skipped: boolean; milliBefore: number; milliAfter: number; charsCleared: number;
  edits: (MicroEdit & { target: number; replacement: string })[];
};

/** A deterministic model-free summary: requests, tool activity, files, conclusions. */
export declare function digest(messages: Message[], options?: {
  maxTokens?: number; language?: string; profile?: Profile; format?: Format | 'auto';
}): string;

/** What the Compactor passes to a summarizer: the base request plus extras. */
export interface CompactorRequest extends SummarizeRequest {
  /** The original messages being folded. */
  messages: Message[];
  format: Format | 'auto';
  language: 'en' | 'zh';
}

export type Summarize = (request: CompactorRequest) => Promise<string | { text: string }>;
export type { BaseSummarize };

export interface CompactorOptions {
  summarize: Summarize | BaseSummarize;
  /** Compact above this many estimated tokens (50,000). */
  threshold?: number;
  /** Tool-result turns micro-compaction keeps whole (3). */
  keepRecent?: number;
  /** Recent tokens kept verbatim beyond the pending turn (threshold / 5). */
  keepTail?: { tokens?: number };
  /** The summary length asked for (2,000). */
  maxSummaryTokens?: number;
  /** Cap on the transcript sent to the summarizer (60,000). */
  maxTranscriptTokens?: number;
  /** 'auto' (default), 'en', 'zh' or another language code. */
  language?: string;
  instructions?: string;
  profile?: Profile;
  format?: Format | 'auto';
  /** Give up on the summarizer after this many milliseconds (no limit). */
  timeoutMs?: number;
  /** Use the digest when the summarizer fails (default: leave the conversation unchanged). */
  fallback?: 'digest';
  onWarn?: (message: string, error?: unknown) => void;
  /** Receives the original messages that were folded, after a successful rebuild. */
  onArchive?: (removed: Message[], summary: string) => void;
}

export interface CompactReport {
  compacted: boolean;
  reason: 'compacted' | 'compacted-with-digest' | 'below-threshold' | 'nothing-to-summarize' | 'conflict'
    | 'aborted' | 'timeout' | 'summarizer-error' | 'empty-summary' | 'bad-summary';
  tokensBefore: number;
  tokensAfter: number;
  summarizedMessages: number;
  micro: MicroReport;
  error?: unknown;
  summary?: string;
  language?: 'en' | 'zh';
  transcript?: { chars: number; shrunkResults: number; omittedMessages: number };
}

/** Folds the resolved middle of a conversation into a summary; see README. */
export declare class Compactor {
  constructor(options: CompactorOptions);
  /** Edits `messages` in place on success; leaves it exactly as it was on any failure. */
  compact(messages: Message[], options?: { force?: boolean; signal?: AbortSignal; instructions?: string }): Promise<CompactReport>;
  /** The provider's real input token count for the conversation as sent. */
  observeUsage(usage: { inputTokens: number; messages?: Message[]; count?: number }): void;
}

/** A summarizer with no model and no network (the digest). */
export declare function digestSummarizer(options?: { maxTokens?: number }): Summarize;
