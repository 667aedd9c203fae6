/* common.c — see common.h. */
#include "common.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void fuzz_fail(const char *file, int line, const char *cond, const char *fmt, ...)
{
    fprintf(stderr, "\n==fuzz== invariant failed at %s:%d: %s\n==fuzz== ", file, line, cond);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n");
    abort();
}

bool fuzz_split(const uint8_t *data, size_t size, size_t option_bytes, fuzz_input *in)
{
    if (size < 1 || option_bytes > sizeof in->option_copy) return false;
    memset(in, 0, sizeof *in);
    in->format = (mf_format)(data[0] & FUZZ_FORMAT_MASK);
    in->tree = (data[0] & FUZZ_FLAG_TREE) != 0;
    size_t have = size - 1 < option_bytes ? size - 1 : option_bytes;
    memcpy(in->option_copy, data + 1, have);
    in->options = in->option_copy;
    in->doc = data + 1 + have;
    in->doc_len = size - 1 - have;
    return true;
}

bool fuzz_load(const uint8_t *data, size_t size, size_t option_bytes, fuzz_input *in)
{
    if (!fuzz_split(data, size, option_bytes, in)) return false;
    in->parsed = NULL;
    in->owned = NULL;
    mf_error err;
    mf_status st;
    if (!in->tree) {
        st = mf_doc_parse_json((const char *)in->doc, in->doc_len, &in->parsed, &err);
    } else {
        /* The tree decoder borrows its buffer: a copy of exactly doc_len bytes, so ASan
         * sees any read past the end. */
        in->owned = malloc(in->doc_len ? in->doc_len : 1);
        if (!in->owned) abort();
        if (in->doc_len) memcpy(in->owned, in->doc, in->doc_len);
        st = mf_doc_parse_tree(in->owned, in->doc_len, &in->parsed, &err);
    }
    if (st) {
        free(in->owned);
        in->owned = NULL;
        return false;
    }
    return true;
}

void fuzz_release(fuzz_input *in)
{
    mf_doc_free(in->parsed);
    free(in->owned);
    in->parsed = NULL;
    in->owned = NULL;
}

static const char *const EXCLUDABLE[] = {"bash", "read_file", "unknown", "grep", ""};

void fuzz_micro_options(const uint8_t *o, mf_micro_options *out, const char **names)
{
    mf_micro_options_init(out);
    out->keep_recent = o[0] % 6;
    out->profile = (mf_profile)(o[0] / 6 % MF_PROFILE_COUNT);
    size_t n = 0;
    for (size_t k = 0; k < sizeof EXCLUDABLE / sizeof *EXCLUDABLE; k++)
        if (o[1] >> k & 1) names[n++] = EXCLUDABLE[k];
    out->exclude_tools = n ? names : NULL;
    out->exclude_count = n;
    out->clear_tool_inputs = o[1] >> 5 & 1;
    out->clear_at_least = (uint64_t)o[2] * 8;
    out->trigger = (uint64_t)o[3] * 64;
    static const uint8_t RECALL_KEY[32] = "a conversation's recall secret..";
    if (o[1] >> 6 & 1) { /* the markers name recall ids */
        out->recall_key = RECALL_KEY;
        out->recall_key_len = sizeof RECALL_KEY;
    }
}

void fuzz_compact_options(const uint8_t *o, mf_compact_options *out)
{
    static const char INSTRUCTIONS_EN[] = "Focus on the database migration and the failing tests.";
    static const char INSTRUCTIONS_BAD[] = "keep \xff the \xe4\xb8 paths \xed\xa0\x80 exact";
    mf_compact_options_init(out);
    out->keep_tail_tokens = (uint64_t)o[0] * o[0] * 2;
    out->max_transcript_tokens = (uint64_t)o[1] * o[1];
    out->max_summary_tokens = (uint32_t)o[2] * 16;
    switch (o[3] % 4) {
    case 0: out->language = MF_LANG_AUTO; break;
    case 1: out->language = MF_LANG_EN; break;
    case 2: out->language = MF_LANG_ZH; break;
    default: out->language = MF_LANG_EN; out->language_code = "fr"; break;
    }
    out->profile = (mf_profile)(o[3] / 4 % MF_PROFILE_COUNT);
    switch (o[4] % 3) {
    case 1: out->instructions = INSTRUCTIONS_EN; out->instructions_len = sizeof INSTRUCTIONS_EN - 1; break;
    case 2: out->instructions = INSTRUCTIONS_BAD; out->instructions_len = sizeof INSTRUCTIONS_BAD - 1; break;
    default: break;
    }
}

uint32_t fuzz_digest_tokens(const uint8_t *o) { return (uint32_t)o[5] * 8; }

