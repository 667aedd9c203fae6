/* text_features.c — counts the calibrated estimator's features in one pass over UTF-8.
 * tools/calibrate/model.mjs is the specification (classes, runs, and which count each
 * code point adds to); this is its port, checked against the vectors it writes. This is
 * the code-point path; stretches of 16 or more ASCII bytes are handed to the mask path
 * (text_features_ascii.c), which keeps the same state. */
#include "text_features.h"
#include "base.h"

#include <string.h>

enum { LOWER, UPPER, DIGIT, SPACE, TAB, NL, PSTR, PUNCT, CTRL, LATIN, CYR, OTHER2, HAN, CJKP, KANA, HANGUL, SYM3,
       OTHER3, ASTRAL };
/* A class's number is its per-code-point feature's (`c[k]++` below; the ASCII path,
 * text_features_ascii.c, names the ASCII ones by their features). */
_Static_assert(LOWER == MF_F_LOWER && CTRL == MF_F_CTRL && HAN == MF_F_HAN && ASTRAL == MF_F_ASTRAL,
               "classes and per-code-point features share their numbers");

static uint8_t ascii_class[128];
uint64_t mf_packed_pairs[2][32 * 32];
/* The longest stretch lower_run sums at once: its packed fields must not carry. */
#define LOWER_RUN_MAX 8192
static bool tables_ready;

/* Fills the tables derived at first use: ASCII classes, the packed letter-pair entries and
 * the mask path's tables (built from those). */
static void init_tables(void)
{
    for (int c = 0; c < 128; c++) {
        ascii_class[c] = c >= 'a' && c <= 'z' ? LOWER : c >= 'A' && c <= 'Z' ? UPPER : c >= '0' && c <= '9' ? DIGIT
                       : c == ' ' ? SPACE : c == '\t' ? TAB : c == '\n' || c == '\r' ? NL
                       : c >= 33 && c <= 126 ? PUNCT : CTRL;
    }
    for (const char *p = "\"'(),.:;[]{}"; *p; p++) ascii_class[(unsigned char)*p] = PSTR;
    for (unsigned caps = 0; caps < 2; caps++)
        for (unsigned pair = 0; pair < 26 * 26; pair++)
            mf_packed_pairs[caps][(pair / 26 + 1) << 5 | (pair % 26 + 1)] =
                (uint64_t)mf_letter_boundary[0][caps][pair] |
                (uint64_t)mf_letter_boundary[1][caps][pair] << MF_PAIR_FIELD_BITS |
                (uint64_t)mf_letter_boundary[2][caps][pair] << 2 * MF_PAIR_FIELD_BITS;
    mf_features_ascii_init();
    tables_ready = true;
}

static int classify(uint32_t cp)
{
    if (cp < 0x80) return ascii_class[cp];
    if (cp < 0x800) {
        if (cp <= 0x24F) return LATIN;
        if (cp >= 0x370 && cp <= 0x52F) return CYR;
        return OTHER2;
    }
    if (cp < 0x10000) {
        if ((cp >= 0x4E00 && cp <= 0x9FFF) || (cp >= 0x3400 && cp <= 0x4DBF) || (cp >= 0xF900 && cp <= 0xFAFF)) return HAN;
        if ((cp >= 0x3000 && cp <= 0x303F) || (cp >= 0xFF00 && cp <= 0xFFEF)) return CJKP;
        if ((cp >= 0x3040 && cp <= 0x30FF) || (cp >= 0x31F0 && cp <= 0x31FF)) return KANA;
        if ((cp >= 0xAC00 && cp <= 0xD7AF) || (cp >= 0x1100 && cp <= 0x11FF) || (cp >= 0x3130 && cp <= 0x318F)) return HANGUL;
        if (cp >= 0x1E00 && cp <= 0x1EFF) return LATIN;
        if (cp >= 0x2000 && cp <= 0x2BFF) return SYM3;
        return OTHER3; /* U+FFFD, which invalid bytes decode to, included */
    }
    return ASTRAL;
}

int mf_feature_class(uint32_t cp)
{
    if (!tables_ready) init_tables();
    return classify(cp);
}

static bool is_alpha(int k) { return k == LOWER || k == UPPER || k == LATIN || k == CYR || k == OTHER2; }
static bool is_ws(int k) { return k == SPACE || k == TAB || k == NL; }
static bool is_repable(int k) { return k == PSTR || k == PUNCT || k == CJKP || k == SYM3 || k == OTHER3; }
/* Bit n set: 'a' + n is a vowel (a e i o u y). A mask, not a switch: the switch compiled to
 * branches that made 29 % of the pass's branch mispredictions (callgrind --branch-sim). */
#define VOWEL_MASK (1u << 0 | 1u << 4 | 1u << 8 | 1u << 14 | 1u << 20 | 1u << 24)
static bool is_vowel(uint32_t cp)
{
    uint32_t n = (cp | 0x20) - 'a';
    return n < 26 && (VOWEL_MASK >> n & 1);
}

