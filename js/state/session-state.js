/**
 * session-state.js — what a stateless host needs to carry between calls so that the
 * compaction it gets on call N+1 continues the one of call N: for each remembered
 * original prefix (its message count and the SHA-256 of its messages' canonical JSON), the
 * compacted form it became, as a list of items:
 *
 *   [from, to]            the original messages from..to-1, unchanged
 *   {at, message}         original `at` as micro-compaction left it (its JSON)
 *   {message}             a message midfold wrote (a summary, its acknowledgement)
 *
 * Nothing else of the originals is kept, so the state stays a few kilobytes: the host
 * sends the originals again, and their hash proves they are the ones remembered. In the
 * JSON, the messages of every snapshot sit once in a shared `messages` list (snapshots
 * of one conversation repeat most of them) and items name them by `ref` (state-codec.js
 * reads and writes that JSON).
 *
 * Each snapshot belongs to a `branch`: a call that continued the newest snapshot of a
 * branch (made with the same settings) extends it; any other call (a fresh plan, or one
 * that fell back to an earlier snapshot) starts a new one. Conversations that share a key
 * (they open alike) and the paths of a regenerated turn are then separate branches, and
 * retention is per branch, so one busy conversation cannot push the others out and make
 * them summarize afresh.
 */
import { MidfoldError } from '../core/errors.js';
import { isCount, isObject, parseState, stateBytes, stateText, writeState } from './state-codec.js';
import { prefixHash } from './hash.js';
import { Sha256 } from './sha256.js';
import { checkStore } from './stores.js';

/** Resolves when `done` does or `signal` aborts, whichever comes first (never rejects). */
function untilAborted(done, signal) {
  if (!signal) return done;
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const stop = () => { signal.removeEventListener('abort', stop); resolve(); };
    signal.addEventListener('abort', stop, { once: true });
    done.then(stop);
  });
}

/** Histories whose prefix hashes a SessionState keeps for the next call (conversations under one key). */
const HASHES_KEPT = 4;

/** What tells two snapshots apart: one made with the same settings for the same prefix is the same. */
const identity = (s) => `${s.count} ${s.prefix} ${s.settings}`;

/**
 * The snapshots kept of `snapshots` (newest first): per branch its newest `perBranch`, of
 * the `branches` most recently extended branches. The order is kept.
 */
function retained(snapshots, perBranch, branches) {
  const seen = new Map(); // branch -> snapshots kept of it so far
  return snapshots.filter((s) => {
    const kept = seen.get(s.branch);
    if (kept === undefined) {
      if (seen.size === branches) return false;
      seen.set(s.branch, 1);
      return true;
    }
    if (kept === perBranch) return false;
    seen.set(s.branch, kept + 1);
    return true;
  });
}

/**
 * The carried compaction state of one conversation (or of several that open alike).
 * Without a store it lives in this object (persist it with toJSON / SessionState.from);
 * with `{store, key}` it is read from the store before every call and written after
 * every call that changed it, so any number of processes can share it.
 *
 * Calls on one SessionState overlap except where one continues another: a call whose
 * history repeats the whole history of a call in flight (a duplicate request, the next step
 * sent before the last one's result was recorded) waits for it and continues its result;
 * any other call (another conversation under the key, another branch) goes on meanwhile, so
 * one conversation's summary never holds up the others. Loading and matching, and recording
 * and saving, run one call at a time. Calls through different objects on the same store key
 * (other isolates, other servers) may overlap anywhere: a save keeps what others wrote since
 * its load, and only writes that meet between a save's read and its write can lose one.
 * Since every snapshot is checked against the caller's own messages by hash before it is
 * used, that costs a summary, never a wrong prefix.
 *
 * Ownership: keeps its snapshots (prefix hashes, and JSON copies of the messages midfold
 * wrote or edited), never the caller's message objects; keeps `store` by reference, and the
 * canonical bytes of the latest few histories it hashed (prefixHash), in memory only.
 */
