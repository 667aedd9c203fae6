/* text_features.h — the calibrated estimator's features: per-code-point classes and runs,
 * counted in one left-to-right pass with O(1) state (the specification is
 * tools/calibrate/model.mjs; the two must agree exactly: tests/native/test_profiles.c, and
 * test_features_ascii.c for the ASCII mask path against the code-point path). */
#ifndef MIDFOLD_TEXT_FEATURES_H
#define MIDFOLD_TEXT_FEATURES_H

#include "base.h"

#include <string.h>

enum {
    /* per-code-point classes (each code point adds to exactly one count, see below) */
    MF_F_LOWER, MF_F_UPPER, MF_F_DIGIT, MF_F_SPACE, MF_F_TAB, MF_F_NL, MF_F_PSTR, MF_F_PUNCT, MF_F_CTRL,
    MF_F_LATIN, MF_F_CYR, MF_F_OTHER2, MF_F_HAN, MF_F_CJKP, MF_F_KANA, MF_F_HANGUL, MF_F_SYM3, MF_F_OTHER3,
    MF_F_ASTRAL,
    MF_F_REP,   /* a repeated ASCII punctuation mark ("-----") */
    MF_F_REPX,  /* a repeated CJK punctuation, symbol or other code point ("───", "。。") */
    MF_F_CAPS,  /* an upper-case letter after another */
    MF_F_HANR,  /* an ideograph that is not one of the common ones (mf_common_han) */
    /* runs */
    MF_F_W1, MF_F_W2, MF_F_W4, MF_F_W7, MF_F_W11, MF_F_LONG, MF_F_NOVOW, MF_F_CONS3, MF_F_CAMEL, MF_F_DRUN,
    MF_F_DGRP, MF_F_SWITCH, MF_F_MIXRUN, MF_F_MIXCHR, MF_F_WS1, MF_F_WS1D, MF_F_WSH, MF_F_WSNL, MF_F_WSIND, MF_F_PRUN,
    MF_F_HANRUN, MF_F_XWORD,
    /* letter-pair boundaries, in 1/MF_BOUNDARY_SCALE of an expected token boundary, one pair
     * of counts per table (o200k's, DeepSeek-V3's, Qwen3's): BND between two letters
     * (case-folded) except lower -> upper and upper -> upper; BNDU between two capitals
     * (ALL_CAPS words split more often). A profile prices one table's pair. */
    MF_F_BND, MF_F_BNDU, MF_F_BND_DS, MF_F_BNDU_DS, MF_F_BND_QW, MF_F_BNDU_QW,
    MF_FEATURE_COUNT
};

/* The boundary features count probabilities in 1/255 steps; a weight of theirs is in
 * milli-tokens per expected boundary, so their products are summed and divided by this,
 * rounded up. */
#define MF_BOUNDARY_SCALE 255u
#define MF_BOUNDARY_TABLES 3

/* P(a token starts between two adjacent ASCII letters) x 255, per table (o200k, DeepSeek-V3,
 * Qwen3), then [0] for lower/mixed-case pairs (feature MF_F_BND + 2 * table) or [1] for
 * capital pairs (MF_F_BNDU + 2 * table), then index (first - 'a') * 26 + (second - 'a'),
 * case-folded. Measured from each tokenizer's output by tools/calibrate/boundaries.mjs;
 * generated into profiles_fitted.c. */
extern const uint8_t mf_letter_boundary[MF_BOUNDARY_TABLES][2][26 * 26];

/* The same entries, the three tables of a pair packed in one word (MF_PAIR_FIELD_BITS bits
 * each, o200k's from bit 0, then DeepSeek-V3's, then Qwen3's), so a loop over letters adds
 * once per pair instead of three times: [0] for BND pairs, [1] for BNDU pairs, indexed by
 * the two letters' low five bits, (first & 31) << 5 | (second & 31), which folds case for
 * free. A field holds the sum of 8,192 entries. Filled by mf_features_begin at first use
 * (derived from mf_letter_boundary); read-only after. */
