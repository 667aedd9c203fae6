/**
 * compact-history.js — compaction for hosts that hand over the whole original history
 * on every call (framework steps, a proxy whose clients re-send everything). With a
 * SessionState, the call rebuilds the array a stateful Compactor would be holding by
 * now — the remembered compacted form of the longest remembered prefix, then the
 * messages that came after it — runs the Compactor on that, and remembers the result.
 * So the summaries written, and the array forwarded, are the stateful Compactor's.
 */
import { MidfoldError } from '../core/errors.js';
import { checkMessageCount } from '../core/options.js';
import { base64, bytesOf, canonicalJSON, historyBytes } from './hash.js';
import { EstimateCache } from '../core/estimate-cache.js';
import { SessionState } from './session-state.js';

/** Reasons after which the result is a compacted form worth remembering; after any other
 * (a failed or abandoned summary) the state is left as it was. */
const SUCCESS = new Set(['below-threshold', 'nothing-to-summarize', 'compacted', 'compacted-with-digest']);

const isPlain = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * A copy of a message that the Compactor may edit without touching the caller's
 * objects: the message, each of its arrays (content, parts, ...) and each object in
 * those arrays are copied; deeper values are shared, since micro-compaction only
 * replaces fields at those two levels, never edits inside them.
 */
function editableCopy(message) {
  if (!isPlain(message)) return message;
  const copy = shallow(message);
  for (const key of Object.keys(copy)) {
    if (Array.isArray(copy[key])) copy[key] = copy[key].map((v) => (isPlain(v) ? shallow(v) : v));
  }
  return copy;
}

/** A copy of an object's own enumerable fields, with its prototype (a class instance stays one). */
const shallow = (object) => (Object.getPrototypeOf(object) === Object.prototype ? { ...object }
  : Object.assign(Object.create(Object.getPrototypeOf(object)), object));

/** True when `copy` (an editableCopy of `original`) still holds exactly its values. */
function untouched(copy, original) {
  if (!isPlain(original)) return copy === original;
  const keys = Object.keys(copy);
  if (keys.length !== Object.keys(original).length) return false;
  for (const key of keys) {
    const a = copy[key];
    const b = original[key];
    if (Array.isArray(b) && Array.isArray(a) && a !== b) {
      if (a.length !== b.length) return false;
      for (let i = 0; i < a.length; i++) {
        if (isPlain(b[i]) && isPlain(a[i]) && a[i] !== b[i]) {
          const ka = Object.keys(a[i]);
          if (ka.length !== Object.keys(b[i]).length || ka.some((k) => a[i][k] !== b[i][k])) return false;
        } else if (a[i] !== b[i]) return false;
      }
    } else if (a !== b || !Object.prototype.hasOwnProperty.call(original, key)) return false;
  }
  return true;
}

/**
 * The JSON value of a message (what a store keeps and what goes over the wire). Binary data
 * (an image's bytes in an AI SDK message, which may sit beside a result that was cleared) is
 * written as its base64 string, which every format that carries bytes also accepts
 * (DataContent is a string or bytes), rather than JSON.stringify's object of one key per byte.
 */
const jsonCopy = (value) => remembered(JSON.parse(JSON.stringify(value, keepBytes)));

/**
 * The messages this module wrote into a snapshot's items (jsonCopy): its own, which nothing
 * else can reach (toJSON writes copies of them, and every call works on a clone), so they
 * never change. A clone of one is priced from the entry the last clone of it had, without
 * comparing it again (workingCopy). A state read from a store or from JSON is not in it: its
 * messages are compared as any other.
 */
const own = new WeakSet();
const remembered = (message) => { if (message !== null && typeof message === 'object') own.add(message); return message; };

/**
 * A deep copy of JSON data (what a snapshot's item holds: plain objects, arrays, primitives),
 * sharing only its strings: what is sent for a remembered message, which the caller and the
 * Compactor may then edit without reaching the state. (A walk, not a JSON round trip: the
 * strings are not written out and read back, and being the same strings, a comparison with
 * the last clone's snapshot does not read their text.)
 */
function cloneJSON(value) {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const out = new Array(value.length);
    for (let i = 0; i < value.length; i++) out[i] = cloneJSON(value[i]);
    return out;
  }
  const out = {};
  for (const k in value) {
    // (JSON.parse makes "__proto__" an own key: an assignment would set the prototype instead)
    if (k === '__proto__') Object.defineProperty(out, k, { value: cloneJSON(value[k]), enumerable: true, writable: true, configurable: true });
    else out[k] = cloneJSON(value[k]);
  }
  return out;
}
function keepBytes(key, value) {
  const bytes = bytesOf(this[key]); // the value before toJSON (a Buffer's would list its bytes)
  return bytes ? base64(bytes) : value;
}

