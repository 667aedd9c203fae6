/* text_features.h — the calibrated estimator's features: per-code-point classes and runs,
 * counted in one left-to-right pass with O(1) state (the specification is
 * tools/calibrate/model.mjs; the two must agree exactly, see tests/native/test_features.c). */
#ifndef MIDFOLD_TEXT_FEATURES_H
#define MIDFOLD_TEXT_FEATURES_H

#include "internal.h"

enum {
    /* per-code-point classes (each code point adds to exactly one count, see below) */
    MF_F_LOWER, MF_F_UPPER, MF_F_DIGIT, MF_F_SPACE, MF_F_TAB, MF_F_NL, MF_F_PSTR, MF_F_PUNCT, MF_F_CTRL,
    MF_F_LATIN, MF_F_CYR, MF_F_OTHER2, MF_F_HAN, MF_F_CJKP, MF_F_KANA, MF_F_HANGUL, MF_F_SYM3, MF_F_OTHER3,
    MF_F_ASTRAL,
    MF_F_REP,   /* a repeated ASCII punctuation mark ("-----") */
    MF_F_REPX,  /* a repeated CJK punctuation, symbol or other code point ("───", "。。") */
    MF_F_CAPS,  /* an upper-case letter after another */
    /* runs */
    MF_F_W1, MF_F_W2, MF_F_W4, MF_F_W7, MF_F_W11, MF_F_LONG, MF_F_NOVOW, MF_F_CONS3, MF_F_CAMEL, MF_F_DRUN,
    MF_F_DGRP, MF_F_SWITCH, MF_F_MIXRUN, MF_F_MIXCHR, MF_F_WS1, MF_F_WS1D, MF_F_WSH, MF_F_WSNL, MF_F_WSIND, MF_F_PRUN,
    MF_F_HANRUN, MF_F_XWORD,
    MF_FEATURE_COUNT
};

/* The pass's state, so text given in pieces counts exactly as text given whole. */
typedef struct mf_feature_state {
    int prev_class;          /* -1 at the start */
    uint32_t prev_cp;
    uint32_t word_len, cons, digits, al, wsn, ws_tail, ws_spaces;
    bool vowel, non_ascii, al_letter, al_digit, ws_nl;
} mf_feature_state;

void mf_features_begin(mf_feature_state *st);
/* Adds the features of UTF-8 text to counts (pieces must split between code points). */
void mf_features_feed(mf_feature_state *st, const char *text, size_t len, uint64_t counts[MF_FEATURE_COUNT]);
/* Closes the open runs. */
void mf_features_end(mf_feature_state *st, uint64_t counts[MF_FEATURE_COUNT]);

#endif
