/**
 * conversation-states.js — the SessionStates an integration keeps when the host gives it
 * none: one per conversation, found by content, in one bounded map for the whole module
 * (`conversationStates`). The AI SDK and Agents SDK helpers are often built inside each
 * call (`prepareStep: compactStep({…})` inside `streamText(…)`); kept per instance, their
 * state died with the call, and the next call of the conversation planned afresh, folding
 * its whole history again. Kept here, a per-call instance continues exactly as one built
 * once: the state follows the conversation, not the object.
 *
 * Keys. A state is found by its scope and its conversation: the scope is a hash of the
 * integration and every option that shapes a plan (threshold, keepTail, policy, profile,
 * the summarizer …; functions by their source text and own fields, since one built inside
 * each call is a new function each time), so instances built with the same options share
 * states and instances with other options never share a plan; the conversation is its
 * content key (conversationKey: its messages up to the first user message, which every call
 * repeats). Conversations that open alike share one state, as branches, and every snapshot
 * is used only where the caller's own messages repeat its prefix byte for byte (by hash), so
 * sharing a state never gives a conversation another's prefix.
 *
 * Bounds. At most `maxConversations` conversations per scope (the integration's option,
 * 256) and, over all scopes, 4,096 conversations and 64 MiB of state (its JSON, plus a
 * fixed cost per entry); past either, the least recently used conversation goes first
 * (never the one just used). A long-lived server thus holds a bounded map whatever it
 * serves; `conversationStates.clear()` empties it and `setLimits` changes the bounds.
 */
import { MidfoldError } from '../core/errors.js';
import { SessionState } from './session-state.js';
import { conversationKey, hex, sha256 } from './hash.js';
import { stateBytes } from './state-codec.js';

/** Conversations one scope (an integration's options) remembers by default: the most recently used. */
const MAX_CONVERSATIONS = 256;
/** What the module-level map holds over all scopes by default. */
const MAX_TOTAL_CONVERSATIONS = 4096;
const MAX_TOTAL_BYTES = 64 * 1024 * 1024;
/** What an entry costs besides its state's JSON (the key, the objects, the maps' slots). */
const ENTRY_BYTES = 512;

/** Bytes of a state's JSON (what it keeps of the conversation: hashes, summaries, edited messages). */
const bytesOf = (state) => stateBytes(state.snapshots);

function wholeNumber(value, name, fnName, min) {
  if (!Number.isInteger(value) || value < min) throw new MidfoldError('invalid-option', `${fnName}: ${name} must be a whole number >= ${min}`);
  return value;
}

/**
 * SessionStates by scope and conversation key, the least recently used dropped past the
 * bounds. A state remembers one conversation per branch: conversations that open alike
 * share a key (every chat that opens with the same "Hi"), so a scope's budget counts a
 * state's branches, not its states, and its states may hold up to that many branches (not
 * a SessionState's default 32, past which the least recently extended would plan afresh,
 * folding its whole history again, at every call).
 * Ownership: holds each conversation's SessionState (the hashes of its remembered prefixes
 * and what they became: summaries, micro-compacted copies) until it is evicted or cleared;
 * never keeps or changes the messages it is given.
 */
export class ConversationStates {
  /**
   * @param {number} [max] conversations kept in all (the least recently used is forgotten first)
   * @param {string} [fnName] who asks, for the error a bad bound gives
   * @param {{maxBytes?: number}} [options] bytes of state kept in all (0: no byte bound)
   */
  constructor(max = MAX_CONVERSATIONS, fnName = 'ConversationStates', options = {}) {
    this.max = wholeNumber(max, 'maxConversations', fnName, 1);
    this.maxBytes = wholeNumber(options.maxBytes ?? 0, 'maxBytes', fnName, 0);
    /** @type {Map<string, SessionState>} least recently used first */
    this.states = new Map();
    /** @type {Map<SessionState, {key: string, scope: string, bytes: number, held: number}>} */
    this.entries = new Map();
    /** @type {Map<string, {max: number, held: number, entries: number, memo: Map<string, unknown>}>} per scope */
    this.scopes = new Map();
    this.bytes = 0;
  }

