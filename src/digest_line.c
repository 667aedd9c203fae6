/* digest_line.c — text written as one line of the digest (digest_line.h): line breaks of
 * every kind become spaces, so nothing quoted can start a line of its own and pass for a
 * heading or a request; long text is condensed by sentence and cut only at a word. */
#include "digest_line.h"
#include "base.h"

#include <string.h>

/* A line break of any kind a reader splits on (the set content.c escapes after), or a tab. */
static bool breaks_line(uint32_t cp)
{
    return cp == '\t' || (cp >= 0x0A && cp <= 0x0D) || (cp >= 0x1C && cp <= 0x1E) || cp == 0x85 ||
           cp == 0x2028 || cp == 0x2029;
}

static bool alnum(char c) { return (c >= '0' && c <= '9') || ((c | 32) >= 'a' && (c | 32) <= 'z'); }

size_t mf_line_cps(mf_span s)
{
    size_t n = 0;
    for (size_t i = 0; i < s.n; i++) n += ((unsigned char)s.s[i] & 0xC0) != 0x80;
    return n;
}

/* Writes s on one line: every line break becomes a space, runs of spaces one, Markdown's
 * "**" goes. So nothing quoted can start a line of the digest and pass for a heading or a
 * request of its own. */
void mf_line_flat(mf_buf *b, mf_span s)
{
    if (!s.n) return; /* an empty span may have no pointer at all */
    size_t i = 0, run = 0;
    bool space = false;
    while (i < s.n) {
        unsigned char c = (unsigned char)s.s[i];
        uint32_t cp = c;
        size_t len = c < 0x80 ? 1 : mf_utf8_decode((const unsigned char *)s.s + i, s.n - i, &cp);
        /* "**" marks bold, unless it stands between two letters or digits (2**attempt). */
        bool bold_mark = c == '*' && i + 1 < s.n && s.s[i + 1] == '*' &&
                         !(i > 0 && alnum(s.s[i - 1]) && i + 2 < s.n && alnum(s.s[i + 2]));
        bool drop = cp == ' ' || breaks_line(cp) || bold_mark;
        if (drop) {
            mf_buf_put_utf8(b, s.s + run, i - run);
            bool bold = bold_mark;
            i += bold ? 2 : len;
            run = i;
            if (!bold && !space && b->len && b->data[b->len - 1] != ' ') mf_buf_putc(b, ' ');
            space = !bold || space;
            continue;
        }
        space = false;
        i += len;
    }
    mf_buf_put_utf8(b, s.s + run, i - run);
    while (b->len && b->data[b->len - 1] == ' ') b->len--;
}

/* The first `max` code points of s, cut back to a space (or a CJK character) so no word is cut. */
static mf_span cut_at_word(mf_span s, size_t max)
{
    size_t i = 0, cps = 0, last_break = 0;
    while (i < s.n && cps < max) {
        unsigned char c = (unsigned char)s.s[i];
        uint32_t cp = c;
        size_t len = c < 0x80 ? 1 : mf_utf8_decode((const unsigned char *)s.s + i, s.n - i, &cp);
        if (c == ' ' || mf_is_cjk_cp(cp) || cp >= 0x3000) last_break = c == ' ' ? i : i + len;
        i += len;
        cps++;
    }
    if (i < s.n && last_break > i / 2) i = last_break;
    return mf_span_trim((mf_span){s.s, i});
}

/* A heading's or a list item's marks: "### ", "1. ", "- ". */
static mf_span unmarked(mf_span s)
{
    while (s.n && (s.s[0] == '#' || s.s[0] == '>')) s = mf_span_trim(mf_span_from(s, 1));
    return s;
}

static bool ends_in_cjk_stop(const mf_buf *b)
{
    static const char *const STOPS[] = {"\xE3\x80\x82", "\xEF\xBC\x81", "\xEF\xBC\x9F", "\xEF\xBC\x9B", NULL}; /* 。！？； */
    for (int k = 0; b->len >= 3 && STOPS[k]; k++) if (memcmp(b->data + b->len - 3, STOPS[k], 3) == 0) return true;
    return false;
}

/* Writes `text` condensed to about `max` code points: whole sentences while they fit; a
 * first sentence longer than that cut at a word, with "…"; "…" where sentences were left out. */
void mf_line_condensed(mf_buf *b, mf_span text, size_t max)
{
    size_t at = 0, used = 0;
    mf_span s;
    bool any = false;
    while (mf_next_sentence(text, &at, &s)) {
        s = unmarked(s);
        if (!s.n) continue;
        size_t c = mf_line_cps(s);
        if (any && used + 1 + c > max) { mf_buf_puts(b, " …"); return; }
        if (!any && c > max) {
            mf_line_flat(b, cut_at_word(s, max));
            mf_buf_puts(b, "…");
            return;
        }
        if (any && !ends_in_cjk_stop(b)) mf_buf_putc(b, ' '); /* 。！？； need no space after them */
        mf_line_flat(b, s);
        used += c + any;
        any = true;
    }
}

void mf_line_clipped(mf_buf *b, mf_span s, size_t max)
{
    if (mf_line_cps(s) <= max) { mf_line_flat(b, s); return; }
    mf_line_flat(b, cut_at_word(s, max));
    mf_buf_puts(b, "…");
}
