/* read.c — blocks read by what the model reads. A reader function (an adapter's) tells
 * what a block is made of: text the model reads, labels that only frame it in the
 * transcript, JSON values (tool input) and media billed by the unit. The three consumers
 * here price it, write it and count it, so the estimate, the transcript and the
 * micro-compaction marker's "N chars" agree on one walk, and opaque strings (encrypted
 * content, signatures, base64) never reach any of them. */
#include "profiles.h"

#include <string.h>

/* ---- pricing ------------------------------------------------------------------ */

typedef struct milli_ctx { mf_profile profile; uint64_t sum; } milli_ctx;

static void milli_text(void *c, const char *s, size_t len)
{
    milli_ctx *m = c;
    m->sum += mf_estimate_text(s, len, m->profile);
}
static void milli_label(void *c, const char *s, size_t len) { (void)c; (void)s; (void)len; }
static void milli_value(void *c, const mf_node *node)
{
    milli_ctx *m = c;
    m->sum += mf_estimate_node(node, m->profile);
}
static void milli_media(void *c, bool image, uint64_t units)
{
    milli_ctx *m = c;
    const mf_profile_def *def = mf_profile_get(m->profile);
    m->sum += units * (image ? def->image_milli : def->document_milli);
}

bool mf_read_milli(mf_read_fn read, const mf_node *node, mf_profile profile, uint64_t *milli)
{
    milli_ctx m = {profile, 0};
    mf_reader r = {milli_text, milli_label, milli_value, milli_media, &m};
    if (!read(&r, node)) return false;
    *milli = m.sum;
    return true;
}

/* ---- the transcript --------------------------------------------------------------- */

/* A block read at the top of a message opens with its own marker ("[document: TITLE]",
 * "[tool_use:SERVER/NAME] ", "[block: TYPE] "): its labels are written as they are until
 * its first text, value or line break. Everything after that, and every label of a block
 * inside a tool result, is content of what holds it and goes through the door like the
 * text around it: on a line of its own "[document: report.pdf]" reads
 * "\[document: report.pdf]", so the document's lines stay in the result, as an image's
 * placeholder does (serialize.c). */
typedef struct write_ctx { mf_buf *b; bool marker; } write_ctx;

static void write_text(void *c, const char *s, size_t len)
{
    write_ctx *w = c;
    w->marker = false;
    mf_put_content(w->b, s, len);
}
static void write_label(void *c, const char *s, size_t len)
{
    write_ctx *w = c;
    if (w->marker && !memchr(s, '\n', len)) {
        mf_buf_append(w->b, s, len);
        return;
    }
    w->marker = false;
    mf_put_content(w->b, s, len);
}
static void write_value(void *c, const mf_node *node)
{
    write_ctx *w = c;
    w->marker = false;
    if (node) mf_put_content_json(w->b, node); /* tool input is content: through the door */
    else mf_put_content(w->b, "{}", 2);
}
static void write_media(void *c, bool image, uint64_t units) { (void)c; (void)image; (void)units; }

bool mf_read_write(mf_read_fn read, mf_buf *b, const mf_node *node, bool own_marker)
{
    write_ctx w = {b, own_marker};
    mf_reader r = {write_text, write_label, write_value, write_media, &w};
    return read(&r, node);
}

/* ---- code points (the marker's "N chars": the text the model read) --------------- */

typedef struct chars_ctx { size_t n; } chars_ctx;

static void chars_text(void *c, const char *s, size_t len) { ((chars_ctx *)c)->n += mf_count_code_points(s, len); }
static void chars_value(void *c, const mf_node *node)
{
    mf_buf b;
    mf_buf_init(&b);
    mf_write_json(&b, node);
    /* On allocation failure nothing is added: callers tell by mf_alloc_failures(). */
    if (!b.failed) ((chars_ctx *)c)->n += mf_count_code_points(b.data, b.len);
    mf_buf_free(&b);
}

bool mf_read_chars(mf_read_fn read, const mf_node *node, size_t *chars)
{
    chars_ctx n = {0};
    mf_reader r = {chars_text, milli_label, chars_value, write_media, &n};
    if (!read(&r, node)) return false;
    *chars = n.n;
    return true;
}

/* ---- blocks midfold does not know ------------------------------------------------- */

/* Members whose strings are not text: identifiers, opaque payloads, media types. */
static bool opaque_key(const mf_node *item)
{
    static const char *const keys[] = {"type", "id", "tool_use_id", "signature", "data", "file_id",
                                       "media_type", "cache_control", "citations", NULL};
    if (!item->key) return false;
    if (item->key_len >= 10 && memcmp(item->key, "encrypted_", 10) == 0) return true;
    for (int i = 0; keys[i]; i++)
        if (strlen(keys[i]) == item->key_len && memcmp(keys[i], item->key, item->key_len) == 0) return true;
    return false;
}

static void text_fields(const mf_reader *r, const mf_node *node, bool *first)
{
    if (node->kind == MF_STRING && node->len) {
        if (!*first) r->label(r->ctx, "\n", 1);
        *first = false;
        r->text(r->ctx, node->str, node->len);
    } else if (node->kind == MF_ARRAY || node->kind == MF_OBJECT) {
        for (uint32_t i = 0; i < node->count; i++)
            if (!opaque_key(&node->items[i])) text_fields(r, &node->items[i], first);
    }
}

/* "[block: TYPE] " and the text fields. The type is content (whoever relays an MCP
 * server's blocks writes it), so it never stands where a marker's word is: a block of
 * type "user" reads "[block: user]", never "[user]". */
bool mf_read_text_fields(const mf_reader *r, const mf_node *node)
{
    const mf_node *type = mf_get_str(node, "type");
    bool first = true;
    r->label(r->ctx, "[block", 6);
    if (type && type->len) {
        r->label(r->ctx, ": ", 2);
        r->text(r->ctx, type->str, type->len);
    }
    r->label(r->ctx, "] ", 2);
    text_fields(r, node, &first);
    return true;
}