/** The settings a snapshot was made with: a call prefers a snapshot of its own settings (SessionState.match). */
export function compactorSettings(compactor) {
  const c = compactor;
  const settings = [c.threshold, c.keepRecent, c.keepTailTokens, c.maxSummaryTokens, c.maxTranscriptTokens,
    c.language ?? null, c.instructions ?? null, c.profile ?? null, c.format ?? null, c.fallback ?? null];
  // (only when set, so that the states saved before excludeTools existed still match)
  if (c.excludeTools && c.excludeTools.length) settings.push([...c.excludeTools].sort());
  if (c.keepTailMessages) settings.push({ keepTailMessages: c.keepTailMessages });
  return JSON.stringify(settings);
}

/**
 * Compacts a whole original history into a new array, carrying what earlier calls did
 * in `options.state`. The caller's array and its messages are never changed.
 *
 * Resolves to `{messages, report}`: `messages` is what to send (untouched originals are
 * copies sharing the caller's nested values; messages midfold wrote or edited are JSON
 * copies of what was remembered, identical call after call), `report` the Compactor's
 * report plus `session: {matched, changed, saved, unsaved?}` — `matched` the original messages
 * whose compacted form was reused (0: a fresh plan), `changed` whether `messages`
 * differs from the input at all, `saved` whether the state was updated, and when a save was
 * due but did not happen, `unsaved` says why: 'too-large' (the compacted form alone is over
 * the state's maxBytes, so it is not stored) or 'store-error' (the store failed to write).
 *
 * On a summarizer failure the messages are as the stateful Compactor would leave them
 * (the remembered compacted form plus the new messages) and the state is untouched.
 *
 * With `options.deferSave`, nothing is written yet: when there is something to remember, the
 * result also holds `save()`, which records it and resolves to the report's `session`, updated
 * (`saved`, `unsaved`); call it once the provider accepted the request (a proxy: after the
 * upstream's 2xx status), so that a request it refuses (a bad key, a bad request) leaves no
 * state. Without save() the state stays as it was. Until save() resolves, a call on the same
 * state that continues this one does not see its result (it plans from what was saved).
 * @param {{compact: Function}} compactor a Compactor; its options are the plan's
 * @param {unknown[]} messages the whole history, as the host has it
 * `options.usage` ({inputTokens, count?, last?}) is the provider's input count for the
 * messages the previous call on this state returned, as they were sent: with a matching
 * snapshot, the remembered form; without one (that call changed nothing), the first `count`
 * messages. It anchors the estimate (the threshold then uses the provider's count for that
 * prefix). `last`, the canonical JSON of the last message that count was for, makes it apply
 * only where that message ends the prefix; a list of such anchors (the most recent first)
 * uses the first that applies, so a host serving many conversations can pass its recent
 * answers' counts without knowing which conversation each belongs to. `options.context`
 * names what a provider's count covers besides the messages (an integration passes a hash of
 * the system prompt, tools and tool choice): a call that records its count with the state
 * records it under its context, and a later call uses that count only under the same one (a
 * count taken with other tools, or another system prompt, is another prompt's). The `usage`
 * given are the caller's to choose by context. `options.signal` aborts the summary, and a wait
 * for a call in flight on the same state (SessionState.begin).
 * @param {{state?: SessionState, force?: boolean, signal?: AbortSignal, instructions?: string,
 *   usage?: {inputTokens: number}, context?: string, deferSave?: boolean}} [options]
 */
export async function compactHistory(compactor, messages, options = {}) {
  if (!compactor || typeof compactor.compact !== 'function')
    throw new MidfoldError('invalid-option', 'compactHistory: the first argument must be a Compactor');
  if (!Array.isArray(messages)) throw new MidfoldError('invalid-input', 'compactHistory: messages must be an array');
  checkMessageCount(messages, 'compactHistory');
  if (!isPlain(options)) throw new MidfoldError('invalid-option', 'compactHistory: options must be an object');
  const { state } = options;
  if (state !== undefined && !(state instanceof SessionState))
    throw new MidfoldError('invalid-option', 'compactHistory: state must be a SessionState');
  const { signal } = options;
  if (signal !== undefined && (signal === null || typeof signal !== 'object' || typeof signal.addEventListener !== 'function'))
    throw new MidfoldError('invalid-option', 'compactHistory: signal must be an AbortSignal');
  if (options.usage !== undefined && !(Array.isArray(options.usage) ? options.usage : [options.usage]).every(isAnchor))
    throw new MidfoldError('invalid-option', 'compactHistory: usage must be {inputTokens, count?, last?} (whole numbers, last a string) or a list of them');
  if (options.context !== undefined && typeof options.context !== 'string')
    throw new MidfoldError('invalid-option', 'compactHistory: context must be a string');
  if (options.deferSave !== undefined && typeof options.deferSave !== 'boolean')
    throw new MidfoldError('invalid-option', 'compactHistory: deferSave must be a boolean');
  const compactOptions = { force: options.force, signal: options.signal, instructions: options.instructions, usage: options.usage,
    context: options.context };
  return run(compactor, messages, compactOptions, state || null, options.deferSave === true);
}

