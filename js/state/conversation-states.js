/**
 * conversation-states.js — one in-memory SessionState per conversation, for an integration
 * a host sets up once and calls for every conversation it serves (a wrapped model, a
 * prepareStep, an Agents SDK filter). One shared state would hold all conversations as
 * branches of one value (past its maxBranches, the least recently used plans afresh, rewriting
 * its prefix each time) and would queue every conversation's call behind any other's summary.
 * Each conversation is found by its content key (conversationKey: its messages up to the
 * first user message, which every call repeats); conversations that open alike share one
 * state, as branches, and its queue.
 */
import { SessionState } from './session-state.js';
import { conversationKey } from './hash.js';

/** Conversations remembered by default: the most recently used. */
const MAX_CONVERSATIONS = 256;

/**
 * SessionStates by conversation, the least recently used dropped beyond a limit.
 * Ownership: holds each conversation's SessionState (the hashes of its remembered prefixes
 * and what they became: summaries, micro-compacted copies) until it is evicted; never
 * changes the messages it is given.
 */
export class ConversationStates {
  /** @param {number} [max] conversations kept (the least recently used is forgotten first) */
  constructor(max = MAX_CONVERSATIONS) {
    this.max = max;
    /** @type {Map<string, SessionState>} least recently used first */
    this.states = new Map();
  }

  /**
   * The state of the conversation `messages` belong to (a new one for a conversation not
   * seen, or forgotten).
   * Ownership: keeps the returned state until `max` other conversations were used since.
   * @param {unknown[]} messages the whole history, as the host sends it
   * @returns {Promise<SessionState>}
   */
  async of(messages) {
    const key = await conversationKey(messages);
    let state = this.states.get(key);
    if (state) this.states.delete(key);
    else state = new SessionState();
    this.states.set(key, state);
    if (this.states.size > this.max) this.states.delete(this.states.keys().next().value);
    return state;
  }
}
