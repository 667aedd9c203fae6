/**
 * micro.js — micro-compaction that loses nothing: every marker names a recall id, and what it
 * replaces is in the conversation's archive before the first edit lands. When the archive
 * cannot be written (the store failed, an entry over its bounds) nothing is cleared and the
 * report says why; the conversation is never left with a marker that points at nothing.
 */
import { MidfoldError } from '../core/errors.js';
import { applyMicroPlan, microReport, planMicroCompact } from '../core/api.js';
import { editedValue } from '../core/apply.js';
import { viewList } from '../core/langchain.js';

/** Throws unless `archive` is one of recallArchive's. */
export function checkArchive(archive, fn) {
  if (!archive || typeof archive.key !== 'function' || typeof archive.put !== 'function' || typeof archive.get !== 'function')
    throw new MidfoldError('invalid-option', `${fn} needs an archive (recallArchive({store, conversation}))`);
  return archive;
}

/**
 * The archive entries of a plan's edits, made of `views` (viewList of the messages the plan
 * was made from) before any edit is applied: each result's original value under its id.
 * @param {unknown[]} views
 * @param {{message: number, part: number, target: number, tool: string, chars: number, recall?: string}[]} edits
 */
export function resultEntries(views, edits) {
  return edits.map((e) => ({ id: e.recall, kind: 'result', tool: e.tool, chars: e.chars, value: editedValue(views, e) }));
}

/**
 * Why an archive write failed, for a report: the error's message, never its stack.
 * @param {unknown} error
 */
export function archiveFailure(error) {
  return error instanceof Error ? error.message || error.name : String(error);
}

/**
 * microCompact with recall: the same options plus `archive`, the same edits in place, and
 * markers that name their recall ids ("[truncated: bash result, 1204 chars · recall
 * r7f3a2b9c]"). The report adds `recall: {archived, evicted}`, or, when the archive could not
 * be written, `recall: {archived: 0, error}` with nothing cleared (`cleared: 0`). Resolves
 * to 'conflict' in `recall.error` (nothing cleared) when the caller changed a result the plan
 * would clear while the archive was being written.
 * @param {unknown[]} messages
 * @param {{archive: object, keepRecent?: number, excludeTools?: string[], clearAtLeast?: number,
 *   trigger?: number, profile?: string, format?: string, thinking?: 'prefix-bound' | 'unbound'}} options
 */
export async function recallMicroCompact(messages, options) {
  const { archive, ...micro } = options || {};
  checkArchive(archive, 'recallMicroCompact');
  const unedited = (plan, error) => ({
    ...microReport({ ...plan, edits: [], charsCleared: 0, milliAfter: plan.milliBefore }), recall: { archived: 0, error },
  });
  let key;
  try {
    key = await archive.key();
  } catch (error) {
    const plan = planMicroCompact(messages, micro);
    return unedited(plan, `the archive could not be read or written: ${archiveFailure(error)}`);
  }
  const plan = planMicroCompact(messages, { ...micro, recallKey: key });
  if (!plan.edits.length) return { ...microReport(plan), recall: { archived: 0, evicted: [] } };
  const views = viewList(messages);
  const entries = resultEntries(views, plan.edits);
  let written;
  try {
    written = await archive.put(entries);
  } catch (error) {
    return unedited(plan, `the archive could not be written, nothing was cleared: ${archiveFailure(error)}`);
  }
  // (the caller's array may have changed while the archive was written: the plan is for what it held)
  const now = viewList(messages);
  if (plan.edits.some((e, i) => editedValue(now, e) !== entries[i].value))
    return unedited(plan, 'conflict: the conversation changed while the archive was being written, nothing was cleared');
  return { ...applyMicroPlan(messages, plan, micro), recall: { archived: written.written, evicted: written.evicted } };
}
