// Types for js/compaction/summarizers.js, re-exported by index.d.ts.

/** What the Compactor passes to the host's summarizer. */
export interface SummarizeRequest {
  /** The system prompt for the summary model (may be empty). */
  system: string;
  /** The serialized transcript plus instructions. */
  prompt: string;
  /** Upper bound on the summary length, in tokens (a positive integer). */
  maxTokens: number;
  /** Aborts the request (the Compactor's own signal, or a timeout). */
  signal?: AbortSignal;
}

/** The host-provided summarizer callback. */
export type Summarize = (request: SummarizeRequest) => Promise<string | { text: string }>;

/** A `Summarize` made by one of the adapters below: always resolves to the (trimmed, non-empty) summary text. */
export type FetchSummarize = (request: SummarizeRequest) => Promise<string>;

/** Minimal shape of a fetch implementation the adapters accept. */
export type FetchLike = (input: string, init: {
  method: 'POST';
  headers: Record<string, string>;
  body: string;
  signal?: AbortSignal;
}) => Promise<Response>;

/** Extra request headers: a plain object, a `Headers`, or `[name, value]` pairs. Kept by reference, read on every call. */
export type HeadersOption = Readonly<Record<string, string>> | Headers | ReadonlyArray<readonly [string, string]>;

export type SummarizerErrorCode = 'http' | 'bad-json' | 'empty' | 'network' | 'aborted';

/**
 * Thrown (as a rejection) by the adapters for every failure of a call:
 * - `'http'`: non-2xx status (429, 5xx, ...); `status` is the HTTP status;
 * - `'bad-json'`: the 2xx body is not JSON; `cause` is the SyntaxError;
 * - `'empty'`: the response holds no text (or only whitespace);
 * - `'network'`: fetch rejected; `status` is 0 and `cause` is the original error;
 * - `'aborted'`: the request's signal fired (or fetch rejected with an AbortError/TimeoutError); `status` is 0,
 *   `name` is `'AbortError'` (not `'SummarizerError'`), and `cause` is the abort reason (for
 *   `AbortSignal.timeout()`, a DOMException named `'TimeoutError'`). The original abort error is not rethrown.
 *
 * The message carries the adapter's label, the status and an excerpt (at most 200 characters) of the response
 * body, e.g. `OpenAI-compatible summarizer: HTTP 429: {"error":...}`. It never contains the API key.
 */
export declare class SummarizerError extends Error {
  constructor(message: string, details: { status?: number; code: SummarizerErrorCode; cause?: unknown });
  /** `'AbortError'` when `code === 'aborted'`, otherwise `'SummarizerError'`. */
  name: string;
  /** The HTTP status, or 0 when there was no response. */
  status: number;
  code: SummarizerErrorCode;
  cause?: unknown;
}

export interface OpenAISummarizerOptions {
  /** Model name, e.g. `'gpt-4o-mini'` or `'deepseek-chat'`. Required. */
  model: string;
  /** Sent as `authorization: Bearer <apiKey>`; omit for local servers. Surrounding whitespace is trimmed. */
  apiKey?: string;
  /** Default `'https://api.openai.com/v1'`; trailing slashes are removed; requests go to `${baseURL}/chat/completions`. */
  baseURL?: string | URL;
  /** A fetch implementation (kept by reference). Default: `globalThis.fetch`, looked up at each call. */
  fetch?: FetchLike | typeof fetch;
  /** Extra headers, applied after (and able to override) the defaults. */
  headers?: HeadersOption;
  /** Sent only when given. */
  temperature?: number;
  /** The body field carrying `maxTokens`; default `'max_tokens'` (OpenAI reasoning models need `'max_completion_tokens'`). */
  maxTokensParam?: 'max_tokens' | 'max_completion_tokens';
}

export interface AnthropicSummarizerOptions {
  /** Model name, e.g. `'claude-3-5-haiku-latest'`. Required. */
  model: string;
  /** Sent as `x-api-key`; may be omitted when a proxy adds it. Surrounding whitespace is trimmed. */
  apiKey?: string;
  /** Default `'https://api.anthropic.com'`; trailing slashes are removed; requests go to `${baseURL}/v1/messages`. */
  baseURL?: string | URL;
  /** A fetch implementation (kept by reference). Default: `globalThis.fetch`, looked up at each call. */
  fetch?: FetchLike | typeof fetch;
  /** Extra headers, applied after (and able to override) the defaults. */
  headers?: HeadersOption;
  /** The `anthropic-version` header; default `'2023-06-01'`. */
  version?: string;
  /** When true, adds `anthropic-dangerous-direct-browser-access: true` (required by Anthropic for calls from a browser). */
  browser?: boolean;
}

