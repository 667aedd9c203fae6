/* view.c — one normalized view of a conversation, whatever its wire format, so that
 * estimation, serialization, micro-compaction and validation are written once. */
#include "view.h"

#include <string.h>

static mf_role role_of(const mf_node *role, mf_format format)
{
    if (mf_str_eq(role, "user")) return MF_ROLE_USER;
    if (mf_str_eq(role, "assistant")) return MF_ROLE_ASSISTANT;
    if (mf_str_eq(role, "system")) return MF_ROLE_SYSTEM;
    if (format == MF_FORMAT_OPENAI) {
        if (mf_str_eq(role, "developer")) return MF_ROLE_SYSTEM;
        if (mf_str_eq(role, "tool") || mf_str_eq(role, "function")) return MF_ROLE_TOOL;
    }
    if (format == MF_FORMAT_AISDK && mf_str_eq(role, "tool")) return MF_ROLE_TOOL;
    return MF_ROLE_UNKNOWN;
}

/* The role a LangChain message is shown as ([user], [assistant], ...): its type is
 * LangChain's own word, the transcript speaks the providers' (an unknown role keeps its name). */
static const mf_node *role_name(mf_role role, const mf_node *fallback)
{
    static const mf_node user = {.kind = MF_STRING, .str = "user", .len = 4};
    static const mf_node assistant = {.kind = MF_STRING, .str = "assistant", .len = 9};
    static const mf_node system = {.kind = MF_STRING, .str = "system", .len = 6};
    static const mf_node tool = {.kind = MF_STRING, .str = "tool", .len = 4};
    switch (role) {
    case MF_ROLE_USER: return &user;
    case MF_ROLE_ASSISTANT: return &assistant;
    case MF_ROLE_SYSTEM: return &system;
    case MF_ROLE_TOOL: return &tool;
    default: return fallback;
    }
}

mf_status mf_view_build(const mf_doc *doc, mf_format format, mf_view *view, mf_error *err)
{
    memset(view, 0, sizeof *view);
    mf_arena_init(&view->arena);
    size_t bad;
    if (!doc) return mf_fail(err, MF_ERR_INVALID_ARG, SIZE_MAX, "NULL document");
    if (!mf_doc_is_conversation(doc, &bad)) {
        if (bad == SIZE_MAX)
            return mf_fail(err, MF_ERR_SHAPE, SIZE_MAX, "expected a list of messages");
        return mf_fail(err, MF_ERR_SHAPE, bad, "message %zu is not an object with a string \"role\" (nor a Responses item)", bad);
    }
    if (doc->messages->count > MF_MAX_MESSAGES)
        return mf_fail(err, MF_ERR_TOO_LARGE, SIZE_MAX, "more than %zu messages", (size_t)MF_MAX_MESSAGES);
    if (format == MF_FORMAT_AUTO) {
        format = mf_doc_detect(doc);
        if (format == MF_FORMAT_UNKNOWN)
            return mf_fail(err, MF_ERR_FORMAT, SIZE_MAX,
                           "the messages mix Anthropic, OpenAI and AI SDK features; pass a format");
    } else if (format != MF_FORMAT_ANTHROPIC && format != MF_FORMAT_OPENAI && format != MF_FORMAT_AISDK &&
               format != MF_FORMAT_AISDK_UI && format != MF_FORMAT_OPENAI_RESPONSES && format != MF_FORMAT_LANGCHAIN) {
        return mf_fail(err, MF_ERR_INVALID_ARG, SIZE_MAX, "unknown format");
    }
    view->format = format;
    view->count = doc->messages->count;
    view->msgs = mf_arena_calloc(&view->arena, view->count, sizeof(mf_msg));
    if (view->count && !view->msgs) goto nomem;
    for (size_t i = 0; i < view->count; i++) {
        mf_msg *msg = &view->msgs[i];
        msg->node = &doc->messages->items[i];
        msg->role_node = mf_get_str(msg->node, "role");
        msg->role = role_of(msg->role_node, format);
        /* Responses items without a role are named by their type wherever a role is shown
         * (in the other formats they are messages of an unknown role). */
        if (!msg->role_node) msg->role_node = mf_get_str(msg->node, "type");
        mf_status st;
        if (format == MF_FORMAT_OPENAI_RESPONSES) {
            msg->role = mf_responses_role(msg->node);
            st = mf_adapt_openai_responses(&view->arena, msg);
        } else if (format == MF_FORMAT_LANGCHAIN) {
            msg->role = mf_langchain_role(msg->node);
            msg->role_node = role_name(msg->role, msg->role_node);
            st = mf_adapt_langchain(&view->arena, msg);
        } else {
            st = format == MF_FORMAT_ANTHROPIC ? mf_adapt_anthropic(&view->arena, msg)
               : format == MF_FORMAT_OPENAI ? mf_adapt_openai(&view->arena, msg)
               : format == MF_FORMAT_AISDK_UI ? mf_adapt_aisdk_ui(&view->arena, msg)
               : mf_adapt_aisdk(&view->arena, msg);
        }
        if (st) goto nomem;
        msg->signed_details = mf_signed_details(mf_get(msg->node, "reasoning_details"));
    }
    if (mf_view_link_results(view)) goto nomem;
    if (format == MF_FORMAT_AISDK && mf_aisdk_link_approvals(view)) goto nomem;
    if (format == MF_FORMAT_OPENAI_RESPONSES && mf_responses_join(view)) goto nomem;
    return MF_OK;
nomem:
    mf_view_free(view);
    return mf_fail(err, MF_ERR_NOMEM, SIZE_MAX, "out of memory while reading messages");
}

