/* adapt_aisdk.c — Vercel AI SDK ModelMessage (v5-v7; v4's CoreMessage `args`/`result`
 * spellings too) and the provider-level prompts middleware sees (LanguageModelV3/V4,
 * the same parts with array content): text, reasoning, tool-call, tool-result, image,
 * file, reasoning-file, custom, tool-approval-request / tool-approval-response.
 *
 * Media: an image part, or a file part whose mediaType is an image type, is an image; any other
 * file a document priced by its decoded size (media.c). Provider options, signatures
 * and provider references are never read as text. Rules and sources: docs/ai-sdk.md. */
#include "adapt_common.h"
#include "view.h"

#include <string.h>

static bool starts_with(const mf_node *s, const char *prefix)
{
    size_t n = strlen(prefix);
    return s && s->kind == MF_STRING && s->len >= n && memcmp(s->str, prefix, n) == 0;
}

/* A member that is there and not null: @ai-sdk/openai sends an update only for a setting != null. */
static bool has_setting(const mf_node *options, const char *key)
{
    const mf_node *v = mf_get(options, key);
    return v && v->kind != MF_NULL;
}

/* @ai-sdk/openai reads the update from providerOptions under the provider's own name (openai,
 * azure, ...) and falls back to openai's, so any provider's options count. */
bool mf_aisdk_is_configuration_update(const mf_node *msg)
{
    const mf_node *content = mf_get_str(msg, "content");
    const mf_node *options = mf_get(msg, "providerOptions");
    if (!mf_str_eq(mf_get_str(msg, "role"), "system") || !content || content->len || !mf_is(options, MF_OBJECT))
        return false;
    for (uint32_t i = 0; i < options->count; i++)
        if (has_setting(&options->items[i], "reasoningEffortUpdate") || has_setting(&options->items[i], "textFormatUpdate"))
            return true;
    return false;
}

/* A file or image part: its data is `data` (v7 may wrap it as {type, data|url|reference|text}). */
static void read_media(mf_msg *msg, const mf_node *part, size_t index, const mf_node *data)
{
    const mf_node *media = mf_get_str(part, "mediaType");
    if (!media) media = mf_get_str(part, "mimeType");
    if (mf_str_eq(mf_get_str(part, "type"), "image") || mf_media_type_is_image(media)) {
        adapt_add(msg, MF_PART_IMAGE, part, index);
        return;
    }
    mf_part *p = adapt_add(msg, MF_PART_DOCUMENT, part, index);
    p->media.file = true;
    p->media.bytes = mf_media_bytes(data);
    adapt_str(part, "filename", &p->text, &p->text_len);
    if (!p->text && media) { p->text = media->str; p->text_len = media->len; }
    /* v7 inline text ({type: "text", text}) is read as the text it is. */
    if (mf_str_eq(mf_get_str(data, "type"), "text")) p->content = mf_get_str(data, "text");
}

static void read_result(mf_msg *msg, const mf_node *part, size_t index)
{
    mf_part *p = adapt_add(msg, MF_PART_TOOL_RESULT, part, index);
    adapt_str(part, "toolCallId", &p->id, &p->id_len);
    adapt_str(part, "toolName", &p->name, &p->name_len);
    const mf_node *output = mf_get(part, "output");
    if (output) {
        const mf_node *type = mf_get_str(output, "type");
        bool error = starts_with(type, "error-");
        p->content = output;
        p->is_error = error;
        p->target = error ? MF_EDIT_PART_OUTPUT_ERROR : MF_EDIT_PART_OUTPUT;
        p->pinned = mf_str_eq(type, "execution-denied"); /* a decision, not output to shorten */
    } else {
        p->content = mf_get(part, "result");
        p->is_error = mf_get(part, "isError") && mf_get(part, "isError")->kind == MF_TRUE;
        p->target = MF_EDIT_PART_RESULT;
    }
}

