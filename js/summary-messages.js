/**
 * summary-messages.js — the messages a compaction inserts between the kept head and the
 * kept tail: the user message carrying the summary and, unless the tail already starts
 * with an assistant message, an assistant acknowledgement. They are written in the style
 * of the conversation they go into (its format, and string or array content), because a
 * provider or framework that reads the rest of the array reads these too.
 */

export const SUMMARY_MARK = '[Context Compressed]';

/**
 * The messages to insert for `summary`. `format` is the conversation's format name (as
 * detectFormat gives it); `tail` the kept tail (read, never changed). Returns new objects
 * that the caller owns.
 * @param {{format: string, summary: string, acknowledgement: string, tail: unknown[]}} request
 * @returns {object[]}
 */
export function summaryMessages({ format, summary, acknowledgement, tail }) {
  const out = [{ role: 'user', content: `${SUMMARY_MARK}\n${summary}` }];
  const first = tail.length ? tail[0] : null;
  if (!(first && first.role === 'assistant')) out.push({ role: 'assistant', content: acknowledgement });
  return out;
}
