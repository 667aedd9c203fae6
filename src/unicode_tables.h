/* unicode_tables.h — the Unicode tables the content door reads (content.c), generated into
 * unicode_tables.c by tools/unicode-tables.mjs from the Unicode data Node ships (its
 * property escapes and NFKC), never copied by hand. The rules for what each holds are the
 * generator's; docs/transcript.md says why. */
#ifndef MIDFOLD_UNICODE_TABLES_H
#define MIDFOLD_UNICODE_TABLES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Sorted ranges of code points, small enough to cost little in the wasm module: per range,
 * varint(lo - next) and varint(hi - lo), `next` being the code point after the previous
 * range (0 before the first), then one value byte when `values`. Varints hold 7 bits a
 * byte, low bits first, the high bit set on every byte but the last. Every `every`-th range
 * starts an index entry: `next` there (index_cp) and its byte offset (index_at). */
typedef struct mf_range_table {
    const uint8_t *stream;
    const uint32_t *index_cp;
    const uint16_t *index_at;
    size_t index_count;
    size_t count;            /* ranges */
    uint8_t every;           /* ranges per index entry */
    bool values;
} mf_range_table;

/* Invisible before a line's first visible character (line breaks aside). */
extern const mf_range_table mf_blank_table;

/* How a closing tag "</transcript" reads a non-ASCII code point that is not invisible: the
 * value is an index into mf_tag_folds, strings over "<", "/", "*" (a letter, standing for any
 * letter) and "?" (a character that ends a tag); a code point in no range reads as "?". */
extern const mf_range_table mf_tag_fold_table;
extern const char *const mf_tag_folds[];
/* The non-ASCII code points whose fold holds "<" (the small and full-width forms); the
 * generator makes sure each is in U+F000-U+FFFF (its UTF-8 opens with 0xEF: content.c looks
 * for that byte). */
extern const uint32_t mf_tag_openers[];
extern const size_t mf_tag_opener_count;

/* "[" and the opening brackets that look like it, with every code point NFKC folds to one
 * of them, sorted. */
extern const uint32_t mf_brackets[];
extern const size_t mf_bracket_count;

#endif