#define MF_PAIR_FIELD_BITS 21
extern uint64_t mf_packed_pairs[2][32 * 32];

/* Adds a sum of packed entries to its three features: counts[first], [first + 2] and
 * [first + 4], where first is MF_F_BND (lower-case pairs) or MF_F_BNDU (capital pairs). */
static inline void mf_add_packed_pairs(uint64_t counts[], int first, uint64_t packed)
{
    const uint64_t field = ((uint64_t)1 << MF_PAIR_FIELD_BITS) - 1;
    counts[first] += packed & field;
    counts[first + 2] += packed >> MF_PAIR_FIELD_BITS & field;
    counts[first + 4] += packed >> 2 * MF_PAIR_FIELD_BITS;
}

/* The common ideographs, one bit per code point from U+4E00 (bit (cp - 0x4E00) & 7 of byte
 * (cp - 0x4E00) >> 3): the most frequent ones of the calibration corpus, which byte-level
 * vocabularies mostly hold as single tokens (tools/calibrate/common-han.mjs); generated
 * into profiles_fitted.c. Other ideographs count as MF_F_HANR. */
#define MF_COMMON_HAN_FIRST 0x4E00u
#define MF_COMMON_HAN_LAST 0x9FFFu
extern const uint8_t mf_common_han[(MF_COMMON_HAN_LAST - MF_COMMON_HAN_FIRST + 1) / 8];

/* The pass's state, so text given in pieces counts exactly as text given whole. */
typedef struct mf_feature_state {
    int prev_class;          /* -1 at the start */
    uint32_t prev_cp;
    uint32_t word_len, cons, digits, al, wsn, ws_tail, ws_spaces;
    bool vowel, non_ascii, al_letter, al_digit, ws_nl;
} mf_feature_state;

/* A code point's class in the pass: its per-code-point feature, MF_F_LOWER .. MF_F_ASTRAL
 * (U+FFFD for invalid bytes is MF_F_OTHER3). The search's tokenizer (search_tokens.c)
 * segments text by these classes, so it splits Han, kana and hangul where the estimator does.
 * Fills the tables at first use; allocates nothing. */
int mf_feature_class(uint32_t cp);
void mf_features_begin(mf_feature_state *st);
/* Adds the features of UTF-8 text to counts (pieces must split between code points). */
void mf_features_feed(mf_feature_state *st, const char *text, size_t len, uint64_t counts[MF_FEATURE_COUNT]);
/* Whether the 16 bytes at p are all ASCII: what the mask path needs to start (checked
 * here, inline, because mixed Chinese text asks at almost every ASCII code point). */
static inline bool mf_ascii16(const unsigned char *p)
{
    uint64_t a, b;
    memcpy(&a, p, 8);
    memcpy(&b, p + 8, 8);
    return ((a | b) & 0x8080808080808080u) == 0;
}

/* The pass over a stretch of ASCII from p, 64 bytes at a time as bit masks
 * (text_features_ascii.c): counts what mf_features_feed would and leaves the same state.
 * Returns the bytes it took: 0 unless the first 16 are ASCII, and it stops at the first
 * non-ASCII byte and where fewer than 16 bytes remain. Reads p[0..len) during the call and
 * keeps nothing of it; allocates nothing. Its tables are static and filled by
 * mf_features_begin, which st has been through. */
size_t mf_features_ascii(mf_feature_state *st, const unsigned char *p, size_t len, uint64_t counts[MF_FEATURE_COUNT]);
/* Fills the mask path's own tables from mf_packed_pairs (mf_features_begin calls it once). */
void mf_features_ascii_init(void);
/* Closes the open runs. */
void mf_features_end(mf_feature_state *st, uint64_t counts[MF_FEATURE_COUNT]);

#endif