  /** Changes the bounds (over all scopes); forgets what no longer fits at once. */
  setLimits({ maxConversations, maxBytes } = {}) {
    if (maxConversations !== undefined) this.max = wholeNumber(maxConversations, 'maxConversations', 'conversationStates.setLimits', 1);
    if (maxBytes !== undefined) this.maxBytes = wholeNumber(maxBytes, 'maxBytes', 'conversationStates.setLimits', 0);
    this.evict(null);
  }

  /** Forgets every state (a test between runs, a server that reloads its settings). */
  clear() {
    this.states.clear();
    this.entries.clear();
    this.scopes.clear();
    this.bytes = 0;
  }

  /** How many conversations the states remember in all (a branch each, one for a state that holds none yet). */
  get conversations() {
    let total = 0;
    for (const info of this.scopes.values()) total += info.held;
    return total;
  }

  /**
   * The state of the conversation `messages` belong to in `scope` (a new one for a
   * conversation not seen, or forgotten); `scopeMax` is the scope's budget.
   * Ownership: keeps the returned state until the bounds push it out.
   * @param {unknown[]} messages the whole history, as the host sends it
   * @param {string} [scope]
   * @param {number} [scopeMax]
   * @returns {Promise<SessionState>}
   */
  async of(messages, scope = '', scopeMax = this.max) {
    const key = `${scope}\n${await conversationKey(messages)}`;
    let state = this.states.get(key);
    let info = this.scopes.get(scope);
    if (!info) { info = { max: scopeMax, held: 0, entries: 0, memo: new Map() }; this.scopes.set(scope, info); }
    if (state) {
      this.states.delete(key);
    } else {
      state = new SessionState({ maxBranches: Math.min(scopeMax, this.max) });
      state.onRecord = (recorded) => this.settle(recorded);
      this.entries.set(state, { key, scope, bytes: ENTRY_BYTES, held: 1 });
      this.bytes += ENTRY_BYTES;
      info.held += 1;
      info.entries += 1;
    }
    this.states.set(key, state);
    this.evict(state);
    return state;
  }

  /**
   * Measures `state` again once a call recorded a snapshot in it (its branches, its bytes:
   * SessionState's onRecord), and forgets what no longer fits (never `state` itself). A state
   * forgotten meanwhile (a call in flight while it was pushed out) is left out.
   */
  settle(state) {
    const entry = this.entries.get(state);
    if (!entry) return;
    const info = this.scopes.get(entry.scope);
    info.held += held(state) - entry.held;
    entry.held = held(state);
    if (this.maxBytes) {
      let bytes = bytesOf(state);
      // One conversation never takes the whole budget: past it, its own earlier snapshots go first.
      if (bytes > this.maxBytes - ENTRY_BYTES) {
        state.maxBytes = Math.max(1, this.maxBytes - ENTRY_BYTES);
        state.fitBytes();
        bytes = bytesOf(state);
      }
      this.bytes += ENTRY_BYTES + bytes - entry.bytes;
      entry.bytes = ENTRY_BYTES + bytes;
    }
    this.evict(state);
  }

  /**
   * A value kept for `scope` beside its states (an integration's recent provider counts),
   * made by `create` the first time; it goes with the scope's last state.
   */
  memo(scope, name, create) {
    const info = this.scopes.get(scope);
    if (!info) return create();
    if (!info.memo.has(name)) info.memo.set(name, create());
    return info.memo.get(name);
  }

  /** Forgets the least recently used states (never `keep`) while the whole map, or `keep`'s scope (the one a
   * call just grew; every other scope was brought within its budget when it grew), is past its bounds. */
  evict(keep) {
    const mine = keep ? this.scopes.get(this.entries.get(keep).scope) : null;
    const overall = () => this.conversations > this.max || (this.maxBytes > 0 && this.bytes > this.maxBytes);
    for (const [key, state] of this.states) {
      const all = overall();
      if (!all && !(mine && mine.held > mine.max)) break;
      if (state === keep) continue;
      const entry = this.entries.get(state);
      const info = this.scopes.get(entry.scope);
      if (all || info === mine) this.forget(key, state, entry, info);
    }
  }

  forget(key, state, entry, info) {
    this.states.delete(key);
    this.entries.delete(state);
    this.bytes -= entry.bytes;
    info.held -= entry.held;
    if (--info.entries === 0) this.scopes.delete(entry.scope);
  }
}

/** A state counts a conversation per branch, and one while it holds none yet. */
const held = (state) => Math.max(1, state.branchCount());

