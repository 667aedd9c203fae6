// Types for midfold/mastra (js/integrations/mastra.js). `@mastra/core` is an optional peer: these types name none
// of its types; they describe the processor's shape, which an Agent's `inputProcessors` accepts.
import type { CompactReport, SessionState } from '../index.js';
import type { AISDKCompactionOptions } from './ai-sdk.js';

export { SessionState } from '../index.js';
/** The module's map of default states, shared with midfold/ai-sdk (see its ConversationStates). */
export { conversationStates, type ConversationStates, languageModelSummarizer } from './ai-sdk.js';

/** The Compactor's options (its `format` is set for you), plus the carried state and a report hook. Unless
 * `pricing` or `threshold` is set, the model's provider sets `pricing` (and with it the default threshold). */
export interface MastraCompactionOptions extends Omit<AISDKCompactionOptions, 'onReport' | 'signal'> {
  /** Aborts a summary being written (the report says 'aborted', nothing changes), beside the run's own
   * `abortSignal`, which Mastra hands each model call and which aborts it too. */
  signal?: AbortSignal;
  /** Called with each model call's report (the Compactor's, plus `session`). */
  onReport?: (report: CompactReport & { session?: { matched: number; changed: boolean; saved: boolean } }) => void;
}

/** The prompt stage's arguments the processor reads (Mastra passes more). */
export interface MastraPromptArgs<P> {
  prompt: P[];
  model: unknown;
  state: Record<string, unknown>;
  abortSignal?: AbortSignal;
}

/**
 * A Mastra input processor: `processLLMRequest` compacts the provider-level prompt of each model call (what is sent;
 * memory and the message list keep everything), `processLLMResponse` reads the provider's input count from the
 * answer (the anchor of the next call that continues the prompt).
 */
export interface CompactionProcessor {
  readonly id: 'midfold';
  readonly name: string;
  readonly description: string;
  processLLMRequest<P>(args: MastraPromptArgs<P>): Promise<{ prompt: P[] } | undefined>;
  processLLMResponse(args: { chunks: Array<{ type: string; payload: unknown }>; model: unknown; state: Record<string, unknown>; fromCache: boolean }): Promise<void>;
}

/** An input processor for `new Agent({ inputProcessors: [compactionProcessor({ summarize })] })`. */
export declare function compactionProcessor(options: MastraCompactionOptions): CompactionProcessor;
