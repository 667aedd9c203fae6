/* digest_text.c — lines, sentences and case-blind matching for the digest's readers. */
#include "digest_text.h"
#include "base.h"

#include <string.h>

static char lower(char c) { return c >= 'A' && c <= 'Z' ? (char)(c + 32) : c; }

mf_span mf_span_trim(mf_span s)
{
    for (;;) {
        if (s.n && (s.s[0] == ' ' || s.s[0] == '\t' || s.s[0] == '\r')) { s.s++; s.n--; }
        else if (s.n >= 3 && memcmp(s.s, "\xE3\x80\x80", 3) == 0) { s.s += 3; s.n -= 3; } /* U+3000 */
        else break;
    }
    for (;;) {
        if (s.n && (s.s[s.n - 1] == ' ' || s.s[s.n - 1] == '\t' || s.s[s.n - 1] == '\r')) s.n--;
        else if (s.n >= 3 && memcmp(s.s + s.n - 3, "\xE3\x80\x80", 3) == 0) s.n -= 3;
        else break;
    }
    return s;
}

mf_span mf_span_from(mf_span s, size_t at) { return at >= s.n ? (mf_span){s.s + s.n, 0} : (mf_span){s.s + at, s.n - at}; }

size_t mf_span_find(mf_span s, mf_span needle)
{
    if (!needle.n || needle.n > s.n) return needle.n ? SIZE_MAX : 0;
    for (const char *p = s.s, *end = s.s + (s.n - needle.n + 1); (p = memchr(p, needle.s[0], (size_t)(end - p))) != NULL; p++)
        if (memcmp(p, needle.s, needle.n) == 0) return (size_t)(p - s.s);
    return SIZE_MAX;
}

bool mf_span_eq(mf_span a, mf_span b) { return a.n == b.n && (!a.n || memcmp(a.s, b.s, a.n) == 0); }

bool mf_span_eq_ci(mf_span a, mf_span b)
{
    if (a.n != b.n) return false;
    for (size_t i = 0; i < a.n; i++) if (lower(a.s[i]) != lower(b.s[i])) return false;
    return true;
}

/* The readers try lists of words at every byte of a tool's output: the prefix is walked
 * once, to its NUL or its first mismatch (usually the first byte), never measured first. */
size_t mf_span_prefix_len(mf_span s, const char *prefix)
{
    size_t i = 0;
    for (; prefix[i]; i++)
        if (i >= s.n || lower(s.s[i]) != prefix[i]) return 0;
    return i;
}

bool mf_span_starts(mf_span s, const char *prefix)
{
    for (size_t i = 0; prefix[i]; i++)
        if (i >= s.n || lower(s.s[i]) != prefix[i]) return false;
    return true;
}

/* Called for a dozen needles on every line of every tool result: the candidates for the
 * first byte (both cases of a letter) are found with memchr, which reads a word at a time. */
bool mf_span_has(mf_span s, const char *needle)
{
    size_t n = strlen(needle);
    if (!n) return true;
    if (s.n < n) return false;
    const char *p = s.s, *end = s.s + (s.n - n + 1); /* a match starts before end */
    char c = needle[0];
    bool letter = c >= 'a' && c <= 'z';
    const char *lo = memchr(p, c, (size_t)(end - p));
    const char *up = letter ? memchr(p, c - 32, (size_t)(end - p)) : NULL;
    while (lo || up) {
        const char *q = !up || (lo && lo < up) ? lo : up;
        size_t k = 1;
        while (k < n && lower(q[k]) == needle[k]) k++;
        if (k == n) return true;
        p = q + 1;
        if (q == lo) lo = p < end ? memchr(p, c, (size_t)(end - p)) : NULL;
        else up = p < end ? memchr(p, c - 32, (size_t)(end - p)) : NULL;
    }
    return false;
}

bool mf_next_line(mf_span s, size_t *at, mf_span *line)
{
    if (*at >= s.n) return false;
    size_t start = *at, i = start;
    while (i < s.n && s.s[i] != '\n' && s.s[i] != '\r') i++;
    line->s = s.s + start;
    line->n = i - start;
    if (i < s.n && s.s[i] == '\r' && i + 1 < s.n && s.s[i + 1] == '\n') i++;
    *at = i < s.n ? i + 1 : i;
    return true;
}

/* The bytes of a sentence end at s[i], or 0. */
static size_t sentence_end(mf_span s, size_t i)
{
    char c = s.s[i];
    if (c == '\n') return 1;
    if (c == '.' || c == '!' || c == '?')
        return i + 1 == s.n || s.s[i + 1] == ' ' || s.s[i + 1] == '\n' || s.s[i + 1] == '\r' ? 1 : 0;
    if ((unsigned char)c == 0xE3 && i + 2 < s.n && s.s[i + 1] == '\x80' && s.s[i + 2] == '\x82') return 3; /* 。 */
    if ((unsigned char)c == 0xEF && i + 2 < s.n && s.s[i + 1] == '\xBC' &&
        (s.s[i + 2] == '\x81' || s.s[i + 2] == '\x9F' || s.s[i + 2] == '\x9B')) /* ！？； */
        return 3;
    return 0;
}

/* A list item's marker ("- ", "* ", "• ", "2. ") is no part of its sentence. */
static mf_span strip_marker(mf_span t)
{
    for (;;) {
        size_t k = 0;
        if (t.n >= 2 && (t.s[0] == '-' || t.s[0] == '*' || t.s[0] == '>') && t.s[1] == ' ') k = 2;
        else if (t.n >= 4 && memcmp(t.s, "\xE2\x80\xA2 ", 4) == 0) k = 4; /* • */
        else {
            while (k < t.n && k < 3 && t.s[k] >= '0' && t.s[k] <= '9') k++;
            k = k && k + 1 < t.n && (t.s[k] == '.' || t.s[k] == ')') && t.s[k + 1] == ' ' ? k + 2 : 0;
        }
        if (!k) return t;
        t = mf_span_trim((mf_span){t.s + k, t.n - k});
    }
}

bool mf_next_sentence(mf_span s, size_t *at, mf_span *sentence)
{
    while (*at < s.n) {
        size_t start = *at, i = start, end_len = 0;
        while (i < s.n && !(end_len = sentence_end(s, i))) i++;
        size_t keep = i < s.n && s.s[i] != '\n' ? end_len : 0; /* the stop stays, the break goes */
        *at = i < s.n ? i + end_len : s.n;
        mf_span t = strip_marker(mf_span_trim((mf_span){s.s + start, i - start + keep}));
        if (t.n) { *sentence = t; return true; }
    }
    return false;
}

bool mf_is_cjk_cp(uint32_t cp)
{
    return (cp >= 0x4E00 && cp <= 0x9FFF) || (cp >= 0x3400 && cp <= 0x4DBF) || (cp >= 0x3040 && cp <= 0x30FF) ||
           (cp >= 0xAC00 && cp <= 0xD7AF) || (cp >= 0xF900 && cp <= 0xFAFF) || (cp >= 0x20000 && cp <= 0x2FA1F);
}

bool mf_span_has_cjk(mf_span s)
{
    for (size_t i = 0; i < s.n;) {
        if ((unsigned char)s.s[i] < 0x80) { i++; continue; }
        uint32_t cp;
        i += mf_utf8_decode((const unsigned char *)s.s + i, s.n - i, &cp);
        if (mf_is_cjk_cp(cp)) return true;
    }
    return false;
}
