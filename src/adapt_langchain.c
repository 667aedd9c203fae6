/* adapt_langchain.c — LangChain JS messages (@langchain/core 1.x) in their dict form:
 * {type: "human" | "ai" | "tool" | "system" | "generic" | "function", content, id?, name?,
 * tool_calls?, invalid_tool_calls?, tool_call_id?, status?}. The JS wrapper turns message
 * instances, toJSON()'s constructor form and stored messages into this shape (js/core/langchain.js);
 * a dict-form list given as JSON is read as it is.
 *
 * What the providers send (docs/langchain.md): an AI message's `tool_calls` ({id, name, args:
 * object}) are its calls; `invalid_tool_calls` are not sent by @langchain/openai or
 * @langchain/anthropic, so they are neither priced nor calls a result must answer. Its content
 * may hold any provider's blocks: Anthropic's `tool_use` / `thinking` / `redacted_thinking`,
 * OpenAI's `image_url`, and the v1 standard blocks (`text`, `reasoning`, `tool_call`, `image`,
 * `file`, ...). A content `tool_use` or `tool_call` block that repeats one of `tool_calls` is the
 * same call (@langchain/anthropic sends it once): it gets no part of its own. A tool message is one
 * result (`tool_call_id`; `status: "error"` marks a failure), replaced as a whole. */
#include "adapt_common.h"

#include <string.h>

static const char *const lc_types[] = {"human", "ai", "system", "tool", "generic", "function", NULL};

const mf_node *mf_langchain_type(const mf_node *msg)
{
    /* A LangChain message always has content; other values typed alike do not (an OpenAI tool
     * definition is {type: "function", name, parameters}). */
    if (!mf_get(msg, "content")) return NULL;
    const mf_node *type = mf_get_str(msg, "type");
    for (int i = 0; type && lc_types[i]; i++)
        if (mf_str_eq(type, lc_types[i])) return type;
    return NULL;
}

mf_role mf_langchain_role(const mf_node *msg)
{
    const mf_node *type = mf_langchain_type(msg);
    if (mf_str_eq(type, "human")) return MF_ROLE_USER;
    if (mf_str_eq(type, "ai")) return MF_ROLE_ASSISTANT;
    if (mf_str_eq(type, "system")) return MF_ROLE_SYSTEM;
    if (mf_str_eq(type, "tool") || mf_str_eq(type, "function")) return MF_ROLE_TOOL;
    /* A ChatMessage ("generic") carries its own role. */
    const mf_node *role = mf_get_str(msg, "role");
    if (mf_str_eq(role, "user") || mf_str_eq(role, "human")) return MF_ROLE_USER;
    if (mf_str_eq(role, "assistant") || mf_str_eq(role, "ai")) return MF_ROLE_ASSISTANT;
    if (mf_str_eq(role, "system")) return MF_ROLE_SYSTEM;
    return MF_ROLE_UNKNOWN;
}

/* True when `id` is the id of one of `calls` (the message's tool_calls). */
static bool in_calls(const mf_node *calls, const mf_node *id)
{
    for (uint32_t i = 0; id && calls && calls->kind == MF_ARRAY && i < calls->count; i++) {
        const mf_node *other = mf_get_str(&calls->items[i], "id");
        if (other && other->len == id->len && memcmp(other->str, id->str, id->len) == 0) return true;
    }
    return false;
}

/* A media block: v1 `image` / `file` / `audio` / `video` (data, url or fileId; mimeType), the
 * legacy data blocks (source_type, mime_type), OpenAI's `image_url`, Anthropic's `image` and
 * `document`. Images are priced per image; files by their decoded size. */
static void read_media(mf_msg *msg, const mf_node *block, size_t index, const mf_node *type)
{
    const mf_node *mime = mf_get_str(block, "mimeType");
    if (!mime) mime = mf_get_str(block, "mime_type");
    if (mf_str_eq(type, "image") || mf_str_eq(type, "image_url") || mf_media_type_is_image(mime)) {
        adapt_add(msg, MF_PART_IMAGE, block, index);
        return;
    }
    mf_part *p = adapt_add(msg, MF_PART_DOCUMENT, block, index);
    if (mf_str_eq(type, "document")) { /* Anthropic's own block, as that adapter reads it */
        mf_media_of_block(block, &p->media, &(const mf_node *){NULL});
        adapt_str(block, "title", &p->text, &p->text_len);
        return;
    }
    p->media.file = true;
    p->media.bytes = mf_media_bytes(mf_get(block, "data"));
    const mf_node *name = mf_get_str(mf_get(block, "metadata"), "filename");
    if (!name) name = mf_get_str(block, "filename");
    if (!name) name = mime;
    if (name) { p->text = name->str; p->text_len = name->len; }
}

