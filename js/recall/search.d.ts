/** One archived entry to search: its recall id and its text. */
export interface ArchiveEntry {
  id: string;
  text: string;
}

/** A search hit: the entry's id, its BM25 score (> 0) and a snippet of its text around the query's terms. */
export interface ArchiveHit {
  id: string;
  score: number;
  /** At most `snippetChars` code points of the entry's text, with '…' at each end where it was cut. */
  snippet: string;
}

/**
 * Ranks archived entries against a keyword query by BM25 (k1 1.2, b 0.75), best first, equal scores in id
 * order; only entries holding a query term are hits. Words are lower-cased; identifiers and paths match by
 * their parts and whole (`getUserById`, `src/app.ts`); Chinese, Japanese and Korean by characters and
 * character pairs. Needs midfold's full module (initFull(); init() in Node). Reads `entries` and keeps
 * nothing. Throws MidfoldError 'invalid-argument' (with `path`) for bad entries or an empty query,
 * 'invalid-option' for a bad limit or snippetChars, 'not-initialized' without the full module.
 */
export declare function rankArchive(entries: ArchiveEntry[], query: string,
  options?: { limit?: number; snippetChars?: number }): ArchiveHit[];
