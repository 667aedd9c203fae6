/* estimate.c — token estimates of structures, walked rather than dumped: the model sees
 * text, tool names and arguments, not JSON punctuation or field names like "type".
 *
 * Costs (milli-tokens; per profile, see profiles.c):
 * - text, thinking and redacted thinking: their text;
 * - a tool call: its name, plus its arguments' keys and values (an OpenAI arguments
 *   string by its text), plus the profile's tool_call cost;
 * - a tool result: its content as the result walk tells it (result.c: a string; text
 *   blocks by their text; media by their cost; AI SDK outputs by their value; an AI SDK
 *   custom part, nothing);
 * - an image: the profile's image cost; a document: its text source, else one document
 *   cost per started 32 KiB of its data (one when its size is unknown), media.c;
 * - opaque metadata (provider options, signatures, approval ids): nothing;
 * - any other block: its keys and values; a block the adapter reads (part->read:
 *   Anthropic documents, search results, MCP calls, server-tool results) by what the model
 *   reads: its text, a document's pages, never encrypted_content, signatures or base64;
 * - every message: the profile's message cost;
 * - any other JSON value: strings and numbers by their text, true/false/null by their
 *   literal, objects by keys and values.
 * Sums stay in milli-tokens; the caller rounds up once. Every text is priced on its own
 * (mf_estimate_text): a fitted profile's length term is per text, so a conversation pays
 * it per string. */
#include "profiles.h"
#include "result.h"
#include "measure.h"

static uint64_t text_milli(const char *s, size_t len, mf_profile profile)
{
    return mf_estimate_text(s, len, profile);
}

uint64_t mf_estimate_node(const mf_node *node, mf_profile profile)
{
    if (!node) return 0;
    switch ((mf_kind)node->kind) {
    case MF_NULL: return text_milli("null", 4, profile);
    case MF_FALSE: return text_milli("false", 5, profile);
    case MF_TRUE: return text_milli("true", 4, profile);
    case MF_NUMBER: case MF_STRING: return text_milli(node->str, node->len, profile);
    case MF_BLOB: return mf_profile_get(profile)->image_milli; /* binary where no media is expected */
    case MF_ARRAY: case MF_OBJECT: {
        uint64_t sum = 0;
        for (uint32_t i = 0; i < node->count; i++) {
            const mf_node *item = &node->items[i];
            if (node->kind == MF_OBJECT) sum += text_milli(item->key, item->key_len, profile);
            sum += mf_estimate_node(item, profile);
        }
        return sum;
    }
    }
    return 0;
}

/* A document of known size: Claude bills a PDF page as its text plus a picture of it
 * (about 1,600 tokens for a scanned page, 2,100-2,500 for a page of text), OpenAI
 * alike; a page is rarely under 32 KiB once fonts and images are in, so the estimate is
 * one document cost per started 32 KiB (errs high for text-only PDFs, which is the
 * side to err on). docs/ai-sdk.md */
#define MF_DOCUMENT_PAGE_BYTES 32768u

uint64_t mf_estimate_media(mf_media_kind kind, const mf_media *media, mf_profile profile)
{
    const mf_profile_def *def = mf_profile_get(profile);
    if (kind == MF_MEDIA_IMAGE) return def->image_milli;
    if (kind != MF_MEDIA_DOCUMENT) return 0;
    uint64_t pages = media && media->bytes ? (media->bytes + MF_DOCUMENT_PAGE_BYTES - 1) / MF_DOCUMENT_PAGE_BYTES : 1;
    return pages * def->document_milli;
}

/* ---- the estimate as a sink of the result walk (result.c) and of the adapters' readers ---- */

typedef struct milli_ctx { mf_profile profile; uint64_t sum; } milli_ctx;

static void milli_text(void *c, const char *s, size_t len)
{
    milli_ctx *m = c;
    m->sum += text_milli(s, len, m->profile);
}
static void milli_label(void *c, const char *s, size_t len) { (void)c; (void)s; (void)len; }
static void milli_value(void *c, const mf_node *node)
{
    milli_ctx *m = c;
    m->sum += mf_estimate_node(node, m->profile);
}
/* Units an adapter's block bills by (images; a document's pages). */
static void milli_media(void *c, bool image, uint64_t units)
{
    milli_ctx *m = c;
    const mf_profile_def *def = mf_profile_get(m->profile);
    m->sum += units * (image ? def->image_milli : def->document_milli);
}
static void milli_item(void *c, mf_media_kind kind, const mf_media *media, const mf_node *name)
{
    (void)name;
    milli_ctx *m = c;
    m->sum += mf_estimate_media(kind, media, m->profile);
}
/* The model reads the denial and its reason. */
static void milli_denied(void *c, const mf_node *reason)
{
    milli_ctx *m = c;
    m->sum += text_milli("execution-denied", 16, m->profile) + (reason ? text_milli(reason->str, reason->len, m->profile) : 0);
}

