/**
 * fold.js — a fold that can be undone by the model: the folded range is archived whole under
 * a recall id (of "fold", NUL, the range's length and its transcript, under the conversation's
 * secret: the C core's mf_recall_id, as for the markers), and the summary's header names it
 * with the ids of what had been cleared inside the range before, which the archive still holds.
 * The transcript is what the core writes the same for the same messages on every call; it
 * leaves out opaque data (signatures, media bytes), so two ranges that differ in those alone
 * would share an id: the later one's entry then answers for both.
 */
import { recallId, serialize } from '../core/api.js';

const MARKER_ID = /· recall (r[0-9a-hjkmnp-tv-z]{8})\]/g;

/**
 * The archive entry of a folded range.
 * @param {Uint8Array} key the conversation's secret
 * @param {unknown[]} messages the folded messages as they were (plain values)
 * @param {string} format the conversation's format
 */
export function foldEntry(key, messages, format) {
  const transcript = serialize(messages, format && format !== 'unknown' ? { format } : undefined);
  return { id: recallId(key, `fold\u0000${messages.length}\u0000${transcript}`), kind: 'fold', format, messages, transcript };
}

/**
 * The recall ids the markers inside a transcript name, in order, once each.
 * @param {string} transcript
 * @returns {string[]}
 */
export function markerIds(transcript) {
  const ids = new Set();
  for (const m of transcript.matchAll(MARKER_ID)) ids.add(m[1]);
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
