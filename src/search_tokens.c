/* search_tokens.c — cuts text into the search's terms (search.h has the rules). One pass,
 * no allocation: a term is lower-cased into a buffer on the stack and handed to the
 * callback. Letters, ideographs, kana and hangul are told apart by the estimator's own
 * classes (mf_feature_class), so the search and the estimator segment text alike. */
#include "search.h"
#include "text_features.h"

#include <string.h>

enum { SEP, WORD, CJK, HANGUL, JOIN };

/* What a code point does in a term. Latin-1's symbols and spaces (U+0080..U+00BF, × and ÷)
 * share the estimator's Latin class with its letters, so they are taken out here. */
static int category(uint32_t cp)
{
    if (cp == '_' || cp == '-' || cp == '.' || cp == '/' || cp == '\\') return JOIN;
    if ((cp >= 0x80 && cp <= 0xBF) || cp == 0xD7 || cp == 0xF7) return SEP;
    if (cp >= 0x20000 && cp <= 0x3FFFF) return CJK; /* the supplementary ideographic planes */
    switch (mf_feature_class(cp)) {
    case MF_F_LOWER: case MF_F_UPPER: case MF_F_DIGIT: case MF_F_LATIN: case MF_F_CYR: case MF_F_OTHER2:
        return WORD;
    case MF_F_HAN: case MF_F_KANA:
        return CJK;
    case MF_F_HANGUL:
        return HANGUL;
    default:
        return SEP;
    }
}

/* The lower case of the capitals that have a fixed offset to theirs (ASCII, Latin-1, Greek,
 * Cyrillic); other code points are their own. */
static uint32_t to_lower(uint32_t cp)
{
    if (cp >= 'A' && cp <= 'Z') return cp + 32;
    if (cp >= 0xC0 && cp <= 0xDE && cp != 0xD7) return cp + 32;
    if (cp >= 0x391 && cp <= 0x3A9 && cp != 0x3A2) return cp + 32;
    if (cp >= 0x410 && cp <= 0x42F) return cp + 32;
    if (cp >= 0x400 && cp <= 0x40F) return cp + 80;
    return cp;
}

static bool is_upper(uint32_t cp) { return cp >= 'A' && cp <= 'Z'; }
static bool is_lower(uint32_t cp) { return cp >= 'a' && cp <= 'z'; }

typedef struct walk {
    const unsigned char *text;
    size_t len;
    mf_search_token_fn fn;
    void *ctx;
} walk;

static size_t decode_at(const walk *w, size_t i, uint32_t *cp) { return mf_utf8_decode(w->text + i, w->len - i, cp); }

/* Hands [start, end) (cp_start.. its code points) to the callback, lower-cased, cut to
 * MF_SEARCH_TERM_MAX bytes at a code point boundary. */
static int emit(const walk *w, size_t start, size_t end, size_t cp_start, size_t cp_end)
{
    char term[MF_SEARCH_TERM_MAX];
    size_t n = 0;
    for (size_t i = start; i < end;) {
        uint32_t cp;
        i += decode_at(w, i, &cp);
        char bytes[4];
        size_t k = mf_utf8_encode(to_lower(cp), bytes);
        if (n + k > sizeof term) break;
        memcpy(term + n, bytes, k);
        n += k;
    }
    mf_search_token t = {term, n, start, end, cp_start, cp_end};
    return w->fn(w->ctx, &t);
}

/* The parts of the compound [start, end): its words split at joiners and case changes
 * (lower then upper; an upper followed by upper then lower, the start of "Server" in
 * "HTTPServer"). Counts them into *count and, when `send`, emits each; returns 0 or the
 * callback's first non-zero return. */
static int parts(const walk *w, size_t start, size_t end, size_t cp_at, bool send, size_t *count)
{
    size_t part = SIZE_MAX, part_cp = 0, cp_i = cp_at;
    uint32_t prev = 0;
    *count = 0;
    for (size_t i = start; i < end;) {
        uint32_t cp, next = 0;
        size_t k = decode_at(w, i, &cp);
        if (i + k < end) decode_at(w, i + k, &next);
        bool joiner = category(cp) == JOIN;
        bool boundary = part != SIZE_MAX &&
                        (joiner || (is_lower(prev) && is_upper(cp)) || (is_upper(prev) && is_upper(cp) && is_lower(next)));
        if (boundary) {
            ++*count;
            int rc = send ? emit(w, part, i, part_cp, cp_i) : 0;
            if (rc) return rc;
            part = SIZE_MAX;
        }
        if (!joiner && part == SIZE_MAX) { part = i; part_cp = cp_i; }
        prev = joiner ? 0 : cp;
        i += k;
        cp_i++;
    }
    if (part == SIZE_MAX) return 0;
    ++*count;
    return send ? emit(w, part, end, part_cp, cp_i) : 0;
}

int mf_search_tokenize(const char *text, size_t len, mf_search_mode mode, mf_search_token_fn fn, void *ctx)
{
    if (!text || !fn) return 0;
    walk w = {(const unsigned char *)text, len, fn, ctx};
    size_t i = 0, cp_i = 0;
    while (i < len) {
        uint32_t cp;
        size_t k = decode_at(&w, i, &cp);
        int cat = category(cp);
        if (cat == WORD) {
            /* The compound's extent: words, each joiner between two of them taken along. */
            size_t end = i, cp_end = cp_i;
            for (;;) {
                uint32_t c;
                size_t n = decode_at(&w, end, &c);
                end += n;
                cp_end++;
                if (end >= len) break;
                size_t n2 = decode_at(&w, end, &c);
                int next = category(c);
                if (next == WORD) continue;
                if (next != JOIN || end + n2 >= len) break;
                uint32_t after;
                decode_at(&w, end + n2, &after);
                if (category(after) != WORD) break;
                end += n2; /* the joiner; the loop takes the word after it */
                cp_end++;
            }
            size_t n;
            parts(&w, i, end, cp_i, false, &n);
            int rc = n > 1 ? emit(&w, i, end, cp_i, cp_end) : 0;
            if (!rc) rc = parts(&w, i, end, cp_i, true, &n);
            if (rc) return rc;
            i = end;
            cp_i = cp_end;
        } else if (cat == CJK || cat == HANGUL) {
            /* A run of one script: characters and pairs (search.h says which, per mode). */
            size_t run = 0, prev_start = 0, prev_cp = 0;
            while (i < len) {
                size_t n = decode_at(&w, i, &cp);
                if (category(cp) != cat) break;
                if (run > 0) {
                    int rc = emit(&w, prev_start, i + n, prev_cp, cp_i + 1);
                    if (rc) return rc;
                }
                if (mode == MF_SEARCH_DOCUMENT) {
                    int rc = emit(&w, i, i + n, cp_i, cp_i + 1);
                    if (rc) return rc;
                }
                prev_start = i;
                prev_cp = cp_i;
                run++;
                i += n;
                cp_i++;
            }
            if (mode == MF_SEARCH_QUERY && run == 1) {
                int rc = emit(&w, prev_start, i, prev_cp, cp_i);
                if (rc) return rc;
            }
        } else {
            i += k;
            cp_i++;
        }
    }
    return 0;
}
