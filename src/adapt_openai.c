/* adapt_openai.c — OpenAI Chat Completions: content is a string, a list of parts or
 * null; an assistant's `tool_calls` carry JSON-string arguments (a custom tool's call its
 * free-form `custom.input`); each result is its own
 * `tool` message with `tool_call_id` (legacy `function_call` / role `function` too).
 * An assistant's `reasoning_content` (DeepSeek's chain of thought, also vLLM's and SGLang's)
 * or `reasoning` (OpenRouter's) is its thinking, before the answer. */
#include "adapt_common.h"
#include "view.h"

/* The readable text of an OpenRouter reasoning_details entry: a reasoning.text's `text`, a
 * reasoning.summary's `summary`; NULL for an encrypted one (not read, as OpenAI's encrypted
 * reasoning is not) or anything else. */
static const mf_node *detail_text(const mf_node *detail)
{
    const mf_node *type = mf_get_str(detail, "type");
    if (mf_str_eq(type, "reasoning.text")) return mf_get_str(detail, "text");
    if (mf_str_eq(type, "reasoning.summary")) return mf_get_str(detail, "summary");
    return NULL;
}

/* Adds a THINKING part for `node` whose text is the string `text` (room reserved). */
static void add_thinking(mf_msg *msg, const mf_node *node, const mf_node *text)
{
    mf_part *p = adapt_add(msg, MF_PART_THINKING, node, SIZE_MAX);
    p->text = text->str;
    p->text_len = text->len;
}

static void read_part(mf_msg *msg, const mf_node *part, size_t index)
{
    const mf_node *type = mf_get_str(part, "type");
    mf_part *p;
    if (mf_str_eq(type, "text")) {
        p = adapt_add(msg, MF_PART_TEXT, part, index);
        adapt_str(part, "text", &p->text, &p->text_len);
    } else if (mf_str_eq(type, "refusal")) {
        p = adapt_add(msg, MF_PART_TEXT, part, index);
        adapt_str(part, "refusal", &p->text, &p->text_len);
    } else if (mf_str_eq(type, "image_url")) {
        adapt_add(msg, MF_PART_IMAGE, part, index);
    } else if (mf_str_eq(type, "file")) {
        p = adapt_add(msg, MF_PART_DOCUMENT, part, index);
        adapt_str(mf_get(part, "file"), "filename", &p->text, &p->text_len);
    } else {
        adapt_add(msg, MF_PART_OTHER, part, index);
    }
}

mf_status mf_adapt_openai(mf_arena *arena, mf_msg *msg)
{
    const mf_node *content = mf_get(msg->node, "content");
    if (msg->role == MF_ROLE_TOOL) {
        /* The whole message is one result; its content is replaced as a whole. */
        if (!adapt_reserve(arena, msg, 1)) return MF_ERR_NOMEM;
        mf_part *p = adapt_add(msg, MF_PART_TOOL_RESULT, msg->node, SIZE_MAX);
        p->type = NULL;
        adapt_str(msg->node, "tool_call_id", &p->id, &p->id_len);
        if (!p->id) adapt_str(msg->node, "name", &p->name, &p->name_len); /* role "function" */
        p->content = content;
        p->target = MF_EDIT_MESSAGE_CONTENT;
        return MF_OK;
    }
    const mf_node *calls = mf_get(msg->node, "tool_calls");
    const mf_node *legacy = mf_get(msg->node, "function_call");
    /* DeepSeek V4 requires a tool-calling turn's reasoning_content back in every later request
     * (docs/provider-rules.md), and it is read as input there: it is priced and shown. OpenRouter
     * (and newer vLLM) name the same text `reasoning`; OpenRouter's reasoning_details repeat it
     * with signatures, so it is read once: from `reasoning`, or from the details without it. */
    const mf_node *reasoning = NULL, *details = NULL;
    if (msg->role == MF_ROLE_ASSISTANT) {
        reasoning = mf_get_str(msg->node, "reasoning_content");
        if (!reasoning || reasoning->len == 0) reasoning = mf_get_str(msg->node, "reasoning");
        if (reasoning && reasoning->len == 0) reasoning = NULL; /* the AI SDK sends "" when there is none */
        details = reasoning ? NULL : mf_get(msg->node, "reasoning_details");
        if (details && details->kind != MF_ARRAY) details = NULL;
    }
    size_t nthinking = reasoning != NULL;
    for (uint32_t i = 0; details && i < details->count; i++) nthinking += detail_text(&details->items[i]) != NULL;
    size_t ncalls = calls && calls->kind == MF_ARRAY ? calls->count : 0;
    size_t extra = ncalls + (legacy && legacy->kind == MF_OBJECT);
    bool string_content = content && content->kind == MF_STRING;
    size_t nparts = string_content ? 1 : content && content->kind == MF_ARRAY ? content->count : 0;
    if (!adapt_reserve(arena, msg, nthinking + nparts + extra)) return MF_ERR_NOMEM;
    if (reasoning) add_thinking(msg, reasoning, reasoning);
    for (uint32_t i = 0; details && i < details->count; i++) {
        const mf_node *text = detail_text(&details->items[i]);
        if (text) add_thinking(msg, &details->items[i], text);
    }
    if (string_content) adapt_add_string_content(msg, content);
    else
        for (size_t i = 0; i < nparts; i++) read_part(msg, &content->items[i], i);
    /* Tool calls live outside `content`: their part index is their place in tool_calls. */
    for (size_t i = 0; i < ncalls; i++) {
        const mf_node *call = &calls->items[i];
        /* A custom tool's call (type "custom") carries free-form `input`, not JSON arguments. */
        const mf_node *custom = mf_get(call, "custom");
        bool is_custom = mf_str_eq(mf_get_str(call, "type"), "custom") && custom;
        const mf_node *fn = is_custom ? custom : mf_get(call, "function");
        mf_part *p = adapt_add(msg, MF_PART_TOOL_CALL, call, i);
        adapt_str(call, "id", &p->id, &p->id_len);
        adapt_str(fn, "name", &p->name, &p->name_len);
        p->args = mf_get(fn, is_custom ? "input" : "arguments");
    }
    if (legacy && legacy->kind == MF_OBJECT) {
        mf_part *p = adapt_add(msg, MF_PART_TOOL_CALL, legacy, SIZE_MAX);
        adapt_str(legacy, "name", &p->name, &p->name_len);
        p->args = mf_get(legacy, "arguments");
    }
    return MF_OK;
}
