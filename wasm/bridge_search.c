/* bridge_search.c — the archive's ranked keyword search (src/search.h), in
 * wasm/midfold.wasm only (the full tier: js/core/tiers.js). The ownership rules are
 * bridge_common.h's.
 *
 * The texts cross as one buffer the caller fills: a u32 count, then for each text a u32
 * byte length and its UTF-8 bytes (little-endian, no padding). The hits come back as one
 * buffer: a u32 count and 4 bytes of padding, then 24 bytes per hit, best first: u32 text
 * index, u32 snippet start, u32 snippet end (byte offsets into that text), 4 bytes of
 * padding, f64 score. */
#include "bridge_common.h"
#include "../src/search.h"

static uint32_t read_u32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void write_u32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)v; p[1] = (unsigned char)(v >> 8); p[2] = (unsigned char)(v >> 16); p[3] = (unsigned char)(v >> 24);
}

/* Reads the texts' buffer into an array of (pointer, length) into it (to free with
 * mf_dealloc); MF_ERR_PARSE at the byte where it does not add up. */
static mf_status read_texts(const unsigned char *buf, size_t len, mf_search_text **out, size_t *count, mf_error *err)
{
    *out = NULL;
    *count = 0;
    if (!buf || len < 4) return mf_fail(err, MF_ERR_PARSE, 0, "search: the texts' buffer has no count");
    uint32_t n = read_u32(buf);
    if (n > (len - 4) / 4) return mf_fail(err, MF_ERR_PARSE, 0, "search: %zu texts cannot fit in %zu bytes", (size_t)n, len);
    mf_search_text *texts = n ? mf_alloc(n * sizeof *texts) : NULL;
    if (n && !texts) return mf_fail(err, MF_ERR_NOMEM, SIZE_MAX, "out of memory reading the texts");
    size_t at = 4;
    for (uint32_t i = 0; i < n; i++) {
        if (len - at < 4) { mf_dealloc(texts); return mf_fail(err, MF_ERR_PARSE, at, "search: text %zu has no length", (size_t)i); }
        uint32_t k = read_u32(buf + at);
        at += 4;
        if (k > len - at) { mf_dealloc(texts); return mf_fail(err, MF_ERR_PARSE, at, "search: text %zu runs past the buffer", (size_t)i); }
        texts[i] = (mf_search_text){(const char *)buf + at, k};
        at += k;
    }
    if (at != len) { mf_dealloc(texts); return mf_fail(err, MF_ERR_PARSE, at, "search: bytes after the last text"); }
    *out = texts;
    *count = n;
    return MF_OK;
}

/* Ranks the texts against the query (UTF-8, query_len bytes): the best `limit` hits with
 * snippets of at most `snippet_chars` code points (mf_search_rank). */
EXPORT int mfw_search_rank(const unsigned char *texts_buf, size_t texts_len, const char *query, size_t query_len,
                           uint32_t limit, uint32_t snippet_chars, char **out_ptr, size_t *out_len, mfw_error *e)
{
    mf_error err;
    mf_search_text *texts;
    size_t count, nhits = 0;
    mf_search_hit *hits = NULL;
    mf_status st = read_texts(texts_buf, texts_len, &texts, &count, &err);
    if (!st) st = mf_search_rank(texts, count, query, query_len, limit, snippet_chars, &hits, &nhits, &err);
    mf_dealloc(texts);
    if (st) return report(e, &err, st);
    size_t bytes = 8 + nhits * 24;
    unsigned char *out = mf_alloc(bytes);
    if (!out) { mf_free(hits); return report(e, &err, mf_fail(&err, MF_ERR_NOMEM, SIZE_MAX, "out of memory")); }
    memset(out, 0, bytes);
    write_u32(out, (uint32_t)nhits);
    for (size_t h = 0; h < nhits; h++) {
        unsigned char *r = out + 8 + h * 24;
        write_u32(r, (uint32_t)hits[h].entry);
        write_u32(r + 4, (uint32_t)hits[h].snippet_start);
        write_u32(r + 8, (uint32_t)hits[h].snippet_end);
        memcpy(r + 16, &hits[h].score, 8);
    }
    mf_free(hits);
    *out_ptr = (char *)out;
    *out_len = bytes;
    return 0;
}
