// Types for midfold/openai-agents (js/integrations/openai-agents.js, agents-session.js). `@openai/agents` is an
// optional peer: these types name none of its types; they describe the filter's shape, which `callModelInputFilter`
// accepts, and the Session's, which `run(agent, input, { session })` accepts.
import type { CompactorOptions, CompactReport, SessionState, RecallArchive, RecallExecute } from '../index.js';

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
  (<I, D extends { input: I[]; instructions?: string }>(args: { modelData: D; agent?: unknown; context?: unknown }) => Promise<D>)
  & { /** With `recall`: the archive (`true`: one in memory for the process) and the tool's executor; else null. */
    readonly recall: { archive: RecallArchive; executor: RecallExecute } | null };

/** The recall tool as an Agents SDK `tool()` (imported from the application's `@openai/agents`; not strict), over the
 * archive of a compactionFilter or a Compactor made with `recall`. An error answer is its output ("recall error: …"). */
export declare function recallTool(source: { readonly recall: { executor: RecallExecute } | null }): Promise<{ name: 'recall'; strict: false; invoke: (context: unknown, input: string) => Promise<unknown> }>;

/** The methods of the Agents SDK's `Session` that midfoldSession needs of the store it wraps (`I`: its item type,
 * the SDK's `AgentInputItem`). The SDK's MemorySession, its SQLite- and Redis-backed sessions and any object
 * with these methods qualify. */
export interface AgentsSessionLike<I> {
  getSessionId(): Promise<string>;
  getItems(limit?: number): Promise<I[]>;
  addItems(items: I[]): Promise<void>;
  popItem(): Promise<I | undefined>;
  clearSession(): Promise<void>;
}

/** A compaction of the stored items: the Compactor's report, plus what it did to the store. */
export interface SessionCompactReport extends CompactReport {
  /** Items stored before and after. */
  stored: { before: number; after: number };
  /** Whether the store was rewritten (false when nothing changed, the summarizer failed, or another writer changed
   * the store while the summary was being written). */
  written: boolean;
  /** Another writer changed the store meanwhile: its items were kept and nothing was rewritten. */
  conflict?: true;
}

export interface MidfoldSessionOptions<I> extends Omit<CompactorOptions, 'format' | 'onArchive'> {
  /** Gets the stored items each fold removes, as the store held them (the SDK's items), and the summary. */
  onArchive?: (removed: I[], summary: string) => void;
  /** The session that holds the items; it stays the source of truth. */
  underlyingSession: AgentsSessionLike<I>;
  /** Called with each compaction's report. */
  onReport?: (report: SessionCompactReport) => void;
}

/** An Agents SDK Session that compacts what it stores after each finished turn (see midfoldSession). */
export interface MidfoldSession<I> extends AgentsSessionLike<I> {
  readonly underlyingSession: AgentsSessionLike<I>;
  /** The last compaction's report, or null before the first. */
  readonly lastReport: SessionCompactReport | null;
  /** The runner's hook after a finished turn is saved (`force` folds whatever the threshold says). Resolves to null:
   * the summary's cost is the summarizer's, not a Responses call the run should count; never rejects because
   * compaction failed. */
  runCompaction(args?: { force?: boolean }): Promise<null>;
  /** Compacts the stored items now (a /compact command with `force`). */
  compact(options?: { force?: boolean; signal?: AbortSignal }): Promise<SessionCompactReport>;
}

/**
 * An Agents SDK Session over `underlyingSession` for `run(agent, input, { session })`: after each finished turn the
 * runner calls its `runCompaction`, which compacts the stored items with the Compactor (`openai-responses` format),
 * so `session.getItems()` and the next run's `result.history` stop growing. Calls keep their outputs, reasoning
 * items stay before what they produced, the pending turn and the live tail stay verbatim; a failing summarizer, or
 * a store changed meanwhile, leaves the stored items as they were. Ownership: the underlying session stays the
 * caller's; rewritten items are new objects.
 */
export declare function midfoldSession<I>(options: MidfoldSessionOptions<I>): MidfoldSession<I>;
