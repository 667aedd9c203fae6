/* adapt_aisdk.c — Vercel AI SDK ModelMessage (v5; v4's CoreMessage `args`/`result`
 * spellings too): parts text, reasoning, tool-call, tool-result, image, file. */
#include "adapt_common.h"

#include <string.h>

static bool starts_with(const mf_node *s, const char *prefix)
{
    size_t n = strlen(prefix);
    return s && s->kind == MF_STRING && s->len >= n && memcmp(s->str, prefix, n) == 0;
}

static void read_part(mf_msg *msg, const mf_node *part, size_t index)
{
    const mf_node *type = mf_get_str(part, "type");
    mf_part *p;
    if (mf_str_eq(type, "text")) {
        p = adapt_add(msg, MF_PART_TEXT, part, index);
        adapt_str(part, "text", &p->text, &p->text_len);
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
        p = adapt_add(msg, MF_PART_TOOL_RESULT, part, index);
        adapt_str(part, "toolCallId", &p->id, &p->id_len);
        adapt_str(part, "toolName", &p->name, &p->name_len);
        const mf_node *output = mf_get(part, "output");
        if (output) {
            bool error = starts_with(mf_get_str(output, "type"), "error-");
            p->content = output;
            p->is_error = error;
            p->target = error ? MF_EDIT_PART_OUTPUT_ERROR : MF_EDIT_PART_OUTPUT;
        } else {
            p->content = mf_get(part, "result");
            p->is_error = mf_get(part, "isError") && mf_get(part, "isError")->kind == MF_TRUE;
            p->target = MF_EDIT_PART_RESULT;
        }
    } else if (mf_str_eq(type, "image")) {
        adapt_add(msg, MF_PART_IMAGE, part, index);
    } else if (mf_str_eq(type, "file")) {
        const mf_node *media = mf_get_str(part, "mediaType");
        if (!media) media = mf_get_str(part, "mimeType");
        p = adapt_add(msg, starts_with(media, "image/") ? MF_PART_IMAGE : MF_PART_DOCUMENT, part, index);
        adapt_str(part, "filename", &p->text, &p->text_len);
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