export class SessionState {
  /**
   * @param {{store?: {get(key: string): Promise<unknown>, put(key: string, value: string): Promise<void>},
   *   key?: string, maxSnapshots?: number, maxBranches?: number, maxBytes?: number,
   *   onWarn?: (message: string, error?: unknown) => void}} [options]
   *   maxSnapshots: prefixes remembered per branch (4: the latest, and a few earlier ones a
   *   regenerated or edited last turn can fall back to); maxBranches: branches remembered
   *   (32: conversations that open alike, and the paths of regenerated turns; the least
   *   recently extended goes first); maxBytes: the most UTF-8 bytes of JSON ever written
   *   (0: no cap; a key-value Durable Object caps a value at 128 KiB): snapshots are dropped
   *   while the JSON is larger — first the earlier ones of each branch, oldest first, then
   *   whole branches, least recently extended first — and a snapshot that alone is larger is
   *   not recorded (the call's report says 'too-large')
   */
  constructor(options = {}) {
    if (!isObject(options)) throw new MidfoldError('invalid-option', 'SessionState: options must be an object');
    this.store = options.store === undefined ? null : checkStore(options.store);
    if (this.store && (typeof options.key !== 'string' || options.key === ''))
      throw new MidfoldError('invalid-option', 'SessionState: a store needs a key (one per conversation and scope)');
    this.key = options.key;
    const max = options.maxSnapshots === undefined ? 4 : options.maxSnapshots;
    if (!Number.isInteger(max) || max < 1) throw new MidfoldError('invalid-option', 'SessionState: maxSnapshots must be a whole number >= 1');
    this.maxSnapshots = max;
    const branches = options.maxBranches === undefined ? 32 : options.maxBranches;
    if (!Number.isInteger(branches) || branches < 1) throw new MidfoldError('invalid-option', 'SessionState: maxBranches must be a whole number >= 1');
    this.maxBranches = branches;
    const bytes = options.maxBytes === undefined ? 0 : options.maxBytes;
    if (!isCount(bytes)) throw new MidfoldError('invalid-option', 'SessionState: maxBytes must be a whole number >= 0');
    this.maxBytes = bytes;
    if (options.onWarn !== undefined && typeof options.onWarn !== 'function')
      throw new MidfoldError('invalid-option', 'SessionState: onWarn must be a function');
    this.onWarn = options.onWarn;
    /** @type {object[]} newest first */
    this.snapshots = [];
    /** The snapshots as the store held them at load (their identities), and the one recorded since. */
    this.loaded = new Set();
    this.recorded = null;
    this.tail = Promise.resolve();
    /** Calls between their match and their end (begin() to end()), each {history, done, land}. */
    this.flights = new Set();
    /** Told after each record() (the module's conversationStates measures its states so); null for none. */
    this.onRecord = null;
    /** The latest prefix hashes computed (prefixHash), the most recent first, each
     * {history, count, hex, hasher}: a later history whose first messages are the same
     * pieces is matched without hashing them again. */
    this.hashed = [];
  }

  /**
   * A state restored from `toJSON()` output (the object, whose messages are copied, or its JSON text). Throws
   * MidfoldError('invalid-state') for anything else.
   */
  static from(json, options) {
    const state = new SessionState(options);
    state.snapshots = retained(parseState(json), state.maxSnapshots, state.maxBranches);
    return state;
  }

  /** Plain JSON data (a copy): {version, messages, snapshots}. */
  toJSON() {
    return writeState(this.snapshots);
  }

  warn(message, error) {
    if (!this.onWarn) return;
    try { this.onWarn(message, error); } catch { /* a failing hook must not fail the call */ }
  }

  /** Runs `fn` after every earlier `fn` given to this state has settled. */
  exclusive(fn) {
    const run = this.tail.then(fn);
    this.tail = run.catch(() => {});
    return run;
  }

  /**
   * The start of a call on the history `canonical` (historyBytes) made with `settings`: first
   * waits for each call in flight whose whole history this one repeats, since what that call
   * records is what this one continues (without waiting, both would fold the same messages);
   * then loads the store and matches (one call at a time). Resolves to `{snapshot, flight}`:
   * the snapshot to continue (match) and this call's flight, which the caller must end()
   * whatever happens, or calls that continue it wait for ever. Once `signal` aborts, the call
   * stops waiting and goes on from what the state holds: an aborted request must not hang on
   * another request's summary (its Compactor then writes none: the report says 'aborted').
   * Ownership: the flight keeps `canonical` (to compare later calls with) until end().
   * @param {import('./hash.js').HistoryBytes} canonical
   * @param {string} settings
   * @param {AbortSignal} [signal]
   */
  async begin(canonical, settings, signal) {
    for (;;) {
      const started = await this.exclusive(async () => {
        const ahead = signal && signal.aborted ? null : this.continuedFlight(canonical);
        if (ahead) return { ahead };
        await this.load();
        const snapshot = await this.match(canonical, settings);
        let land;
        const done = new Promise((resolve) => { land = resolve; });
        const flight = { history: canonical, done, land };
        this.flights.add(flight);
        return { snapshot, flight };
      });
      if (!started.ahead) return started;
      await untilAborted(started.ahead.done, signal);
    }
  }

  /** A call in flight whose whole history `canonical` repeats, or null (begin() asks again
   * once it has waited for one, so which of several comes first does not matter). */
  continuedFlight(canonical) {
    for (const f of this.flights) {
      const count = f.history.ends.length;
      if (count > 0 && canonical.samePrefix(f.history, count)) return f;
    }
    return null;
  }