size_t fuzz_utf8_next(const unsigned char *s, size_t len, uint32_t *cp)
{
    /* Table 3-7 of the Unicode standard: the well-formed byte sequences. */
    unsigned char b0 = s[0];
    *cp = 0xFFFD;
    if (b0 <= 0x7F) { *cp = b0; return 1; }
    unsigned char lo = 0x80, hi = 0xBF;
    size_t n;
    if (b0 >= 0xC2 && b0 <= 0xDF) n = 2;
    else if (b0 == 0xE0) { n = 3; lo = 0xA0; }
    else if (b0 >= 0xE1 && b0 <= 0xEC) n = 3;
    else if (b0 == 0xED) { n = 3; hi = 0x9F; }
    else if (b0 >= 0xEE && b0 <= 0xEF) n = 3;
    else if (b0 == 0xF0) { n = 4; lo = 0x90; }
    else if (b0 >= 0xF1 && b0 <= 0xF3) n = 4;
    else if (b0 == 0xF4) { n = 4; hi = 0x8F; }
    else return 1;
    if (len < n) return 1;
    if (s[1] < lo || s[1] > hi) return 1;
    for (size_t i = 2; i < n; i++)
        if (s[i] < 0x80 || s[i] > 0xBF) return 1;
    uint32_t v = b0 & (n == 2 ? 0x1F : n == 3 ? 0x0F : 0x07);
    for (size_t i = 1; i < n; i++) v = v << 6 | (s[i] & 0x3F);
    *cp = v;
    return n;
}

bool fuzz_utf8_valid(const char *s, size_t len)
{
    const unsigned char *p = (const unsigned char *)s;
    for (size_t i = 0; i < len;) {
        uint32_t cp;
        size_t n = fuzz_utf8_next(p + i, len - i, &cp);
        if (cp == 0xFFFD && !(n == 3 && p[i] == 0xEF)) return false; /* EF BF BD is a real U+FFFD */
        i += n;
    }
    return true;
}

size_t fuzz_count_code_points(const char *s, size_t len)
{
    size_t n = 0;
    uint32_t cp;
    for (size_t i = 0; i < len; n++) i += fuzz_utf8_next((const unsigned char *)s + i, len - i, &cp);
    return n;
}

static void put_u32(mf_buf *b, uint32_t v)
{
    char le[4] = {(char)(v & 255), (char)(v >> 8 & 255), (char)(v >> 16 & 255), (char)(v >> 24 & 255)};
    mf_buf_append(b, le, 4);
}

static void put_bytes(mf_buf *b, const char *s, size_t len)
{
    put_u32(b, (uint32_t)len);
    mf_buf_append(b, s, len);
}

void fuzz_encode_tree(mf_buf *b, const mf_node *node)
{
    mf_buf_putc(b, (char)node->kind);
    switch ((mf_kind)node->kind) {
    case MF_NULL: case MF_FALSE: case MF_TRUE: return;
    case MF_NUMBER: case MF_STRING: put_bytes(b, node->str, node->len); return;
    case MF_BLOB: put_u32(b, (uint32_t)node->len); return;
    case MF_ARRAY: case MF_OBJECT:
        put_u32(b, node->count);
        for (uint32_t i = 0; i < node->count; i++) {
            if (node->kind == MF_OBJECT) put_bytes(b, node->items[i].key, node->items[i].key_len);
            fuzz_encode_tree(b, &node->items[i]);
        }
        return;
    }
    fuzz_fail(__FILE__, __LINE__, "known kind", "node kind %u", node->kind);
}

mf_format fuzz_effective_format(const mf_doc *doc, mf_format format)
{
    return format == MF_FORMAT_AUTO ? mf_doc_detect(doc) : format;
}

size_t fuzz_content_count(const mf_node *msg)
{
    const mf_node *content = mf_get(msg, "content");
    if (!content) content = mf_get(msg, "parts"); /* a UIMessage */
    return content && content->kind == MF_ARRAY ? content->count : 0;
}

bool fuzz_format_supported(mf_format format)
{
    static signed char known[FUZZ_FORMAT_VALUES]; /* 0 not probed yet, 1 taken, -1 refused */
    if ((unsigned)format >= FUZZ_FORMAT_VALUES) return false;
    if (!known[format]) {
        mf_doc *doc = NULL;
        mf_error err;
        uint64_t milli = 0;
        if (mf_doc_parse_json("[]", 2, &doc, &err)) abort();
        known[format] = mf_doc_estimate(doc, format, MF_PROFILE_BAREAGENT, &milli, &err) == MF_ERR_INVALID_ARG ? -1 : 1;
        mf_doc_free(doc);
    }
    return known[format] > 0;
}

void fuzz_check_format_refused(mf_status st, const mf_error *err, mf_format format, const char *what)
{
    CHECK(st == MF_ERR_INVALID_ARG || st == MF_ERR_TOO_LARGE, "%s in format %d, which the library does not take: status %d",
          what, format, st);
    CHECK(err->code == st && err->message[0], "%s: no error text for the refused format %d", what, format);
}