static void read_part(mf_msg *msg, const mf_node *part, size_t index)
{
    const mf_node *type = mf_get_str(part, "type");
    mf_part *p;
    if (mf_str_eq(type, "text")) {
        p = adapt_add(msg, MF_PART_TEXT, part, index);
        adapt_str(part, "text", &p->text, &p->text_len);
        adapt_mark_aisdk_compaction(p, part);
    } else if (mf_str_eq(type, "reasoning")) {
        p = adapt_add(msg, MF_PART_THINKING, part, index);
        adapt_str(part, "text", &p->text, &p->text_len);
    } else if (mf_str_eq(type, "redacted-reasoning")) {
        p = adapt_add(msg, MF_PART_REDACTED_THINKING, part, index);
        adapt_str(part, "data", &p->text, &p->text_len);
    } else if (mf_str_eq(type, "tool-call")) {
        p = adapt_add(msg, MF_PART_TOOL_CALL, part, index);
        adapt_str(part, "toolCallId", &p->id, &p->id_len);
        adapt_str(part, "toolName", &p->name, &p->name_len);
        p->args = mf_get(part, "input");
        if (!p->args) p->args = mf_get(part, "args");
    } else if (mf_str_eq(type, "tool-result")) {
        read_result(msg, part, index);
    } else if (mf_str_eq(type, "image")) {
        read_media(msg, part, index, mf_get(part, "image"));
    } else if (mf_str_eq(type, "file") || mf_str_eq(type, "reasoning-file")) {
        read_media(msg, part, index, mf_get(part, "data"));
    } else if (mf_str_eq(type, "tool-approval-request") || mf_str_eq(type, "tool-approval-response")) {
        p = adapt_add(msg, MF_PART_APPROVAL, part, index);
        adapt_str(part, "approvalId", &p->id, &p->id_len);
        const mf_node *approved = mf_get(part, "approved");
        p->is_error = approved && approved->kind == MF_FALSE;
        adapt_str(part, "reason", &p->text, &p->text_len);
    } else if (mf_str_eq(type, "custom")) {
        /* v7 custom parts carry only a kind and provider options: nothing the model reads
         * as text, so no view part (the message keeps it untouched). */
    } else {
        adapt_add(msg, MF_PART_OTHER, part, index);
    }
}

mf_status mf_adapt_aisdk(mf_arena *arena, mf_msg *msg)
{
    const mf_node *content = mf_get(msg->node, "content");
    mf_status st;
    if (adapt_string_content(arena, msg, content, 0, &st)) return st;
    if (!content || content->kind != MF_ARRAY) return adapt_reserve(arena, msg, 0) ? MF_OK : MF_ERR_NOMEM;
    if (!adapt_reserve(arena, msg, content->count)) return MF_ERR_NOMEM;
    for (uint32_t i = 0; i < content->count; i++) read_part(msg, &content->items[i], i);
    return MF_OK;
}

/* ---- approvals: request -> its call, response -> its request ------------------------ */

typedef struct call_info { mf_part *call; size_t message; bool answered; } call_info;

mf_status mf_aisdk_link_approvals(mf_view *view)
{
    size_t calls = 0, approvals = 0;
    for (size_t m = 0; m < view->count; m++)
        for (size_t p = 0; p < view->msgs[m].count; p++) {
            calls += view->msgs[m].parts[p].kind == MF_PART_TOOL_CALL;
            approvals += view->msgs[m].parts[p].kind == MF_PART_APPROVAL;
        }
    if (!approvals) return MF_OK;
    mf_idmap by_call, by_approval;
    call_info *info = mf_arena_calloc(&view->arena, calls ? calls : 1, sizeof *info);
    if (!info || !mf_idmap_init(&by_call, &view->arena, calls ? calls : 1) ||
        !mf_idmap_init(&by_approval, &view->arena, approvals))
        return MF_ERR_NOMEM;
    /* Calls, and whether a result for each follows it. */
    size_t n = 0;
    for (size_t m = 0; m < view->count; m++)
        for (size_t p = 0; p < view->msgs[m].count; p++) {
            mf_part *part = &view->msgs[m].parts[p];
            if (!part->id || (part->kind != MF_PART_TOOL_CALL && part->kind != MF_PART_TOOL_RESULT)) continue;
            mf_idslot *s = mf_idmap_slot(&by_call, part->id, part->id_len);
            if (part->kind == MF_PART_TOOL_CALL) {
                info[n] = (call_info){part, m, false};
                s->id = part->id;
                s->len = part->id_len;
                s->message = n++; /* the call's info slot */
            } else if (s->id) {
                info[s->message].answered = true;
            }
        }
    /* Approvals in order: a request names its call, a response an earlier request. */
    for (size_t m = 0; m < view->count; m++)
        for (size_t p = 0; p < view->msgs[m].count; p++) {
            mf_part *part = &view->msgs[m].parts[p];
            if (part->kind != MF_PART_APPROVAL) continue;
            mf_idslot *a = part->id ? mf_idmap_slot(&by_approval, part->id, part->id_len) : NULL;
            if (mf_str_eq(part->type, "tool-approval-request")) {
                const mf_node *call_id = mf_get_str(part->node, "toolCallId");
                mf_idslot *s = call_id ? mf_idmap_slot(&by_call, call_id->str, call_id->len) : NULL;
                call_info *ci = s && s->id && info[s->message].message <= m ? &info[s->message] : NULL;
                part->unmatched = !ci;
                if (ci) {
                    part->name = ci->call->name;
                    part->name_len = ci->call->name_len;
                    /* Awaiting the user's answer or the tool's run: neither may be folded away. */
                    part->pending = ci->call->pending = !ci->answered;
                }
                if (a && !a->id) { a->id = part->id; a->len = part->id_len; a->value = part; }
            } else {
                const mf_part *request = a && a->id ? a->value : NULL;
                part->unmatched = !request;
                if (request) {
                    part->name = request->name;
                    part->name_len = request->name_len;
                    part->pending = request->pending;
                }
            }
        }
    return MF_OK;
}
