/* adapt_openai_responses.c — OpenAI Responses API input items (what `input` holds, and
 * what the OpenAI Agents SDK hands a model). The list is flat: one item per message,
 * messages carry a role, everything else a `type` (function_call, function_call_output,
 * reasoning, built-in tool calls, ...) and no role. docs/openai-responses.md has the rules.
 *
 * Each item is one message of the view. Items without a role get one from their type:
 * what the model produced (calls, reasoning, built-in tool runs, approval requests) is
 * the assistant's; what the client sends back for a call (outputs, approval responses) is
 * a tool message, so it is the user side of the turn, as OpenAI Chat `tool` messages are. */
#include "adapt_common.h"
#include "view.h"

#include <string.h>

/* The item types that carry no role, and the role each one is read as. */
typedef struct item_type { const char *name; mf_role role; } item_type;

static const item_type ITEM_TYPES[] = {
    {"function_call", MF_ROLE_ASSISTANT},        {"function_call_output", MF_ROLE_TOOL},
    {"custom_tool_call", MF_ROLE_ASSISTANT},     {"custom_tool_call_output", MF_ROLE_TOOL},
    {"computer_call", MF_ROLE_ASSISTANT},        {"computer_call_output", MF_ROLE_TOOL},
    {"local_shell_call", MF_ROLE_ASSISTANT},     {"local_shell_call_output", MF_ROLE_TOOL},
    {"shell_call", MF_ROLE_ASSISTANT},           {"shell_call_output", MF_ROLE_TOOL},
    {"apply_patch_call", MF_ROLE_ASSISTANT},     {"apply_patch_call_output", MF_ROLE_TOOL},
    {"tool_search_call", MF_ROLE_ASSISTANT},     {"tool_search_output", MF_ROLE_TOOL},
    {"program", MF_ROLE_ASSISTANT},              {"program_output", MF_ROLE_TOOL},
    {"mcp_approval_request", MF_ROLE_ASSISTANT}, {"mcp_approval_response", MF_ROLE_TOOL},
    {"reasoning", MF_ROLE_ASSISTANT},            {"compaction", MF_ROLE_ASSISTANT},
    {"web_search_call", MF_ROLE_ASSISTANT},      {"file_search_call", MF_ROLE_ASSISTANT},
    {"code_interpreter_call", MF_ROLE_ASSISTANT}, {"image_generation_call", MF_ROLE_ASSISTANT},
    {"mcp_call", MF_ROLE_ASSISTANT},             {"mcp_list_tools", MF_ROLE_ASSISTANT},
    {"item_reference", MF_ROLE_ASSISTANT},       {"compaction_trigger", MF_ROLE_USER},
    {"additional_tools", MF_ROLE_SYSTEM},
    /* A setting for the responses after it: kept like a system message, never folded. */
    {"configuration_update", MF_ROLE_SYSTEM},
    /* The OpenAI Agents SDK's own items (@openai/agents-core protocol), camelCase `callId`. */
    {"function_call_result", MF_ROLE_TOOL},      {"computer_call_result", MF_ROLE_TOOL},
    {"hosted_tool_call", MF_ROLE_ASSISTANT},
    {NULL, MF_ROLE_UNKNOWN}};

static const item_type *item_type_of(const mf_node *n)
{
    const mf_node *type = mf_get_str(n, "type");
    if (!type) return NULL;
    for (const item_type *t = ITEM_TYPES; t->name; t++)
        if (mf_str_eq(type, t->name)) return t;
    return NULL;
}

/* A type midfold does not know yet still reads as an item when it is named like the
 * API's calls and outputs ("..._call", "..._output"): new built-in tools keep coming. */
static mf_role suffix_role(const mf_node *n)
{
    const mf_node *type = mf_get_str(n, "type");
    if (!type) return MF_ROLE_UNKNOWN;
    if (type->len > 5 && memcmp(type->str + type->len - 5, "_call", 5) == 0) return MF_ROLE_ASSISTANT;
    if (type->len > 7 && memcmp(type->str + type->len - 7, "_output", 7) == 0) return MF_ROLE_TOOL;
    return MF_ROLE_UNKNOWN;
}

bool mf_responses_is_item(const mf_node *n) { return item_type_of(n) != NULL || suffix_role(n) != MF_ROLE_UNKNOWN; }

bool mf_responses_is_configuration_update(const mf_node *item)
{
    return !mf_get(item, "role") && mf_str_eq(mf_get_str(item, "type"), "configuration_update");
}

