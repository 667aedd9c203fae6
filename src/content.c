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
 * closing tag in content would end the data early: "</transcript" is written
 * "<\/transcript" wherever it is, and so is every form a reader may take for it (any
 * case, full-width and small forms, Cyrillic and Greek look-alikes, HTML character
 * references, anything invisible inside; "the closing tag" below).
 *
 * Everything else passes unchanged (invalid UTF-8 becomes U+FFFD, as everywhere), so the
 * same content always gives the same text, and content that needs no escape — nearly
 * all of it — costs one scan. The invisible characters and the brackets are tables
 * generated from Unicode's own data (unicode_tables.c, by tools/unicode-tables.mjs).
 * docs/transcript.md has the reasons. */
#include "content.h"
#include "unicode_tables.h"

#include <string.h>

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
 * range does: a binary search of the index, then at most t->every ranges decoded. */
static int range_find(const mf_range_table *t, uint32_t cp)
{
    if (!t->count) return -1;
    size_t lo = 0, hi = t->index_count;
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if (t->index_cp[mid] <= cp) lo = mid;
        else hi = mid;
    }
    const uint8_t *p = t->stream + t->index_at[lo];
    uint32_t next = t->index_cp[lo];
    size_t left = t->count - lo * t->every;
    for (size_t k = 0; k < t->every && k < left; k++) {
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
    if (cp < 0x80) return cp <= 0x20 || cp == 0x7F;
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

/* ---- the closing tag ---------------------------------------------------------------
 *
 * "</transcript" as a reader may see it: "<", "/" and the ten letters, each in any form NFKC
 * folds to it ("＜", "﹤", "／", "ｔ", "𝐭") or as an HTML character reference ("&lt;", "&#60;",
 * "&#x3C;", "&sol;", "&#47;", any case, the ";" optional), any letter also as a letter of the
 * Latin, Greek or Cyrillic script (which holds the Cyrillic "а", "с", "р" that look like
 * "a", "c", "p"), and anything invisible, line breaks included, between any two of them. Its
 * slash gets a "\" before it: "<\/transcript", "＜\／transcript", "&lt;\&#47;transcript".
 *
 * A tag may be split between pieces of content and the labels around them (a search result's
 * " <" and its URL "/transcript>"), so the scan reads the buffer, not the piece: bytes before
 * b->tag_at have been read, b->tag_stage says how much of a tag they end with. Each byte is
 * read once, and nothing is written unless a tag is found. */
enum { TAG_NONE = 0, TAG_OPEN = 1, TAG_SLASH = 2, TAG_DONE = TAG_SLASH + 10 };

static uint8_t tag_step(uint8_t stage, char f)
{
    static const char word[] = "transcript";
    if (f == '<') return TAG_OPEN;
    if (stage == TAG_OPEN) return f == '/' ? TAG_SLASH : TAG_NONE;
    if (stage >= TAG_SLASH && (f == '*' || f == word[stage - TAG_SLASH])) return (uint8_t)(stage + 1);
    return TAG_NONE;
}

/* How cp reads in a tag: "" (invisible), or characters among "<", "/", "*" (a letter that may
 * stand for any), "?" (one that ends a tag) and ASCII's lower-case letters (unicode_tables.h). */
static const char *tag_fold(uint32_t cp, char ascii[2])
{
    if (cp < 0x80) {
        if (cp <= 0x20 || cp == 0x7F) return "";
        char c = (char)(cp >= 'A' && cp <= 'Z' ? cp | 0x20 : cp);
        ascii[0] = (c >= 'a' && c <= 'z') || c == '<' || c == '/' ? c : '?';
        ascii[1] = 0;
        return ascii;
    }
    if (is_break(cp) || is_blank(cp)) return "";
    int f = range_find(&mf_tag_fold_table, cp);
    return f < 0 ? "?" : mf_tag_folds[f];
}

static bool is_tag_opener(uint32_t cp)
{
    for (size_t k = 0; k < mf_tag_opener_count; k++)
        if (mf_tag_openers[k] == cp) return true;
    return false;
}

#define REF_MORE SIZE_MAX

/* A hexadecimal digit's value; 16 or more for any other byte. */
static unsigned digit_value(unsigned c)
{
    if (c - '0' < 10) return c - '0';
    c = (c | 0x20) - 'a';
    return c < 6 ? c + 10 : 16;
}

/* The HTML character reference at s (s[0] is "&") a closing tag may be written with: its code
 * point and length; 0 when there is none; REF_MORE when the bytes end before it can tell.
 * "&lt", "&sol", "&#DIGITS", "&#xHEX" (any case, at most 8 digits), the ";" optional. */
static size_t char_ref(const unsigned char *s, size_t n, uint32_t *cp)
{
    size_t i = 1;
    uint32_t v = 0;
    if (i < n && s[i] == '#') {
        unsigned base = ++i < n && (s[i] | 0x20) == 'x' ? 16 : 10;
        i += base == 16;
        size_t first = i;
        for (unsigned d; i < n && (d = digit_value(s[i])) < base; i++) {
            if (i - first == 8) return 0; /* more digits than a code point needs */
            v = v * base + d;
        }
        if (i == first && i < n) return 0;
    } else {
        const char *name = i < n && (s[i] | 0x20) == 's' ? "sol" : "lt";
        v = *name == 's' ? '/' : '<';
        for (; *name && i < n; name++, i++)
            if ((s[i] | 0x20) != *name) return 0;
        if (*name) return REF_MORE;
    }
    if (i >= n) return REF_MORE; /* a digit or the ";" may follow */
    *cp = v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF) ? 0xFFFD : v;
    return i + (s[i] == ';');
}

