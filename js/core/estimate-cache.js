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
 * A deep-frozen message (Immer's state) cannot change at all: once it has matched, its entry
 * is trusted by identity and the message is not walked again (holds).
 *
 * Entries live in a WeakMap keyed by the message objects, and the last call's list of them by
 * index (the fast path of the next call): dropping a conversation frees its entries once the
 * cache has been called with another one, cleared, or dropped. A new object that holds the
 * values of one priced before (a framework that rebuilds its messages every call) is found
 * by a string leaf of it (leafOf), and the entry is used only once its snapshot matches.
 */
import { estimateEach, estimateMilli } from './api.js';
import { matches, record } from './snapshot.js';
import { checkMessageCount, formatIndex, optionsObject, profileIndex } from './options.js';

/** Snapshot slots below which the store is never rebuilt. */
const MIN_STORE = 1 << 16;

/** Strings at least this long tell messages apart (ids, texts, tool output). */
const LEAF_MIN = 24;
/** Values a leaf search visits at most in one message. */
const LEAF_VISITS = 64;
/** Entries kept per leaf, the most recent first. */
const LEAF_CANDIDATES = 4;

/**
 * A string leaf that tells a message apart, or undefined: the first of at least LEAF_MIN UTF-16
 * units in walk order (a text, a tool result, a call id), else the longest one seen. It is
 * the key under which an entry is found again for a new object that holds the same values:
 * a framework that rebuilds its message objects every call (the AI SDK's provider-level
 * prompt) keeps their strings, and a string's hash is computed once and kept in it, so the
 * lookup costs about what the WeakMap's does.
 */
function leafOf(message) {
  let visits = 0;
  let longest;
  const walk = (v, depth) => {
    if (typeof v === 'string') {
      if (v.length >= LEAF_MIN) return v;
      if (longest === undefined || v.length > longest.length) longest = v;
      return undefined;
    }
    if (v === null || typeof v !== 'object' || depth > 4 || ++visits > LEAF_VISITS) return undefined;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) { const s = walk(v[i], depth + 1); if (s !== undefined) return s; }
      return undefined;
    }
    if (Object.getPrototypeOf(v) !== Object.prototype) return undefined;
    for (const k in v) { const s = walk(v[k], depth + 1); if (s !== undefined) return s; }
    return undefined;
  };
  try {
    return walk(message, 0) ?? longest;
  } catch {
    return undefined; // a getter that throws: no key (the estimator reports it, naming its path)
  }
}

/**
 * Per-message estimates for one profile and format, reused across calls.
 * Ownership: keeps a weak reference to each message object it has priced (and a snapshot of
 * its primitive values), and the last call's list of entries, which names that call's
 * messages, until the next call or clear(); the leaf index, and the entries not filed in it
 * yet, keep earlier entries (and the messages they name) until the snapshot store is next
 * rebuilt or clear(). Never changes a message.
 */
export class EstimateCache {
  /**
   * @param {{profile?: string, format?: string}} [options] as estimateTokens'
   */
  constructor(options) {
    const o = optionsObject(options, 'EstimateCache', ['profile', 'format']);
    profileIndex(o.profile); // a bad profile or format fails here, not at the first call
    formatIndex(o.format);
    this.profile = o.profile;
    this.format = o.format;
    /** Messages estimated by the last call (how much work it did). */
    this.lastEstimated = 0;
    this.clear();
  }

  /** Forgets every entry and the last call's list (the next call estimates everything). */
  clear() {
    /** @type {WeakMap<object, Entry>} */
    this.entries = new WeakMap();
    /** True until an entry is remembered: until then known() looks nothing up (a first fill()). */
    this.holdsNone = true;
    /** The last call's entries by index (each names its message): the next call's fast path. */
    this.previous = [];
    /** The last derivedEach list's entries, kept alive with their values in the same way. */
    this.derivedList = [];
    // Every snapshot lives in one array, each entry naming its range: a check walks the
    // messages and one block of memory in order, rather than a small array per message
    // scattered over the heap (about twice as fast once the heap is out of the CPU's cache).
    // A changed message's new snapshot is appended; when the array is mostly ranges no
    // current entry uses, it is rebuilt from the entries of the last lists (estimates and
    // derived values) and the generation moves on, which retires every other entry.
    this.store = [];
    this.generation = 0;
    this.recountAt = MIN_STORE;
    this.lastEstimated = 0;
    /** Entries by a string leaf of their message (leafOf), for new objects holding the same values. */
    /** @type {Map<string, Entry[]>} */
    this.byLeaf = new Map();
    // Entries not filed in byLeaf yet. Filing reads a leaf of each message and hashes it (more
    // than recording the message costs), and only a message the WeakMap does not know needs
    // the index, so entries are filed at the first lookup by leaf of a later call, never as
    // they are recorded: a call looks up only entries of earlier calls (two messages of one
    // list holding the same values need no shared entry). The first call on a conversation
    // files nothing, and a conversation that keeps its objects (the Compactor's) never does.
    /** @type {Entry[]} */
    this.unindexed = [];
    /** How many of `unindexed` came from earlier calls (set as a call starts). */
    this.settled = 0;
    /** How many more frozen messages this call may ask deepFrozen of (set as a call starts). */
    this.frozenChecks = 0;
    /** Entries the next call on one list may use without comparing (vouch), or null. */
    this.vouched = null;
  }