static bool is_common_han(uint32_t cp)
{
    if (cp < MF_COMMON_HAN_FIRST || cp > MF_COMMON_HAN_LAST) return false;
    uint32_t i = cp - MF_COMMON_HAN_FIRST;
    return mf_common_han[i >> 3] >> (i & 7) & 1;
}

void mf_features_begin(mf_feature_state *st)
{
    memset(st, 0, sizeof *st);
    st->prev_class = -1;
    if (!tables_ready) init_tables();
}

static void close_word(mf_feature_state *st, uint64_t c[])
{
    uint32_t n = st->word_len;
    c[n == 1 ? MF_F_W1 : n <= 3 ? MF_F_W2 : n <= 6 ? MF_F_W4 : n <= 10 ? MF_F_W7 : MF_F_W11]++;
    if (n >= 2 && !st->vowel) c[MF_F_NOVOW]++;
    if (st->non_ascii) c[MF_F_XWORD]++;
    st->word_len = st->cons = 0;
    st->vowel = st->non_ascii = false;
}

static void close_alnum(mf_feature_state *st, uint64_t c[])
{
    if (st->al_letter && st->al_digit) { c[MF_F_MIXRUN]++; c[MF_F_MIXCHR] += st->al; }
    st->al = 0;
    st->al_letter = st->al_digit = false;
}

/* `next` is the class of the code point after the run, or -1 at the end of the text. */
static void close_ws(mf_feature_state *st, uint64_t c[], int next)
{
    if (st->ws_nl) {
        c[MF_F_WSNL]++;
        if (st->ws_tail) c[MF_F_WSIND]++;
        c[MF_F_SPACE] += st->ws_spaces;
    } else if (st->wsn == 1 && st->ws_spaces == 1) {
        c[next == DIGIT ? MF_F_WS1D : MF_F_WS1]++; /* a lone space is priced by its run */
    } else {
        c[MF_F_WSH]++;
        c[MF_F_SPACE] += st->ws_spaces;
    }
    st->wsn = st->ws_tail = st->ws_spaces = 0;
    st->ws_nl = false;
}

_Static_assert(MF_BOUNDARY_TABLES == 3 && (uint64_t)LOWER_RUN_MAX * 255 < (uint64_t)1 << MF_PAIR_FIELD_BITS,
               "three packed fields, none of which can carry into the next");
_Static_assert(MF_F_BNDU == MF_F_BND + 1 && MF_F_BND_DS == MF_F_BND + 2 && MF_F_BND_QW == MF_F_BND + 4,
               "table t's boundary counts are MF_F_BND + 2t (letters) and MF_F_BND + 2t + 1 (capitals)");

/* The rest of a lower-case run, from p[i], after its first letter went through the general
 * path: the most common stretch of prose and code, and one where no run closes and only the
 * word's counts move, so it is counted without classifying. Returns where the run ends, or
 * where LOWER_RUN_MAX letters end (the general path then carries on with the same run). */
static size_t lower_run(mf_feature_state *st, const unsigned char *p, size_t i, size_t len, uint64_t c[])
{
    uint32_t prev = st->prev_cp, word_len = st->word_len, cons = st->cons;
    bool vowel = st->vowel;
    uint64_t n = 0, longer = 0, cons3 = 0, boundaries = 0;
    size_t end = len - i > LOWER_RUN_MAX ? i + LOWER_RUN_MAX : len;
    while (i < end && (unsigned)(p[i] - 'a') < 26u) {
        uint32_t b = p[i++];
        n++;
        longer += ++word_len > 8;
        uint32_t v = VOWEL_MASK >> (b - 'a') & 1;
        vowel |= v;
        cons = v ? 0 : cons + 1;
        cons3 += cons >= 3;
        boundaries += mf_packed_pairs[0][(prev & 31) << 5 | (b & 31)];
        prev = b;
    }
    if (n) {
        c[MF_F_LOWER] += n;
        c[MF_F_LONG] += longer;
        c[MF_F_CONS3] += cons3;
        mf_add_packed_pairs(c, MF_F_BND, boundaries);
        st->word_len = word_len;
        st->cons = cons;
        st->vowel = vowel;
        st->al += (uint32_t)n;
        st->prev_cp = prev;
    }
    return i;
}

/* The rest of a run of ideographs from U+3400-U+9FFF (3-byte UTF-8, lead byte 0xE3-0xE9),
 * after its first one went through the general path: Chinese text is mostly such runs, and
 * inside one only c_HAN / c_HANR move. Any other sequence ends the fast run and goes back
 * to the general path undecoded. */
