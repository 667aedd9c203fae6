/* search.c — BM25 over a list of texts, and the snippet of each hit (search.h). Only the
 * query's terms are counted: a pass over each text tokenizes it and counts, per text, its
 * length in tokens and how often each query term occurs, which is all BM25 needs; the
 * hits are then tokenized once more to place their snippets. Memory: one count per text
 * and query term, nothing per distinct word of the texts. */
#include <math.h>
#include <string.h>

#include "search.h"

typedef struct query_terms {
    char bytes[MF_SEARCH_MAX_TERMS][MF_SEARCH_TERM_MAX];
    size_t len[MF_SEARCH_MAX_TERMS];
    size_t count;
} query_terms;

static long find_term(const query_terms *q, const char *term, size_t len)
{
    for (size_t t = 0; t < q->count; t++)
        if (q->len[t] == len && memcmp(q->bytes[t], term, len) == 0) return (long)t;
    return -1;
}

static int add_query_term(void *ctx, const mf_search_token *tok)
{
    query_terms *q = ctx;
    if (tok->term_len == 0 || q->count == MF_SEARCH_MAX_TERMS || find_term(q, tok->term, tok->term_len) >= 0) return 0;
    memcpy(q->bytes[q->count], tok->term, tok->term_len);
    q->len[q->count++] = tok->term_len;
    return 0;
}

typedef struct counting {
    const query_terms *q;
    uint32_t *tf;            /* this text's row: one count per query term */
    uint64_t length;         /* tokens */
} counting;

static int count_token(void *ctx, const mf_search_token *tok)
{
    counting *c = ctx;
    c->length++;
    long t = find_term(c->q, tok->term, tok->term_len);
    if (t >= 0 && c->tf[t] < UINT32_MAX) c->tf[t]++;
    return 0;
}

/* One occurrence of a query term in a hit's text. */
typedef struct match {
    size_t cp_start, cp_end;
    size_t term;
} match;

typedef struct matching {
    const query_terms *q;
    match *items;
    size_t count, cap;
} matching;

static int collect_match(void *ctx, const mf_search_token *tok)
{
    matching *m = ctx;
    long t = find_term(m->q, tok->term, tok->term_len);
    if (t < 0) return 0;
    if (m->count == m->cap) {
        size_t cap = m->cap ? m->cap * 2 : 64;
        match *grown = cap <= SIZE_MAX / sizeof *grown ? mf_realloc(m->items, cap * sizeof *grown) : NULL;
        if (!grown) return 1;
        m->items = grown;
        m->cap = cap;
    }
    m->items[m->count++] = (match){tok->cp_start, tok->cp_end, (size_t)t};
    return 0;
}

/* The byte offset of code point `cp` in text (len when past the end). */
static size_t byte_of(const char *text, size_t len, size_t cp)
{
    size_t i = 0;
    for (size_t n = 0; n < cp && i < len; n++) {
        uint32_t c;
        i += mf_utf8_decode((const unsigned char *)text + i, len - i, &c);
    }
    return i;
}

/* The snippet of a hit: the window of at most `chars` code points over the matches that
 * holds the most idf of distinct terms (the first such), widened evenly to `chars` within
 * the text. Matches are in text order (the tokenizer's), so the window slides once. */
static mf_status place_snippet(const mf_search_text *t, const query_terms *q, const double *idf, size_t chars,
                               mf_search_hit *hit, mf_error *err)
{
    matching m = {q, NULL, 0, 0};
    if (mf_search_tokenize(t->text, t->len, MF_SEARCH_DOCUMENT, collect_match, &m)) {
        mf_dealloc(m.items);
        return mf_fail(err, MF_ERR_NOMEM, SIZE_MAX, "out of memory placing a snippet");
    }
    size_t total = mf_count_code_points(t->text, t->len);
    size_t from = 0, to = total;
    if (total > chars && m.count > 0) {
        uint32_t in_window[MF_SEARCH_MAX_TERMS] = {0};
        double value = 0, best = -1;
        size_t best_i = 0, best_end = m.items[0].cp_end, j = 0;
        for (size_t i = 0; i < m.count; i++) {
            if (j < i) j = i;
            /* Grow the window [i, j) while the next match still ends within `chars`. */
            while (j < m.count && (j == i || m.items[j].cp_end - m.items[i].cp_start <= chars)) {
                if (in_window[m.items[j].term]++ == 0) value += idf[m.items[j].term];
                j++;
            }
            size_t end = m.items[j - 1].cp_end;
            if (value > best) { best = value; best_i = i; best_end = end; }
            if (--in_window[m.items[i].term] == 0) value -= idf[m.items[i].term];
        }
        from = m.items[best_i].cp_start;
        to = best_end - from > chars ? from + chars : best_end;
        size_t spare = chars - (to - from);
        size_t left = spare / 2 < from ? spare / 2 : from;
        from -= left;
        to += spare - left;
        if (to > total) { /* the text ended first: give the rest to the left */
            size_t over = to - total;
            to = total;
            from = over < from ? from - over : 0;
        }
    } else if (total > chars) {
        to = chars;
    }
    mf_dealloc(m.items);
    hit->snippet_start = byte_of(t->text, t->len, from);
    hit->snippet_end = hit->snippet_start + byte_of(t->text + hit->snippet_start, t->len - hit->snippet_start, to - from);
    return MF_OK;
}

/* Whether hit a ranks before hit b: the higher score, then the earlier text (a total order,
 * so the hits are the same whatever order the texts are met in). */
static bool ranks_before(const mf_search_hit *a, const mf_search_hit *b)
{
    return a->score != b->score ? a->score > b->score : a->entry < b->entry;
}

