/* base.h — what every file of the core stands on: allocation and failure,
 * the arena, the byte buffer, UTF-8 and the text classes. Not installed. */
#ifndef MIDFOLD_BASE_H
#define MIDFOLD_BASE_H

#include "midfold.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- allocation (alloc.c): every allocation goes through these ----------------- */
void *mf_alloc(size_t size);
void *mf_realloc(void *ptr, size_t size);
void mf_dealloc(void *ptr);
/* How many allocations have failed so far in this process (a monotonic counter). */
size_t mf_alloc_failures(void);

/* Fills *err (when given) and returns `code`. `position` may be SIZE_MAX. */
mf_status mf_fail(mf_error *err, mf_status code, size_t position, const char *fmt, ...);

/* ---- arena (arena.c): bump allocation freed all at once ------------------------- */
typedef struct mf_arena_chunk mf_arena_chunk;
typedef struct mf_arena {
    mf_arena_chunk *head;
    size_t used, cap;        /* of the head chunk */
} mf_arena;
void mf_arena_init(mf_arena *arena);
void *mf_arena_alloc(mf_arena *arena, size_t size); /* 8-byte aligned, uninitialized; NULL on OOM */
void *mf_arena_calloc(mf_arena *arena, size_t count, size_t size);
char *mf_arena_strdup(mf_arena *arena, const char *s, size_t len); /* NUL-terminated copy */
void mf_arena_free(mf_arena *arena);

/* ---- growable byte buffer (buf.c) ----------------------------------------------- */
typedef struct mf_buf {
    char *data;
    size_t len, cap;
    bool failed;             /* an allocation failed: later appends are no-ops */
    /* The content door's closing-tag scan (content.c): data before tag_at has been read,
     * and ends with tag_stage of "</transcript", whose slash is at tag_slash. */
    size_t tag_at, tag_slash;
    uint8_t tag_stage;
} mf_buf;
void mf_buf_init(mf_buf *b);
/* Empties b for reuse (its memory kept), the door's scan with it. */
void mf_buf_reset(mf_buf *b);
void mf_buf_free(mf_buf *b);
void mf_buf_append(mf_buf *b, const char *s, size_t len);
void mf_buf_puts(mf_buf *b, const char *s);
void mf_buf_putc(mf_buf *b, char c);
void mf_buf_put_uint(mf_buf *b, uint64_t v);
/* Appends UTF-8 text with invalid sequences replaced by U+FFFD. */
void mf_buf_put_utf8(mf_buf *b, const char *s, size_t len);
/* Appends s as a JSON string literal (quotes included), non-ASCII left unescaped. */
void mf_buf_put_json_string(mf_buf *b, const char *s, size_t len);
/* Hands the NUL-terminated contents to the caller (to free with mf_free). */
mf_status mf_buf_finish(mf_buf *b, char **out, size_t *out_len, mf_error *err);

/* ---- UTF-8 (here, inline) and text classes (text_class.c) ------------------------- */
/* Decodes one code point at s[0..len); sets *cp (U+FFFD for an invalid byte) and
 * returns the bytes consumed (1 for an invalid byte, never 0 when len > 0). Strict:
 * overlong forms, surrogates and values past U+10FFFF are invalid, and each invalid byte
 * stands for one U+FFFD of its own. Inline: it sits in every text loop. */
static inline size_t mf_utf8_decode(const unsigned char *s, size_t len, uint32_t *cp)
{
    unsigned char c = s[0];
    if (c < 0x80) { *cp = c; return 1; }
    size_t need;
    uint32_t v, min;
    if (c >= 0xC2 && c <= 0xDF) { need = 2; v = c & 0x1F; min = 0x80; }
    else if (c >= 0xE0 && c <= 0xEF) { need = 3; v = c & 0x0F; min = 0x800; }
    else if (c >= 0xF0 && c <= 0xF4) { need = 4; v = c & 0x07; min = 0x10000; }
    else { *cp = 0xFFFD; return 1; }
    if (len < need) { *cp = 0xFFFD; return 1; }
    for (size_t i = 1; i < need; i++) {
        if ((s[i] & 0xC0) != 0x80) { *cp = 0xFFFD; return 1; }
        v = (v << 6) | (s[i] & 0x3F);
    }
    if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) { *cp = 0xFFFD; return 1; }
    *cp = v;
    return need;
}

/* Writes code point `cp` (at most U+10FFFF, no surrogate) as UTF-8 at out[0..4); returns the
 * bytes written (1 to 4). The encoder beside mf_utf8_decode, for the readers that decode
 * escapes (json_scan.c) and lower-case terms (search_tokens.c). */
static inline size_t mf_utf8_encode(uint32_t cp, char *out)
{
    if (cp < 0x80) { out[0] = (char)cp; return 1; }
    if (cp < 0x800) { out[0] = (char)(0xC0 | cp >> 6); out[1] = (char)(0x80 | (cp & 0x3F)); return 2; }
    if (cp < 0x10000) {
        out[0] = (char)(0xE0 | cp >> 12); out[1] = (char)(0x80 | (cp >> 6 & 0x3F)); out[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | cp >> 18); out[1] = (char)(0x80 | (cp >> 12 & 0x3F));
    out[2] = (char)(0x80 | (cp >> 6 & 0x3F)); out[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

typedef enum mf_char_class {
    MF_CLASS_CJK = 0, MF_CLASS_ALNUM = 1, MF_CLASS_SPACE = 2, MF_CLASS_OTHER = 3
} mf_char_class;
#define MF_CLASS_COUNT 4
mf_char_class mf_classify(uint32_t cp);
/* Adds the number of code points of each class in s to counts[]. Invalid bytes count
 * as "other"; a valid sequence is classified by its code point. */
void mf_count_classes(const char *s, size_t len, uint64_t counts[MF_CLASS_COUNT]);

#endif /* MIDFOLD_BASE_H */
