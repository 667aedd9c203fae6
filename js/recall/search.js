/**
 * recall/search.js — ranked keyword search over a conversation's archive: BM25 in the wasm
 * core (src/search.c, full module only), CJK-aware through the estimator's own character
 * classes, no vectors, no network (docs/recall.md, "Search").
 */
import { MidfoldError } from '../core/errors.js';
import { FULL, moduleFor } from '../core/api.js';
import { optionsObject } from '../core/options.js';

const encoder = /* @__PURE__ */ new TextEncoder();
const decoder = /* @__PURE__ */ new TextDecoder();
const HIT_BYTES = 24; // wasm/bridge_search.c: u32 index, u32 start, u32 end, pad, f64 score
const MAX_COUNT = 0xffffffff;
const ELLIPSIS = '…';

function badArgument(message, path) { return new MidfoldError('invalid-argument', `rankArchive: ${message}`, { path }); }
function badOption(message) { return new MidfoldError('invalid-option', `rankArchive: ${message}`); }

function wholeNumber(value, name, fallback) {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_COUNT)
    throw badOption(`${name} must be a whole number >= 1, got ${String(value)}`);
  return value;
}

/** The entries checked, in id order (code unit order), each with its UTF-8 bytes. */
function sortedEntries(entries) {
  if (!Array.isArray(entries)) throw badArgument('entries must be an array of {id, text}', 'entries');
  if (entries.length > MAX_COUNT) throw badArgument(`${entries.length} entries are more than a search takes`, 'entries');
  const list = entries.map((entry, i) => {
    if (!entry || typeof entry !== 'object') throw badArgument(`entry ${i} must be an object {id, text}`, `entries[${i}]`);
    if (typeof entry.id !== 'string' || entry.id === '') throw badArgument(`entry ${i}: id must be a non-empty string`, `entries[${i}].id`);
    if (typeof entry.text !== 'string') throw badArgument(`entry ${i}: text must be a string`, `entries[${i}].text`);
    return { id: entry.id, bytes: encoder.encode(entry.text), at: i };
  });
  list.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  for (let i = 1; i < list.length; i++) {
    if (list[i].id === list[i - 1].id) throw badArgument(`entries ${list[i - 1].at} and ${list[i].at} share the id ${JSON.stringify(list[i].id)}`, `entries[${list[i].at}].id`);
  }
  return list;
}

/**
 * Ranks archived entries against a keyword query by BM25 (k1 1.2, b 0.75) and returns the
 * best `limit` hits, best first, equal scores in id order: each with its score and a
 * snippet of at most `snippetChars` code points of its text around the densest stretch of
 * query terms, with '…' where the text was cut. Entries without a query term are no hits; a
 * query with no words (only punctuation) has none. Words are lower-cased, identifiers and
 * paths match by their parts and whole (`getUserById`, `src/app.ts`), Chinese, Japanese and
 * Korean text by its characters and character pairs. Reads `entries` and keeps nothing.
 * Synchronous: needs midfold's full module (initFull(); init() in Node loads it).
 * @param {{id: string, text: string}[]} entries
 * @param {string} query
 * @param {{limit?: number, snippetChars?: number}} [options]
 * @returns {{id: string, score: number, snippet: string}[]}
 */
export function rankArchive(entries, query, { limit = 5, snippetChars = 240, ...rest } = {}) {
  optionsObject(rest, 'rankArchive', []);
  limit = wholeNumber(limit, 'limit', 5);
  snippetChars = wholeNumber(snippetChars, 'snippetChars', 240);
  if (typeof query !== 'string' || query.trim() === '') throw badArgument('query must be a non-empty string', 'query');
  const list = sortedEntries(entries);
  const w = moduleFor('rankArchive', FULL);
  const queryBytes = encoder.encode(query);
  let size = 4;
  for (const e of list) size += 4 + e.bytes.length;
  if (size > MAX_COUNT) throw badArgument(`the entries' ${size} bytes are more than a search takes`, 'entries');
  const buf = w.alloc(size);
  let q = 0;
  try {
    q = w.alloc(queryBytes.length || 1);
    let at = buf;
    const view = new DataView(w.memory.buffer);
    view.setUint32(at, list.length, true);
    at += 4;
    const u8 = w.bytes();
    for (const e of list) {
      view.setUint32(at, e.bytes.length, true);
      u8.set(e.bytes, at + 4);
      at += 4 + e.bytes.length;
    }
    u8.set(queryBytes, q);
    return w.result((outPtr, outLen) => w.x.mfw_search_rank(buf, size, q, queryBytes.length, limit, snippetChars, outPtr, outLen, w.err),
      (p) => {
        const out = new DataView(w.memory.buffer);
        const hits = [];
        for (let h = 0, n = out.getUint32(p, true); h < n; h++) {
          const r = p + 8 + h * HIT_BYTES;
          const e = list[out.getUint32(r, true)];
          const start = out.getUint32(r + 4, true), end = out.getUint32(r + 8, true);
          const text = decoder.decode(e.bytes.subarray(start, end));
          const snippet = (start > 0 ? ELLIPSIS : '') + text + (end < e.bytes.length ? ELLIPSIS : '');
          hits.push({ id: e.id, score: out.getFloat64(r + 16, true), snippet });
        }
        return hits;
      });
  } finally {
    w.free(q);
    w.free(buf);
  }
}