  /** Files the entries of earlier calls not filed yet (those still of the current store). */
  indexPending() {
    const pending = this.unindexed;
    const n = this.settled;
    for (let i = 0; i < n; i++) {
      const e = pending[i];
      if (e.message !== null && e.generation === this.generation) this.index(e.message, e);
    }
    pending.splice(0, n);
    this.settled = 0;
  }

  /** Files `entry` under its message's leaf in the leaf index (a call and its result share an id: a few per leaf). */
  index(message, entry) {
    const leaf = leafOf(message);
    if (leaf === undefined) return;
    const list = this.byLeaf.get(leaf);
    if (list === undefined) { this.byLeaf.set(leaf, [entry]); return; }
    if (list.includes(entry)) return;
    list.unshift(entry);
    if (list.length > LEAF_CANDIDATES) list.length = LEAF_CANDIDATES;
  }

  /**
   * The entry `message` (an object) still holds, or undefined: its own, one shared with it
   * (share), or one recorded for another object whose values it repeats, found by a string
   * leaf (leafOf) and compared with the snapshot like any other; such an entry is then
   * remembered for `message` too.
   */
  known(message) {
    if (this.holdsNone) return undefined;
    let entry = this.entries.get(message);
    if (entry !== undefined) return this.holds(entry, message) ? entry : undefined;
    if (this.settled) this.indexPending();
    if (this.byLeaf.size === 0) return undefined;
    const leaf = leafOf(message);
    const candidates = leaf === undefined ? undefined : this.byLeaf.get(leaf);
    if (candidates === undefined) return undefined;
    for (const candidate of candidates) {
      if (!this.holds(candidate, message)) continue;
      this.entries.set(message, candidate);
      return candidate;
    }
    return undefined;
  }

  /**
   * The estimate of `messages` in milli-tokens (what estimateTokens returns × 1000, before
   * rounding up), pricing only the messages not seen unchanged before.
   * @param {unknown[]} messages
   * @returns {number}
   */
  milli(messages) {
    checkMessageCount(messages, 'EstimateCache'); // (before the fallback below could read them whole)
    try {
      return this.figures(messages, 0).milli;
    } catch (error) {
      // A list that is no conversation (an item without a role, a hole) has no per-message
      // figures, but estimateTokens prices it as a JSON value: so does this, read whole each
      // time; any other error is estimateTokens' too.
      try {
        return estimateMilli(messages, { profile: this.profile, format: this.format });
      } catch {
        throw error;
      }
    }
  }

  /**
   * An upper bound, in milli-tokens, of what micro-compaction could free in `messages` with
   * `keepRecent`: the uncleared tool results of every message that holds results, except the
   * last `keepRecent` such messages. When it is below a clearAtLeast, micro-compaction would
   * clear nothing, so a caller can skip planning it.
   * @param {unknown[]} messages
   * @param {number} keepRecent
   */
  clearableMilli(messages, keepRecent) { return this.figures(messages, keepRecent).clearable; }

