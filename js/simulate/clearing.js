/**
 * clearing.js — micro-compaction of a conversation that grows at its end (a session
 * replayed turn by turn), each turn's plan the one planMicroCompact makes of the whole
 * conversation, at the cost of what is new.
 *
 * Planning the whole conversation every turn made a replay quadratic: an 8 MB session was
 * read in full at each of its 1,800 turns. What the whole plan decides depends on little:
 * - the estimate of the whole conversation (for `trigger` and `clearAtLeast`), which is the
 *   sum of per-message estimates from the last provider compaction on (src/micro.c); they are
 *   kept here by message object, so a turn estimates only its new messages;
 * - which results it may clear: those before the kept ones and before the pending turn, not
 *   cleared yet, not excluded, costlier than their marker. Whether a result qualifies depends
 *   on the result alone, except for its place, and the place only ever moves later as the
 *   conversation grows. So once a plan has cleared everything up to a message, nothing before
 *   it can qualify again (`settled`), and a plan of the messages from the assistant turn before
 *   that point on finds the same results with the same markers — provided each result's tool
 *   name is found there: a result whose call lies earlier is named "unknown" by such a plan,
 *   and the whole conversation is planned instead (one turn, then the point moves on).
 * A plan of the part is made without the trigger, clearAtLeast and the in-flight thinking
 * rule; those are then applied to the whole conversation's figures exactly as src/micro.c and
 * planMicroCompact apply them. tests/simulate-clearing.test.mjs checks every turn of sessions
 * in each format against planMicroCompact of the whole conversation.
 */
import { estimateEach, planMicroCompact, planMicroCompactOfEnd, signedThinking } from '../core/api.js';
import { applyEditsToCopy } from '../core/apply.js';
import { dropsMilli } from '../core/thinking.js';
import { fromAssistant } from './turns.js';

const tokensOf = (milli) => Math.ceil(milli / 1000);

/**
 * Per-message figures (as estimateEach gives them) of the last list seen, kept by message
 * object, and the estimate of the whole list (milli-tokens, from its last compaction on).
 * The messages are never changed by whoever holds them: a changed message is a new object.
 */
class Figures {
  constructor(profile, format) {
    this.options = { profile, format };
    this.byMessage = new WeakMap();
    /** @type {{message: unknown, milli: number, results: number, hasResults: boolean, compaction: boolean}[]} */
    this.list = [];
    /** Where the provider starts reading: the last message holding its compaction, or 0. */
    this.window = 0;
    this.milli = 0;
    /** The first index the last update() found changed. */
    this.changedFrom = 0;
    /** The first index whose message was changed in place since the last update(), or Infinity. */
    this.staleFrom = Infinity;
  }

  /** Messages of the list changed in place (same objects, new content): read again at the next update(). */
  invalidate(changed) {
    const list = this.list;
    for (let i = 0; i < list.length; i++) {
      if (!changed.has(list[i].message)) continue;
      if (i < this.staleFrom) this.staleFrom = i;
      this.byMessage.delete(list[i].message);
    }
  }

  /** Brings the figures up to `messages`; returns their estimate in milli-tokens. */
  update(messages) {
    const list = this.list;
    const n = messages.length;
    let k = 0;
    for (const end = Math.min(n, list.length, this.staleFrom); k < end && list[k].message === messages[k];) k++;
    this.staleFrom = Infinity;
    this.changedFrom = k;
    if (k === n && n === list.length) return this.milli;
    const next = new Array(n - k);
    const fresh = [], at = [];
    for (let i = k; i < n; i++) {
      const m = messages[i];
      const f = m !== null && typeof m === 'object' ? this.byMessage.get(m) : undefined;
      if (f !== undefined) next[i - k] = f;
      else { fresh.push(m); at.push(i - k); }
    }
    if (fresh.length) {
      const each = estimateEach(fresh, this.options);
      for (let j = 0; j < fresh.length; j++) {
        const f = { message: fresh[j], ...each[j] };
        next[at[j]] = f;
        if (fresh[j] !== null && typeof fresh[j] === 'object') this.byMessage.set(fresh[j], f);
      }
    }
    let milli = this.milli;
    if (k > this.window) for (let i = k; i < list.length; i++) milli -= list[i].milli;
    list.length = k;
    for (const f of next) list.push(f);
    // (a compaction among the new messages moves the window on; a changed window message means
    // looking for the last one again)
    const kept = k > this.window;
    let window = kept ? this.window : 0;
    for (let i = n - 1; i >= (kept ? k : 0); i--) if (list[i].compaction) { window = i; break; }
    if (window !== this.window || !kept) {
      milli = 0;
      for (let i = window; i < n; i++) milli += list[i].milli;
    } else {
      for (let i = k; i < n; i++) milli += list[i].milli;
    }
    this.window = window;
    this.milli = milli;
    return milli;
  }