/* Whether the 8 bytes at p hold "<", "&" or 0xEF (a byte equal to one of them is zero after
 * the XOR, and (v - 1) & ~v sets the high bit of a zero byte). */
static bool word_has_opener(const unsigned char *p)
{
    const uint64_t ones = 0x0101010101010101u;
    uint64_t x, a, b, c;
    memcpy(&x, p, 8);
    a = x ^ (ones * '<');
    b = x ^ (ones * '&');
    c = x ^ (ones * 0xEF);
    return (((a - ones) & ~a) | ((b - ones) & ~b) | ((c - ones) & ~c)) & (ones << 7);
}

/* Whether the 8 bytes at p are printable ASCII other than "<" and "&": nothing the door
 * looks at mid-line. x holds the high bit of any byte at 0x80 or above; with none there,
 * (x - 0x20...) & ~x sets it in some byte exactly when a byte is below 0x20. */
static bool word_is_plain(const unsigned char *p)
{
    const uint64_t ones = 0x0101010101010101u, highs = ones << 7;
    uint64_t x, a, b;
    memcpy(&x, p, 8);
    a = x ^ (ones * '<');
    b = x ^ (ones * '&');
    return !((x | ((x - ones * 0x20) & ~x) | ((a - ones) & ~a) | ((b - ones) & ~b)) & highs);
}

/* Puts a "\" at each of the k ascending offsets of b, moving what follows: one pass. */
static void insert_backslashes(mf_buf *b, const size_t *at, size_t k)
{
    size_t end = b->len;
    for (size_t i = 0; i < k; i++) mf_buf_putc(b, 0);
    if (b->failed) return;
    for (size_t i = k; i-- > 0;) {
        memmove(b->data + at[i] + i + 1, b->data + at[i], end - at[i]);
        b->data[at[i] + i] = '\\';
        end = at[i];
    }
}

/* Reads b from b->tag_at on and escapes every closing tag that ends there. No tag can open
 * at or after `clean` (the door saw no byte one opens with there): once nothing is pending
 * the rest is skipped. */
static void escape_tags(mf_buf *b, size_t clean)
{
    if (b->failed) return;
    if (b->tag_at > b->len) { b->tag_at = 0; b->tag_stage = TAG_NONE; } /* cut back without mf_buf_reset */
    const unsigned char *d = (const unsigned char *)b->data;
    size_t i = b->tag_at, n = b->len, slash = b->tag_slash;
    uint8_t stage = b->tag_stage;
    mf_buf found; /* the slashes of the tags found, as size_t */
    mf_buf_init(&found);
    while (i < n) {
        unsigned char c = d[i];
        uint32_t cp = c;
        size_t len = 1;
        if (stage == TAG_NONE) { /* only an opener matters: "<", "&", or a sequence that opens with 0xEF */
            if (i >= clean) { i = n; break; }
            if (c != '<' && c != '&' && c != 0xEF) {
                for (i++; i + 8 <= n && i + 8 <= clean && !word_has_opener(d + i);) i += 8;
                continue;
            }
        }
        if (c == '&') {
            len = char_ref(d + i, n - i, &cp);
            if (len == REF_MORE) break; /* read again when more is written */
            if (!len) { cp = '&'; len = 1; }
        } else if (c >= 0x80) {
            len = mf_utf8_decode(d + i, n - i, &cp);
            if (stage == TAG_NONE && !is_tag_opener(cp)) { i += len; continue; }
        }
        char ascii[2];
        for (const char *f = tag_fold(cp, ascii); *f; f++) {
            stage = tag_step(stage, *f);
            if (stage == TAG_SLASH) slash = i;
            if (stage == TAG_DONE) {
                mf_buf_append(&found, (const char *)&slash, sizeof slash);
                stage = TAG_NONE;
            }
        }
        i += len;
    }
    size_t count = found.len / sizeof(size_t);
    if (found.failed) b->failed = true;
    else if (count) insert_backslashes(b, (const size_t *)(const void *)found.data, count);
    mf_buf_free(&found);
    b->tag_at = i + count;
    b->tag_stage = stage;
    b->tag_slash = slash + (stage >= TAG_SLASH ? count : 0);
}

static const char REPLACEMENT[3] = {(char)0xEF, (char)0xBF, (char)0xBD};

/* One pass that both repairs UTF-8 (as mf_buf_put_utf8 does) and escapes the brackets, so
 * the door costs about what writing the text plainly costs (bytes are copied in runs); then
 * the closing-tag scan over what the buffer holds since it last looked. */
void mf_put_content(mf_buf *b, const char *s, size_t len)
{
    if (!len || b->failed) return; /* s may be NULL when len is 0 */
    const unsigned char *p = (const unsigned char *)s;
    bool start = at_line_start(b);
    size_t from = b->len;
    bool tag_bytes = false; /* a byte a closing tag may open with: "<", "&", 0xEF ("＜", "﹤") */
    size_t run = 0; /* start of the bytes not written yet */
    size_t i = 0;
    while (i < len) {
        unsigned char c = p[i];
        /* Mid-line, printable ASCII needs nothing here: the hot path, eight bytes at a time. */
        if (!start && c >= 0x20 && c < 0x80 && c != '<' && c != '&') {
            for (i++; i + 8 <= len && word_is_plain(p + i);) i += 8;
            continue;
        }
        tag_bytes |= c == '<' || c == '&' || c == 0xEF;
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
    escape_tags(b, tag_bytes ? SIZE_MAX : from);
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
