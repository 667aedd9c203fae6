/* memory_text.c — the memory tool's text work: lines and their numbers, the numbered
 * view, sizes as `du -h` prints them, the search for old_str, and a small formatter for
 * result texts (the core has no printf). */
#include "memory.h"
#include "base.h"

#include <string.h>

size_t mf_memory_line_count(const char *t, size_t len)
{
    if (len == 0) return 0;
    size_t n = 0;
    for (const char *p = t, *end = t + len; (p = memchr(p, '\n', (size_t)(end - p))) != NULL; p++) n++;
    return t[len - 1] == '\n' ? n : n + 1;
}

size_t mf_memory_line_offset(const char *t, size_t len, size_t index)
{
    size_t at = 0;
    for (size_t i = 0; i < index; i++) {
        const char *nl = at < len ? memchr(t + at, '\n', len - at) : NULL;
        if (!nl) return len;
        at = (size_t)(nl - t) + 1;
    }
    return at;
}

size_t mf_memory_line_of(const char *t, size_t len, size_t offset)
{
    if (offset > len) offset = len;
    size_t n = 1;
    for (const char *p = t, *end = t + offset; (p = memchr(p, '\n', (size_t)(end - p))) != NULL; p++) n++;
    return n;
}

/* Writes a line number right-aligned in six columns (wider past 999999). */
static void put_line_number(mf_buf *b, size_t n)
{
    char digits[24];
    int k = 0;
    do { digits[k++] = (char)('0' + n % 10); n /= 10; } while (n);
    for (int pad = 6 - k; pad > 0; pad--) mf_buf_putc(b, ' ');
    while (k) mf_buf_putc(b, digits[--k]);
}

static size_t number_width(size_t n)
{
    size_t k = 1;
    while (n >= 10) { n /= 10; k++; }
    return k < 6 ? 6 : k;
}

size_t mf_memory_put_numbered(mf_buf *b, const char *t, size_t len, size_t first, size_t last, size_t budget,
                              bool *cut)
{
    *cut = false;
    size_t used = 0, shown = first - 1;
    size_t at = mf_memory_line_offset(t, len, first - 1);
    for (size_t line = first; line <= last && at < len; line++) {
        const char *nl = memchr(t + at, '\n', len - at);
        size_t end = nl ? (size_t)(nl - t) : len;
        size_t cost = (line > first ? 1 : 0) + number_width(line) + 1 + (end - at);
        if (used + cost > budget) {
            if (line == first) {
                size_t room = budget > number_width(line) + 1 ? budget - number_width(line) - 1 : 0;
                size_t keep = room < end - at ? room : end - at;
                /* cut on a character boundary: never leave half a UTF-8 sequence */
                while (keep > 0 && keep < end - at && ((unsigned char)t[at + keep] & 0xC0) == 0x80) keep--;
                put_line_number(b, line);
                mf_buf_putc(b, '\t');
                mf_buf_put_utf8(b, t + at, keep);
                *cut = true;
                shown = line;
            }
            break;
        }
        if (line > first) mf_buf_putc(b, '\n');
        put_line_number(b, line);
        mf_buf_putc(b, '\t');
        mf_buf_put_utf8(b, t + at, end - at);
        used += cost;
        shown = line;
        at = end + 1;
    }
    return shown;
}

void mf_memory_put_size(mf_buf *b, uint64_t bytes)
{
    if (bytes < 1024) {
        mf_buf_put_uint(b, bytes);
        mf_buf_putc(b, 'B');
        return;
    }
    static const char units[] = "KMGTPE";
    uint64_t unit = 1024;
    for (int u = 0;; u++, unit *= 1024) {
        uint64_t whole = bytes / unit, rem = bytes % unit;
        /* tenths, rounded up as du does; rem * 10 cannot overflow below 2^60 */
        uint64_t tenths = whole * 10 + (rem * 10 + unit - 1) / unit;
        if (tenths < 100) {
            mf_buf_put_uint(b, tenths / 10);
            mf_buf_putc(b, '.');
            mf_buf_put_uint(b, tenths % 10);
            mf_buf_putc(b, units[u]);
            return;
        }
        uint64_t up = whole + (rem ? 1 : 0);
        if (up < 1024 || u == 5) {
            mf_buf_put_uint(b, up);
            mf_buf_putc(b, units[u]);
            return;
        }
    }
}

void mf_memory_vprintf(mf_buf *b, const char *fmt, va_list ap)
{
    for (const char *f = fmt; *f; f++) {
        const char *plain = f;
        while (*f && *f != '%') f++;
        mf_buf_append(b, plain, (size_t)(f - plain));
        if (!*f) break;
        f++;
        if (*f == 's') {
            const char *s = va_arg(ap, const char *);
            if (s) mf_buf_puts(b, s);
        } else if (f[0] == '.' && f[1] == '*' && f[2] == 's') {
            int len = va_arg(ap, int);
            const char *s = va_arg(ap, const char *);
            if (len > 0) mf_buf_put_utf8(b, s, (size_t)len);
            f += 2;
        } else if (f[0] == 'z' && f[1] == 'u') {
            mf_buf_put_uint(b, va_arg(ap, size_t));
            f++;
        } else if (*f == '%') {
            mf_buf_putc(b, '%');
        } else {
            break; /* an unsupported directive: stop rather than misread the arguments */
        }
    }
}

void mf_memory_printf(mf_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    mf_memory_vprintf(b, fmt, ap);
    va_end(ap);
}

size_t mf_memory_find(const char *t, size_t len, const char *pat, size_t pat_len, size_t *fail,
                      size_t *first_at, size_t *lines, size_t max_lines, size_t *line_count)
{
    /* fail[i]: the length of the longest proper border of pat[0..i] */
    fail[0] = 0;
    for (size_t i = 1, k = 0; i < pat_len; i++) {
        while (k > 0 && pat[i] != pat[k]) k = fail[k - 1];
        if (pat[i] == pat[k]) k++;
        fail[i] = k;
    }
    size_t found = 0, line = 1, counted = 0, last_line = 0;
    *first_at = 0;
    *line_count = 0;
    for (size_t i = 0, k = 0; i < len; i++) {
        while (k > 0 && t[i] != pat[k]) k = fail[k - 1];
        if (t[i] == pat[k]) k++;
        if (k == pat_len) {
            size_t start = i + 1 - pat_len;
            /* lines advance with the newlines between the previous match and this one */
            for (const char *p = t + counted, *end = t + start; (p = memchr(p, '\n', (size_t)(end - p))) != NULL; p++)
                line++;
            counted = start;
            if (found == 0) *first_at = start;
            if (line != last_line) {
                if (*line_count < max_lines) lines[*line_count] = line;
                (*line_count)++;
                last_line = line;
            }
            found++;
            k = 0; /* non-overlapping: start afresh after a match */
        }
    }
    return found;
}
