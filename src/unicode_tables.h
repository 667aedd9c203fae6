/* unicode_tables.h — the Unicode tables the content door reads (content.c), generated into
 * unicode_tables.c by tools/unicode-tables.mjs from the Unicode data Node ships (its
 * property escapes and NFKC), never copied by hand. The rules for what each holds are the
 * generator's; docs/transcript.md says why. */
#ifndef MIDFOLD_UNICODE_TABLES_H
#define MIDFOLD_UNICODE_TABLES_H

#include <stddef.h>
#include <stdint.h>

/* A range of code points in one word: the first (21 bits), then how many follow it (11 bits),
 * so a range holds at most 2,048 code points (the generator cuts longer ones). */
#define MF_RANGE(lo, hi) ((uint32_t)(lo) << 11 | (uint32_t)((hi) - (lo)))
#define MF_RANGE_LO(r) ((r) >> 11)
#define MF_RANGE_HI(r) (((r) >> 11) + ((r) & 0x7FF))

/* Invisible before a line's first visible character (line breaks aside), sorted. */
extern const uint32_t mf_blank_ranges[];
extern const size_t mf_blank_range_count;

/* "[" and the opening brackets that look like it, with every code point NFKC folds to one
 * of them, sorted. */
extern const uint32_t mf_brackets[];
extern const size_t mf_bracket_count;

#endif
