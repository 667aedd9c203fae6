/*
 * memory.h — what the memory tool's files share (memory_path.c, memory_text.c,
 * memory_cmd.c). Not installed.
 */
#ifndef MIDFOLD_MEMORY_H
#define MIDFOLD_MEMORY_H

#include "base.h"
#include "midfold_memory.h"

#include <stdarg.h>

#define MF_MEMORY_ROOT_LEN 9u /* strlen("/memories") */

/* ---- paths (memory_path.c) -------------------------------------------------------- */

/* True when `s` is a path the tool may act on exactly as written: it passes
 * mf_memory_check_path and has no trailing slash. Store listings are filtered by it,
 * so a key another writer left in the store is never shown, read or changed. */
bool mf_memory_is_key(const char *s, size_t len);

/* True for a code point whose NFKC form holds ".", "/", "\\" or "%" (memory_lookalike_table.c,
 * generated from Node's NFKC by tools/unicode/memory-lookalikes.mjs). */
bool mf_memory_nfkc_lookalike(uint32_t cp);

/* Writes a path for an error message: control and invisible characters and invalid
 * bytes escaped (\u001b, \xff), cut after about 160 bytes with "...". */
void mf_memory_put_shown_path(mf_buf *b, const char *s, size_t len);

/* ---- text (memory_text.c) --------------------------------------------------------- */

/* Lines are separated by "\n"; a final "\n" ends the last line instead of starting an
 * empty one. So "" has 0 lines, "a" and "a\n" have 1, "a\n\n" has 2. */
size_t mf_memory_line_count(const char *t, size_t len);
/* Byte offset where line `index` (0-based) starts; `len` when index >= the line count. */
size_t mf_memory_line_offset(const char *t, size_t len, size_t index);
/* The 1-based line holding the byte at `offset` (offset may be len). */
size_t mf_memory_line_of(const char *t, size_t len, size_t offset);

/* Writes lines first..last (1-based, inclusive) as "%6zu\t<line>" joined by "\n",
 * without going over `budget` bytes. Returns the last line written (first - 1 when
 * none). When not even line `first` fits, its start is written, cut on a character
 * boundary, and *cut is set. */
size_t mf_memory_put_numbered(mf_buf *b, const char *t, size_t len, size_t first, size_t last, size_t budget,
                              bool *cut);

/* Writes a byte count the way `du -h` does: "512B", "1.5K", "20K", "1.0M" (rounded up). */
void mf_memory_put_size(mf_buf *b, uint64_t bytes);

/* Appends formatted text: %s (NUL-terminated), %.*s (int length, bytes; invalid UTF-8
 * written as U+FFFD), %zu and %%. */
void mf_memory_printf(mf_buf *b, const char *fmt, ...);
void mf_memory_vprintf(mf_buf *b, const char *fmt, va_list ap);

/* Finds the non-overlapping occurrences of `pat` in `t`, left to right, in linear time
 * (KMP; `scratch` holds pat_len size_t values, pat_len > 0). Returns how many there are;
 * *first_at receives the offset of the first one. The distinct 1-based lines where
 * occurrences start go to lines[0..max_lines) and their number, which may exceed
 * max_lines, to *line_count. */
size_t mf_memory_find(const char *t, size_t len, const char *pat, size_t pat_len, size_t *scratch,
                      size_t *first_at, size_t *lines, size_t max_lines, size_t *line_count);

#endif /* MIDFOLD_MEMORY_H */
