/* json_reprint.c — an OpenAI arguments string (JSON text) re-printed the way
 * mf_write_json prints a value, in one pass over the text and without a tree: the
 * transcript shows arguments with ": " and ", " separators whatever spacing the model
 * used. It reads what cJSON reads (so the native build, which parses with cJSON
 * elsewhere, prints the same): whitespace is any byte up to 32, a leading UTF-8 BOM is
 * skipped, numbers are read as cJSON reads them (json_number.c), strings may hold raw
 * control bytes, a \u escape with a bad hex digit ends the string's kept text (cJSON reads
 * it as a NUL); nesting deeper than MF_MAX_DEPTH, NUL characters (escaped or raw), other
 * bad escapes and lone surrogates make the text invalid, and invalid text is shown as it
 * is. Only the bytes after the value are stricter: JSON whitespace only (json_read.c's
 * rule). tests/native/test_json_reprint.c checks it against the cJSON path. */
#include "tree.h"

#include <string.h>

typedef struct reprint {
    const unsigned char *s;
    size_t len, pos;
    mf_buf *out;
    mf_buf scratch; /* one string's unescaped bytes */
    bool nomem;
} reprint;

static void skip_space(reprint *r)
{
    while (r->pos < r->len && r->s[r->pos] <= 32) r->pos++;
}

static int hex4(const unsigned char *p)
{
    int v = 0;
    for (int i = 0; i < 4; i++) {
        unsigned char c = p[i];
        int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (d < 0) return -1;
        v = v * 16 + d;
    }
    return v;
}

static void put_code_point(mf_buf *b, uint32_t cp)
{
    char u[4];
    size_t n;
    if (cp < 0x80) { u[0] = (char)cp; n = 1; }
    else if (cp < 0x800) { u[0] = (char)(0xC0 | cp >> 6); u[1] = (char)(0x80 | (cp & 0x3F)); n = 2; }
    else if (cp < 0x10000) {
        u[0] = (char)(0xE0 | cp >> 12); u[1] = (char)(0x80 | (cp >> 6 & 0x3F)); u[2] = (char)(0x80 | (cp & 0x3F)); n = 3;
    } else {
        u[0] = (char)(0xF0 | cp >> 18); u[1] = (char)(0x80 | (cp >> 12 & 0x3F));
        u[2] = (char)(0x80 | (cp >> 6 & 0x3F)); u[3] = (char)(0x80 | (cp & 0x3F)); n = 4;
    }
    mf_buf_append(b, u, n);
}

/* A string at r->pos (its opening quote), unescaped into scratch and written as
 * mf_write_json writes a string. As cJSON, its end is found first (the first quote not
 * after a backslash), then its escapes are read inside it. */
static bool string(reprint *r)
{
    const unsigned char *s = r->s;
    size_t end = r->pos + 1;
    while (end < r->len && s[end] != '"') {
        if (s[end] == 0) return false;
        if (s[end] == '\\') {
            /* json_read.c refuses \u0000 at any backslash this walk meets, even one that
             * decoding reads as part of an earlier escape (`\u\u0000`): so does this. */
            if (r->len - end >= 6 && memcmp(s + end + 1, "u0000", 5) == 0) return false;
            if (end + 1 >= r->len) return false;
            end++;
        }
        end++;
    }
    if (end >= r->len) return false;
    bool cut = false;
    r->scratch.len = 0;
    for (size_t i = r->pos + 1; i < end;) {
        if (s[i] != '\\') {
            size_t run = i;
            while (i < end && s[i] != '\\') i++;
            if (!cut) mf_buf_append(&r->scratch, (const char *)s + run, i - run);
            continue;
        }
        unsigned char e = s[i + 1];
        const char *plain = e == 'b' ? "\b" : e == 'f' ? "\f" : e == 'n' ? "\n" : e == 'r' ? "\r" : e == 't' ? "\t"
                          : e == '"' ? "\"" : e == '\\' ? "\\" : e == '/' ? "/" : NULL;
        if (plain) {
            if (!cut) mf_buf_putc(&r->scratch, plain[0]);
            i += 2;
            continue;
        }
        if (e != 'u' || end - i < 6) return false;
        int first = hex4(s + i + 2);
        if (first == 0 || (first >= 0xDC00 && first <= 0xDFFF)) return false; /* NUL, a lone low half */
        i += 6;
        if (first < 0) {
            /* cJSON reads a bad hex digit as \u0000 and hands the string back cut there:
             * the rest is still read (it may be invalid), but no longer kept. */
            cut = true;
            continue;
        }
        uint32_t cp = (uint32_t)first;
        if (first >= 0xD800 && first <= 0xDBFF) {
            if (end - i < 6 || s[i] != '\\' || s[i + 1] != 'u') return false;
            int second = hex4(s + i + 2);
            if (second < 0xDC00 || second > 0xDFFF) return false;
            cp = 0x10000 + (((uint32_t)first & 0x3FF) << 10 | ((uint32_t)second & 0x3FF));
            i += 6;
        }
        if (!cut) put_code_point(&r->scratch, cp);
    }
    r->pos = end + 1;
    if (r->scratch.failed) { r->nomem = true; return false; }
    mf_buf_put_json_string(r->out, r->scratch.data ? r->scratch.data : "", r->scratch.len);
    return true;
}