mf_role mf_responses_role(const mf_node *item)
{
    const mf_node *role = mf_get_str(item, "role");
    if (role) {
        if (mf_str_eq(role, "user")) return MF_ROLE_USER;
        if (mf_str_eq(role, "assistant")) return MF_ROLE_ASSISTANT;
        if (mf_str_eq(role, "system") || mf_str_eq(role, "developer")) return MF_ROLE_SYSTEM;
        return MF_ROLE_UNKNOWN;
    }
    const item_type *t = item_type_of(item);
    return t ? t->role : suffix_role(item);
}

static bool responses_part(const mf_node *part)
{
    const mf_node *type = mf_get_str(part, "type");
    return mf_str_eq(type, "input_text") || mf_str_eq(type, "output_text") || mf_str_eq(type, "input_image") ||
           mf_str_eq(type, "input_file");
}

bool mf_responses_evidence(const mf_node *msg)
{
    /* `type: "message"` alone says nothing: an Anthropic Message object carries it too. */
    if (mf_responses_is_item(msg)) return true;
    const mf_node *content = mf_get(msg, "content");
    if (content && content->kind == MF_ARRAY)
        for (uint32_t i = 0; i < content->count; i++)
            if (responses_part(&content->items[i])) return true;
    return false;
}

/* ---- message items: content a string or input_* / output_text / refusal parts ---- */

static void read_content_part(mf_msg *msg, const mf_node *part, size_t index)
{
    const mf_node *type = mf_get_str(part, "type");
    mf_part *p;
    if (mf_str_eq(type, "input_text") || mf_str_eq(type, "output_text")) {
        p = adapt_add(msg, MF_PART_TEXT, part, index);
        adapt_str(part, "text", &p->text, &p->text_len);
    } else if (mf_str_eq(type, "refusal")) {
        p = adapt_add(msg, MF_PART_TEXT, part, index);
        adapt_str(part, "refusal", &p->text, &p->text_len);
    } else if (mf_str_eq(type, "input_image")) {
        adapt_add(msg, MF_PART_IMAGE, part, index);
    } else if (mf_str_eq(type, "input_file")) {
        p = adapt_add(msg, MF_PART_DOCUMENT, part, index);
        adapt_str(part, "filename", &p->text, &p->text_len);
    } else {
        adapt_add(msg, MF_PART_OTHER, part, index);
    }
}

static mf_status read_message(mf_arena *arena, mf_msg *msg)
{
    const mf_node *content = mf_get(msg->node, "content");
    mf_status st;
    if (adapt_string_content(arena, msg, content, 0, &st)) return st;
    if (!content || content->kind != MF_ARRAY) return adapt_reserve(arena, msg, 0) ? MF_OK : MF_ERR_NOMEM;
    if (!adapt_reserve(arena, msg, content->count)) return MF_ERR_NOMEM;
    for (uint32_t i = 0; i < content->count; i++) read_content_part(msg, &content->items[i], i);
    return MF_OK;
}

/* ---- the other items: each part lives outside `content` (index SIZE_MAX) ---------- */

/* The item's call id: `call_id`, or the Agents SDK's `callId`. */
static const mf_node *call_id_of(const mf_node *item)
{
    const mf_node *id = mf_get_str(item, "call_id");
    return id ? id : mf_get_str(item, "callId");
}

static mf_part *add_call(mf_msg *msg, const char *id_key, const char *name, const mf_node *args)
{
    mf_part *p = adapt_add(msg, MF_PART_TOOL_CALL, msg->node, SIZE_MAX);
    const mf_node *id = !id_key ? NULL : strcmp(id_key, "call_id") == 0 ? call_id_of(msg->node) : mf_get_str(msg->node, id_key);
    if (id) { p->id = id->str; p->id_len = id->len; }
    if (name) { p->name = name; p->name_len = strlen(name); }
    else adapt_str(msg->node, "name", &p->name, &p->name_len);
    p->args = args;
    return p;
}

static mf_part *add_result(mf_msg *msg, const char *id, size_t id_len, const mf_node *content,
                           mf_edit_target target)
{
    mf_part *p = adapt_add(msg, MF_PART_TOOL_RESULT, msg->node, SIZE_MAX);
    p->id = id;
    p->id_len = id_len;
    p->content = content;
    p->target = target;
    return p;
}

/* A built-in tool's name as the transcript shows it: its item type without "_call". */
static void builtin_name(const mf_node *type, const char **name, size_t *len)
{
    *name = type->str;
    *len = type->len >= 5 && memcmp(type->str + type->len - 5, "_call", 5) == 0 ? type->len - 5 : type->len;
}

/* An mcp_call's error: a string up to openai 6; from openai 7 an McpToolCallError object,
 * {type: 'http_error' | 'mcp_protocol_error', code, message} or {type:
 * 'mcp_tool_execution_error', content} (the tool's own MCP content). The error's text is
 * the message, or the tool's content; the object itself when it has neither. */