/* The best `limit` hits are kept in a heap whose root is the worst of them (a new hit that
 * ranks before the root replaces it): O(texts x log limit), and no libc qsort in the module. */
static void sift_down(mf_search_hit *heap, size_t n, size_t i)
{
    for (;;) {
        size_t worst = i, l = 2 * i + 1, r = l + 1;
        if (l < n && ranks_before(&heap[worst], &heap[l])) worst = l;
        if (r < n && ranks_before(&heap[worst], &heap[r])) worst = r;
        if (worst == i) return;
        mf_search_hit t = heap[i];
        heap[i] = heap[worst];
        heap[worst] = t;
        i = worst;
    }
}

static void keep_hit(mf_search_hit *heap, size_t *n, size_t limit, mf_search_hit hit)
{
    if (*n < limit) {
        size_t i = (*n)++;
        heap[i] = hit;
        while (i > 0 && ranks_before(&heap[(i - 1) / 2], &heap[i])) { /* sift up: the parent ranks before */
            mf_search_hit t = heap[i];
            heap[i] = heap[(i - 1) / 2];
            heap[(i - 1) / 2] = t;
            i = (i - 1) / 2;
        }
    } else if (ranks_before(&hit, &heap[0])) {
        heap[0] = hit;
        sift_down(heap, *n, 0);
    }
}

/* Heap to best-first order, in place (the worst goes last, one at a time). */
static void sort_hits(mf_search_hit *heap, size_t n)
{
    for (size_t end = n; end > 1; end--) {
        mf_search_hit t = heap[0];
        heap[0] = heap[end - 1];
        heap[end - 1] = t;
        sift_down(heap, end - 1, 0);
    }
}

mf_status mf_search_rank(const mf_search_text *texts, size_t count, const char *query, size_t query_len,
                         size_t limit, size_t snippet_chars, mf_search_hit **hits, size_t *hit_count,
                         mf_error *err)
{
    if (!hits || !hit_count || (!texts && count) || (!query && query_len))
        return mf_fail(err, MF_ERR_INVALID_ARG, SIZE_MAX, "search: a NULL argument");
    *hits = NULL;
    *hit_count = 0;
    if (limit == 0) return mf_fail(err, MF_ERR_INVALID_ARG, SIZE_MAX, "search: limit must be at least 1");
    if (snippet_chars == 0) return mf_fail(err, MF_ERR_INVALID_ARG, SIZE_MAX, "search: snippet length must be at least 1");
    for (size_t d = 0; d < count; d++)
        if (!texts[d].text && texts[d].len) return mf_fail(err, MF_ERR_INVALID_ARG, d, "search: text %zu is NULL", d);

    query_terms *q = mf_alloc(sizeof *q);
    if (!q) return mf_fail(err, MF_ERR_NOMEM, SIZE_MAX, "out of memory reading the query");
    q->count = 0;
    mf_search_tokenize(query, query_len, MF_SEARCH_QUERY, add_query_term, q);
    size_t nq = q->count;
    if (nq == 0 || count == 0) { mf_dealloc(q); return MF_OK; }
    if (count > SIZE_MAX / sizeof(uint32_t) / nq || count > SIZE_MAX / sizeof(mf_search_hit)) {
        mf_dealloc(q);
        return mf_fail(err, MF_ERR_TOO_LARGE, SIZE_MAX, "search: %zu texts are more than this machine can count", count);
    }

    mf_status st = MF_OK;
    uint32_t *tf = mf_alloc(count * nq * sizeof *tf);
    uint64_t *length = mf_alloc(count * sizeof *length);
    size_t keep = limit < count ? limit : count;
    mf_search_hit *found = mf_alloc(keep * sizeof *found);
    if (!tf || !length || !found) { st = mf_fail(err, MF_ERR_NOMEM, SIZE_MAX, "out of memory counting terms"); goto done; }
    memset(tf, 0, count * nq * sizeof *tf);

    uint64_t total_length = 0;
    double df[MF_SEARCH_MAX_TERMS] = {0}, idf[MF_SEARCH_MAX_TERMS];
    for (size_t d = 0; d < count; d++) {
        counting c = {q, tf + d * nq, 0};
        mf_search_tokenize(texts[d].text, texts[d].len, MF_SEARCH_DOCUMENT, count_token, &c);
        length[d] = c.length;
        total_length += c.length;
        for (size_t t = 0; t < nq; t++) df[t] += c.tf[t] > 0;
    }
    double n = (double)count, avgdl = (double)total_length / n;
    for (size_t t = 0; t < nq; t++) idf[t] = log(1.0 + (n - df[t] + 0.5) / (df[t] + 0.5));

    size_t nfound = 0;
    for (size_t d = 0; d < count; d++) {
        double score = 0;
        const uint32_t *row = tf + d * nq;
        double norm = MF_SEARCH_K1 * (1.0 - MF_SEARCH_B + MF_SEARCH_B * (double)length[d] / avgdl);
        for (size_t t = 0; t < nq; t++) {
            if (!row[t]) continue;
            double f = (double)row[t];
            score += idf[t] * f * (MF_SEARCH_K1 + 1.0) / (f + norm);
        }
        if (score > 0) keep_hit(found, &nfound, keep, (mf_search_hit){d, score, 0, 0});
    }
    sort_hits(found, nfound);
    for (size_t h = 0; h < nfound && st == MF_OK; h++)
        st = place_snippet(&texts[found[h].entry], q, idf, snippet_chars, &found[h], err);
    if (st == MF_OK && nfound > 0) {
        *hits = found;
        *hit_count = nfound;
        found = NULL;
    }
done:
    mf_dealloc(found);
    mf_dealloc(length);
    mf_dealloc(tf);
    mf_dealloc(q);
    return st;
}
