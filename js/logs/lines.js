/**
 * lines.js — a JSON Lines text as the values of its lines, each with its line number and
 * where it starts. An agent writes its log as it goes, so the last line of a log that is
 * still being written may be cut short: that one is left out (and counted), any other line
 * that is not JSON is an error naming its line.
 */
import { MidfoldError } from '../core/errors.js';

/**
 * @param {string} text
 * @returns {{lines: {value: unknown, line: number, offset: number}[], incomplete: number}}
 */
export function jsonLines(text) {
  const lines = [];
  let incomplete = 0;
  let offset = 0, line = 0;
  while (offset < text.length) {
    let end = text.indexOf('\n', offset);
    if (end < 0) end = text.length;
    line++;
    const raw = text.slice(offset, end).trim();
    if (raw) {
      try {
        lines.push({ value: JSON.parse(raw), line, offset });
      } catch (e) {
        const last = text.slice(end).trim() === '';
        if (!last) throw new MidfoldError('parse-error', `line ${line} is not JSON (${e.message})`, { position: offset });
        incomplete++;
      }
    }
    offset = end + 1;
  }
  return { lines, incomplete };
}