/**
 * The states every integration of this module keeps when the host gives no `state`: one
 * map for the process (or isolate), bounded (4,096 conversations, 64 MiB), so that an
 * integration built inside each call continues the conversation as one built once.
 * `conversationStates.clear()` forgets them; `conversationStates.setLimits({maxConversations,
 * maxBytes})` changes the bounds; `conversations` and `bytes` say what it holds.
 */
export const conversationStates = /* @__PURE__ */ new ConversationStates(MAX_TOTAL_CONVERSATIONS, 'conversationStates', { maxBytes: MAX_TOTAL_BYTES });

/** Options that are the call's, not the plan's: hooks, the carried state, a stop signal. */
const NOT_PLAN = new Set(['state', 'onReport', 'onWarn', 'onArchive', 'signal']);

/**
 * What identifies a plan among an integration's options, as plain data: every option but the
 * call's own (NOT_PLAN); a function is its source text and its own enumerable fields (two
 * summarizers made by one factory are the same option; anthropicCompaction's
 * `preservesThinking` tells its two kinds apart).
 */
function planOptions(value, depth = 0) {
  if (depth > 8) return '[deep]';
  if (typeof value === 'function') {
    const fields = {};
    for (const k of Object.keys(value)) fields[k] = planOptions(value[k], depth + 1);
    return { $function: Function.prototype.toString.call(value), fields };
  }
  if (Array.isArray(value)) return value.map((v) => planOptions(v, depth + 1));
  if (value !== null && typeof value === 'object') {
    const out = {};
    for (const k of Object.keys(value)) if (depth > 0 || !NOT_PLAN.has(k)) out[k] = planOptions(value[k], depth + 1);
    return out;
  }
  return typeof value === 'bigint' ? String(value) : value;
}

/**
 * The scope of an integration's options in the module's states: a SHA-256 (hex) of the
 * integration's name and its plan options (planOptions), or, when they cannot be written as
 * JSON, one of its own (the instance then keeps to itself, as before the states were shared).
 */
async function scopeOf(fnName, options) {
  try {
    return hex(await sha256(JSON.stringify(sortKeys({ integration: fnName, options: planOptions(options) }))));
  } catch {
    return `instance:${globalThis.crypto.randomUUID()}`;
  }
}

function sortKeys(v) {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v === null || typeof v !== 'object') return v;
  const out = {};
  for (const k of Object.keys(v).sort()) out[k] = sortKeys(v[k]);
  return out;
}

/**
 * The states an integration keeps for its conversations when the host gave no `state`, or
 * null when it did: a view of the module's `conversationStates` in the scope of `options`
 * (all of the integration's options; the call's own are left out), with `maxConversations`
 * (256) conversations for the scope. Refuses a `state` that is no SessionState, and
 * `maxConversations` beside a `state` (it sizes only the states kept here). `fnName` names
 * the integration in errors.
 * Ownership: the view keeps `options` only as the scope's hash.
 * @param {unknown} state the integration's `state` option
 * @param {number | undefined} maxConversations
 * @param {string} fnName
 * @param {object} options the integration's options, as the host wrote them
 * @returns {{of(messages: unknown[], variant?: string): Promise<SessionState>,
 *   memo<T>(name: string, create: () => T, variant?: string): Promise<T>} | null}
 */
export function integrationStates(state, maxConversations, fnName, options) {
  if (state !== undefined && !(state instanceof SessionState)) throw new MidfoldError('invalid-option', `${fnName}: state must be a SessionState`);
  if (state !== undefined && maxConversations !== undefined)
    throw new MidfoldError('invalid-option', `${fnName}: maxConversations is for the states kept without a state option`);
  if (state !== undefined) return null;
  const max = maxConversations === undefined ? MAX_CONVERSATIONS : wholeNumber(maxConversations, 'maxConversations', fnName, 1);
  let scope;
  const scopeId = () => (scope ??= scopeOf(fnName, options || {}));
  // `variant` splits a scope where one instance plans two ways (the AI SDK hooks: a threshold per model's pricing).
  const full = async (variant) => (variant ? `${await scopeId()}:${variant}` : scopeId());
  return {
    async of(messages, variant = '') { return conversationStates.of(messages, await full(variant), max); },
    async memo(name, create, variant = '') { return conversationStates.memo(await full(variant), name, create); },
  };
}