  /**
   * An upper bound of what a plan could free from `from` on, in milli-tokens: the uncleared
   * results of every message holding results except the last `keep` of them (src/micro.c keeps
   * `keep` turns, a run of OpenAI tool messages counting once: it keeps at least as many).
   */
  clearable(from, keep) {
    const list = this.list;
    let kept = 0, sum = 0;
    for (let i = list.length - 1; i >= Math.max(from, this.window); i--) {
      if (!list[i].hasResults) continue;
      if (kept < keep) { kept++; continue; }
      sum += list[i].results;
    }
    return sum;
  }
}

/** The first message of the assistant turn before `settled`: a plan from there finds the calls of later results. */
function partStart(messages, settled) {
  let i = Math.min(settled, messages.length);
  while (i > 0 && !fromAssistant(messages[i - 1])) i--;
  while (i > 0 && fromAssistant(messages[i - 1])) i--;
  return i;
}

/**
 * The results a plan of `messages[from..]` clears, with their indices in `messages`, the
 * milli-tokens and characters that frees, and the signed thinking from the first of them on
 * (as the core lists and drops it); null when one of them has no tool name there (its call lies before
 * `from`).
 */
function planPart(messages, from, options) {
  const plan = from === 0 ? planMicroCompact(messages, options) : planMicroCompactOfEnd(messages.slice(from), options);
  if (from > 0 && plan.edits.some((e) => e.tool === 'unknown')) return null;
  const shift = (list) => (from === 0 ? list : list.map((e) => ({ ...e, message: e.message + from })));
  return { edits: shift(plan.edits), saved: plan.milliBefore - plan.milliAfter, charsCleared: plan.charsCleared, thinking: shift(plan.thinking), drops: shift(plan.drops),
    // (the part's signed loop in flight is the whole's, unless the answer read back to the part's first message)
    inFlight: from === 0 ? plan.inFlight : plan.inFlightOpen ? undefined : plan.inFlight < 0 ? -1 : plan.inFlight + from };
}

/** The options of planMicroCompact that the shortcut reads, with its defaults; throws its errors. */
function readOptions(options) {
  planMicroCompact([], options); // the same errors for the same options, at once
  const o = options || {};
  return {
    keepRecent: o.keepRecent ?? 3, trigger: o.trigger ?? 0, clearAtLeast: o.clearAtLeast ?? 0,
    thinking: o.thinking ?? 'prefix-bound', profile: o.profile, format: o.format === 'auto' ? undefined : o.format,
    excludeTools: o.excludeTools,
  };
}

class Clearing {
  /**
   * @param {object | undefined} options planMicroCompact's
   * @param {string | undefined} format the session's format, as detected on all of it: every
   *   prefix reads the same, or holds no tool result ('unknown': every plan is of the whole)
   */
  constructor(options, format) {
    this.options = options;
    this.o = readOptions(options);
    // (clearToolInputs edits the calls of results cleared on earlier turns too: a plan of the
    // part would not find them, so every plan is of the whole conversation)
    this.format = options && options.clearToolInputs ? undefined : this.o.format ?? (format === 'unknown' ? undefined : format);
    this.figures = new Figures(this.o.profile, this.format);
    this.partOptions = {
      keepRecent: this.o.keepRecent, profile: this.o.profile, format: this.format, thinking: 'unbound',
      ...(this.o.excludeTools === undefined ? {} : { excludeTools: this.o.excludeTools }),
    };
    /** Nothing before this index can be cleared by any later plan. */
    this.settled = 0;
  }

