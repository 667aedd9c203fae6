/* utf8.c — strict UTF-8 decoding: overlong forms, surrogates and values past U+10FFFF
 * are invalid, and each invalid byte stands for one U+FFFD of its own. */
#include "internal.h"

size_t mf_utf8_decode(const unsigned char *s, size_t len, uint32_t *cp)
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

size_t mf_count_code_points(const char *text, size_t len)
{
    const unsigned char *p = (const unsigned char *)text;
    size_t n = 0, i = 0;
    while (i < len) {
        if (p[i] < 0x80) { i++; n++; continue; }
        uint32_t cp;
        i += mf_utf8_decode(p + i, len - i, &cp);
        n++;
    }
    return n;
}