static mf_result_sink milli_sink(milli_ctx *m)
{
    return (mf_result_sink){ { milli_text, milli_label, milli_value, milli_media, m }, milli_item, milli_denied };
}

uint64_t mf_estimate_tool_result_content(const mf_node *content, mf_profile profile)
{
    milli_ctx m = {profile, 0};
    mf_result_sink sink = milli_sink(&m);
    mf_read_result(&sink, content);
    return m.sum;
}

/* What an adapter's reader tells of a block, priced; false when it does not know the block. */
static bool read_milli(mf_read_fn read, const mf_node *node, mf_profile profile, uint64_t *milli)
{
    milli_ctx m = {profile, 0};
    mf_result_sink sink = milli_sink(&m);
    if (!read(&sink.read, node)) return false;
    *milli = m.sum;
    return true;
}

uint64_t mf_estimate_part(const mf_part *part, mf_profile profile)
{
    const mf_profile_def *def = mf_profile_get(profile);
    uint64_t read; /* the adapter knows how the block reads */
    if (part->read && read_milli(part->read, part->node, profile, &read))
        return read + (part->kind == MF_PART_TOOL_CALL ? def->tool_call_milli : 0);
    switch (part->kind) {
    case MF_PART_TEXT: case MF_PART_THINKING:
        return text_milli(part->text, part->text_len, profile);
    case MF_PART_REDACTED_THINKING:
        /* An encrypted payload the model reads (OpenAI compaction): base64 of about the
         * bytes it decrypts to, read at about 4 bytes a token, so 3/16 of a token a char. */
        return text_milli(part->text, part->text_len, profile) + (uint64_t)part->opaque_len * MF_MILLI * 3 / 16;
    case MF_PART_TOOL_CALL:
        return def->tool_call_milli + text_milli(part->name, part->name_len, profile) +
               mf_estimate_node(part->args, profile);
    case MF_PART_TOOL_RESULT:
        return mf_estimate_tool_result_content(part->content, profile);
    case MF_PART_IMAGE:
        return def->image_milli;
    case MF_PART_DOCUMENT:
        return part->content ? mf_estimate_node(part->content, profile)
                             : mf_estimate_media(MF_MEDIA_DOCUMENT, &part->media, profile);
    case MF_PART_OTHER:
        return mf_estimate_node(part->node, profile);
    case MF_PART_APPROVAL: /* ids are bookkeeping; a denial's reason is read */
        return text_milli(part->text, part->text_len, profile);
    }
    return 0;
}

uint64_t mf_estimate_msg(const mf_msg *msg, mf_profile profile)
{
    uint64_t sum = mf_profile_get(profile)->message_milli;
    for (size_t p = 0; p < msg->count; p++) sum += mf_estimate_part(&msg->parts[p], profile);
    return sum;
}

uint64_t mf_estimate_view(const mf_view *view, mf_profile profile)
{
    /* What the model reads and the provider bills: from the last compaction on. */
    uint64_t sum = 0;
    for (size_t m = mf_view_window_start(view); m < view->count; m++) sum += mf_estimate_msg(&view->msgs[m], profile);
    return sum;
}

mf_status mf_doc_estimate(const mf_doc *doc, mf_format format, mf_profile profile, uint64_t *out_milli,
                          mf_error *err)
{
    if (!doc || !out_milli) return mf_fail(err, MF_ERR_INVALID_ARG, SIZE_MAX, "NULL argument");
    if ((unsigned)profile >= MF_PROFILE_COUNT) return mf_fail(err, MF_ERR_INVALID_ARG, SIZE_MAX, "unknown profile");
    if (!mf_doc_is_conversation(doc, NULL)) {
        *out_milli = mf_estimate_node(doc->root, profile);
        return MF_OK;
    }
    mf_view view;
    mf_status st = mf_view_build(doc, format, &view, err);
    if (st) return st;
    *out_milli = mf_estimate_view(&view, profile) + mf_estimate_request_extras(doc, profile);
    mf_view_free(&view);
    return MF_OK;
}

uint64_t mf_estimate_request_extras(const mf_doc *doc, mf_profile profile)
{
    /* A request body: the system prompt (a string or text blocks, counted like message
     * content) and the tool definitions are in the window too. */
    if (doc->root->kind != MF_OBJECT) return 0;
    const mf_node *system;
    if (mf_get(doc->root, "messages") == doc->messages) system = mf_get(doc->root, "system");
    else if (mf_get(doc->root, "input") == doc->messages) system = mf_get(doc->root, "instructions"); /* Responses */
    else return 0;
    return mf_estimate_tool_result_content(system, profile) + mf_estimate_node(mf_get(doc->root, "tools"), profile);
}