  /** The newly clearable results of `messages` (planned from the turn before `settled`). */
  part(messages) {
    return planPart(messages, partStart(messages, this.settled), this.partOptions) ?? planPart(messages, 0, this.partOptions);
  }

  /** Whether the whole plan, whose edits free `saved` of `before`, clears: the gates of src/micro.c and planMicroCompact. */
  clears(messages, before, saved, count, part) {
    const { trigger, clearAtLeast, thinking } = this.o;
    const tokensBefore = tokensOf(before);
    if (count === 0 || (trigger && tokensBefore <= trigger)) return false;
    const tokensAfter = tokensOf(before - saved);
    if (clearAtLeast && (tokensAfter >= tokensBefore || tokensBefore - tokensAfter < clearAtLeast)) return false;
    return !(thinking === 'prefix-bound' && this.inFlight(messages, part) >= 0);
  }

  /**
   * The core's signed loop in flight in `messages` (src/signed.c), or -1: the answer of the plan
   * of a part of it (planPart) when it holds for the whole, else asked of the list from its last
   * assistant turn on, and of twice as much while what comes before could change the answer.
   */
  inFlight(messages, part) {
    if (part && part.inFlight !== undefined) return part.inFlight;
    let from = partStart(messages, messages.length);
    for (;;) {
      const { inFlight, inFlightOpen } = signedThinking(from === 0 ? messages : messages.slice(from), { format: this.format, profile: this.o.profile });
      if (!inFlightOpen || from === 0) return inFlight < 0 ? -1 : inFlight + from;
      from = Math.max(0, from - Math.max(1, messages.length - from));
    }
  }

  settle(edits) {
    for (const e of edits) if (e.message + 1 > this.settled) this.settled = e.message + 1;
  }

  /** Starts afresh: the list was changed otherwise than this knows of (a fold, an edit in place). */
  forget() {
    this.figures = new Figures(this.o.profile, this.format);
    this.settled = 0;
  }
}

/**
 * A client's micro-compaction before each call: the plan planMicroCompact(messages, options)
 * makes, when `messages` is the list this was last asked about, grown at its end and with the
 * last plan's edits applied as copies (applyEditsToCopy). Call forget() when anything else
 * changed it.
 */
export class GrowingMicroCompaction extends Clearing {
  /** @returns {{edits: object[]}} */
  plan(messages) {
    if (this.format === undefined) return planMicroCompact(messages, this.options);
    const before = this.figures.update(messages);
    const none = { edits: [] };
    const { trigger, clearAtLeast, keepRecent } = this.o;
    // (cheap gates first: most turns of a batched policy end here)
    if (trigger && tokensOf(before) <= trigger) return none;
    const bound = this.figures.clearable(this.settled, keepRecent);
    if (bound === 0 || (clearAtLeast && tokensOf(before) - tokensOf(before - bound) < clearAtLeast)) return none;
    const part = this.part(messages);
    const { edits, saved } = part;
    if (!this.clears(messages, before, saved, edits.length, part)) return none;
    this.settle(edits);
    return { edits };
  }

}

/**
 * The Compactor's micro-compaction plan, made from what is new: what planMicroCompact(messages,
 * options) returns (edits, the estimates before and after, the characters cleared, `skipped`,
 * the signed thinking it lists, the in-flight deferral), for a Compactor that applies the edits
 * in place. Whoever applies them says so (`applied`), and names every message changed in place
 * otherwise (`changed`); forget() when the list was rebuilt. With other options than the ones
 * it was made with, the plan is planMicroCompact's of the whole list.
 */
export class GrowingMicroPlan extends Clearing {
  constructor(options, format) {
    super(options, format);
    this.given = { ...options };
  }

