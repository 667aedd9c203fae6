/* search.h — ranked keyword search over a list of texts (the recall archive's search): the
 * tokenizer (search_tokens.c) and the BM25 ranking with its snippets (search.c). No index is
 * kept between calls: each search reads every text once, so the archive needs no state
 * beyond its texts. Not installed. */
#ifndef MIDFOLD_SEARCH_H
#define MIDFOLD_SEARCH_H

#include "base.h"

/* ---- tokens (search_tokens.c) ------------------------------------------------------ */

/* A term is at most this many bytes of its normalized text (longer words, such as a hash or
 * a base64 blob, are their first 64 bytes, cut at a code point boundary). */
#define MF_SEARCH_TERM_MAX 64

/* How a text is cut. A document gives every ideograph alone and every adjacent pair of a
 * Han, kana or hangul run, so a one-character query finds the character inside longer
 * runs; a query gives a run's pairs only (a run of one, its character), so a two-character
 * word matches the two characters together, not either one apart. */
typedef enum mf_search_mode { MF_SEARCH_DOCUMENT = 0, MF_SEARCH_QUERY = 1 } mf_search_mode;

typedef struct mf_search_token {
    const char *term;        /* the normalized term, term_len bytes (not NUL-terminated); valid
                                during the callback only */
    size_t term_len;
    size_t start, end;       /* the bytes of the text it came from, [start, end) */
    size_t cp_start, cp_end; /* the same range in code points */
} mf_search_token;

/* Called once per token, in order of `start` (a compound before its parts). A non-zero
 * return stops the walk and is returned by mf_search_tokenize. */
typedef int (*mf_search_token_fn)(void *ctx, const mf_search_token *token);

/* Cuts UTF-8 text (invalid bytes are separators) into terms:
 * - letters and digits (ASCII, Latin, Greek, Cyrillic and the other two-byte alphabets) make
 *   words, lower-cased (ASCII, Latin-1, Greek and Cyrillic capitals);
 * - words joined by one of `_ - . / \` make a compound (`src/app.ts`, `user_id`), and a
 *   word splits at case changes (`getUserById`: get, user, by, id; `HTTPServer`: http,
 *   server); a compound or a word of several parts gives itself whole (lower-cased) and then
 *   each part;
 * - Han with kana, and hangul, runs give characters and pairs as `mode` says (classes from
 *   the estimator's feature pass, mf_feature_class);
 * - everything else separates.
 * Reads text[0..len) during the call and keeps nothing; allocates nothing. Returns 0, or the
 * callback's first non-zero return. */
int mf_search_tokenize(const char *text, size_t len, mf_search_mode mode, mf_search_token_fn fn, void *ctx);

/* ---- ranking (search.c) -------------------------------------------------------------- */

/* BM25's parameters (Robertson and Zaragoza, "The Probabilistic Relevance Framework: BM25
 * and Beyond", 2009; the usual values): term-frequency saturation and length normalization. */
#define MF_SEARCH_K1 1.2
#define MF_SEARCH_B 0.75
/* A query's distinct terms past this many are not searched for. */
#define MF_SEARCH_MAX_TERMS 64

typedef struct mf_search_text {
    const char *text;        /* UTF-8, len bytes */
    size_t len;
} mf_search_text;

typedef struct mf_search_hit {
    size_t entry;            /* index into the texts */
    double score;            /* BM25, > 0 */
    size_t snippet_start, snippet_end; /* a byte range of the text, on code point boundaries */
} mf_search_hit;

/* Ranks texts[0..count) against the query by BM25 over the query's distinct terms:
 *   score(d) = sum over terms t of idf(t) * tf * (k1 + 1) / (tf + k1 * (1 - b + b * |d| / avgdl))
 *   idf(t) = ln(1 + (N - n(t) + 0.5) / (n(t) + 0.5))
 * with tf the term's count in d, |d| the text's token count, avgdl the mean over the texts,
 * N = count and n(t) the texts holding t (the non-negative idf, as Lucene has it). Only texts
 * with a score above 0 are hits; the best `limit`, best first, equal scores in text order.
 * Each hit's snippet is the window of at most `snippet_chars` code points (the whole text
 * when shorter) holding the most idf of distinct query terms (the first such window), with
 * the rest of the budget split around it. A query with no terms has no hits.
 * On success *hits (to free with mf_free; NULL when *hit_count is 0) holds *hit_count hits.
 * Reads the texts and the query during the call and keeps nothing.
 * Errors: MF_ERR_INVALID_ARG (a NULL pointer with a non-zero length, limit or snippet_chars
 * 0), MF_ERR_TOO_LARGE (more texts than the counts can hold), MF_ERR_NOMEM. */
mf_status mf_search_rank(const mf_search_text *texts, size_t count, const char *query, size_t query_len,
                         size_t limit, size_t snippet_chars, mf_search_hit **hits, size_t *hit_count,
                         mf_error *err);

#endif
