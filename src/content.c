/* content.c — the one door through which content reaches a transcript.
 *
 * The serializer writes its markers ("[user]", "[tool_result:NAME] ", "[thinking] ",
 * "[Context Compressed]", "[truncated: …]", "[N earlier messages omitted]", …) at the
 * start of a line, and every one of them opens with "[". Content — tool results and
 * arguments, documents, thinking, any message's text, names — is written through
 * mf_put_content, which makes sure no line of it can be read as one of those markers:
 * a content line whose first visible character is an opening square bracket gets a
 * backslash before that bracket ("\[user]"), the way Markdown writes a literal bracket.
 *
 * The rule is about the bracket, not about a list of marker words, so a marker added
 * later is covered without touching this file, and so are near misses a model might
 * still read as a turn ("[ user]", "[User]", "［用户］"). What counts:
 *   - a line break is any of \n, \r (so \r\n too), \v, \f, U+001C-U+001E, U+0085, U+2028
 *     and U+2029 — every break a reader might split on (Python's str.splitlines set);
 *   - before the first visible character a line may hold anything invisible: Unicode
 *     White_Space (U+00A0, U+3000, …), Default_Ignorable_Code_Point (zero-width
 *     characters, BOM, bidi controls, variation selectors, tag characters), other
 *     format (Cf) and control (Cc) characters, every mark (general category M: Hebrew
 *     points, Thai vowels, Tibetan signs as much as the combining accents) with nothing to
 *     combine with, and U+2800 (the blank braille pattern);
 *   - the brackets are "[" and its look-alikes: the opening square, lenticular and
 *     tortoise-shell brackets of Unicode (full-width "［" U+FF3B, "【" U+3010, "〔", "⟦", …).
 * Lines that start with anything else ("> [user]", "- [x] done") are left as they are:
 * the serializer never writes a marker after a prefix.
 *
 * The prompt wraps the transcript in <transcript> … </transcript> (compact.c), so a
 * closing tag in content would end the data early: "</transcript" (any case, spaces
 * allowed around the slash) is written "<\/transcript", wherever it is on a line.
 *
 * Everything else passes unchanged (invalid UTF-8 becomes U+FFFD, as everywhere), so the
 * same content always gives the same text, and content that needs no escape — nearly
 * all of it — costs one scan. The invisible characters and the brackets are tables
 * generated from Unicode's own data (unicode_tables.c, by tools/unicode-tables.mjs).
 * docs/transcript.md has the reasons. */
#include "internal.h"
#include "unicode_tables.h"

static bool is_break(uint32_t cp)
{
    return (cp >= 0x0A && cp <= 0x0D) || (cp >= 0x1C && cp <= 0x1E) || cp == 0x85 || cp == 0x2028 || cp == 0x2029;
}

static uint32_t varint(const uint8_t **p)
{
    uint32_t v = 0;
    for (int shift = 0;; shift += 7) {
        uint8_t b = *(*p)++;
        v |= (uint32_t)(b & 0x7F) << shift;
        if (!(b & 0x80)) return v;
    }
}

/* The value of the range of `t` that holds cp (0 in a table without values), or -1 when no
 * range does: a binary search of the index, then at most 16 ranges decoded. */
static int range_find(const mf_range_table *t, uint32_t cp)
{
    size_t lo = 0, hi = t->index_count;
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if (t->index_cp[mid] <= cp) lo = mid;
        else hi = mid;
    }
    const uint8_t *p = t->stream + t->index_at[lo];
    uint32_t next = t->index_cp[lo];
    size_t left = t->count - lo * MF_RANGE_INDEX_EVERY;
    for (size_t k = 0; k < MF_RANGE_INDEX_EVERY && k < left; k++) {
        uint32_t first = next + varint(&p);
        uint32_t last = first + varint(&p);
        int value = t->values ? *p++ : 0;
        if (cp < first) return -1;
        if (cp <= last) return value;
        next = last + 1;
    }
    return -1;
}

/* Invisible (unicode_tables.c): line breaks are told apart before this is asked. */
static bool is_blank(uint32_t cp)
{
    if (cp < 0x7F) return cp <= 0x20;
    return range_find(&mf_blank_table, cp) >= 0;
}

static bool is_bracket(uint32_t cp)
{
    size_t lo = 0, hi = mf_bracket_count;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (mf_brackets[mid] == cp) return true;
        if (mf_brackets[mid] < cp) lo = mid + 1;
        else hi = mid;
    }
    return false;
}

