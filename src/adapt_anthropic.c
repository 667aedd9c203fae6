/* adapt_anthropic.c — Anthropic Messages: content is a string or a list of blocks;
 * tool_use blocks in assistant messages, tool_result blocks in the next user message. */
#include "adapt_common.h"

static void read_block(mf_msg *msg, const mf_node *block, size_t index)
{
    const mf_node *type = mf_get_str(block, "type");
    mf_part *p;
    if (mf_str_eq(type, "text")) {
        p = adapt_add(msg, MF_PART_TEXT, block, index);
        adapt_str(block, "text", &p->text, &p->text_len);
    } else if (mf_str_eq(type, "thinking")) {
        p = adapt_add(msg, MF_PART_THINKING, block, index);
        adapt_str(block, "thinking", &p->text, &p->text_len);
    } else if (mf_str_eq(type, "redacted_thinking")) {
        p = adapt_add(msg, MF_PART_REDACTED_THINKING, block, index);
        adapt_str(block, "data", &p->text, &p->text_len);
    } else if (mf_str_eq(type, "tool_use")) {
        p = adapt_add(msg, MF_PART_TOOL_CALL, block, index);
        adapt_str(block, "id", &p->id, &p->id_len);
        adapt_str(block, "name", &p->name, &p->name_len);
        p->args = mf_get(block, "input");
    } else if (mf_str_eq(type, "tool_result")) {
        p = adapt_add(msg, MF_PART_TOOL_RESULT, block, index);
        adapt_str(block, "tool_use_id", &p->id, &p->id_len);
        p->content = mf_get(block, "content");
        p->is_error = mf_get(block, "is_error") && mf_get(block, "is_error")->kind == MF_TRUE;
        p->target = MF_EDIT_BLOCK_CONTENT;
    } else if (mf_str_eq(type, "image")) {
        adapt_add(msg, MF_PART_IMAGE, block, index);
    } else if (mf_str_eq(type, "document")) {
        p = adapt_add(msg, MF_PART_DOCUMENT, block, index);
        adapt_str(block, "title", &p->text, &p->text_len);
        const mf_node *source = mf_get(block, "source");
        if (mf_str_eq(mf_get_str(source, "type"), "text")) p->content = mf_get_str(source, "data");
    } else {
        adapt_add(msg, MF_PART_OTHER, block, index);
    }
}

mf_status mf_adapt_anthropic(mf_arena *arena, mf_msg *msg)
{
    const mf_node *content = mf_get(msg->node, "content");
    mf_status st;
    if (adapt_string_content(arena, msg, content, 0, &st)) return st;
    if (!content || content->kind != MF_ARRAY) return adapt_reserve(arena, msg, 0) ? MF_OK : MF_ERR_NOMEM;
    if (!adapt_reserve(arena, msg, content->count)) return MF_ERR_NOMEM;
    for (uint32_t i = 0; i < content->count; i++) read_block(msg, &content->items[i], i);
    return MF_OK;
}
