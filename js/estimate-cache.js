/**
 * estimate-cache.js — per-message estimates kept between calls, so that a conversation that
 * grew by one turn costs the new turn, not the whole history.
 *
 * A message's estimate does not depend on the messages around it (src/estimate.c sums the
 * messages one by one), so each message object's estimate is kept with a snapshot of what it
 * held: its keys and its leaf values in walk order. The next call walks each message's
 * structure and compares it with the snapshot — JS strings are immutable, so an unchanged
 * string is the same value and its text is never read again — and estimates only the
 * messages that are new or changed, in one crossing into wasm. A changed string, an added or
 * removed block, a reordered array or a replaced message is never priced from a stale entry.
 *
 * Entries live in a WeakMap keyed by the message objects: dropping a conversation frees them.
 */
import { estimateEach } from './core.js';

const MAX_DEPTH = 512;

/**
 * Compares `value` with the snapshot written by `record` from position `at`; returns the
 * position after it, or -1 at the first difference.
 */
function matches(value, snap, at, depth) {
  if (value === null || typeof value !== 'object') return snap[at] === value ? at + 1 : -1;
  if (depth > MAX_DEPTH) return -1;
  if (Array.isArray(value)) {
    if (snap[at] !== ARRAY || snap[at + 1] !== value.length) return -1;
    at += 2;
    for (let i = 0; i < value.length; i++) {
      at = matches(value[i], snap, at, depth + 1);
      if (at < 0) return -1;
    }
    return at;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype) return matchesOther(value, snap, at, depth);
  if (snap[at] !== OBJECT) return -1;
  const end = snap[at + 1];
  at += 2;
  // for-in walks own enumerable keys in Object.keys order without allocating their list;
  // the snapshot holds the key count, so an added or removed key fails.
  let n = 0;
  for (const k in value) {
    if (snap[at] !== k) return -1;
    at = matches(value[k], snap, at + 1, depth + 1);
    if (at < 0) return -1;
    n++;
  }
  return n === end ? at : -1;
}

/** Binary data, objects with toJSON, objects of other prototypes (rare: kept off the hot path). */
function matchesOther(value, snap, at, depth) {
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) {
    return snap[at] === value && snap[at + 1] === value.byteLength ? at + 2 : -1;
  }
  if (typeof value.toJSON === 'function') return matches(value.toJSON(), snap, at, depth + 1);
  if (snap[at] !== OBJECT) return -1;
  const keys = Object.keys(value);
  if (snap[at + 1] !== keys.length) return -1;
  at += 2;
  for (const k of keys) {
    if (snap[at] !== k) return -1;
    at = matches(value[k], snap, at + 1, depth + 1);
    if (at < 0) return -1;
  }
  return at;
}


const ARRAY = Symbol('array');
const OBJECT = Symbol('object');

/** Appends the snapshot of `value` to `snap` (the layout `matches` reads). */
function record(value, snap, depth) {
  if (value === null || typeof value !== 'object') { snap.push(value); return; }
  if (depth > MAX_DEPTH) { snap.push(OBJECT, -1); return; } // never matches: the estimator reports the depth
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) { snap.push(value, value.byteLength); return; }
  if (typeof value.toJSON === 'function') { record(value.toJSON(), snap, depth + 1); return; }
  if (Array.isArray(value)) {
    snap.push(ARRAY, value.length);
    for (const item of value) record(item, snap, depth + 1);
    return;
  }
  const keys = Object.keys(value);
  snap.push(OBJECT, keys.length);
  for (const k of keys) { snap.push(k); record(value[k], snap, depth + 1); }
}

/**
 * Per-message estimates for one profile and format, reused across calls.
 * Ownership: keeps a weak reference to each message object it has priced (and a snapshot of
 * its primitive values); never changes a message.
 */
export class EstimateCache {
  /**
   * @param {{profile?: string, format?: string}} [options] as estimateTokens'
   */
  constructor(options = {}) {
    this.profile = options.profile;
    this.format = options.format;
    /** @type {WeakMap<object, {milli: number, results: number, hasResults: boolean, snap: unknown[]}>} */
    this.entries = new WeakMap();
    /** Messages estimated by the last call (how much work it did). */
    this.lastEstimated = 0;
  }

  /**
   * The estimate of `messages` in milli-tokens (what estimateTokens returns × 1000, before
   * rounding up), pricing only the messages not seen unchanged before.
   * @param {unknown[]} messages
   * @returns {number}
   */
  milli(messages) { return this.figures(messages, 0).milli; }

  /**
   * An upper bound, in milli-tokens, of what micro-compaction could free in `messages` with
   * `keepRecent`: the uncleared tool results of every message that holds results, except the
   * last `keepRecent` such messages. When it is below a clearAtLeast, micro-compaction would
   * clear nothing, so a caller can skip planning it.
   * @param {unknown[]} messages
   * @param {number} keepRecent
   */
  clearableMilli(messages, keepRecent) { return this.figures(messages, keepRecent).clearable; }

  /** `{milli, clearable}`: milli() and clearableMilli() in one pass over the messages. */
  figures(messages, keepRecent) {
    const entries = this.entriesOf(messages);
    let kept = 0, clearable = 0, milli = 0;
    // The provider reads from its last compaction on (src/view.c): nothing before it counts.
    for (let i = entries.length - 1; i >= 0; i--) {
      milli += entries[i].milli;
      if (entries[i].compaction) break;
      if (!entries[i].hasResults) continue;
      if (kept < keepRecent) { kept++; continue; }
      clearable += entries[i].results;
    }
    return { milli, clearable };
  }

  /** The entry of every message, estimating the new or changed ones in one crossing. */
  entriesOf(messages) {
    const out = new Array(messages.length);
    const fresh = [];
    const at = [];
    for (let i = 0; i < messages.length; i++) {
      const m = messages[i];
      const entry = m !== null && typeof m === 'object' ? this.entries.get(m) : undefined;
      if (entry && matches(m, entry.snap, 0, 0) === entry.snap.length) out[i] = entry;
      else { fresh.push(m); at.push(i); }
    }
    this.lastEstimated = fresh.length;
    if (fresh.length) {
      // Plain messages price alike in every format; structured ones carry the evidence that
      // detection reads, so the new messages are read in the format they show.
      const each = estimateEach(fresh, { profile: this.profile, format: this.format }, messages);
      for (let k = 0; k < fresh.length; k++) {
        const m = fresh[k];
        const entry = { ...each[k], snap: null };
        if (m !== null && typeof m === 'object') {
          entry.snap = [];
          record(m, entry.snap, 0);
          this.entries.set(m, entry);
        }
        out[at[k]] = entry;
      }
    }
    return out;
  }

  /** The estimate of `messages` in whole tokens, rounded up as estimateTokens rounds. */
  tokens(messages) { return Math.ceil(this.milli(messages) / 1000); }
}
