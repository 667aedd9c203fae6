/* adapt_aisdk_ui.c — Vercel AI SDK UIMessage (v5-v7), the state a chat UI holds:
 * {id, role, metadata?, parts}. A tool part (`tool-NAME`, `dynamic-tool`) holds the call
 * and, once it has one, its output, so a UIMessage answers its own calls (the message is
 * self-contained: a cut may fall before any of them).
 *
 * A tool part becomes a call, plus a result in the states with an output
 * (output-available, output-error), plus an approval in the approval states and
 * output-denied. Parts that are unfinished (streaming text, input-streaming,
 * input-available, approval-requested, approval-responded, preliminary output) are
 * pending: never edited, never folded. Parts that convertToModelMessages does not send
 * to the model by default (source-url, source-document, step-start, data-*, custom) get
 * no view part: they cost nothing and stay as they are. Rules and sources: docs/ai-sdk.md. */
#include "adapt_common.h"
#include "view.h"

#include <string.h>

static bool has_prefix(const mf_node *s, const char *prefix)
{
    size_t n = strlen(prefix);
    return s && s->kind == MF_STRING && s->len >= n && memcmp(s->str, prefix, n) == 0;
}

static bool streaming(const mf_node *part) { return mf_str_eq(mf_get_str(part, "state"), "streaming"); }

static void read_file(mf_msg *msg, const mf_node *part, size_t index)
{
    const mf_node *media = mf_get_str(part, "mediaType");
    if (mf_media_type_is_image(media)) { adapt_add(msg, MF_PART_IMAGE, part, index); return; }
    mf_part *p = adapt_add(msg, MF_PART_DOCUMENT, part, index);
    p->media.file = true;
    p->media.bytes = mf_media_bytes(mf_get_str(part, "url")); /* a data: URL's payload; 0 for a link */
    adapt_str(part, "filename", &p->text, &p->text_len);
    if (!p->text && media) { p->text = media->str; p->text_len = media->len; }
}

static void read_tool(mf_msg *msg, const mf_node *part, size_t index, const mf_node *type)
{
    mf_part *call = adapt_add(msg, MF_PART_TOOL_CALL, part, index);
    adapt_str(part, "toolCallId", &call->id, &call->id_len);
    if (mf_str_eq(type, "dynamic-tool")) {
        adapt_str(part, "toolName", &call->name, &call->name_len);
    } else {
        call->name = type->str + 5; /* after "tool-" */
        call->name_len = type->len - 5;
    }
    call->args = mf_get(part, "input");
    const mf_node *state = mf_get_str(part, "state");
    const mf_node *approval = mf_get(part, "approval");
    bool output = mf_str_eq(state, "output-available"), error = mf_str_eq(state, "output-error");
    if (output || error) {
        mf_part *r = adapt_add(msg, MF_PART_TOOL_RESULT, part, index);
        r->type = NULL;
        r->id = call->id;
        r->id_len = call->id_len;
        r->name = call->name;
        r->name_len = call->name_len;
        r->content = mf_get(part, output ? "output" : "errorText");
        r->is_error = error;
        r->target = output ? MF_EDIT_UI_OUTPUT : MF_EDIT_UI_ERROR_TEXT;
        const mf_node *preliminary = mf_get(part, "preliminary");
        r->pending = preliminary && preliminary->kind == MF_TRUE; /* more output is streaming in */
        return;
    }
    bool denied = mf_str_eq(state, "output-denied");
    if (approval && approval->kind == MF_OBJECT) {
        /* The user's decision: shown as an approval request or response of this call. */
        mf_part *a = adapt_add(msg, MF_PART_APPROVAL, part, index);
        static const mf_node request_type = {.kind = MF_STRING, .str = "tool-approval-request", .len = 21};
        static const mf_node response_type = {.kind = MF_STRING, .str = "tool-approval-response", .len = 22};
        const mf_node *approved = mf_get(approval, "approved");
        bool answered = approved && (approved->kind == MF_TRUE || approved->kind == MF_FALSE);
        a->type = answered ? &response_type : &request_type;
        adapt_str(approval, "id", &a->id, &a->id_len);
        a->name = call->name;
        a->name_len = call->name_len;
        a->is_error = approved && approved->kind == MF_FALSE;
        adapt_str(approval, "reason", &a->text, &a->text_len);
        a->pinned = denied;
        a->pending = !denied;
    }
    call->pending = !denied; /* input-streaming, input-available, approval-requested/-responded */
}

static void read_part(mf_msg *msg, const mf_node *part, size_t index)
{
    const mf_node *type = mf_get_str(part, "type");
    mf_part *p;
    if (mf_str_eq(type, "text")) {
        p = adapt_add(msg, MF_PART_TEXT, part, index);
        adapt_str(part, "text", &p->text, &p->text_len);
        p->pending = streaming(part);
        adapt_mark_aisdk_compaction(p, part);
    } else if (mf_str_eq(type, "reasoning")) {
        p = adapt_add(msg, MF_PART_THINKING, part, index);
        adapt_str(part, "text", &p->text, &p->text_len);
        p->pending = streaming(part);
    } else if (mf_str_eq(type, "dynamic-tool") || (has_prefix(type, "tool-") && type->len > 5)) {
        read_tool(msg, part, index, type);
    } else if (mf_str_eq(type, "file") || mf_str_eq(type, "reasoning-file")) {
        read_file(msg, part, index);
    } else if (mf_str_eq(type, "steering-message")) {
        /* v7: a message the user sent mid-stream, with text and file parts of its own. */
        const mf_node *parts = mf_get(part, "parts");
        for (uint32_t i = 0; parts && parts->kind == MF_ARRAY && i < parts->count; i++) {
            const mf_node *inner = &parts->items[i];
            if (mf_str_eq(mf_get_str(inner, "type"), "file")) {
                read_file(msg, inner, index);
            } else {
                p = adapt_add(msg, MF_PART_TEXT, inner, index);
                adapt_str(inner, "text", &p->text, &p->text_len);
            }
        }
    } else if (mf_str_eq(type, "source-url") || mf_str_eq(type, "source-document") ||
               mf_str_eq(type, "step-start") || mf_str_eq(type, "custom") || has_prefix(type, "data-")) {
        /* Not sent to the model by convertToModelMessages' defaults: no view part. */
    } else {
        adapt_add(msg, MF_PART_OTHER, part, index);
    }
}

mf_status mf_adapt_aisdk_ui(mf_arena *arena, mf_msg *msg)
{
    const mf_node *parts = mf_get(msg->node, "parts");
    msg->self_contained = true;
    if (!parts || parts->kind != MF_ARRAY) return adapt_reserve(arena, msg, 0) ? MF_OK : MF_ERR_NOMEM;
    /* A tool part gives up to three view parts; a steering message one per inner part. */
    size_t room = 0;
    for (uint32_t i = 0; i < parts->count; i++) {
        const mf_node *inner = mf_get(&parts->items[i], "parts");
        room += 3 + (inner && inner->kind == MF_ARRAY ? inner->count : 0);
    }
    if (!adapt_reserve(arena, msg, room)) return MF_ERR_NOMEM;
    for (uint32_t i = 0; i < parts->count; i++) read_part(msg, &parts->items[i], i);
    return MF_OK;
}
