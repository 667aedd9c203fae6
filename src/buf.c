/* buf.c — a growable byte buffer that remembers an allocation failure, so writers can
 * append freely and check once at the end. */
#include "base.h"

#include <string.h>

void mf_buf_init(mf_buf *b)
{
    b->data = NULL;
    b->len = b->cap = 0;
    b->failed = false;
    b->tag_at = b->tag_slash = 0;
    b->tag_stage = 0;
}

void mf_buf_reset(mf_buf *b)
{
    b->len = 0;
    b->tag_at = b->tag_slash = 0;
    b->tag_stage = 0;
}

void mf_buf_free(mf_buf *b) { mf_dealloc(b->data); mf_buf_init(b); }

static bool reserve(mf_buf *b, size_t extra)
{
    if (b->failed) return false;
    if (extra > SIZE_MAX - b->len - 1) { b->failed = true; return false; }
    size_t need = b->len + extra + 1; /* +1 keeps room for the final NUL */
    if (need <= b->cap) return true;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < need) cap = cap > SIZE_MAX / 2 ? need : cap * 2;
    char *data = mf_realloc(b->data, cap);
    if (!data) { b->failed = true; return false; }
    b->data = data;
    b->cap = cap;
    return true;
}

void mf_buf_append(mf_buf *b, const char *s, size_t len)
{
    if (!len || !reserve(b, len)) return;
    memcpy(b->data + b->len, s, len);
    b->len += len;
}

void mf_buf_puts(mf_buf *b, const char *s) { mf_buf_append(b, s, strlen(s)); }

void mf_buf_putc(mf_buf *b, char c)
{
    if (!reserve(b, 1)) return;
    b->data[b->len++] = c;
}

void mf_buf_put_uint(mf_buf *b, uint64_t v)
{
    char digits[24];
    int k = 0;
    do { digits[k++] = (char)('0' + v % 10); v /= 10; } while (v);
    while (k) mf_buf_putc(b, digits[--k]);
}

static const char REPLACEMENT[3] = {(char)0xEF, (char)0xBF, (char)0xBD};

void mf_buf_put_utf8(mf_buf *b, const char *s, size_t len)
{
    if (!len) return; /* s may be NULL then (a block without its text) */
    const unsigned char *p = (const unsigned char *)s;
    size_t run = 0; /* start of the pending run of valid bytes */
    size_t i = 0;
    while (i < len) {
        if (p[i] < 0x80) { i++; continue; }
        uint32_t cp;
        size_t n = mf_utf8_decode(p + i, len - i, &cp);
        if (cp == 0xFFFD && !(n == 3 && p[i] == 0xEF && p[i + 1] == 0xBF && p[i + 2] == 0xBD)) {
            mf_buf_append(b, s + run, i - run);
            mf_buf_append(b, REPLACEMENT, 3);
            run = i + n;
        }
        i += n;
    }
    mf_buf_append(b, s + run, len - run);
}

void mf_buf_put_json_string(mf_buf *b, const char *s, size_t len)
{
    static const char hex[] = "0123456789abcdef";
    mf_buf_putc(b, '"');
    size_t run = 0;
    const unsigned char *p = (const unsigned char *)s;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = p[i];
        if (c >= 0x20 && c != '"' && c != '\\') continue;
        /* Flush the plain run through the UTF-8 repair, then escape this byte. */
        mf_buf_put_utf8(b, s + run, i - run);
        run = i + 1;
        switch (c) {
        case '"': mf_buf_append(b, "\\\"", 2); break;
        case '\\': mf_buf_append(b, "\\\\", 2); break;
        case '\n': mf_buf_append(b, "\\n", 2); break;
        case '\r': mf_buf_append(b, "\\r", 2); break;
        case '\t': mf_buf_append(b, "\\t", 2); break;
        case '\b': mf_buf_append(b, "\\b", 2); break;
        case '\f': mf_buf_append(b, "\\f", 2); break;
        default: {
            char esc[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
            mf_buf_append(b, esc, 6);
        }
        }
    }
    mf_buf_put_utf8(b, s + run, len - run);
    mf_buf_putc(b, '"');
}

mf_status mf_buf_finish(mf_buf *b, char **out, size_t *out_len, mf_error *err)
{
    if (!b->failed && !b->data) reserve(b, 0);
    if (b->failed) {
        mf_buf_free(b);
        return mf_fail(err, MF_ERR_NOMEM, SIZE_MAX, "out of memory while writing output");
    }
    b->data[b->len] = 0;
    *out = b->data;
    if (out_len) *out_len = b->len;
    mf_buf_init(b);
    return MF_OK;
}