  /**
   * Records `snapshot` (as record) and saves, one call at a time. Resolves to 'saved'; to
   * 'too-large' when the snapshot alone is over maxBytes (nothing is recorded or written: the
   * state stays as it was, and a warning says so); or to 'store-error' when the store failed to
   * write (with a warning).
   * @returns {Promise<'saved' | 'too-large' | 'store-error'>}
   */
  finish(snapshot, from) {
    return this.exclusive(async () => {
      if (!this.record(snapshot, from)) return 'too-large';
      return (await this.save()) ? 'saved' : 'store-error';
    });
  }

  /** Ends a call begun with begin(): the calls that wait for it go on. */
  end(flight) {
    this.flights.delete(flight);
    flight.land();
  }

  /** How many branches the state remembers (conversations under its key, and regenerated paths). */
  branchCount() {
    return new Set(this.snapshots.map((s) => s.branch)).size;
  }

  /** Reads the store (no-op without one). A missing value is an empty state; an unreadable
   * value or a failing store is too, with a warning: state is an optimization, and a
   * store that is down must not fail the conversation. */
  async load() {
    this.recorded = null;
    if (!this.store) return;
    this.snapshots = retained(await this.read('planning afresh'), this.maxSnapshots, this.maxBranches);
    this.loaded = new Set(this.snapshots.map(identity));
  }

  /** The store's snapshots: none for a missing value, and none for a failing store or an
   * unreadable value, with a warning ending in `then` (without `then`, silently). */
  async read(then) {
    let value;
    try {
      value = await this.store.get(this.key);
    } catch (e) {
      if (then) this.warn(`midfold: the session store failed to read ${JSON.stringify(this.key)}; ${then}`, e);
      return [];
    }
    if (value === null || value === undefined) return [];
    try {
      return parseState(value);
    } catch (e) {
      if (then) this.warn(`midfold: the stored session state under ${JSON.stringify(this.key)} is unreadable; ${then}`, e);
      return [];
    }
  }

  /**
   * Writes the store; resolves to whether it was written (true without a store: the
   * object itself is the state). A failing store gives a warning, not an error.
   *
   * The store is read again first, and what another call wrote under the key since this
   * one loaded (another conversation that opens alike, the same one from another isolate)
   * is kept beside this call's snapshot, newer than what this call loaded: the summary a
   * call waits for can take seconds, and a write of what it loaded would have dropped the
   * others' work. Only the moment between that read and the write can still race.
   */
  async save() {
    if (!this.store) return true;
    const mine = new Set(this.snapshots.map(identity));
    // (quietly: the load has said what was wrong with the store, and the write will say it again)
    const theirs = (await this.read()).filter((s) => !this.loaded.has(identity(s)) && !mine.has(identity(s)));
    if (theirs.length) {
      const recorded = this.recorded && this.snapshots[0] === this.recorded ? [this.recorded] : [];
      this.snapshots = retained([...recorded, ...theirs, ...this.snapshots.slice(recorded.length)], this.maxSnapshots, this.maxBranches);
      if (this.maxBytes) this.fitBytes();
    }
    try {
      await this.store.put(this.key, stateText(this.snapshots));
      this.loaded = new Set(this.snapshots.map(identity));
      return true;
    } catch (e) {
      this.warn(`midfold: the session store failed to write ${JSON.stringify(this.key)}; the next call may plan afresh`, e);
      return false;
    }
  }

  /**
   * The newest snapshot made with `settings` whose prefix the caller's messages repeat
   * exactly (by hash); failing that, the newest such snapshot made with other settings (the
   * form the provider was sent last, which a stateful Compactor whose options changed goes on
   * from: a fresh plan would fold the whole history again and, under signed thinking in
   * flight, rebuild another prefix beneath the signature); or null.
   * @param {import('./hash.js').HistoryBytes} canonical the caller's history (historyBytes)
   * @param {string} settings
   */
  async match(canonical, settings) {
    const tried = new Map();
    let other = null;
    for (const s of this.snapshots) {
      if (s.count > canonical.ends.length || s.count === 0 || (other && s.settings !== settings)) continue;
      // A prefix of another length in bytes is another prefix: no hash needed (another
      // conversation under the key, another branch), so a call hashes about once.
      if (s.bytes !== undefined && s.bytes !== canonical.ends[s.count - 1]) continue;
      if (!tried.has(s.count)) tried.set(s.count, await this.prefixHash(canonical, s.count));
      if (tried.get(s.count) !== s.prefix) continue;
      if (s.settings === settings) return s;
      other = s;
    }
    return other;
  }

