/**
 * conversation-states.js — one in-memory SessionState per conversation key, for an
 * integration a host sets up once and calls for every conversation it serves (a wrapped
 * model, a prepareStep, an Agents SDK filter). Each conversation is found by its content key
 * (conversationKey: its messages up to the first user message, which every call repeats);
 * conversations that open alike share one state, as branches, and none waits for another's
 * summary (a call waits only for one it continues: SessionState.begin). A state per key
 * rather than one for all keeps each call's match to the snapshots of its own key.
 */
import { MidfoldError } from '../core/errors.js';
import { SessionState } from './session-state.js';
import { conversationKey } from './hash.js';

/**
 * The states an integration keeps for its conversations when the host gave no `state`, or
 * null when it did; refuses a `state` that is no SessionState, and `maxConversations` beside
 * a `state` (it sizes only the states kept here). `fnName` names the integration in errors.
 * Ownership: the returned object is the integration's, for as long as it lives.
 * @param {unknown} state the integration's `state` option
 * @param {number | undefined} maxConversations
 * @param {string} fnName
 * @returns {ConversationStates | null}
 */
export function integrationStates(state, maxConversations, fnName) {
  if (state !== undefined && !(state instanceof SessionState)) throw new MidfoldError('invalid-option', `${fnName}: state must be a SessionState`);
  if (state !== undefined && maxConversations !== undefined)
    throw new MidfoldError('invalid-option', `${fnName}: maxConversations is for the states kept without a state option`);
  return state === undefined ? new ConversationStates(maxConversations, fnName) : null;
}

/** Conversations remembered by default: the most recently used. */
const MAX_CONVERSATIONS = 256;

/**
 * SessionStates by conversation key, the least recently used dropped while they remember
 * more than `max` conversations in all. A state remembers one per branch: conversations that
 * open alike share a key (every chat that opens with the same "Hi"), so a state may hold up
 * to `max` of them, not a SessionState's default 32, past which the least recently extended
 * of them would plan afresh, folding its whole history again, at every call.
 * Ownership: holds each conversation's SessionState (the hashes of its remembered prefixes
 * and what they became: summaries, micro-compacted copies) until it is evicted; never
 * changes the messages it is given.
 */
export class ConversationStates {
  /**
   * @param {number} [max] conversations kept (the least recently used is forgotten first)
   * @param {string} [fnName] the integration, for the error a bad `max` gives
   */
  constructor(max = MAX_CONVERSATIONS, fnName = 'ConversationStates') {
    if (!Number.isInteger(max) || max < 1) throw new MidfoldError('invalid-option', `${fnName}: maxConversations must be a whole number >= 1`);
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
    else state = new SessionState({ maxBranches: this.max });
    this.states.set(key, state);
    this.evict();
    return state;
  }

  /** Forgets the least recently used states (never the one just used) while the states remember
   * more than `max` conversations: a branch each, and one for a state that remembers none yet. */
  evict() {
    const held = (state) => Math.max(1, state.branchCount());
    let total = 0;
    for (const state of this.states.values()) total += held(state);
    for (const [key, state] of this.states) {
      if (total <= this.max || this.states.size === 1) break;
      total -= held(state);
      this.states.delete(key);
    }
  }
}
