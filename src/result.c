/* result.c — the one walk of a tool result's content. Every shape a result takes in the
 * five formats is named here once, and the sinks (the estimate, the transcript, the
 * marker's count) each say what a text, a value, a media item or a denial is to them, so
 * they cannot disagree on a shape: an AI SDK `custom` part, once priced 0, skipped by the
 * transcript and counted as JSON by the marker, now tells nothing to any of them. */
#include "result.h"

#include <string.h>

static const mf_media no_media; /* a placeholder's item of unknown size and no name */

/* AI SDK v7: a kind and provider options, no content the model reads. @ai-sdk/anthropic
 * turns one whose options say "tool-reference" into a tool_reference block (a tool's name,
 * whose definition is priced with the tools) and drops any other with a warning; adapt_aisdk.c
 * reads a message's custom part the same way. */
static bool is_custom(const mf_node *type) { return mf_str_eq(type, "custom"); }

/* One block of a list, or content that is a single block (an OpenAI computer screenshot);
 * `type` is its "type" string or NULL. */
static void read_block(const mf_result_sink *sink, const mf_node *block, const mf_node *type)
{
    const mf_reader *r = &sink->read;
    /* Text first: nearly every block is one, and the common case stays one comparison. */
    if (mf_str_eq(type, "text") || mf_str_eq(type, "input_text")) {
        const mf_node *text = mf_get_str(block, "text");
        if (text) r->text(r->ctx, text->str, text->len);
        return;
    }
    if (mf_anthropic_read(r, block)) return; /* search results, documents, server-tool outputs */
    mf_media media;
    const mf_node *name;
    mf_media_kind kind = mf_media_of_block(block, &media, &name);
    if (kind) {
        sink->item(r->ctx, kind, &media, name);
        return;
    }
    if (is_custom(type)) return;
    /* Responses API content parts media.c does not name. */
    if (mf_str_eq(type, "input_image") || mf_str_eq(type, "computer_screenshot")) {
        sink->item(r->ctx, MF_MEDIA_IMAGE, &no_media, NULL);
        return;
    }
    if (mf_str_eq(type, "input_file")) {
        sink->item(r->ctx, MF_MEDIA_DOCUMENT, &no_media, NULL);
        return;
    }
    r->value(r->ctx, block); /* a block midfold does not know: its keys and values */
}

void mf_read_result(const mf_result_sink *sink, const mf_node *content)
{
    const mf_reader *r = &sink->read;
    if (!content || content->kind == MF_NULL) return;
    if (content->kind == MF_STRING) {
        r->text(r->ctx, content->str, content->len);
        return;
    }
    if (content->kind == MF_ARRAY) {
        bool first = true;
        for (uint32_t i = 0; i < content->count; i++) {
            const mf_node *block = &content->items[i], *type = mf_get_str(block, "type");
            if (is_custom(type)) continue; /* nothing, not even a line of its own */
            if (!first) r->label(r->ctx, "\n", 1);
            first = false;
            read_block(sink, block, type);
        }
        return;
    }
    if (content->kind == MF_OBJECT && mf_anthropic_read(r, content)) return; /* a server-tool result's content */
    /* An AI SDK output: {type: text|error-text|json|error-json|content, value}. */
    const mf_node *type = mf_get_str(content, "type");
    const mf_node *value = mf_get(content, "value");
    if (type && value) {
        if (value->kind == MF_STRING) r->text(r->ctx, value->str, value->len);
        else if (value->kind == MF_ARRAY && mf_str_eq(type, "content")) mf_read_result(sink, value);
        else r->value(r->ctx, value);
        return;
    }
    if (mf_str_eq(type, "execution-denied")) {
        sink->denied(r->ctx, mf_get_str(content, "reason"));
        return;
    }
    read_block(sink, content, type);
}