  /**
   * The content hash of the first `count` messages of `canonical` (hash.js prefixHash). The
   * snapshot a call matches is nearly always the one the call before recorded: when the
   * first messages of `canonical` are the pieces (the same objects, which the estimate cache
   * gives back only for a message that still matches its structural snapshot) of a history
   * hashed before, that hash is reused, and a longer prefix hashes only the bytes after it,
   * from the hasher's state kept there; a changed earlier message is another piece, and its
   * prefix is hashed afresh. A history seen for the first time is hashed by WebCrypto (the
   * fastest over a whole history); the second time, the resumable hasher takes over.
   * Ownership: keeps `canonical`'s pieces of the latest HASHES_KEPT histories.
   * @param {import('./hash.js').HistoryBytes} canonical
   * @param {number} count
   * @returns {Promise<string>}
   */
  async prefixHash(canonical, count) {
    const pieces = canonical.pieces;
    let known = null;
    for (const h of this.hashed) {
      if (h.count > count || (known && known.count >= h.count)) continue;
      const before = h.history.pieces;
      let i = 0;
      while (i < h.count && before[i] === pieces[i]) i++;
      if (i === h.count) known = h;
    }
    let hex, hasher = null;
    if (known && known.count === count) ({ hex, hasher } = known);
    else if (known) {
      // (from the known prefix's hasher, or, the first time a history comes back, from the start)
      hasher = known.hasher ? known.hasher.copy() : new Sha256();
      for (let i = known.hasher ? known.count : 0; i < count; i++) hasher.update(pieces[i]);
      hex = hasher.hex();
    } else hex = await prefixHash(canonical, count);
    this.hashed = [{ history: canonical, count, hex, hasher }, ...this.hashed.filter((h) => h !== known)].slice(0, HASHES_KEPT);
    return hex;
  }

  /**
   * Remembers `snapshot` as the newest. `from` is the snapshot the call continued (what
   * `match` returned, or null): when it is the newest of its branch made with its settings
   * (a conversation may alternate Compactors), the new snapshot extends that branch;
   * otherwise it starts one. Forgets a snapshot of the same prefix, and what maxSnapshots,
   * maxBranches and maxBytes leave out (the newest always stays). Returns false, recording
   * nothing, when the snapshot alone is over maxBytes: no store that caps a value there could
   * hold it, whatever else were dropped for it.
   */
  record(snapshot, from = null) {
    const id = identity(snapshot);
    let rest = this.snapshots.filter((s) => identity(s) !== id);
    // (by identity, not object: another call's load may have read the same snapshot again since `from` was matched)
    const head = from && this.snapshots.find((s) => s.branch === from.branch && s.settings === from.settings);
    const continues = from !== null && head !== undefined && identity(head) === identity(from);
    // A new branch is named after its first prefix: two calls that start branches at once
    // (for two conversations, in two isolates) name them apart, and a save keeps both.
    const branch = continues ? from.branch : Number.parseInt(snapshot.prefix.slice(0, 12), 16);
    const recorded = { ...snapshot, branch };
    if (this.maxBytes) {
      const alone = stateBytes([recorded]);
      if (alone > this.maxBytes) {
        this.warn(`midfold: the compacted form of ${snapshot.count} messages is ${alone} bytes of session state, over maxBytes ` +
          `(${this.maxBytes}); it is not stored, so a later call continues from what was stored before (or plans afresh)`);
        return false;
      }
    }
    // A call that forked from an earlier snapshot (a regenerated turn) used its branch: that branch
    // becomes as recent as the fork, so turns regenerated again and again still find it.
    if (from && !continues) rest = [...rest.filter((s) => s.branch === from.branch), ...rest.filter((s) => s.branch !== from.branch)];
    this.recorded = recorded;
    this.snapshots = retained([this.recorded, ...rest], this.maxSnapshots, this.maxBranches);
    if (this.maxBytes) this.fitBytes();
    if (this.onRecord) this.onRecord(this);
    return true;
  }

  /** Drops snapshots until the JSON fits maxBytes: the earlier ones of each branch first
   * (oldest first), then the branches' newest (least recently extended first), never the newest. */
  fitBytes() {
    const fits = () => stateBytes(this.snapshots) <= this.maxBytes;
    while (this.snapshots.length > 1 && !fits()) {
      const heads = new Set();
      const branches = new Set();
      for (const s of this.snapshots) if (!branches.has(s.branch)) { branches.add(s.branch); heads.add(s); }
      let drop = this.snapshots.findLastIndex((s) => !heads.has(s));
      if (drop < 0) drop = this.snapshots.length - 1;
      this.snapshots.splice(drop, 1);
    }
  }
}
