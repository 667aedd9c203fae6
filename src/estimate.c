/* estimate.c — token estimates of structures, walked rather than dumped: the model sees
 * text, tool names and arguments, not JSON punctuation or field names like "type".
 *
 * Costs (milli-tokens; per profile, see profiles.c):
 * - text, thinking and redacted thinking: their text;
 * - a tool call: its name, plus its arguments' keys and values (an OpenAI arguments
 *   string by its text), plus the profile's tool_call cost;
 * - a tool result: its content (a string; text blocks by their text; images by the
 *   image cost; AI SDK outputs by their value);
 * - an image: the profile's image cost; a document: its text source, else one document
 *   cost per started 32 KiB of its data (one when its size is unknown), media.c;
 * - opaque metadata (provider options, signatures, approval ids): nothing;
 * - any other block: its keys and values; a block the adapter reads (part->read, read.c:
 *   Anthropic documents, search results, MCP calls, server-tool results) by what the model
 *   reads: its text, a document's pages, never encrypted_content, signatures or base64;
 * - every message: the profile's message cost;
 * - any other JSON value: strings and numbers by their text, true/false/null by their
 *   literal, objects by keys and values.
 * Sums stay in milli-tokens; the caller rounds up once. Every text is priced on its own
 * (mf_estimate_text): a fitted profile's length term is per text, so a conversation pays
 * it per string. */
#include "profiles.h"

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

/* A block inside tool result content: text by its text, media by the image cost. */
static uint64_t content_block_milli(const mf_node *block, mf_profile profile)
{
    const mf_node *type = mf_get_str(block, "type");
    if (mf_str_eq(type, "text") || mf_str_eq(type, "input_text")) {
        const mf_node *text = mf_get_str(block, "text");
        return text ? text_milli(text->str, text->len, profile) : 0;
    }
    uint64_t read;
    if (mf_read_milli(mf_anthropic_read, block, profile, &read)) return read; /* search results, documents */
    mf_media media;
    const mf_node *name;
    mf_media_kind kind = mf_media_of_block(block, &media, &name);
    if (kind) return mf_estimate_media(kind, &media, profile);
    if (mf_str_eq(type, "custom")) return 0; /* AI SDK: provider options only, no content */
    /* Responses API content parts media.c does not name. */
    if (mf_str_eq(type, "input_image") || mf_str_eq(type, "computer_screenshot"))
        return mf_profile_get(profile)->image_milli;
    if (mf_str_eq(type, "input_file")) return mf_profile_get(profile)->document_milli;
    return mf_estimate_node(block, profile);
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

uint64_t mf_estimate_tool_result_content(const mf_node *content, mf_profile profile)
{
    if (!content || content->kind == MF_NULL) return 0;
    if (content->kind == MF_STRING) return text_milli(content->str, content->len, profile);
    if (content->kind == MF_ARRAY) {
        uint64_t sum = 0;
        for (uint32_t i = 0; i < content->count; i++)
            sum += content_block_milli(&content->items[i], profile);
        return sum;
    }
    uint64_t read; /* an Anthropic server-tool result's content object */
    if (content->kind == MF_OBJECT && mf_read_milli(mf_anthropic_read, content, profile, &read)) return read;
    /* An AI SDK output: {type: text|error-text|json|error-json|content, value}. */
    const mf_node *type = mf_get_str(content, "type");
    const mf_node *value = mf_get(content, "value");
    if (type && value) {
        if (value->kind == MF_ARRAY && mf_str_eq(type, "content")) return mf_estimate_tool_result_content(value, profile);
        return mf_estimate_node(value, profile);
    }
    if (mf_str_eq(type, "execution-denied")) { /* the model reads the denial and its reason */
        const mf_node *reason = mf_get_str(content, "reason");
        return text_milli("execution-denied", 16, profile) + (reason ? text_milli(reason->str, reason->len, profile) : 0);
    }
    return content_block_milli(content, profile); /* one block (an OpenAI computer screenshot) */
}

uint64_t mf_estimate_part(const mf_part *part, mf_profile profile)
{
    const mf_profile_def *def = mf_profile_get(profile);
    uint64_t read; /* the adapter knows how the block reads */
    if (part->read && mf_read_milli(part->read, part->node, profile, &read))
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

size_t mf_measure_tool_result(const mf_node *content, mf_profile profile, uint64_t *milli)
{
    /* Plain text (nearly every result) is counted once for both figures. */
    const mf_node *text = content && content->kind == MF_STRING ? content : NULL;
    if (content && content->kind == MF_ARRAY && content->count == 1 &&
        mf_str_eq(mf_get_str(&content->items[0], "type"), "text"))
        text = mf_get_str(&content->items[0], "text");
    if (text) {
        size_t chars;
        *milli = mf_measure_text(text->str, text->len, profile, &chars);
        return chars;
    }
    *milli = mf_estimate_tool_result_content(content, profile);
    return mf_tool_result_chars(content);
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
