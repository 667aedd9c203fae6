/* digest_text.h — spans, lines, sentences and case-blind matching: what every reader of the
 * digest shares (digest_text.c). Not installed. */
#ifndef MIDFOLD_DIGEST_TEXT_H
#define MIDFOLD_DIGEST_TEXT_H

#include "base.h"

/* A piece of a text the digest reads: borrowed, never NUL-terminated. */
typedef struct mf_span { const char *s; size_t n; } mf_span;

#define MF_SPAN(literal) ((mf_span){literal, sizeof literal - 1})

/* `s` trimmed of ASCII and ideographic spaces at both ends. */
mf_span mf_span_trim(mf_span s);
bool mf_span_eq(mf_span a, mf_span b);
/* Equal but for ASCII case. */
bool mf_span_eq_ci(mf_span a, mf_span b);
/* ASCII case-insensitive: does s contain / start with `needle`? (needle is lower case) */
bool mf_span_has(mf_span s, const char *needle);
bool mf_span_starts(mf_span s, const char *prefix);
/* The length of `prefix` (lower case, not empty) when s starts with it but for ASCII case; else 0. */
size_t mf_span_prefix_len(mf_span s, const char *prefix);
/* The bytes from `at` on (empty past the end). */
mf_span mf_span_from(mf_span s, size_t at);
/* Where `needle` (exact bytes) first occurs in s, or SIZE_MAX. */
size_t mf_span_find(mf_span s, mf_span needle);
/* The next line of s from *at (advancing *at past its break); false at the end. */
bool mf_next_line(mf_span s, size_t *at, mf_span *line);
/* The next sentence of s from *at: it ends after . ! ? followed by a space or the end, at
 * 。！？；, or at a line break; trimmed, list markers ("- ", "2. ") dropped, never empty.
 * False at the end. */
bool mf_next_sentence(mf_span s, size_t *at, mf_span *sentence);
/* True for the code points of Chinese, Japanese and Korean scripts. */
bool mf_is_cjk_cp(uint32_t cp);
/* True when s holds a CJK code point. */
bool mf_span_has_cjk(mf_span s);

#endif
