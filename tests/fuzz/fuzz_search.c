/* fuzz_search.c — the archive's search (mf_search_tokenize, mf_search_rank) on raw bytes.
 *
 * Input: byte 0 the limit (1 + b0 % 16), byte 1 the snippet length in code points
 * (1 + b1), byte 2 the query's length in bytes, then the query, then the texts, separated
 * by 0x00 bytes (each text is a heap copy of exactly its bytes, so any over-read is an
 * ASan report).
 *
 * Invariants:
 * - the tokenizer: tokens in order of their start, each range inside the text with
 *   start < end, its code point range the code points before and within it (counted by
 *   an independent decoder), its term 1..MF_SEARCH_TERM_MAX bytes of valid UTF-8 without
 *   ASCII capitals;
 * - the ranking never fails; at most `limit` hits and at most one per text; scores finite,
 *   above 0 and non-increasing, equal scores in text order; a text is a hit exactly when it
 *   holds one of the query's first MF_SEARCH_MAX_TERMS distinct terms (or, when fewer texts
 *   hold one than the limit allows, every such text is a hit);
 * - each snippet is a range of its text on code point boundaries of min(snippet, the
 *   text's code points) code points;
 * - the same search twice gives the same hits. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "search.h"

#define MAX_TEXTS 64

/* The independent decoder's code point count of s[0..len). */
static size_t ref_count(const uint8_t *s, size_t len)
{
    size_t n = 0;
    for (size_t i = 0; i < len; n++) {
        uint32_t cp;
        i += fuzz_utf8_next(s + i, len - i, &cp);
    }
    return n;
}

/* Whether i is where the independent decoder starts a code point in s[0..len). */
static bool boundary(const uint8_t *s, size_t len, size_t at)
{
    size_t i = 0;
    while (i < at) {
        uint32_t cp;
        i += fuzz_utf8_next(s + i, len - i, &cp);
    }
    return i == at;
}

typedef struct tok_check {
    const uint8_t *text;
    size_t len;
    size_t last_start;
    size_t count;
} tok_check;

static int check_token(void *ctx, const mf_search_token *t)
{
    tok_check *c = ctx;
    CHECK(t->start < t->end && t->end <= c->len, "token [%zu, %zu) in a text of %zu bytes", t->start, t->end, c->len);
    CHECK(c->count == 0 || t->start >= c->last_start, "token at %zu after one at %zu", t->start, c->last_start);
    CHECK(t->cp_start == ref_count(c->text, t->start), "token at byte %zu says code point %zu", t->start, t->cp_start);
    CHECK(t->cp_end - t->cp_start == ref_count(c->text + t->start, t->end - t->start), "token [%zu, %zu): code points",
          t->start, t->end);
    CHECK(t->term_len >= 1 && t->term_len <= MF_SEARCH_TERM_MAX, "term of %zu bytes", t->term_len);
    for (size_t i = 0; i < t->term_len;) {
        uint32_t cp;
        size_t n = fuzz_utf8_next((const uint8_t *)t->term + i, t->term_len - i, &cp);
        CHECK(cp != 0xFFFD && !(cp >= 'A' && cp <= 'Z'), "term byte %zu: U+%04X", i, (unsigned)cp);
        i += n;
    }
    c->last_start = t->start;
    c->count++;
    return 0;
}

/* The query's distinct terms as the ranking keeps them (the first MF_SEARCH_MAX_TERMS). */
typedef struct term_set {
    char bytes[MF_SEARCH_MAX_TERMS][MF_SEARCH_TERM_MAX];
    size_t len[MF_SEARCH_MAX_TERMS];
    size_t count;
    bool found;              /* for holds_term: a text's token is one of them */
} term_set;

static bool in_set(const term_set *s, const char *term, size_t len)
{
    for (size_t i = 0; i < s->count; i++)
        if (s->len[i] == len && memcmp(s->bytes[i], term, len) == 0) return true;
    return false;
}

static int add_term(void *ctx, const mf_search_token *t)
{
    term_set *s = ctx;
    if (s->count < MF_SEARCH_MAX_TERMS && !in_set(s, t->term, t->term_len)) {
        memcpy(s->bytes[s->count], t->term, t->term_len);
        s->len[s->count++] = t->term_len;
    }
    return 0;
}