void mf_view_free(mf_view *view) { mf_arena_free(&view->arena); view->msgs = NULL; view->count = 0; }

/* ---- linking results to their calls: an id -> call map, filled in message order ---- */

mf_status mf_view_link_results(mf_view *view)
{
    size_t calls = 0;
    for (size_t m = 0; m < view->count; m++)
        for (size_t p = 0; p < view->msgs[m].count; p++)
            calls += view->msgs[m].parts[p].kind == MF_PART_TOOL_CALL;
    if (!calls) return MF_OK;
    mf_idmap map;
    if (!mf_idmap_init(&map, &view->arena, calls)) return MF_ERR_NOMEM;
    for (size_t m = 0; m < view->count; m++) {
        for (size_t p = 0; p < view->msgs[m].count; p++) {
            mf_part *part = &view->msgs[m].parts[p];
            if (!part->id) continue;
            mf_idslot *s = mf_idmap_slot(&map, part->id, part->id_len);
            if (part->kind == MF_PART_TOOL_CALL) {
                s->id = part->id;
                s->len = part->id_len;
                s->value = part; /* a repeated id: the latest call wins */
            } else if (part->kind == MF_PART_TOOL_RESULT && !part->name && s->id) {
                const mf_part *call = s->value;
                part->name = call->name;
                part->name_len = call->name_len;
            }
        }
    }
    return MF_OK;
}

bool mf_msg_has_results(const mf_msg *msg)
{
    for (size_t p = 0; p < msg->count; p++)
        if (msg->parts[p].kind == MF_PART_TOOL_RESULT) return true;
    return false;
}

bool mf_msg_has_pending(const mf_msg *msg)
{
    for (size_t p = 0; p < msg->count; p++)
        if (msg->parts[p].pending) return true;
    return false;
}

/* ---- the provider's own compaction: what the model reads starts at the last one ------- */

bool mf_part_is_compaction(const mf_part *part)
{
    /* Anthropic's block with its summary (a block whose content is null is a failed
     * compaction the API treats as a no-op), or OpenAI's encrypted item. */
    return mf_str_eq(part->type, "compaction") && (part->text_len > 0 || part->opaque_len > 0);
}

bool mf_msg_has_compaction(const mf_msg *msg)
{
    for (size_t p = 0; p < msg->count; p++)
        if (mf_part_is_compaction(&msg->parts[p])) return true;
    return false;
}

size_t mf_view_window_start(const mf_view *view)
{
    for (size_t m = view->count; m-- > 0;)
        if (mf_msg_has_compaction(&view->msgs[m])) return m;
    return 0;
}
