/**
 * tool.js — the recall tool's work, apart from any stack's wire shape (definitions.js): given
 * `{id}` or `{id, page}` it answers with a page of what the archive holds under that id;
 * given `{query}` it asks the archive's search (by default the core's BM25 ranking, search.js; a function over
 * `{id, text}` entries) and answers with snippets and their ids. Every answer is fenced as
 * data (fence.js). Whatever is wrong with a call (no such id in this conversation, a text that
 * is no recall id, a page past the end, a query with search turned off) is an error answer that
 * says so, never content.
 */
import { MidfoldError } from '../core/errors.js';
import { FULL, ensureTier, serialize } from '../core/api.js';
import { rankArchive } from './search.js';
import { fenced } from './fence.js';
import { pagesOf } from './pages.js';
import { resultText } from './content-text.js';

/** What a recall id looks like: "r" and 8 characters of midfold's base32 (src/recall_id.c). */
export const RECALL_ID_PATTERN = '^r[0-9a-hjkmnp-tv-z]{8}$';
const RECALL_ID = /* @__PURE__ */ new RegExp(RECALL_ID_PATTERN);

/** The default page: a recall adds at most this many tokens to the context. */
export const DEFAULT_PAGE_TOKENS = 2000;
const MAX_QUERY = 500;

/**
 * The keyword search a `{query}` recall runs when the host gives none (`search` left out; `null`
 * turns search off): midfold's own BM25 ranking in the core (search.js, the full module, which
 * it loads first where a page started on a smaller one).
 */
async function DEFAULT_SEARCH(entries, query, options) {
  await ensureTier(FULL);
  return rankArchive(entries, query, options);
}
const SEARCH_LIMIT = 5;

/**
 * The text an archived entry stands for: a result's text, or the transcript of a folded range.
 * @param {{kind: string, value?: unknown, messages?: unknown[], format?: string}} entry
 */
export function entryText(entry) {
  if (entry.kind === 'fold') return serialize(entry.messages, entry.format && entry.format !== 'unknown' ? { format: entry.format } : undefined);
  return resultText(entry.value);
}

function error(text) { return { isError: true, text: `recall error: ${text}` }; }

/**
 * The recall tool's executor over one conversation's archive.
 * `search(entries, query, {limit})` → `[{id, score, snippet}]` ranks the archive for `{query}`
 * calls (DEFAULT_SEARCH when left out; null: no search, a query is an error answer). `pageTokens` sizes the pages (default 2000, as the estimator counts with
 * `profile`); `random` fills a Uint8Array (crypto.getRandomValues by default; tests pin it).
 * Ownership: keeps `archive` and `search` by reference; each call reads the archive afresh.
 * @param {{archive: ReturnType<typeof import('./archive.js').recallArchive>,
 *   search?: (entries: {id: string, text: string}[], query: string, options: {limit: number}) => {id: string, score: number, snippet: string}[] | Promise<{id: string, score: number, snippet: string}[]>,
 *   pageTokens?: number, profile?: string, random?: (bytes: Uint8Array) => Uint8Array}} options
 * @returns {(input: unknown) => Promise<{isError: boolean, text: string}>}
 */
export function recallExecutor(options) {
  const { archive, profile } = options || {};
  if (!archive || typeof archive.get !== 'function' || typeof archive.entries !== 'function')
    throw new MidfoldError('invalid-option', 'the recall tool needs an archive (recallArchive)');
  const search = options.search === undefined ? DEFAULT_SEARCH : options.search;
  if (search !== undefined && search !== null && typeof search !== 'function') throw new MidfoldError('invalid-option', 'search must be a function (or null: no search)');
  const pageTokens = options.pageTokens ?? DEFAULT_PAGE_TOKENS;
  if (!Number.isSafeInteger(pageTokens) || pageTokens < 50) throw new MidfoldError('invalid-option', 'pageTokens must be a whole number of at least 50');
  const random = options.random ?? ((bytes) => globalThis.crypto.getRandomValues(bytes));

  async function byId(id, page) {
    if (typeof id !== 'string' || !RECALL_ID.test(id))
      return error(`${JSON.stringify(String(id).slice(0, 40))} is not a recall id (an id is "r" and 8 letters or digits, as a marker names it)`);
    if (page !== undefined && (!Number.isSafeInteger(page) || page < 1)) return error('page must be a whole number from 1');
    const entry = await archive.get(id);
    if (!entry) return error(`nothing is archived under ${id} in this conversation (an id from another conversation, an expired one or one midfold never gave is unknown here)`);
    const text = entryText(entry);
    const pages = pagesOf(text, pageTokens, profile ? { profile } : {});
    const at = page ?? 1;
    if (at > pages.length) return error(`page ${at} is past the end: ${id} has ${pages.length} page${pages.length === 1 ? '' : 's'}`);
    const [from, to] = pages[at - 1];
    const what = entry.kind === 'fold' ? `folded range of ${entry.messages.length} messages` : `${entry.tool} result, ${entry.chars} chars`;
    const more = at < pages.length ? ` · next: recall {"id":"${id}","page":${at + 1}}` : '';
    return { isError: false, text: fenced(`recall ${id} · ${what} · page ${at} of ${pages.length}${more}`, text.slice(from, to), random) };
  }

  async function byQuery(query) {
    if (typeof query !== 'string' || !query.trim()) return error('query must be a non-empty string');
    if (query.length > MAX_QUERY) return error(`query is longer than ${MAX_QUERY} characters`);
    if (!search) return error('search is not available here: recall by the id a marker names');
    const entries = (await archive.entries()).map((e) => ({ id: e.id, text: entryText(e) }));
    const hits = await search(entries, query, { limit: SEARCH_LIMIT });
    if (!hits.length) return { isError: false, text: `recall search: nothing archived in this conversation matches ${JSON.stringify(query)}` };
    const lines = hits.slice(0, SEARCH_LIMIT).map((h) => `${h.id} (score ${h.score.toFixed(2)}): ${h.snippet}`);
    return { isError: false, text: fenced(`recall search ${JSON.stringify(query)} · ${lines.length} match${lines.length === 1 ? '' : 'es'} · recall {"id": ...} for the whole`, lines.join('\n'), random) };
  }

  return async function recall(input) {
    if (!input || typeof input !== 'object' || Array.isArray(input)) return error('the input must be an object: {"id": "r..."}, {"id": "r...", "page": 2} or {"query": "..."}');
    const { id, page, query } = /** @type {any} */ (input);
    if (id !== undefined && query !== undefined) return error('give either id or query, not both');
    if (id !== undefined) return byId(id, page);
    if (query !== undefined) return byQuery(query);
    return error('give {"id": "r..."} (the id a marker names) or {"query": "..."}');
  };
}