static const mf_node *mcp_error(const mf_node *error)
{
    if (!error || error->kind == MF_NULL) return NULL;
    if (error->kind != MF_OBJECT) return error;
    const mf_node *message = mf_get_str(error, "message");
    if (message) return message;
    const mf_node *content = mf_get(error, "content");
    return content && content->kind != MF_NULL ? content : error;
}

static void read_reasoning(mf_msg *msg)
{
    const mf_node *lists[2] = {mf_get(msg->node, "summary"), mf_get(msg->node, "content")};
    bool any = false;
    for (int l = 0; l < 2; l++) {
        const mf_node *list = lists[l];
        if (!list || list->kind != MF_ARRAY) continue;
        for (uint32_t i = 0; i < list->count; i++) {
            const mf_node *text = mf_get_str(&list->items[i], "text");
            if (!text) continue;
            mf_part *p = adapt_add(msg, MF_PART_THINKING, &list->items[i], SIZE_MAX);
            p->text = text->str;
            p->text_len = text->len;
            any = true;
        }
    }
    /* Reasoning with no readable text is opaque: shown as a marker, priced as nothing (the
     * API drops earlier turns' reasoning from the window; the encrypted text is not read). */
    if (!any && mf_get_str(msg->node, "encrypted_content"))
        adapt_add(msg, MF_PART_REDACTED_THINKING, msg->node, SIZE_MAX);
    /* Encrypted reasoning: edits wait while its loop is in flight (signed.c); never removed. */
    if (mf_responses_reasoning_encrypted(msg->node))
        for (size_t p = 0; p < msg->count; p++) msg->parts[p].signing = MF_SIGNING_ENCRYPTED;
}

static size_t list_len(const mf_node *n, const char *key)
{
    const mf_node *l = mf_get(n, key);
    return l && l->kind == MF_ARRAY ? l->count : 0;
}

