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
 * byte, low bits first, the high bit set on every byte but the last. Every 16th range starts
 * an index entry: `next` there (index_cp) and its byte offset (index_at). */
typedef struct mf_range_table {
    const uint8_t *stream;
    const uint32_t *index_cp;
    const uint16_t *index_at;
    size_t index_count;
    size_t count;            /* ranges */
    bool values;
} mf_range_table;
#define MF_RANGE_INDEX_EVERY 16

/* Invisible before a line's first visible character (line breaks aside). */
extern const mf_range_table mf_blank_table;

/* "[" and the opening brackets that look like it, with every code point NFKC folds to one
 * of them, sorted. */
extern const uint32_t mf_brackets[];
extern const size_t mf_bracket_count;

#endif