/* The estimate and the marker's count from one walk: texts are read once for both
 * (mf_measure_text), everything else goes to each sink. */
typedef struct measure_ctx {
    milli_ctx milli;
    size_t chars;
    mf_result_sink priced, counted;
} measure_ctx;

static void measure_text(void *c, const char *s, size_t len)
{
    measure_ctx *m = c;
    size_t chars;
    m->milli.sum += mf_measure_text(s, len, m->milli.profile, &chars);
    m->chars += chars;
}
static void measure_label(void *c, const char *s, size_t len)
{
    measure_ctx *m = c;
    m->priced.read.label(m->priced.read.ctx, s, len);
    m->counted.read.label(m->counted.read.ctx, s, len);
}
static void measure_value(void *c, const mf_node *node)
{
    measure_ctx *m = c;
    m->priced.read.value(m->priced.read.ctx, node);
    m->counted.read.value(m->counted.read.ctx, node);
}
static void measure_media(void *c, bool image, uint64_t units)
{
    measure_ctx *m = c;
    m->priced.read.media(m->priced.read.ctx, image, units);
    m->counted.read.media(m->counted.read.ctx, image, units);
}
static void measure_item(void *c, mf_media_kind kind, const mf_media *media, const mf_node *name)
{
    measure_ctx *m = c;
    m->priced.item(m->priced.read.ctx, kind, media, name);
    m->counted.item(m->counted.read.ctx, kind, media, name);
}
static void measure_denied(void *c, const mf_node *reason)
{
    measure_ctx *m = c;
    m->priced.denied(m->priced.read.ctx, reason);
    m->counted.denied(m->counted.read.ctx, reason);
}

size_t mf_measure_tool_result(const mf_node *content, mf_profile profile, uint64_t *milli)
{
    measure_ctx m;
    m.milli = (milli_ctx){profile, 0};
    m.chars = 0;
    m.priced = milli_sink(&m.milli);
    mf_chars_sink(&m.counted, &m.chars);
    mf_result_sink sink = {
        {measure_text, measure_label, measure_value, measure_media, &m}, measure_item, measure_denied};
    mf_read_result(&sink, content);
    *milli = m.milli.sum;
    return m.chars;
}

uint64_t mf_measure_result_part(const mf_part *part, mf_profile profile, size_t *chars)
{
    if (part->read) { /* an adapter-read block (a server tool's result) prices as the adapter says */
        *chars = mf_tool_result_chars(part->content);
        return mf_estimate_part(part, profile);
    }
    uint64_t milli = 0;
    *chars = mf_measure_tool_result(part->content, profile, &milli);
    return milli;
}

void mf_msg_figures_of(const mf_msg *msg, mf_profile profile, mf_msg_figures *out)
{
    /* mf_estimate_msg's sum with each part read once: a result's estimate is also what
     * clearing it could free (results are most of the text). */
    uint64_t milli = mf_profile_get(profile)->message_milli, results = 0;
    for (size_t p = 0; p < msg->count; p++) {
        const mf_part *part = &msg->parts[p];
        uint64_t part_milli = mf_estimate_part(part, profile);
        milli += part_milli;
        if (part->kind == MF_PART_TOOL_RESULT && !mf_result_is_truncated(part->content)) results += part_milli;
    }
    out->milli = milli;
    out->results = results;
    out->flags = mf_msg_figures_flags(msg);
}

unsigned mf_msg_figures_flags(const mf_msg *msg)
{
    return (mf_msg_has_results(msg) ? MF_FIGURES_RESULTS : 0) | (mf_msg_has_compaction(msg) ? MF_FIGURES_COMPACTION : 0);
}

mf_status mf_doc_estimate_each(const mf_doc *doc, mf_format format, mf_profile profile,
                               mf_msg_figures *out, size_t count, mf_error *err)
{
    if (!doc || (count && !out)) return mf_fail(err, MF_ERR_INVALID_ARG, SIZE_MAX, "NULL argument");
    if ((unsigned)profile >= MF_PROFILE_COUNT) return mf_fail(err, MF_ERR_INVALID_ARG, SIZE_MAX, "unknown profile");
    mf_view view;
    mf_status st = mf_view_build(doc, format, &view, err);
    if (st) return st;
    if (view.count != count)
        st = mf_fail(err, MF_ERR_INVALID_ARG, SIZE_MAX, "expected %zu messages, the document holds %zu", count, view.count);
    for (size_t m = 0; !st && m < view.count; m++) mf_msg_figures_of(&view.msgs[m], profile, &out[m]);
    mf_view_free(&view);
    return st;
}