/* True when everything after the buffer's last line break is invisible, so the next
 * content byte opens a line as far as a reader can tell. The buffer is valid UTF-8
 * (every writer repairs), so stepping back over continuation bytes finds each code point. */
static bool at_line_start(const mf_buf *b)
{
    const unsigned char *d = (const unsigned char *)b->data;
    size_t i = b->len;
    while (i > 0) {
        size_t j = i - 1;
        while (j > 0 && i - j < 4 && (d[j] & 0xC0) == 0x80) j--;
        uint32_t cp;
        mf_utf8_decode(d + j, i - j, &cp);
        if (is_break(cp)) return true;
        if (!is_blank(cp)) return false;
        i = j;
    }
    return true;
}

static bool is_space_or_tab(unsigned char c) { return c == ' ' || c == '\t'; }

/* When s starts a closing transcript tag ("</transcript", any case, spaces or tabs
 * around the slash), the offset of its slash; else 0. */
static size_t closing_tag(const unsigned char *s, size_t len)
{
    static const char name[] = "transcript";
    size_t i = 1;
    while (i < len && is_space_or_tab(s[i])) i++;
    if (i >= len || s[i] != '/') return 0;
    size_t slash = i++;
    while (i < len && is_space_or_tab(s[i])) i++;
    for (size_t k = 0; k < sizeof name - 1; k++, i++)
        if (i >= len || (s[i] | 0x20) != (unsigned char)name[k]) return 0;
    return slash;
}

static const char REPLACEMENT[3] = {(char)0xEF, (char)0xBF, (char)0xBD};

/* One pass that both repairs UTF-8 (as mf_buf_put_utf8 does) and escapes, so the door
 * costs about what writing the text plainly costs. Bytes are copied in runs. */
void mf_put_content(mf_buf *b, const char *s, size_t len)
{
    if (!len || b->failed) return; /* s may be NULL when len is 0 */
    const unsigned char *p = (const unsigned char *)s;
    bool start = at_line_start(b);
    size_t run = 0; /* start of the bytes not written yet */
    size_t i = 0;
    while (i < len) {
        unsigned char c = p[i];
        /* Mid-line, printable ASCII other than "<" needs nothing: the hot path. */
        if (!start && c >= 0x20 && c < 0x80 && c != '<') { i++; continue; }
        /* So does, mid-line, a well-formed three-byte sequence from U+1000 to U+CFFF (CJK text)
         * other than the line separators U+2028 and U+2029 (E2 80 A8, E2 80 A9). */
        if (!start && c >= 0xE1 && c <= 0xEC && i + 2 < len && (p[i + 1] & 0xC0) == 0x80 && (p[i + 2] & 0xC0) == 0x80 &&
            !(c == 0xE2 && p[i + 1] == 0x80 && (p[i + 2] == 0xA8 || p[i + 2] == 0xA9))) {
            i += 3;
            continue;
        }
        uint32_t cp = c;
        size_t n = c < 0x80 ? 1 : mf_utf8_decode(p + i, len - i, &cp);
        if (cp == 0xFFFD && n == 1) { /* an invalid byte (a real U+FFFD decodes as 3) */
            mf_buf_append(b, s + run, i - run);
            mf_buf_append(b, REPLACEMENT, 3);
            run = i + 1;
            start = false;
        } else if (is_break(cp)) {
            start = true;
        } else if (c == '<') {
            size_t slash = closing_tag(p + i, len - i);
            if (slash) {
                mf_buf_append(b, s + run, i + slash - run);
                mf_buf_putc(b, '\\');
                run = i + slash;
            }
            start = false;
        } else if (start && !is_blank(cp)) {
            if (is_bracket(cp)) {
                mf_buf_append(b, s + run, i - run);
                mf_buf_putc(b, '\\');
                run = i;
            }
            start = false;
        }
        i += n;
    }
    mf_buf_append(b, s + run, len - run);
}

void mf_put_content_json(mf_buf *b, const mf_node *node)
{
    if (b->failed) return;
    mf_buf json;
    mf_buf_init(&json);
    mf_write_json(&json, node);
    if (json.failed) b->failed = true;
    else mf_put_content(b, json.data, json.len);
    mf_buf_free(&json);
}