const isAnchor = (u) => isPlain(u) && Number.isInteger(u.inputTokens) && u.inputTokens >= 0
  && (u.count === undefined || (Number.isInteger(u.count) && u.count >= 0)) && (u.last === undefined || typeof u.last === 'string');

/**
 * The first usage anchor that applies to `working`, as {inputTokens, count}, or null. The
 * prefix it counted is the remembered compacted form (with a snapshot) or, without one, the
 * first `count` messages (that call changed nothing). An anchor that names its prompt's last
 * message (`last`, its canonical JSON) applies only where that message ends the prefix: a
 * count from another conversation never prices this one.
 */
function anchorOf(candidates, working, snapshot, originalLength) {
  const lastOf = new Map(); // sent count -> canonical JSON of the message that ends it (once each)
  for (const u of candidates) {
    const sent = snapshot ? working.length - (originalLength - snapshot.count)
      : Number.isInteger(u.count) && u.count > 0 && u.count <= working.length ? u.count : 0;
    if (sent <= 0) continue;
    if (u.last !== undefined) {
      if (!lastOf.has(sent)) {
        let last = null;
        try { last = canonicalJSON(working[sent - 1]); } catch { /* no anchor can name it */ }
        lastOf.set(sent, last);
      }
      if (lastOf.get(sent) !== u.last) continue;
    }
    return { inputTokens: u.inputTokens, count: sent };
  }
  return null;
}

/**
 * The provider's count a snapshot carries, as {inputTokens, count}, or null: when the call that
 * recorded it was anchored and changed nothing (below the threshold, nothing cleared), the first
 * `count` messages of its form are the prompt that count was for. A later call that continues
 * it and was given no count of its own is anchored on it: the first step of the next AI SDK
 * `generateText` (prepareStep is never told the last step's usage) or a host that passes none.
 * `formLength`: how many messages of the working array are the snapshot's form. A count recorded
 * under a context (compactHistory's `context`) prices only calls under the same one, and one
 * recorded without a context only calls without one.
 */
function carriedAnchor(snapshot, formLength, context) {
  const a = snapshot && snapshot.anchor;
  return a && a.context === context && a.count > 0 && a.count <= formLength ? { inputTokens: a.inputTokens, count: a.count } : null;
}

/** Whether a compaction left every message as it was (so an anchored prefix still stands). */
const unchangedBy = (report) => report.reason === 'below-threshold'
  && !(report.micro && report.micro.cleared) && !report.thinkingRemoved;

async function run(compactor, messages, compactOptions, state, deferSave) {
  const original = messages.slice(); // the host may change its array while a summary is written
  // The Compactor's estimate cache also keeps each original's canonical bytes, and its entries
  // serve the editable copies below: a history that grew by a turn is read for that turn.
  const cache = compactor.estimates instanceof EstimateCache ? compactor.estimates : null;
  const canonical = state ? historyBytes(original, cache) : null;
  // (the entries that pass compared each original with, taken now: another call on the same
  // Compactor may run its own pass while this one waits for its state)
  const derived = canonical && cache ? cache.derivedEntries().slice() : null;
  const settings = compactorSettings(compactor);
  // A call waits only for a call in flight that it continues (SessionState.begin): another
  // conversation under the key goes on while this one's summary is written.
  const { snapshot, flight } = state ? await state.begin(canonical, settings, compactOptions.signal) : { snapshot: null, flight: null };
  try {
    return await continueFrom(snapshot, { compactor, original, cache, canonical, derived, settings, compactOptions, state, deferSave });
  } finally {
    if (flight) state.end(flight);
  }
}