mf_status mf_adapt_openai_responses(mf_arena *arena, mf_msg *msg)
{
    msg->item = true;
    const item_type *t = item_type_of(msg->node);
    if (!t && mf_get_str(msg->node, "role")) return read_message(arena, msg);
    const mf_node *item = msg->node, *type = mf_get_str(item, "type");
    size_t room = 3 + list_len(item, "summary") + list_len(item, "content");
    if (!adapt_reserve(arena, msg, room)) return MF_ERR_NOMEM;
    const char *name;
    size_t name_len;
    mf_part *p;
    if (mf_str_eq(type, "function_call")) {
        add_call(msg, "call_id", NULL, mf_get(item, "arguments"));
    } else if (mf_str_eq(type, "custom_tool_call")) {
        add_call(msg, "call_id", NULL, mf_get(item, "input"));
    } else if (mf_str_eq(type, "computer_call")) {
        const mf_node *action = mf_get(item, "action");
        add_call(msg, "call_id", "computer", action ? action : mf_get(item, "actions"));
    } else if (mf_str_eq(type, "local_shell_call") || mf_str_eq(type, "shell_call")) {
        add_call(msg, "call_id", mf_str_eq(type, "shell_call") ? "shell" : "local_shell", mf_get(item, "action"));
    } else if (mf_str_eq(type, "apply_patch_call")) {
        add_call(msg, "call_id", "apply_patch", mf_get(item, "operation"));
    } else if (mf_str_eq(type, "tool_search_call")) {
        add_call(msg, "call_id", "tool_search", mf_get(item, "arguments"));
    } else if (mf_str_eq(type, "program")) {
        add_call(msg, "call_id", "program", mf_get(item, "code")); /* the fingerprint is opaque */
    } else if (mf_str_eq(type, "mcp_approval_request")) {
        add_call(msg, "id", NULL, mf_get(item, "arguments"));
    } else if (mf_str_eq(type, "function_call_output") || mf_str_eq(type, "custom_tool_call_output") ||
               mf_str_eq(type, "local_shell_call_output") || mf_str_eq(type, "apply_patch_call_output") ||
               mf_str_eq(type, "function_call_result")) {
        const mf_node *id = call_id_of(item);
        if (!id && mf_str_eq(type, "local_shell_call_output")) id = mf_get_str(item, "id"); /* the SDK's spelling */
        p = add_result(msg, id ? id->str : NULL, id ? id->len : 0, mf_get(item, "output"), MF_EDIT_ITEM_OUTPUT);
        p->is_error = mf_str_eq(mf_get_str(item, "status"), "failed");
        if (mf_str_eq(type, "function_call_result")) adapt_str(item, "name", &p->name, &p->name_len);
    } else if (mf_str_eq(type, "computer_call_output") || mf_str_eq(type, "shell_call_output") ||
               mf_str_eq(type, "tool_search_output") || mf_str_eq(type, "program_output") ||
               mf_str_eq(type, "computer_call_result")) {
        /* Outputs whose shape allows no marker string: read and priced, never rewritten. */
        const mf_node *id = call_id_of(item);
        const mf_node *content = mf_str_eq(type, "tool_search_output") ? mf_get(item, "tools")
                               : mf_str_eq(type, "program_output") && mf_get(item, "result") ? mf_get(item, "result")
                               : mf_get(item, "output");
        add_result(msg, id ? id->str : NULL, id ? id->len : 0, content, 0);
    } else if (mf_str_eq(type, "mcp_approval_response")) {
        /* A decision: paired with its request, never cleared, shown as what was decided. */
        const mf_node *id = mf_get_str(item, "approval_request_id");
        add_result(msg, id ? id->str : NULL, id ? id->len : 0, NULL, 0);
        const mf_node *approve = mf_get(item, "approve");
        p = adapt_add(msg, MF_PART_TEXT, item, SIZE_MAX);
        p->type = NULL;
        p->text = approve && approve->kind == MF_TRUE ? "approved" : "denied";
        p->text_len = strlen(p->text);
        const mf_node *reason = mf_get_str(item, "reason");
        if (reason) {
            p = adapt_add(msg, MF_PART_TEXT, reason, SIZE_MAX);
            p->text = reason->str;
            p->text_len = reason->len;
        }
    } else if (mf_str_eq(type, "reasoning")) {
        read_reasoning(msg);
    } else if (mf_str_eq(type, "compaction")) {
        /* Encrypted: the model reads what it decrypts to, so it is priced by its size. */
        const mf_node *enc = mf_get_str(item, "encrypted_content");
        p = adapt_add(msg, MF_PART_REDACTED_THINKING, item, SIZE_MAX);
        p->opaque_len = enc ? enc->len : 0;
    } else if (mf_str_eq(type, "hosted_tool_call")) {
        /* The Agents SDK's record of a built-in tool run: name, arguments and output. */
        add_call(msg, NULL, NULL, mf_get(item, "arguments"));
        const mf_node *output = mf_get_str(item, "output");
        if (output) {
            p = add_result(msg, NULL, 0, output, MF_EDIT_ITEM_OUTPUT);
            adapt_str(item, "name", &p->name, &p->name_len);
        }
    } else if (mf_str_eq(type, "mcp_call")) {
        /* Run by the API: the call and its output are one item. */
        add_call(msg, NULL, NULL, mf_get(item, "arguments"));
        const mf_node *error = mcp_error(mf_get(item, "error"));
        const mf_node *output = mf_get(item, "output");
        if (error) {
            p = add_result(msg, NULL, 0, error, 0);
            p->is_error = true;
        } else if (output && output->kind != MF_NULL) {
            add_result(msg, NULL, 0, output, MF_EDIT_ITEM_OUTPUT);
        }
        adapt_str(item, "name", &msg->parts[msg->count - 1].name, &msg->parts[msg->count - 1].name_len);
    } else if (mf_str_eq(type, "mcp_list_tools")) {
        add_call(msg, NULL, "mcp_list_tools", mf_get(item, "server_label"));
        p = add_result(msg, NULL, 0, mf_get(item, "tools"), 0);
        p->name = "mcp_list_tools";
        p->name_len = strlen(p->name);
    } else if (mf_str_eq(type, "web_search_call") || mf_str_eq(type, "file_search_call") ||
               mf_str_eq(type, "code_interpreter_call")) {
        builtin_name(type, &name, &name_len);
        const mf_node *args = mf_str_eq(type, "web_search_call") ? mf_get(item, "action")
                            : mf_str_eq(type, "file_search_call") ? mf_get(item, "queries") : mf_get(item, "code");
        p = add_call(msg, NULL, "", args);
        p->name = name;
        p->name_len = name_len;
        const mf_node *results = mf_str_eq(type, "file_search_call") ? mf_get(item, "results")
                               : mf_str_eq(type, "code_interpreter_call") ? mf_get(item, "outputs") : NULL;
        if (results && results->kind != MF_NULL) {
            p = add_result(msg, NULL, 0, results, 0);
            p->name = name;
            p->name_len = name_len;
        }
    } else if (mf_str_eq(type, "image_generation_call")) {
        /* The result is base64: an image, never text. */
        p = add_call(msg, NULL, "image_generation", NULL);
        if (mf_get_str(item, "result")) adapt_add(msg, MF_PART_IMAGE, item, SIZE_MAX);
    } else {
        /* item_reference, compaction_trigger, additional_tools (tool definitions the model
         * reads), configuration_update, types midfold does not know: priced by their
         * fields, kept as they are (validate names the unknown ones). */
        adapt_add(msg, MF_PART_OTHER, item, SIZE_MAX);
    }
    return MF_OK;
}