static size_t han_run(mf_feature_state *st, const unsigned char *p, size_t i, size_t len, uint64_t c[])
{
    uint32_t prev = st->prev_cp;
    uint64_t common = 0, rare = 0;
    while (i + 2 < len && (unsigned)(p[i] - 0xE3) <= 0xE9 - 0xE3 && (p[i + 1] & 0xC0) == 0x80 &&
           (p[i + 2] & 0xC0) == 0x80) {
        uint32_t cp = (uint32_t)(p[i] & 0x0F) << 12 | (uint32_t)(p[i + 1] & 0x3F) << 6 | (p[i + 2] & 0x3F);
        if (cp < 0x3400 || (cp > 0x4DBF && cp < 0x4E00)) break;
        if (is_common_han(cp)) common++;
        else rare++;
        prev = cp;
        i += 3;
    }
    c[MF_F_HAN] += common;
    c[MF_F_HANR] += rare;
    st->prev_cp = prev;
    return i;
}

void mf_features_feed(mf_feature_state *st, const char *text, size_t len, uint64_t c[MF_FEATURE_COUNT])
{
    const unsigned char *p = (const unsigned char *)text;
    size_t i = 0;
    while (i < len) {
        uint32_t cp = p[i];
        if (cp < 0x80 && len - i >= 16 && mf_ascii16(p + i)) {
            i += mf_features_ascii(st, p + i, len - i, c);
            if (i == len) break;
            cp = p[i];
        }
        if (cp < 0x80) i++;
        else i += mf_utf8_decode(p + i, len - i, &cp);
        int k = classify(cp);
        bool alpha = is_alpha(k);
        /* 1. close the runs that end before this code point (one test when none is open,
         * as between ideographs) */
        if (st->word_len | st->al | st->wsn) {
            if (st->word_len && !alpha) close_word(st, c);
            if (st->al && !(alpha || k == DIGIT)) close_alnum(st, c);
            if (st->wsn && !is_ws(k)) close_ws(st, c, k);
        }
        /* 2. this code point */
        int pk = st->prev_class;
        if (k == SPACE) {
            st->wsn++;
            st->ws_spaces++;
            if (st->ws_nl) st->ws_tail++;
        } else if (k == TAB) {
            st->wsn++;
            c[MF_F_TAB]++;
            if (st->ws_nl) st->ws_tail++;
        } else if (k == NL) {
            st->wsn++;
            c[MF_F_NL]++;
            st->ws_nl = true;
            st->ws_tail = 0;
        } else {
            if (is_repable(k) && cp == st->prev_cp && pk >= 0) c[k == PSTR || k == PUNCT ? MF_F_REP : MF_F_REPX]++;
            else if (k == UPPER && pk == UPPER) c[MF_F_CAPS]++;
            else if (k == HAN && !is_common_han(cp)) c[MF_F_HANR]++;
            else c[k]++;
            if (alpha) {
                st->word_len++;
                if (st->word_len > 8) c[MF_F_LONG]++;
                if (k == LOWER) {
                    bool v = is_vowel(cp);
                    st->vowel |= v;
                    st->cons = v ? 0 : st->cons + 1;
                    c[MF_F_CONS3] += st->cons >= 3;
                } else {
                    st->cons = 0;
                    if (k == UPPER) {
                        st->vowel |= is_vowel(cp);
                        if (pk == LOWER) c[MF_F_CAMEL]++;
                    } else {
                        st->vowel = st->non_ascii = true;
                    }
                }
                /* letter-pair boundaries; lower -> upper is a camel-case step, priced by CAMEL */
                if ((k == LOWER || k == UPPER) && (pk == UPPER || (pk == LOWER && k == LOWER))) {
                    int caps = pk == UPPER && k == UPPER;
                    mf_add_packed_pairs(c, caps ? MF_F_BNDU : MF_F_BND,
                                        mf_packed_pairs[caps][(st->prev_cp & 31) << 5 | (cp & 31)]);
                }
                if (st->al && pk == DIGIT) c[MF_F_SWITCH]++;
                st->al++;
                st->al_letter = true;
            } else if (k == DIGIT) {
                if (pk != DIGIT) { c[MF_F_DRUN]++; st->digits = 0; }
                if (st->digits++ % 3 == 0) c[MF_F_DGRP]++; /* tokenizers split numbers in threes */
                if (st->al && pk != DIGIT) c[MF_F_SWITCH]++;
                st->al++;
                st->al_digit = true;
            } else if (k == PSTR || k == PUNCT) {
                if (pk != PSTR && pk != PUNCT) c[MF_F_PRUN]++;
            } else if (k == HAN) {
                if (pk != HAN) c[MF_F_HANRUN]++;
            }
        }
        st->prev_class = k;
        st->prev_cp = cp;
        if (k == LOWER) i = lower_run(st, p, i, len, c);
        else if (k == HAN) i = han_run(st, p, i, len, c);
    }
}

void mf_features_end(mf_feature_state *st, uint64_t c[MF_FEATURE_COUNT])
{
    if (st->word_len) close_word(st, c);
    if (st->al) close_alnum(st, c);
    if (st->wsn) close_ws(st, c, -1);
    mf_features_begin(st);
}