static void read_block(mf_msg *msg, const mf_node *block, size_t index, const mf_node *calls)
{
    const mf_node *type = mf_get_str(block, "type");
    mf_part *p;
    if (block->kind == MF_STRING) { /* a bare string in a content list is text */
        p = adapt_add(msg, MF_PART_TEXT, block, index);
        p->text = block->str;
        p->text_len = block->len;
    } else if (mf_str_eq(type, "text") || mf_str_eq(type, "text-plain")) {
        p = adapt_add(msg, MF_PART_TEXT, block, index);
        adapt_str(block, "text", &p->text, &p->text_len);
    } else if (mf_str_eq(type, "refusal")) {
        p = adapt_add(msg, MF_PART_TEXT, block, index);
        adapt_str(block, "refusal", &p->text, &p->text_len);
    } else if (mf_str_eq(type, "thinking")) {
        p = adapt_add(msg, MF_PART_THINKING, block, index);
        adapt_str(block, "thinking", &p->text, &p->text_len);
    } else if (mf_str_eq(type, "reasoning")) {
        p = adapt_add(msg, MF_PART_THINKING, block, index);
        adapt_str(block, "reasoning", &p->text, &p->text_len);
    } else if (mf_str_eq(type, "redacted_thinking")) {
        p = adapt_add(msg, MF_PART_REDACTED_THINKING, block, index);
        adapt_str(block, "data", &p->text, &p->text_len);
    } else if (mf_str_eq(type, "tool_use") || mf_str_eq(type, "tool_call")) {
        const mf_node *id = mf_get_str(block, "id");
        if (in_calls(calls, id)) return; /* the same call as in tool_calls: read there */
        p = adapt_add(msg, MF_PART_TOOL_CALL, block, index);
        adapt_str(block, "id", &p->id, &p->id_len);
        adapt_str(block, "name", &p->name, &p->name_len);
        p->args = mf_get(block, mf_str_eq(type, "tool_use") ? "input" : "args");
    } else if (mf_str_eq(type, "image") || mf_str_eq(type, "image_url") || mf_str_eq(type, "file") ||
               mf_str_eq(type, "audio") || mf_str_eq(type, "video") || mf_str_eq(type, "document")) {
        read_media(msg, block, index, type);
    } else {
        adapt_add(msg, MF_PART_OTHER, block, index);
    }
}

mf_status mf_adapt_langchain(mf_arena *arena, mf_msg *msg)
{
    const mf_node *content = mf_get(msg->node, "content");
    if (msg->role == MF_ROLE_TOOL) {
        /* The whole message is one result; its content is replaced as a whole. */
        if (!adapt_reserve(arena, msg, 1)) return MF_ERR_NOMEM;
        mf_part *p = adapt_add(msg, MF_PART_TOOL_RESULT, msg->node, SIZE_MAX);
        p->type = NULL;
        adapt_str(msg->node, "tool_call_id", &p->id, &p->id_len);
        adapt_str(msg->node, "name", &p->name, &p->name_len);
        p->content = content;
        p->is_error = mf_str_eq(mf_get_str(msg->node, "status"), "error");
        p->target = MF_EDIT_MESSAGE_CONTENT;
        return MF_OK;
    }
    const mf_node *calls = msg->role == MF_ROLE_ASSISTANT ? mf_get(msg->node, "tool_calls") : NULL;
    size_t ncalls = calls && calls->kind == MF_ARRAY ? calls->count : 0;
    bool string_content = content && content->kind == MF_STRING;
    size_t nparts = string_content ? 1 : content && content->kind == MF_ARRAY ? content->count : 0;
    if (!adapt_reserve(arena, msg, nparts + ncalls)) return MF_ERR_NOMEM;
    if (string_content) {
        if (content->len) adapt_add_string_content(msg, content);
        else msg->string_content = true; /* "" beside tool calls: nothing the model reads */
    } else {
        for (size_t i = 0; i < nparts; i++) read_block(msg, &content->items[i], i, calls);
    }
    /* Tool calls live outside `content`: their part index is their place in tool_calls. */
    for (size_t i = 0; i < ncalls; i++) {
        const mf_node *call = &calls->items[i];
        mf_part *p = adapt_add(msg, MF_PART_TOOL_CALL, call, i);
        p->type = NULL;
        adapt_str(call, "id", &p->id, &p->id_len);
        adapt_str(call, "name", &p->name, &p->name_len);
        p->args = mf_get(call, "args");
    }
    return MF_OK;
}