static bool literal(reprint *r, const char *word)
{
    size_t n = strlen(word);
    if (r->len - r->pos < n || memcmp(r->s + r->pos, word, n) != 0) return false;
    mf_buf_append(r->out, word, n);
    r->pos += n;
    return true;
}

static bool value(reprint *r, size_t depth);

/* An array or an object at r->pos, its items separated as mf_write_json separates them. */
static bool container(reprint *r, size_t depth)
{
    bool object = r->s[r->pos] == '{';
    char close = object ? '}' : ']';
    if (depth >= MF_MAX_DEPTH) return false;
    mf_buf_putc(r->out, (char)r->s[r->pos++]);
    skip_space(r);
    if (r->pos < r->len && r->s[r->pos] == close) {
        mf_buf_putc(r->out, close);
        r->pos++;
        return true;
    }
    for (bool first = true;; first = false) {
        if (!first) mf_buf_append(r->out, ", ", 2);
        skip_space(r);
        if (object) {
            if (r->pos >= r->len || r->s[r->pos] != '"' || !string(r)) return false;
            skip_space(r);
            if (r->pos >= r->len || r->s[r->pos] != ':') return false;
            r->pos++;
            mf_buf_append(r->out, ": ", 2);
            skip_space(r);
        }
        if (!value(r, depth + 1)) return false;
        skip_space(r);
        if (r->pos < r->len && r->s[r->pos] == ',') { r->pos++; continue; }
        if (r->pos < r->len && r->s[r->pos] == close) { r->pos++; break; }
        return false;
    }
    mf_buf_putc(r->out, close);
    return true;
}

static bool value(reprint *r, size_t depth)
{
    if (r->pos >= r->len) return false;
    unsigned char c = r->s[r->pos];
    if (c == 'n') return literal(r, "null");
    if (c == 'f') return literal(r, "false");
    if (c == 't') return literal(r, "true");
    if (c == '"') return string(r);
    if (c == '[' || c == '{') return container(r, depth);
    if (c != '-' && !(c >= '0' && c <= '9')) return false;
    double v = 0;
    size_t used = mf_json_scan_number((const char *)r->s + r->pos, r->len - r->pos, &v);
    if (used == SIZE_MAX) { r->nomem = true; return false; }
    if (!used) return false;
    char text[40];
    mf_buf_append(r->out, text, mf_json_format_number(v, text));
    r->pos += used;
    return true;
}

void mf_write_json_text(mf_buf *b, const char *json, size_t len)
{
    if (!len) { mf_buf_puts(b, "{}"); return; }
    reprint r = {.s = (const unsigned char *)json, .len = len, .pos = 0, .out = b, .nomem = false};
    mf_buf_init(&r.scratch);
    size_t start = b->len;
    if (len >= 5 && memcmp(json, "\xEF\xBB\xBF", 3) == 0) r.pos = 3; /* as cJSON: only with 2 more bytes */
    skip_space(&r);
    bool ok = value(&r, 0);
    while (ok && r.pos < len && (json[r.pos] == ' ' || json[r.pos] == '\t' || json[r.pos] == '\n' || json[r.pos] == '\r'))
        r.pos++;
    ok = ok && r.pos == len && !b->failed;
    mf_buf_free(&r.scratch);
    if (ok) return;
    if (r.nomem || b->failed) { b->failed = true; return; }
    /* Arguments that are not valid JSON (a model can emit those) are shown as they are. */
    b->len = start;
    mf_buf_put_utf8(b, json, len);
}