/** The rest of run(): rebuilds the working array from `snapshot`, compacts it and records the result. */
async function continueFrom(snapshot, { compactor, original, cache, canonical, derived, settings, compactOptions, state, deferSave }) {
  // The array a stateful Compactor would hold: the remembered form, then what is new; `origin`
  // names, by position, each one's original index or remembered item.
  const working = [];
  const origin = [];
  // Each copy of an original holds what the original held when historyBytes compared it with
  // its entry, at the start of this call: the Compactor's check need not compare it again (the
  // prefix matched is that comparison's too: a message changed in place meanwhile is the host's
  // to avoid, whose change the remembered form would not show either).
  const vouched = derived ? [] : null;
  const copyOf = (i) => {
    const copy = editableCopy(original[i]);
    const entry = vouched ? derived[i] : undefined;
    // (a copy priced from its vouched entry is never looked up; one not priced yet is, once)
    if (cache && !(entry && entry.priced)) cache.share(copy, original[i]);
    if (vouched) vouched[working.length] = entry;
    origin.push(i);
    working.push(copy);
  };
  if (snapshot) {
    for (const item of snapshot.items) {
      if (Array.isArray(item)) {
        for (let i = item[0]; i < item[1]; i++) copyOf(i);
      } else {
        const copy = cloneJSON(item.message);
        // (a message of this module's is priced from its last clone's entry; another is compared once)
        const entry = cache && own.has(item.message) ? cache.trustedEntry(item.message) : undefined;
        if (cache && entry === undefined) cache.share(copy, item.message);
        if (vouched) vouched[working.length] = entry;
        origin.push(item);
        working.push(copy);
      }
    }
  }
  for (let i = snapshot ? snapshot.count : 0; i < original.length; i++) copyOf(i);
  if (vouched) cache.vouch(working, vouched);
  const built = working.slice(); // (the compaction may move, replace or add messages)

  // The provider's count for what the previous call returned (the remembered compacted form,
  // as it was sent) anchors the estimate: only what came after it is estimated.
  // Without one, the count the snapshot carries (see below) for the first messages of its form.
  const { usage, context, ...passOn } = compactOptions;
  const anchor = anchorOf(usage === undefined ? [] : Array.isArray(usage) ? usage : [usage], working, snapshot, original.length)
    ?? carriedAnchor(snapshot, working.length - (original.length - (snapshot ? snapshot.count : 0)), context);
  // Given to this call alone: one Compactor may serve several conversations at once.
  const report = await compactor.compact(working, anchor ? { ...passOn, usage: anchor } : passOn);

  // What the array became, in terms a later call can rebuild from its own originals.
  let byObject = null; // built only when the compaction moved or replaced messages
  const originOf = (m, k) => {
    if (k < built.length && built[k] === m) return origin[k];
    if (byObject === null) byObject = new Map(built.map((b, j) => [b, origin[j]]));
    return byObject.get(m);
  };
  const items = [];
  let identity = working.length === original.length;
  // (a check that changed nothing left each copy as it was made: no need to compare them)
  const asBuilt = unchangedBy(report) && working.length === built.length && working.every((m, k) => m === built[k]);
  working.forEach((m, k) => {
    const from = originOf(m, k);
    if (typeof from === 'number' && (asBuilt || untouched(m, original[from]))) {
      if (from !== k) identity = false;
      const last = items[items.length - 1];
      if (Array.isArray(last) && last[1] === from) last[1] = from + 1;
      else items.push([from, from + 1]);
      return;
    }
    identity = false;
    if (typeof from === 'number') items.push({ at: from, message: jsonCopy(m) });
    else if (from && (asBuilt || JSON.stringify(m) === JSON.stringify(from.message))) {
      // The clone's entry (priced as it was made, so what the item holds) serves the next call's clone.
      if (cache && asBuilt) cache.share(from.message, m);
      items.push(from);
    } else if (from) items.push({ ...from, message: jsonCopy(m) });
    else items.push({ message: jsonCopy(m) }); // written by this compaction
  });

  const session = { matched: snapshot ? snapshot.count : 0, changed: !identity, saved: false };
  const result = { messages: working, report: { ...report, session } };
  // An identity result needs no memory: a fresh plan gives the same.
  if (state && SUCCESS.has(report.reason) && !identity) {
    const carried = anchor && unchangedBy(report)
      ? { anchor: { inputTokens: anchor.inputTokens, count: anchor.count, ...(context === undefined ? {} : { context }) } } : {};
    const recorded = {
      settings, count: original.length, prefix: await state.prefixHash(canonical, original.length), items,
      tokens: report.tokensAfter, bytes: original.length ? canonical.ends[original.length - 1] : 0, ...carried,
    };
    let saving = null;
    const save = () => {
      saving ??= state.finish(recorded, snapshot).then((outcome) => {
        session.saved = outcome === 'saved';
        if (!session.saved) session.unsaved = outcome;
        return session;
      });
      return saving;
    };
    if (deferSave) result.save = save;
    else await save();
  }
  return result;
}