static int holds_term(void *ctx, const mf_search_token *t)
{
    term_set *s = ctx;
    if (in_set(s, t->term, t->term_len)) { s->found = true; return 1; }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 3) return 0;
    size_t limit = 1 + data[0] % 16, snippet = 1 + (size_t)data[1];
    size_t qlen = data[2] < size - 3 ? data[2] : size - 3;
    char *query = malloc(qlen ? qlen : 1);
    if (!query) abort();
    memcpy(query, data + 3, qlen);

    mf_search_text texts[MAX_TEXTS];
    size_t count = 0;
    for (size_t at = 3 + qlen; at < size && count < MAX_TEXTS;) {
        const uint8_t *end = memchr(data + at, 0, size - at);
        size_t len = end ? (size_t)(end - (data + at)) : size - at;
        char *copy = malloc(len ? len : 1);
        if (!copy) abort();
        memcpy(copy, data + at, len);
        texts[count++] = (mf_search_text){copy, len};
        at += len + 1;
    }

    for (size_t d = 0; d < count; d++) {
        tok_check c = {(const uint8_t *)texts[d].text, texts[d].len, 0, 0};
        mf_search_tokenize(texts[d].text, texts[d].len, MF_SEARCH_DOCUMENT, check_token, &c);
        tok_check cq = {(const uint8_t *)texts[d].text, texts[d].len, 0, 0};
        mf_search_tokenize(texts[d].text, texts[d].len, MF_SEARCH_QUERY, check_token, &cq);
    }
    tok_check qc = {(const uint8_t *)query, qlen, 0, 0};
    mf_search_tokenize(query, qlen, MF_SEARCH_QUERY, check_token, &qc);

    term_set terms = {.count = 0};
    mf_search_tokenize(query, qlen, MF_SEARCH_QUERY, add_term, &terms);
    size_t holders = 0;
    bool holds[MAX_TEXTS] = {0};
    for (size_t d = 0; d < count; d++) {
        terms.found = false;
        mf_search_tokenize(texts[d].text, texts[d].len, MF_SEARCH_DOCUMENT, holds_term, &terms);
        holds[d] = terms.found;
        holders += terms.found;
    }

    mf_search_hit *hits = NULL, *again = NULL;
    size_t n = 0, n2 = 0;
    mf_error err;
    mf_status st = mf_search_rank(texts, count, query, qlen, limit, snippet, &hits, &n, &err);
    CHECK(st == MF_OK, "search failed: %s", err.message);
    CHECK(n <= limit && n == (holders < limit ? holders : limit), "%zu hits, %zu texts hold a term, limit %zu", n,
          holders, limit);
    bool seen[MAX_TEXTS] = {0};
    for (size_t h = 0; h < n; h++) {
        const mf_search_hit *x = &hits[h];
        CHECK(x->entry < count && !seen[x->entry] && holds[x->entry], "hit %zu: text %zu", h, x->entry);
        seen[x->entry] = true;
        CHECK(isfinite(x->score) && x->score > 0, "hit %zu: score %g", h, x->score);
        if (h) CHECK(x->score < hits[h - 1].score || (x->score == hits[h - 1].score && x->entry > hits[h - 1].entry),
                     "hit %zu out of order", h);
        const uint8_t *t = (const uint8_t *)texts[x->entry].text;
        size_t len = texts[x->entry].len, total = ref_count(t, len);
        CHECK(x->snippet_start <= x->snippet_end && x->snippet_end <= len, "snippet [%zu, %zu) of %zu bytes",
              x->snippet_start, x->snippet_end, len);
        CHECK(boundary(t, len, x->snippet_start) && boundary(t, len, x->snippet_end), "snippet [%zu, %zu) cuts a code point",
              x->snippet_start, x->snippet_end);
        size_t want = total < snippet ? total : snippet;
        CHECK(ref_count(t + x->snippet_start, x->snippet_end - x->snippet_start) == want,
              "snippet of %zu code points, wanted %zu", ref_count(t + x->snippet_start, x->snippet_end - x->snippet_start), want);
    }
    st = mf_search_rank(texts, count, query, qlen, limit, snippet, &again, &n2, &err);
    CHECK(st == MF_OK && n2 == n && (n == 0 || memcmp(hits, again, n * sizeof *hits) == 0), "a second search differs");

    mf_free(again);
    mf_free(hits);
    for (size_t d = 0; d < count; d++) free((void *)texts[d].text);
    free(query);
    return 0;
}
