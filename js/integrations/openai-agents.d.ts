// Types for midfold/openai-agents (js/integrations/openai-agents.js). `@openai/agents` is an optional peer: these
// types name none of its types; they describe the filter's shape, which `callModelInputFilter` accepts.
import type { CompactorOptions, CompactReport, SessionState } from '../index.js';

export { SessionState } from '../index.js';
/** The module's map of default states, shared with midfold/ai-sdk (see its ConversationStates). */
export { conversationStates, type ConversationStates } from './ai-sdk.js';

export interface AgentsCompactionOptions extends Omit<CompactorOptions, 'format'> {
  /** The state carried across the run's model calls (default: one in memory per conversation, in the module's
   * `conversationStates`, found by these options and the conversation's content, so a filter built inside each
   * run() continues as one built once). Pass one to give it a store or to keep it apart. */
  state?: SessionState;
  /** Without `state`: how many conversations the module keeps for these options (256), however many open alike;
   * the least recently used state is forgotten first. */
  maxConversations?: number;
  /** Called with each call's report (the Compactor's, plus `session`). */
  onReport?: (report: CompactReport & { session?: { matched: number; changed: boolean; saved: boolean } }) => void;
}

/**
 * A `callModelInputFilter` for `run(agent, input, { callModelInputFilter })` or `new Runner({ callModelInputFilter })`:
 * compacts `modelData.input` (the SDK's AgentInputItem[]) before each model call; untouched items come back as the
 * SDK's own objects, the summary as a user message.
 */
export declare function compactionFilter(options: AgentsCompactionOptions):
  <I, D extends { input: I[]; instructions?: string }>(args: { modelData: D; agent?: unknown; context?: unknown }) => Promise<D>;
