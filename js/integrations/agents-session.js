/**
 * agents-session.js — `midfoldSession`: an Agents SDK `Session` over any other session (the
 * SDK's MemorySession, a SQLite- or Redis-backed one, the host's own) that compacts what the
 * session stores, so `session.getItems()` and the next run's `result.history` stop growing.
 *
 * The SDK's runner calls a session's `runCompaction` after it has saved a finished turn (the
 * hook `OpenAIResponsesCompactionSession` uses for `responses.compact`). Here the hook reads
 * the stored items in their Responses form, compacts them with midfold's Compactor on the
 * `openai-responses` format (calls keep their outputs, reasoning items stay before what they
 * were produced with, the pending turn and the live tail stay verbatim) and, when something
 * changed, writes the result back in the SDK's spelling. Untouched items are written back as
 * they were read; nothing is written when the summarizer fails, or when the stored items
 * changed while the summary was being written. `@openai/agents` is a peer: nothing here
 * imports it.
 */
import { MidfoldError } from '../core/errors.js';
import { Compactor } from '../compaction/compactor.js';
import { toResponses, fromResponses } from './agents-items.js';

const SESSION_METHODS = ['getSessionId', 'getItems', 'addItems', 'popItem', 'clearSession'];

const same = (a, b) => a.length === b.length && a.every((x, i) => JSON.stringify(x) === JSON.stringify(b[i]));

/**
 * A Session decorator (see midfoldSession). Every change to the stored items goes through one
 * queue, so a compaction never interleaves with an append made through this session.
 */
class MidfoldSession {
  constructor(options) {
    if (!options || typeof options !== 'object') throw new MidfoldError('invalid-option', 'midfoldSession: options with underlyingSession and a summarize function are required');
    const { underlyingSession, onReport, ...compactorOptions } = options;
    const missing = !underlyingSession || typeof underlyingSession !== 'object' ? SESSION_METHODS
      : SESSION_METHODS.filter((m) => typeof underlyingSession[m] !== 'function');
    if (missing.length) throw new MidfoldError('invalid-option', `midfoldSession: underlyingSession must be a Session (missing ${missing.join(', ')})`);
    if (onReport !== undefined && typeof onReport !== 'function') throw new MidfoldError('invalid-option', 'midfoldSession: onReport must be a function');
    /** The session that holds the items (the source of truth). */
    this.underlyingSession = underlyingSession;
    /** The Compactor that plans every compaction of the stored items. */
    // onArchive gets the folded items as the SDK's own (the Compactor reads their Responses form).
    const { onArchive } = compactorOptions;
    if (typeof onArchive === 'function')
      compactorOptions.onArchive = (removed, summary) => onArchive(fromResponses(removed, this.reading.read, this.reading.items), summary);
    this.compactor = new Compactor({ ...compactorOptions, format: 'openai-responses' });
    /** The stored items of the compaction in progress, and their Responses form. */
    this.reading = null;
    /** The last compaction's report, or null before the first. */
    this.lastReport = null;
    this.onReport = onReport;
    this.queue = Promise.resolve();
    /** The rewrite of the store in progress, or null. */
    this.rewriting = null;
    // The SDK compares stored and expected history through this hook when the store rewrites items.
    if (typeof underlyingSession.prepareHistoryItemsForPersistenceComparison === 'function')
      this.prepareHistoryItemsForPersistenceComparison = (items) => underlyingSession.prepareHistoryItemsForPersistenceComparison(items);
  }

  /** Runs `operation` after every change queued before it. */
  serial(operation) {
    const result = this.queue.then(operation);
    this.queue = result.then(() => undefined, () => undefined);
    return result;
  }

  getSessionId() { return this.underlyingSession.getSessionId(); }
  /** The stored items; a read that comes while compaction rewrites the store waits for the rewrite (the store is empty for a moment). */
  async getItems(limit) {
    if (this.rewriting) await this.rewriting.catch(() => {});
    return this.underlyingSession.getItems(limit);
  }
  addItems(items) { return this.serial(() => this.underlyingSession.addItems(items)); }
  popItem() { return this.serial(() => this.underlyingSession.popItem()); }
  clearSession() { return this.serial(() => this.underlyingSession.clearSession()); }

  /**
   * The runner's hook after a finished turn is saved: compacts the stored items (`force`, as a
   * /compact command, folds whatever the threshold says). Resolves to null (the summary's cost
   * is the summarizer's, not a Responses call the run should count); never rejects because
   * compaction failed: the run goes on with the items as they were.
   */
  async runCompaction(args) {
    try {
      await this.compact({ force: Boolean(args && args.force) });
    } catch (error) {
      this.compactor.warn('midfold: the session was not compacted, its items are unchanged', error);
    }
    return null;
  }

  /**
   * Compacts the stored items now; resolves to the Compactor's report plus `stored`
   * ({before, after} item counts) and `written` (whether the session was rewritten).
   * @param {{force?: boolean, signal?: AbortSignal}} [options]
   */
  compact(options = {}) {
    return this.serial(async () => {
      const items = await this.underlyingSession.getItems();
      const read = items.map(toResponses);
      const work = items.map(toResponses); // the Compactor rebuilds this one in place
      this.reading = { read, items };
      const report = await this.compactor.compact(work, { force: options.force === true, ...(options.signal ? { signal: options.signal } : {}) });
      let after = items;
      let written = false;
      if (!same(work, read)) {
        const next = fromResponses(work, read, items);
        const now = await this.underlyingSession.getItems();
        if (same(now, items)) {
          this.rewriting = this.replace(items, next);
          try { await this.rewriting; } finally { this.rewriting = null; }
          after = next;
          written = true;
        } else {
          report.conflict = true; // another writer changed the store meanwhile: its items win
        }
      }
      const full = { ...report, stored: { before: items.length, after: after.length }, written };
      this.lastReport = full;
      if (this.onReport) { try { this.onReport(full); } catch { /* a failing hook must not fail the run */ } }
      return full;
    });
  }

  /** Replaces the stored `previous` items by `next`; puts `previous` back if the store fails half way. */
  async replace(previous, next) {
    const store = this.underlyingSession;
    await store.clearSession();
    try {
      if (next.length) await store.addItems(next);
    } catch (error) {
      try {
        await store.clearSession();
        if (previous.length) await store.addItems(previous);
      } catch (restoreError) {
        this.compactor.warn('midfold: the session could not be restored after a failed write', restoreError);
      }
      throw error;
    }
  }
}

/**
 * An Agents SDK Session over `underlyingSession` that compacts the stored items after each
 * finished turn (the runner calls its `runCompaction`). Options are the Compactor's (its
 * format is set for you) plus `underlyingSession` (required) and `onReport(report)`.
 *
 * Ownership: the underlying session stays the host's and holds the items; this object keeps
 * the Compactor and the last report, and never changes an item the SDK handed it (rewritten
 * items are new objects).
 * @param {object} options
 * @returns {MidfoldSession}
 */
export function midfoldSession(options) {
  return new MidfoldSession(options);
}
