// Types for midfold/ai-sdk (js/integrations/ai-sdk.js). `ai` is an optional peer: these types name no AI SDK
// type, they describe the shapes the SDK passes (so ai 6 and ai 7 both fit without casts).
import type { AnthropicContextEdit, Compactor, CompactorOptions, CompactReport, SessionState, RecallArchive, RecallExecute } from '../index.js';

export { SessionState } from '../index.js';

/**
 * The states the integrations keep when the host passes no `state`: one bounded map for the module, shared by
 * every `compactStep`, `midfoldMiddleware` and `compactionFilter`, so an integration built inside each call
 * continues the conversation as one built once. A state is found by the integration's options (hooks, `state` and
 * `signal` left out; a function by its source text and own fields) and the conversation's opening
 * (`conversationKey`): the same options share plans, other options never do. Bounded per options by
 * `maxConversations` (256) and in all by 4,096 conversations and 64 MiB of state JSON (plus 512 bytes an entry),
 * the least recently used forgotten first (never the one in use).
 */
export interface ConversationStates {
  /** Conversations remembered now (a branch each; one for a state that holds none yet). */
  readonly conversations: number;
  /** What the states hold, in bytes of their JSON plus a fixed cost per entry. */
  readonly bytes: number;
  /** Changes the bounds over all options (defaults 4,096 and 64 MiB; `maxBytes` 0: none); forgets what no longer fits. */
  setLimits(limits: { maxConversations?: number; maxBytes?: number }): void;
  /** Forgets every state (between test runs, or when a server reloads its settings). */
  clear(): void;
}
/** The module's map of default states (see ConversationStates). */
export declare const conversationStates: ConversationStates;

/** The Compactor's options (its `format` is set for you), plus the carried state and a report hook. Unless
 * `pricing` or `threshold` is set, the model's provider sets `pricing` (an 'anthropic.*', 'openai.*' or
 * 'deepseek.*' provider id, or a gateway id 'deepseek/…'), and with it the default threshold. With
 * `threshold: {fraction}` and no `contextWindow`, the fraction is of the window of the model each call goes to,
 * read from its `modelId` (contextWindowOf). */
export interface AISDKCompactionOptions extends Omit<CompactorOptions, 'format'> {
  /** The state carried across steps/calls (default: one in memory per conversation, in the module's
   * `conversationStates`, found by these options and the conversation's content, so a hook built inside each call
   * continues as one built once). Pass one to give it a store or to keep it apart. */
  state?: SessionState;
  /** Without `state`: how many conversations the module keeps for these options (256), however many open alike;
   * the least recently used state is forgotten first. */
  maxConversations?: number;
  /** Called with each call's report (the Compactor's, plus `session`). */
  onReport?: (report: CompactReport & { session?: { matched: number; changed: boolean; saved: boolean } }) => void;
  /** Aborts a summary being written (the report says 'aborted', nothing changes). ai 6 and ai 7 hand `prepareStep` no
   * abort signal: build `compactStep` inside the call with the call's own, `compactStep({ …, signal: abortSignal })`.
   * A middleware also stops on each call's `params.abortSignal`. */
  signal?: AbortSignal;
}

/**
 * A `prepareStep` for generateText / streamText / ToolLoopAgent: compacts the step's messages with the carried
 * state; resolves to `{ messages }` when they changed, `{}` otherwise. The previous step's usage anchors the
 * estimate; a call's first step, which has none, is anchored on an earlier step's count or on the one the
 * state carries. Under ai 7, which carries a returned list into later steps, the state is still keyed by the
 * original history, and once a list was returned every later step of the call returns one.
 * While a tool loop with signed thinking waits past the threshold (or goes on from a compaction block the
 * provider wrote, at a threshold of 50,000 or more), the result also has `providerOptions` with
 * `anthropic.contextManagement` for an @ai-sdk/anthropic model (both majors merge them into the call's):
 * the provider clears or compacts on its side (docs/thinking.md). Messages go from the provider's last
 * compaction block on.
 */