  /**
   * `{milli, clearable}`: milli() and clearableMilli() in one pass over the messages; null,
   * with nothing estimated, when more than `maxFresh` of them are new or changed (a caller
   * about to read the whole history anyway fills the cache with fill() instead).
   * @param {unknown[]} messages
   * @param {number} keepRecent
   * @param {number} [maxFresh]
   */
  figures(messages, keepRecent, maxFresh = Infinity) {
    checkMessageCount(messages, 'EstimateCache');
    const entries = this.entriesOf(messages, maxFresh);
    if (entries === null) return null;
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

  /**
   * Where a pass that encodes a list records each message's snapshot for fill() (the
   * encoder's SnapshotRecorder, js/core/encode.js): the cache's own store, appended to.
   * @returns {import('./encode.js').SnapshotRecorder}
   */
  recorder() { return { store: this.store, ranges: [], record }; }

  /**
   * Prices `messages` from figures computed elsewhere in the same pass over them (a
   * micro-compaction plan's, one per message, as estimateEach gives them), so the next call
   * estimates only what is new. Call it before `messages` can change; figures of another
   * length are ignored. With `recorded` (this cache's recorder(), filled by that pass) each
   * new entry takes the snapshot recorded there instead of reading its message again.
   * @param {unknown[]} messages
   * @param {{milli: number, results: number, hasResults: boolean, compaction: boolean}[]} figures
   * @param {import('./encode.js').SnapshotRecorder} [recorded]
   */
  fill(messages, figures, recorded) {
    if (!Array.isArray(figures) || figures.length !== messages.length) return;
    const ranges = recorded !== undefined && recorded.store === this.store && recorded.ranges.length === 2 * messages.length
      ? recorded.ranges : undefined;
    this.settled = this.unindexed.length;
    this.frozenChecks = frozenChecks(messages.length);
    this.lastEstimated = 0; // priced from the figures, nothing estimated here
    const out = this.previous;
    out.length = messages.length;
    for (let i = 0; i < messages.length; i++) {
      const m = messages[i];
      // An entry the message still matches (one shared with its original, one holding derived
      // values) is priced in place rather than replaced.
      const known = m !== null && typeof m === 'object' ? this.known(m) : undefined;
      out[i] = this.entryOf(m, figures[i], known, ranges === undefined ? -1 : ranges[2 * i], ranges === undefined ? -1 : ranges[2 * i + 1]);
    }
    this.compactStore();
  }

  /**
   * For each message, a value computed from that message alone by `compute(message)`, kept
   * with the message's entry and computed again only once the message changes (compared as
   * for estimates): a caller that derives something from every message of a growing history
   * (the session state's canonical JSON) derives it from what is new. `compute` names the
   * value: pass the same function each time. A message that is not an object is computed
   * every time. The cache keeps the values while the messages are kept (this list's until
   * the next derivedEach or clear()).
   * @template T
   * @param {unknown[]} messages
   * @param {(message: unknown) => T} compute
   * @returns {T[]}
   */
  derivedEach(messages, compute) {
    checkMessageCount(messages, 'EstimateCache');
    const list = this.derivedList;
    const n = messages.length;
    const values = new Array(n);
    this.settled = this.unindexed.length;
    this.frozenChecks = frozenChecks(n);
    // (the messages the last list holds at their index, the same objects: compared in a loop of their own, as unchangedPrefix)
    let i = this.derivedPrefix(messages, list, compute, values);
    for (; i < n; i++) {
      const m = messages[i];
      if (m === null || typeof m !== 'object') { values[i] = compute(m); list[i] = undefined; continue; }
      let entry = list[i];
      // A host that rebuilds its messages every call (from JSON: a proxy, the AI SDK's prompt) sends
      // new objects holding the values of the last call's at the same index: that entry is compared first.
      if (entry !== undefined && !(entry.message === m ? this.holds(entry, m) : this.adopt(entry, m))) entry = undefined;
      if (entry === undefined) entry = this.known(m);
      if (entry === undefined) entry = this.entryOf(m, null);
      // (one function in use, the usual case, is read from the entry's own slot: no map lookup)
      if (entry.derivedBy === compute) values[i] = entry.derived;
      else {
        if (entry.derivedBy !== null) {
          if (entry.memo === null) entry.memo = new Map();
          entry.memo.set(entry.derivedBy, entry.derived);
        }
        const value = entry.memo !== null && entry.memo.has(compute) ? entry.memo.get(compute) : compute(m);
        entry.derivedBy = compute;
        entry.derived = value;
        values[i] = value;
      }
      list[i] = entry;
    }
    list.length = n;
    this.compactStore();
    return values;
  }

  /**
   * How many messages at the start of `messages` are, each at its index, the message of the
   * entry `list` has there (the last derivedEach list), still hold it, and carry `compute`'s
   * value, which is written to `values`. derivedEach's loop goes on after them.
   * @param {unknown[]} messages
   * @param {(Entry | undefined)[]} list
   * @param {Function} compute
   * @param {unknown[]} values
   */
  derivedPrefix(messages, list, compute, values) {
    const end = Math.min(messages.length, list.length);
    for (let i = 0; i < end; i++) {
      const entry = list[i];
      const m = messages[i];
      if (entry === undefined || entry.message !== m || entry.derivedBy !== compute || !this.holds(entry, m)) return i;
      values[i] = entry.derived;
    }
    return end;
  }

  /**
   * Whether the object `message`, another than `entry`'s own, holds what `entry` recorded;
   * if so, the entry is `message`'s from now on (its earlier message may be gone: a rebuilt
   * history's last call), and whether it is deep-frozen is asked again (of `message`).
   */
  adopt(entry, message) {
    if (entry.generation !== this.generation) return false;
    try {
      if (matches(message, this.store, entry.from, 0) !== entry.to) return false;
    } catch {
      return false;
    }
    entry.message = message;
    entry.frozen = UNKNOWN;
    this.entries.set(message, entry);
    return true;
  }

  /**
   * Whether `entry` is of the current store and the object `message` still holds what it
   * recorded. A message that is its entry's own and deep-frozen (data properties only, every
   * object and array in it frozen: what Immer gives a store) can never hold anything else, so
   * once it has matched its snapshot it is not walked again.
   */
  holds(entry, message) {
    if (entry.generation !== this.generation) return false;
    if (entry.frozen === FROZEN && entry.message === message) return true;
    let held;
    try {
      held = matches(message, this.store, entry.from, 0) === entry.to;
    } catch {
      return false; // a getter that throws now: read afresh, where the estimator names its path
    }
    // Asked once, at the first match (the first call records, and freezing cannot be undone); a
    // message that is not frozen at its top is told at once, a frozen one costs about a walk,
    // so each call answers for at most a quarter of its messages (frozenChecks) and the rest
    // wait for the next calls: from the fifth call on, every one is answered.
    if (held && entry.frozen === UNKNOWN && entry.message === message) {
      if (!Object.isFrozen(message)) entry.frozen = THAWED;
      else if (this.frozenChecks > 0) {
        this.frozenChecks--;
        entry.frozen = deepFrozen(message, 0) ? FROZEN : THAWED;
      }
    }
    return held;
  }

  /**
   * Lets `copy` use the entry of `original` (a copy that holds the same values, such as the
   * session state's editable copies): it is still compared with the snapshot before use.
   * @param {object} copy
   * @param {object} original
   */
  share(copy, original) {
    if (copy === null || typeof copy !== 'object' || original === null || typeof original !== 'object') return;
    const entry = this.entries.get(original);
    if (entry !== undefined && entry.generation === this.generation) this.entries.set(copy, entry);
  }

  /**
   * The entry filed for `object` (its own, or one shared with it), when it is priced and of
   * the current store, without comparing `object` with its snapshot; else undefined. Only for
   * an object its caller knows cannot have changed since that entry was filed (data of its own
   * that nobody else can reach): any other is to be compared (share, known).
   * @param {object} object
   */
  trustedEntry(object) {
    const entry = this.entries.get(object);
    return entry !== undefined && entry.priced && entry.generation === this.generation ? entry : undefined;
  }

  /**
   * The entries the last derivedEach() compared its messages with, by index (each one its
   * message held at that call). Read-only; valid until the cache's next call.
   * @returns {(Entry | undefined)[]}
   */
  derivedEntries() { return this.derivedList; }

  /**
   * Tells the next figures() (or milli(), clearableMilli()) call, when it is on `list`, that
   * `entries[k]` holds what list[k] holds: the caller made list[k] just now as a copy of a
   * message that matched that entry in the same call (derivedEntries()), so comparing it
   * again would read the same values twice. Used once: the call on `list` (or any other entry
   * lookup on another list) forgets it; a missing or retired entry is compared as usual.
   * Ownership: keeps `list` and `entries` until then.
   * @param {unknown[]} list
   * @param {(Entry | undefined)[]} entries
   */
  vouch(list, entries) { this.vouched = { list, entries, generation: this.generation }; }

  /**
   * A new entry for `message` from its figures (null: not priced yet), remembered when it is
   * an object; an entry `message` still matches keeps its snapshot and derived values. Its
   * snapshot is recorded here, or was recorded at `from`..`to` of the store by the pass that
   * computed the figures (-1: not).
   */
  entryOf(message, f, known, from = -1, to = -1) {
    if (known !== undefined) {
      known.price(f);
      return known;
    }
    const entry = new Entry(f);
    if (message !== null && typeof message === 'object') {
      entry.message = message;
      entry.generation = this.generation;
      if (from >= 0) {
        entry.from = from;
        entry.to = to;
      } else {
        entry.from = this.store.length;
        record(message, this.store, 0);
        entry.to = this.store.length;
      }
      this.entries.set(message, entry);
      this.holdsNone = false;
      this.unindexed.push(entry);
    }
    return entry;
  }

  /**
   * The entry of every message, estimating the new or changed ones in one crossing; null
   * when more than `maxFresh` are (nothing estimated then).
   */
  entriesOf(messages, maxFresh = Infinity) {
    // A conversation usually comes back as the same list grown at the end: the entry at the
    // same index, when it belongs to the same message object, spares a WeakMap lookup. The
    // list is rewritten in place (no allocation per call): every entry in it names its message
    // and is compared with it before use, so a slot left over from a failed call is harmless.
    const out = this.previous;
    const n = messages.length;
    const before = out.length;
    this.settled = this.unindexed.length;
    this.frozenChecks = frozenChecks(n);
    const fresh = [];
    const at = [];
    const known = []; // per fresh message: its entry when it matches one not priced yet
    // While every message of the last call is still at its index, the ones after them are the
    // new turn: looking them up (which files the entries of earlier calls in the leaf index,
    // the whole history after a first call) would find nothing.
    let grown = true;
    // (entries vouched for, for this list: its messages are copies made this call of messages compared this call)
    const v = this.vouched;
    this.vouched = null;
    const vouched = v !== null && v.list === messages && v.generation === this.generation ? v.entries : null;
    for (let i = vouched === null ? this.unchangedPrefix(messages, out) : 0; i < n; i++) {
      const m = messages[i];
      if (vouched !== null) {
        const e = vouched[i];
        if (e !== undefined && e.generation === this.generation) {
          if (e.priced) { out[i] = e; continue; }
          // (one not priced yet, a message new this call, is priced by this call's estimate: the next call's copy is vouched for by it)
          if (fresh.length === maxFresh) { this.lastEstimated = 0; return null; }
          fresh.push(m); at.push(i); known.push(e);
          continue;
        }
      }
      let entry = i < before ? out[i] : undefined;
      if (entry !== undefined && (entry.message !== m || !this.holds(entry, m))) entry = undefined;
      if (entry === undefined && i < before) grown = false;
      if (entry === undefined && !(grown && i >= before) && typeof m === 'object' && m !== null) entry = this.known(m);
      if (entry !== undefined && entry.priced) out[i] = entry;
      else {
        // (a caller about to read the whole history anyway stops the walk as soon as it knows)
        if (fresh.length === maxFresh) { this.lastEstimated = 0; return null; }
        fresh.push(m); at.push(i); known.push(entry);
      }
    }
    if (out.length > n) out.length = n;
    this.lastEstimated = fresh.length;
    if (fresh.length) {
      // Plain messages price alike in every format; structured ones carry the evidence that
      // detection reads, so the new messages are read in the format they show.
      const options = { profile: this.profile, format: this.format };
      const recorded = this.recorder(); // each new message's snapshot, taken as it is encoded
      let each;
      try {
        each = estimateEach(fresh, options, messages, recorded);
      } catch (error) {
        // An error names the position of the bad message in the list that was read, here the
        // new ones alone: read the whole list once more (a rare path) for an error that names
        // its position in the conversation (input[41], not input[0]).
        if (fresh.length !== n) estimateEach(messages, options, messages);
        throw error;
      }
      const { ranges } = recorded;
      for (let k = 0; k < fresh.length; k++) out[at[k]] = this.entryOf(fresh[k], each[k], known[k], ranges[2 * k], ranges[2 * k + 1]);
      this.compactStore();
    }
    return out;
  }

  /**
   * How many messages at the start of `messages` still hold, each at its index, the priced
   * entry `out` has there (the last call's list): entriesOf's loop need only start after them.
   * This is the hot loop of every call, on its own with nothing after it but a return of a
   * number: V8 compiles such a loop while it runs (on-stack replacement), and inside the general
   * loop the paths for new messages, reached only at the very end of a call, had no type
   * feedback there and deoptimized the compiled loop at the end of every check (17 times in 18
   * checks; none now). Paired runs at 10,000 Chinese messages: 1.52-1.65 ms a check from the
   * third call on, against 1.65-1.74 ms.
   * @param {unknown[]} messages
   * @param {Entry[]} out
   */
  unchangedPrefix(messages, out) {
    const end = Math.min(messages.length, out.length);
    for (let i = 0; i < end; i++) {
      const entry = out[i];
      const m = messages[i];
      if (entry === undefined || entry.message !== m || !entry.priced || !this.holds(entry, m)) return i;
    }
    return end;
  }

  /**
   * Rebuilds the snapshot store from the entries of the last lists (estimates and derived
   * values) when most of it is ranges nothing uses; the generation moves on, retiring the rest.
   */
  compactStore() {
    // Counting what is used reads every entry: only when the store has outgrown the last count.
    if (this.store.length <= this.recountAt) return;
    const lists = [this.previous, this.derivedList];
    let used = 0;
    for (const live of lists) for (let i = 0; i < live.length; i++) if (live[i] !== undefined) used += live[i].to - live[i].from;
    this.recountAt = Math.max(MIN_STORE, 2 * used);
    if (this.store.length <= this.recountAt) return;
    const store = [];
    const generation = this.generation + 1;
    for (const live of lists) {
      for (let i = 0; i < live.length; i++) {
        const e = live[i];
        // (an entry listed twice is copied once: its generation has moved on)
        if (e === undefined || e.message === null || e.generation !== this.generation) continue;
        const from = store.length;
        for (let j = e.from; j < e.to; j++) store.push(this.store[j]);
        e.from = from;
        e.to = store.length;
        e.generation = generation;
      }
    }
    this.store = store;
    this.generation = generation;
    this.recountAt = Math.max(MIN_STORE, 2 * store.length);
    // The leaf index holds its entries strongly: it keeps only those of the current store,
    // filed again at the next lookup by leaf.
    this.byLeaf = new Map();
    const pending = [];
    for (const live of lists) for (let i = 0; i < live.length; i++) if (live[i] !== undefined && live[i].message !== null) pending.push(live[i]);
    this.unindexed = pending;
    this.settled = 0;
  }

  /** The estimate of `messages` in whole tokens, rounded up as estimateTokens rounds. */
  tokens(messages) { return Math.ceil(this.milli(messages) / 1000); }
}

/** Entry.frozen: not asked yet, deep-frozen, or not. */
const UNKNOWN = 0, FROZEN = 1, THAWED = 2;

/**
 * Whether `value` can never again hold other values than now, as the snapshot reads it: a
 * primitive; or a frozen plain object or array whose own properties are all data properties
 * holding such values. Binary data (its bytes change under a frozen view), objects with
 * toJSON or of another prototype (a getter up their chain) are not.
 */
function deepFrozen(value, depth) {
  if (value === null || typeof value !== 'object') return true;
  if (depth > 64 || !Object.isFrozen(value)) return false;
  if (Array.isArray(value)) {
    if (Object.getPrototypeOf(value) !== Array.prototype) return false;
    for (let i = 0; i < value.length; i++) if (!frozenData(Object.getOwnPropertyDescriptor(value, i), depth)) return false;
    return true;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype) return false;
  // (the keys the snapshot walks: for-in's; a hole or a getter among them is not data)
  for (const k in value) if (!frozenData(Object.getOwnPropertyDescriptor(value, k), depth)) return false;
  return true;
}
const frozenData = (d, depth) => d !== undefined && d.get === undefined && d.set === undefined && deepFrozen(d.value, depth + 1);

/** How many frozen messages a call on `n` messages asks deepFrozen of (about a walk each). */
const frozenChecks = (n) => Math.max(256, n >> 2);

/** One message's figures, where its snapshot lies in the store, and values derived from it. */
class Entry {
  /** @param {{milli: number, results: number, hasResults: boolean, compaction: boolean} | null} f */
  constructor(f) {
    this.priced = false;
    this.milli = 0;
    this.results = 0;
    this.hasResults = false;
    this.compaction = false;
    /** @type {object | null} */
    this.message = null;
    this.generation = -1;
    this.from = 0;
    this.to = 0;
    /** Whether `message` is deep-frozen (UNKNOWN, FROZEN or THAWED), asked at its first match. */
    this.frozen = UNKNOWN;
    /** @type {Map<Function, unknown> | null} derived() values */
    this.memo = null;
    /** The derived value last asked for, and the function that computed it (derivedEach's fast path). */
    this.derivedBy = null;
    this.derived = undefined;
    if (f) this.price(f);
  }

  price(f) {
    this.priced = true;
    this.milli = f.milli;
    this.results = f.results;
    this.hasResults = f.hasResults;
    this.compaction = f.compaction;
  }
}
