/* marker.c — the micro-compaction marker, "[truncated: bash result, 1204 chars]": its
 * words, whether a result already is one, and its count, a sink of the result walk
 * (result.c) so that N is what the transcript shows of the result (serialize.c, the same
 * walk) and the estimate prices (estimate.c, the same walk). */
#include "result.h"

#include <string.h>

static const char MARK[] = "[truncated:";

static bool starts_with_mark(const char *s, size_t len)
{
    return len >= sizeof MARK - 1 && memcmp(s, MARK, sizeof MARK - 1) == 0;
}

bool mf_result_is_truncated(const mf_node *content)
{
    if (!content) return false;
    if (content->kind == MF_STRING) return starts_with_mark(content->str, content->len);
    if (content->kind == MF_ARRAY)
        return content->count && (content = mf_get_str(&content->items[0], "text")) &&
               starts_with_mark(content->str, content->len);
    const mf_node *inner = mf_anthropic_marker_node(content); /* a server-tool result's output */
    if (inner) return starts_with_mark(inner->str, inner->len);
    const mf_node *value = mf_get_str(content, "value"); /* AI SDK output */
    return value && starts_with_mark(value->str, value->len);
}

void mf_write_marker(mf_buf *b, const char *name, size_t name_len, size_t chars)
{
    mf_write_marker_recall(b, name, name_len, chars, NULL, 0);
}

void mf_write_marker_recall(mf_buf *b, const char *name, size_t name_len, size_t chars, const char *id, size_t id_len)
{
    mf_buf_puts(b, "[truncated: ");
    mf_buf_put_utf8(b, name, name_len);
    mf_buf_puts(b, " result, ");
    mf_buf_put_uint(b, chars);
    mf_buf_puts(b, " chars");
    if (id_len) {
        mf_buf_puts(b, " \xc2\xb7 recall "); /* U+00B7 MIDDLE DOT */
        mf_buf_append(b, id, id_len);
    }
    mf_buf_putc(b, ']');
}

/* What a marker's id is the hash of: "result", NUL, the tool's name, NUL, the content as JSON
 * (the parse's key order: the host sends the same bytes, it gets the same id). */
bool mf_result_recall_id(const uint8_t *key, size_t key_len, const char *name, size_t name_len,
                         const mf_node *content, char out[MF_RECALL_ID_LEN])
{
    mf_buf b;
    mf_buf_init(&b);
    mf_buf_append(&b, "result", 7); /* with its NUL */
    mf_buf_append(&b, name, name_len);
    mf_buf_putc(&b, '\0');
    if (content) mf_write_json(&b, content);
    else mf_buf_puts(&b, "null");
    bool ok = !b.failed;
    if (ok) mf_recall_id(key, key_len, b.data, b.len, out);
    mf_buf_free(&b);
    return ok;
}

/* ---- the count: N ------------------------------------------------------------------ */

/* The code points of what a writer put into a scratch buffer; 0 when it ran out of memory. */
static size_t scratch_chars(mf_buf *b)
{
    size_t n = b->failed ? 0 : mf_count_code_points(b->data, b->len);
    mf_buf_free(b);
    return n;
}

static void chars_text(void *c, const char *s, size_t len) { *(size_t *)c += mf_count_code_points(s, len); }
static void chars_label(void *c, const char *s, size_t len) { (void)c; (void)s; (void)len; }
static void chars_value(void *c, const mf_node *node)
{
    mf_buf b;
    mf_buf_init(&b);
    mf_write_json(&b, node);
    *(size_t *)c += scratch_chars(&b);
}
static void chars_media(void *c, bool image, uint64_t units) { (void)c; (void)image; (void)units; }
static void chars_item(void *c, mf_media_kind kind, const mf_media *media, const mf_node *name)
{
    mf_buf b;
    mf_buf_init(&b);
    mf_write_media(&b, kind, media, name ? name->str : NULL, name ? name->len : 0);
    *(size_t *)c += scratch_chars(&b);
}
/* "[execution denied] REASON", as the transcript shows it (a denial is never cleared: the
 * count is for completeness). */
static void chars_denied(void *c, const mf_node *reason)
{
    *(size_t *)c += sizeof "[execution denied]" - 1;
    if (reason && reason->len) *(size_t *)c += 1 + mf_count_code_points(reason->str, reason->len);
}

void mf_chars_sink(mf_result_sink *sink, size_t *chars)
{
    *sink = (mf_result_sink){ { chars_text, chars_label, chars_value, chars_media, chars }, chars_item, chars_denied };
}

size_t mf_tool_result_chars(const mf_node *content)
{
    size_t n = 0;
    mf_result_sink sink;
    mf_chars_sink(&sink, &n);
    mf_read_result(&sink, content);
    return n;
}
