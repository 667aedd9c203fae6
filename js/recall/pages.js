/**
 * pages.js — a long recalled text cut into pages of at most `pageTokens` tokens each, as the
 * estimator counts them (the same count that decided to clear it), so that a recall never
 * brings back more than it asks for: "page 2 of 5". A page ends at a line break when one lies
 * in its second half, never inside a surrogate pair; the cut is the same on every call.
 */
import { estimateTokens } from '../core/api.js';

/** The most UTF-16 units a token can stand for under any profile (an ASCII letter is 1/4). */
const UNITS_PER_TOKEN = 4;

function safeEnd(text, end) {
  const c = text.charCodeAt(end - 1);
  return end < text.length && c >= 0xd800 && c <= 0xdbff ? end - 1 : end;
}

/**
 * The pages of `text`: [start, end) offsets, at least one (an empty text is one empty page).
 * @param {string} text
 * @param {number} pageTokens
 * @param {{profile?: string}} [options]
 * @returns {[number, number][]}
 */
export function pagesOf(text, pageTokens, options = {}) {
  const fits = (from, to) => estimateTokens(text.slice(from, to), options) <= pageTokens;
  const pages = [];
  let start = 0;
  do {
    let hi = Math.min(text.length, start + pageTokens * UNITS_PER_TOKEN + 8);
    let end;
    if (fits(start, hi)) end = hi;
    else {
      let lo = start + 1; // the largest end that fits, by bisection (a page holds one character at least)
      while (lo < hi) {
        const mid = (lo + hi + 1) >>> 1;
        if (fits(start, mid)) lo = mid;
        else hi = mid - 1;
      }
      end = lo;
      const nl = text.lastIndexOf('\n', end - 1);
      if (end < text.length && nl >= start + ((end - start) >>> 1)) end = nl + 1;
    }
    end = safeEnd(text, end);
    if (end <= start) end = Math.min(text.length, start + (safeEnd(text, start + 1) === start ? 2 : 1));
    end = Math.max(end, Math.min(start + 1, text.length));
    pages.push([start, end]);
    if (end === start) break; // (the empty text)
    start = end;
  } while (start < text.length);
  return pages;
}
