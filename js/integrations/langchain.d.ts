// Types for midfold/langchain (js/integrations/langchain.js). `langchain` and `@langchain/core` are optional peers of
// this entry alone; the middleware's type is LangChain's own AgentMiddleware, so createAgent takes it without casts.
import type { AgentMiddleware } from 'langchain';
import type { CompactorOptions, CompactReport, Summarize, SessionState } from '../index.js';

export { SessionState } from '../index.js';
/** The module's map of default states, shared with midfold/ai-sdk (see its ConversationStates). */
export { conversationStates, type ConversationStates } from './ai-sdk.js';

/** The Compactor's options (its `format` is 'langchain', set for you), with `summarize` optional, plus the carried
 * state and a report hook. */
export interface LangChainCompactionOptions extends Omit<CompactorOptions, 'format' | 'summarize'> {
  /** Writes the summaries. Default: the agent's own model (the model call's `request.model`), through
   * `langchainSummarizer`. */
  summarize?: Summarize;
  /** The state carried across the agent's model calls (default: one in memory per conversation, in the module's
   * `conversationStates`, found by these options and the conversation's opening). Pass one to give it a store
   * (Workers KV, Redis, a database: any async get/put) or to keep it apart. */
  state?: SessionState;
  /** Without `state`: how many conversations the module keeps for these options (256). */
  maxConversations?: number;
  /** Called with each model call's report (the Compactor's, plus `session`). */
  onReport?: (report: CompactReport & { session?: { matched: number; changed: boolean; saved: boolean } }) => void;
}

/**
 * Agent middleware for `createAgent({ middleware: [compactionMiddleware()] })` (langchain 1.x). Its `wrapModelCall`
 * compacts the messages each model call sends (old tool results cleared, and past the threshold the resolved middle
 * summarized), keeping every tool call with its result and the tail verbatim; the agent's state keeps the whole
 * history. The provider's `usage_metadata.input_tokens` on each answer anchors the next call's estimate. With a
 * signed-thinking tool loop in flight nothing before it is edited (the default thinking policy).
 */
export declare function compactionMiddleware(options?: LangChainCompactionOptions): AgentMiddleware;

/**
 * A Compactor `summarize` over a LangChain chat model (ChatAnthropic, ChatOpenAI, any BaseChatModel): one `invoke`
 * with the summarizer's system prompt and transcript. An empty answer rejects with 'empty-summary'.
 * Ownership: keeps a reference to `model`.
 */
export declare function langchainSummarizer(model: { invoke(...args: any[]): Promise<unknown> }): Summarize;