/**
 * Creates a summarizer that POSTs to an OpenAI-compatible Chat Completions endpoint (OpenAI, DeepSeek, local
 * servers) and resolves to the trimmed text of `choices[0].message.content` (string, or array of text parts joined).
 * Validates options eagerly: throws `TypeError` when `model` is missing or no fetch implementation is available.
 * Calls reject with `SummarizerError` on failure, or `TypeError` for a malformed request.
 */
export declare function openAISummarizer(options: OpenAISummarizerOptions): FetchSummarize;

/**
 * Creates a summarizer that POSTs to the Anthropic Messages API and resolves to the trimmed concatenation of the
 * response's `text` content blocks. Validates options eagerly: throws `TypeError` when `model` is missing or no
 * fetch implementation is available. Calls reject with `SummarizerError` on failure, or `TypeError` for a
 * malformed request.
 */
export declare function anthropicSummarizer(options: AnthropicSummarizerOptions): FetchSummarize;

/** What the providers' own compaction resolves to: the provider's messages replace the folded middle, unmodified. */
export interface ProviderCompactionResult {
  /** The summary text when the provider returns one in the clear (Anthropic), '' when it is encrypted (OpenAI). */
  text: string;
  /** The messages that stand for the folded middle, exactly as the provider returned them. */
  messages: object[];
  /** True when the provider reads them only as the first messages of the conversation (Anthropic). */
  first: boolean;
}

/** What the providers' compaction adapters need of the Compactor's request. */
export interface ProviderCompactionRequest {
  /** The messages to fold, as the Compactor passes them (read, never changed). */
  messages: readonly object[];
  maxTokens?: number;
  signal?: AbortSignal;
  format?: string;
}

export interface AnthropicCompactionOptions extends AnthropicSummarizerOptions {
  /** Replaces the server's summarization prompt (`compaction.instructions`). */
  instructions?: string;
  /** The conversation's system prompt, sent as `system`. */
  system?: string | object[];
  /** The conversation's tools, sent as `tools`. */
  tools?: object[];
  /**
   * True when `system` and `tools` are exactly what every request of the conversation sends, and `model` is its
   * model: the folded messages then go as they are, thinking included, so the thinking of the turns kept after
   * the block stays valid ("Compaction and preserved thinking"). The Compactor then keeps the kept turns'
   * thinking and folds while a signed tool loop is in flight, without waiting for the turn boundary. Default
   * false: the thinking is left out of the compaction request and removed from the kept turns after the fold.
   */
  preservedThinking?: boolean;
}

export interface OpenAIResponsesCompactionOptions {
  model: string;
  apiKey?: string;
  /** Default `'https://api.openai.com/v1'`; requests go to `${baseURL}/responses/compact`. */
  baseURL?: string | URL;
  fetch?: FetchLike | typeof fetch;
  headers?: HeadersOption;
  /** Sent as `instructions`. */
  instructions?: string;
}

/**
 * A Compactor `summarize` that lets Anthropic write the summary (on-demand compaction, beta `compact-2026-09-04`):
 * resolves to the assistant message holding the signed `compaction` block, which the Compactor puts first.
 * Rejects with `SummarizerError` on a `compaction_*` error, a 529, an empty response or a stop reason other than
 * `compaction`; the Compactor then leaves the conversation as it was.
 */
export declare function anthropicCompaction(options: AnthropicCompactionOptions):
  ((request: ProviderCompactionRequest) => Promise<ProviderCompactionResult>) & {
    /** `options.preservedThinking`, for the Compactor: its folds keep the kept turns' thinking valid. */
    readonly preservesThinking: boolean;
  };

/**
 * A Compactor `summarize` over the Responses API's `/responses/compact`: resolves to the returned output (the folded
 * part's user messages and one encrypted `compaction` item), put back between the kept system messages and the tail.
 */
export declare function openAIResponsesCompaction(options: OpenAIResponsesCompactionOptions):
  (request: ProviderCompactionRequest) => Promise<ProviderCompactionResult>;
