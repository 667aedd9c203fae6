/* digest_line.h — text written as one line of the digest (digest_line.c). Not installed. */
#ifndef MIDFOLD_DIGEST_LINE_H
#define MIDFOLD_DIGEST_LINE_H

#include "digest_text.h"

/* The code points of s. */
size_t mf_line_cps(mf_span s);
/* Appends s on one line: every line break (of any kind a reader splits on) and tab becomes a
 * space, a run of spaces one, Markdown's "**" goes. Invalid UTF-8 is replaced. */
void mf_line_flat(mf_buf *b, mf_span s);
/* Appends s, flat, cut back to a word (or a CJK character) within `max` code points, with
 * "…" when cut. */
void mf_line_clipped(mf_buf *b, mf_span s, size_t max);
/* Appends `text` condensed to about `max` code points: whole sentences (heading and list
 * marks dropped) while they fit, joined by a space (none after 。！？；); a first sentence
 * longer than that cut at a word, with "…"; " …" where sentences were left out. */
void mf_line_condensed(mf_buf *b, mf_span text, size_t max);

#endif