  /** @returns {object} planMicroCompact's plan of `messages` */
  plan(messages, options = this.given) {
    if (this.format === undefined || !sameOptions(options, this.given)) return planMicroCompact(messages, options);
    const before = this.figures.update(messages);
    const { trigger, clearAtLeast, keepRecent, thinking } = this.o;
    const held = (skipped, part) => ({ skipped, milliBefore: before, milliAfter: before, charsCleared: 0, edits: [], thinking: [],
      inFlight: this.inFlight(messages, part), drops: [], milliThinking: 0 });
    // (no result left to clear: nothing the whole plan could find, nor would have found)
    if (this.figures.clearable(this.settled, keepRecent) === 0) return held(false);
    const part = this.part(messages);
    if (part.edits.length === 0) return held(false, part);
    // The core's gates (src/micro.c): below the trigger, or freeing less than clearAtLeast,
    // nothing is cleared, and `skipped` says something would have been.
    const tokensBefore = tokensOf(before), after = before - part.saved;
    if (trigger && tokensBefore <= trigger) return held(true, part);
    if (clearAtLeast && (tokensOf(after) >= tokensBefore || tokensBefore - tokensOf(after) < clearAtLeast)) return held(true, part);
    const plan = { skipped: false, milliBefore: before, milliAfter: after, charsCleared: part.charsCleared, edits: part.edits, thinking: part.thinking,
      inFlight: this.inFlight(messages, part), drops: part.drops };
    // planMicroCompact's own rules after the core's plan (js/core/api.js).
    if (thinking === 'prefix-bound' && plan.inFlight >= 0) {
      return { ...plan, edits: [], charsCleared: 0, milliAfter: before, milliThinking: 0, drops: [], deferred: 'in-flight-thinking' };
    }
    plan.milliThinking = dropsMilli(plan.drops, thinking);
    plan.milliAfter -= plan.milliThinking;
    return plan;
  }

  /** The edits of the last plan were applied (in place): nothing before them can be cleared again. */
  applied(edits) { this.settle(edits); }

  /** These message objects were changed in place: their figures are read again. */
  changed(messages) { this.figures.invalidate(new Set(messages)); }
}

/** The same planMicroCompact options (excludeTools compared by content). */
function sameOptions(a, b) {
  const keys = new Set([...Object.keys(a || {}), ...Object.keys(b || {})]);
  for (const key of keys) {
    const x = a?.[key], y = b?.[key];
    if (key === 'excludeTools' && Array.isArray(x) && Array.isArray(y)) {
      if (x.length !== y.length || x.some((v, i) => v !== y[i])) return false;
    } else if (x !== y) return false;
  }
  return true;
}

/**
 * A provider's server-side clearing: each request is the full history the client keeps, with
 * the plan planMicroCompact(history, options) makes applied to a copy — the history itself is
 * never cleared. The copy is kept and grown from turn to turn; returns the history itself when
 * that plan clears nothing. The returned list is valid until the next call.
 */
export class GrowingServerClearing extends Clearing {
  constructor(options, format) {
    super(options, format);
    this.view = [];
    this.saved = 0;
    this.count = 0;
  }

  forget() {
    super.forget();
    this.view = [];
    this.saved = 0;
    this.count = 0;
  }

  request(history) {
    if (this.format === undefined) {
      const plan = planMicroCompact(history, this.options);
      return plan.edits.length ? applyEditsToCopy(history, plan.edits) : history;
    }
    const seen = this.figures.list.length;
    const before = this.figures.update(history);
    if (this.figures.changedFrom < seen) {
      // Not the last history grown at its end: the copy is made again.
      this.view = [];
      this.settled = this.saved = this.count = 0;
    }
    for (let i = this.view.length; i < history.length; i++) this.view.push(history[i]);
    // What any plan from now on clears is cleared in the copy now; whether this request is
    // cleared is the whole plan's gates' call.
    const part = this.part(this.view);
    const { edits, saved } = part;
    if (edits.length) {
      this.view = applyEditsToCopy(this.view, edits);
      this.settle(edits);
      this.saved += saved;
      this.count += edits.length;
    }
    // (the copy's signed loop in flight is the history's: clearings never touch thinking)
    return this.clears(history, before, this.saved, this.count, part) ? this.view : history;
  }
}
