/**
 * fold.js — a fold that can be undone by the model: the folded range is archived whole under
 * a recall id (of "fold", NUL and the range's canonical JSON, under the conversation's secret,
 * the C core's mf_recall_id as for the markers), and the summary's header names it with the
 * ids of what had been cleared inside the range before, which the archive still holds.
 */
import { recallId } from '../core/api.js';
import { canonicalJSON } from '../state/hash.js';

const MARKER_ID = /· recall (r[0-9a-hjkmnp-tv-z]{8})\]/g;

/**
 * The archive entry of a folded range.
 * @param {Uint8Array} key the conversation's secret
 * @param {unknown[]} messages the folded messages as they were (plain values)
 * @param {string} format the conversation's format
 */
export function foldEntry(key, messages, format) {
  return { id: recallId(key, `fold\u0000${canonicalJSON(messages)}`), kind: 'fold', format, messages };
}

/**
 * The recall ids the markers inside `messages` name, in order, once each.
 * @param {unknown[]} messages
 * @returns {string[]}
 */
export function markerIds(messages) {
  const ids = new Set();
  for (const m of canonicalJSON(messages).matchAll(MARKER_ID)) ids.add(m[1]);
  return [...ids];
}

/**
 * The summary's first line: "[recall r3x9k2m7p: the 38 messages this summary replaces ·
 * cleared before: r7f3a2b9c, r2dbekswz]".
 * @param {string} id
 * @param {number} count
 * @param {string[]} earlier
 */
export function foldHeader(id, count, earlier) {
  const before = earlier.length ? ` · cleared before: ${earlier.join(', ')}` : '';
  return `[recall ${id}: the ${count} message${count === 1 ? '' : 's'} this summary replaces${before}]`;
}