export declare function compactStep(options: AISDKCompactionOptions):
  (<M>(step: { messages: M[]; model?: unknown; abortSignal?: AbortSignal; steps?: ReadonlyArray<{ usage?: { inputTokens?: number } }> }) =>
    Promise<{ messages?: M[]; providerOptions?: { anthropic: { contextManagement: { edits: AnthropicContextEdit[] } } } }>) & WithRecall;

/** With the `recall` option: the archive (`recall: true`: one in memory for the process) and the tool's executor; else null. */
export interface WithRecall { readonly recall: { archive: RecallArchive; executor: RecallExecute } | null }

/** The recall tool as an AI SDK `tool()` (imported from the application's `ai`), over the archive of a compactStep,
 * a midfoldMiddleware or a Compactor made with `recall`: `tools: { ...tools, recall: await recallTool(prepareStep) }`.
 * An error answer is thrown, which the SDK sends to the model as the tool's error. */
export declare function recallTool(source: WithRecall): Promise<{ description: string; inputSchema: unknown; execute: (input: unknown) => Promise<string> }>;

/** A language-model middleware (V3 for ai 6; `specificationVersion: 'v4'` for ai 7's types). Like compactStep, it
 * sets `providerOptions.anthropic.contextManagement` on a call whose signed tool loop waits past the threshold
 * (unless the call has its own), and sends a prompt from the provider's last compaction block on. */
export declare function midfoldMiddleware<V extends 'v3' | 'v4' = 'v3'>(options: AISDKCompactionOptions & { specificationVersion?: V }): {
  readonly specificationVersion: V;
  transformParams: <P extends { prompt: unknown[] }>(options: { type: 'generate' | 'stream'; params: P; model: unknown }) => Promise<P>;
  /** Reads the provider's input count from each answer (the anchor of a later call that continues that prompt). */
  wrapGenerate: <R>(options: { doGenerate: () => PromiseLike<R>; doStream: () => PromiseLike<unknown>; params: unknown; model: unknown }) => Promise<R>;
  wrapStream: <R extends { stream: ReadableStream<unknown> }>(options: { doGenerate: () => PromiseLike<unknown>; doStream: () => PromiseLike<R>; params: unknown; model: unknown }) => Promise<R>;
} & WithRecall;

/**
 * A UI message stream data part telling the chat client of a fold (write it with the stream's writer before the
 * answer): the AI SDK's chat client keeps it in the new assistant message's parts, and `convertToModelMessages`
 * leaves it out of what the model reads.
 */
export interface SummaryDataPart {
  type: 'data-midfold-summary';
  /** The summary UIMessage's id (the client reconciles a part by it). */
  id: string;
  data: {
    /** The summary (without the `[Context Compressed]` line the model reads before it). */
    text: string;
    /** The ids of the client's UIMessages the summary stands for. */
    replaces: string[];
    tokensBefore: number;
    tokensAfter: number;
  };
}

/** Compacts a chat route's UIMessage[]; the folded middle becomes one UIMessage marked `metadata.midfold.summary`, and a
 * call that folded also resolves to `summaryPart`, the data part that tells the client. */
export declare function compactUIMessages<M extends { id: string; role: string; parts: unknown[] }>(messages: M[], options: {
  compactor: Compactor | Omit<CompactorOptions, 'format'>;
  state?: SessionState;
  force?: boolean;
  signal?: AbortSignal;
}): Promise<{ messages: M[]; report: CompactReport; summaryPart?: SummaryDataPart }>;

/** A Compactor `summarize` that writes the summary with an AI SDK language model object (V3 or V4). */
export declare function languageModelSummarizer(
  model: { doGenerate(options: unknown): PromiseLike<{ content: Array<{ type: string; text?: string }> }> },
  options?: { temperature?: number; providerOptions?: Record<string, unknown> },
): (request: { system: string; prompt: string; maxTokens: number; signal?: AbortSignal }) => Promise<string>;
