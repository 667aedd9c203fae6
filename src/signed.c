/* signed.c — what the providers' signatures over the model's thinking mean for an edit, read
 * once for every format (docs/provider-rules.md, docs/thinking.md), from the view's `signing`
 * flags (signing.c): whether a tool loop with signed thinking is in flight (every edit then
 * waits) and which signed parts a changed prefix makes the provider refuse (they go). The
 * plans (micro.c, compact.c) answer with these; js/core/thinking.js applies the answers and
 * reads no wire shape of its own.
 *
 * The rules read the raw message shapes, as the wire has them, in any format: a block typed
 * like another format's signed block counts wherever it appears. */
#include "measure.h"

#include <string.h>

static bool nonempty_str(const mf_node *n) { return n && n->kind == MF_STRING && n->len > 0; }
/* JavaScript's "an object" (a list too). */
static bool is_object(const mf_node *n) { return n && (n->kind == MF_OBJECT || n->kind == MF_ARRAY); }
static bool suffixed(const mf_node *s, const char *p)
{
    size_t n = strlen(p);
    return s && s->kind == MF_STRING && s->len >= n && memcmp(s->str + s->len - n, p, n) == 0;
}

/* ---- a signed loop in flight ----------------------------------------------------------- */

static const mf_node *raw_role(const mf_msg *m) { return mf_get(m->node, "role"); }
static bool role_is(const mf_msg *m, const char *role) { return mf_str_eq(raw_role(m), role); }

/* The message's list of blocks: `content` when it is a list, else `parts` (a UIMessage). */
static const mf_node *blocks_of(const mf_node *msg)
{
    const mf_node *c = mf_get(msg, "content");
    if (c && c->kind == MF_ARRAY) return c;
    const mf_node *p = mf_get(msg, "parts");
    return p && p->kind == MF_ARRAY ? p : NULL;
}

static bool has_calls_list(const mf_node *msg)
{
    const mf_node *calls = mf_get(msg, "tool_calls");
    return calls && calls->kind == MF_ARRAY && calls->count > 0;
}

/* A message that carries results back: a tool message, or a user message with tool_result blocks. */
static bool result_carrier(const mf_msg *m)
{
    if (m->node->kind != MF_OBJECT) return false;
    if (role_is(m, "tool")) return true;
    if (!role_is(m, "user")) return false;
    const mf_node *list = blocks_of(m->node);
    for (uint32_t i = 0; list && i < list->count; i++)
        if (mf_str_eq(mf_get(&list->items[i], "type"), "tool_result")) return true;
    return false;
}

/* Two ids as JavaScript compares them in a Set: both missing, the same string or number (by its
 * text), both null, true or false; two lists or objects never (they are two values). */
static bool same_id(const mf_node *a, const mf_node *b)
{
    if (!a || !b) return !a && !b;
    if (a->kind != b->kind) return false;
    if (a->kind == MF_STRING || a->kind == MF_NUMBER) return a->len == b->len && memcmp(a->str, b->str, a->len) == 0;
    return a->kind == MF_NULL || a->kind == MF_TRUE || a->kind == MF_FALSE;
}

/* The id of a result in the same message: an AI SDK tool-result's toolCallId, a server-tool
 * result's tool_use_id; false when the block is neither. */
static bool own_result_id(const mf_node *block, const mf_node **id)
{
    const mf_node *type = mf_get(block, "type");
    if (mf_str_eq(type, "tool-result")) { *id = mf_get(block, "toolCallId"); return true; }
    if (suffixed(type, "_tool_result")) { *id = mf_get(block, "tool_use_id"); return true; }
    return false;
}

/* An assistant message that ends the conversation waits for results: a client call (Anthropic
 * tool_use, Chat tool_calls, an AI SDK tool-call without its result beside it), or a server-tool
 * or MCP call whose result is not in it yet (a turn paused with pause_turn). */
static bool awaits_results(const mf_node *msg, const mf_node *list)
{
    if (has_calls_list(msg)) return true;
    for (uint32_t i = 0; list && i < list->count; i++) {
        const mf_node *b = &list->items[i];
        if (!is_object(b)) continue;
        const mf_node *type = mf_get(b, "type");
        if (mf_str_eq(type, "tool_use")) return true;
        bool sdk = mf_str_eq(type, "tool-call");
        if (!sdk && !mf_str_eq(type, "server_tool_use") && !mf_str_eq(type, "mcp_tool_use")) continue;
        const mf_node *id = mf_get(b, sdk ? "toolCallId" : "id"), *other;
        bool answered = false;
        for (uint32_t j = 0; list && j < list->count && !answered; j++)
            answered = is_object(&list->items[j]) && own_result_id(&list->items[j], &other) && same_id(id, other);
        if (!answered) return true;
    }
    return false;
}

static bool is_responses_call(const mf_node *type)
{
    static const char *const calls[] = {"function_call", "custom_tool_call", "computer_call", "local_shell_call",
                                        "shell_call", "apply_patch_call"};
    for (size_t i = 0; i < sizeof calls / sizeof *calls; i++)
        if (mf_str_eq(type, calls[i])) return true;
    return suffixed(type, "_call_output");
}

bool mf_msg_signed(const mf_msg *msg)
{
    if (msg->signed_details) return true;
    for (size_t p = 0; p < msg->count; p++)
        if (msg->parts[p].signing != MF_SIGNING_NONE && msg->parts[p].index != SIZE_MAX) return true;
    return false;
}

size_t mf_view_in_flight(const mf_view *v, bool *open)
{
    size_t n = v->count;
    *open = n == 0;
    if (!n) return SIZE_MAX;
    const mf_msg *last = &v->msgs[n - 1];
    /* OpenAI Responses: a trailing run of reasoning, call and output items after the last message;
     * the loop's reasoning is the earliest encrypted reasoning item of the run. */
    if (last->node->kind == MF_OBJECT && !mf_truthy(raw_role(last)) && is_responses_call(mf_get(last->node, "type"))) {
        size_t found = SIZE_MAX, i = n;
        while (i > 0) {
            const mf_msg *m = &v->msgs[i - 1];
            if (m->node->kind != MF_OBJECT || mf_str_eq(mf_get(m->node, "type"), "message") || mf_truthy(raw_role(m))) break;
            i--;
            if (mf_responses_reasoning_encrypted(m->node)) found = i;
        }
        *open = i == 0; /* the run may go on before the list */
        return found;
    }
    size_t i = n;
    while (i > 0 && result_carrier(&v->msgs[i - 1])) i--;
    *open = i == 0; /* only results: their assistant message lies before the list */
    if (i == 0) return SIZE_MAX;
    const mf_msg *m = &v->msgs[i - 1];
    if (m->node->kind != MF_OBJECT || !role_is(m, "assistant")) return SIZE_MAX;
    const mf_node *list = blocks_of(m->node);
    const mf_node *parts = mf_get(m->node, "parts");
    bool answered = i < n || (parts && parts->kind == MF_ARRAY); /* a UIMessage holds its results */
    bool calls = false;
    if (answered) {
        calls = has_calls_list(m->node);
        for (uint32_t p = 0; list && p < list->count && !calls; p++)
            calls = is_object(&list->items[p]) && mf_block_is_call(mf_get(&list->items[p], "type"));
    } else {
        calls = awaits_results(m->node, list);
    }
    return calls && mf_msg_signed(m) ? i - 1 : SIZE_MAX;
}

/* ---- what a changed prefix makes the provider refuse ----------------------------------- */

/* The estimate of the message's thinking beside its content (a Chat message's reasoning), which
 * goes with reasoning_details and `reasoning` unless the core read it from reasoning_content
 * (DeepSeek's, which stays). */
static uint64_t beside_milli(const mf_msg *msg, mf_profile profile)
{
    if (msg->role != MF_ROLE_ASSISTANT || nonempty_str(mf_get(msg->node, "reasoning_content"))) return 0;
    uint64_t milli = 0;
    for (size_t p = 0; p < msg->count; p++) {
        const mf_part *part = &msg->parts[p];
        if ((part->kind == MF_PART_THINKING || part->kind == MF_PART_REDACTED_THINKING) && part->index == SIZE_MAX)
            milli += mf_estimate_part(part, profile);
    }
    return milli;
}

static uint64_t part_milli(const mf_msg *msg, const mf_part *part, mf_profile profile)
{
    bool thinking = part->kind == MF_PART_THINKING || part->kind == MF_PART_REDACTED_THINKING;
    return thinking && msg->role == MF_ROLE_ASSISTANT ? mf_estimate_part(part, profile) : 0;
}

/* Calls `put` with each signed part of message m that goes, from part index `from_part` on:
 * the Chat reasoning beside the content, or each signed thinking part and each call part
 * carrying signed details. Skips a message that holds nothing else when `skip_alone`. */
static void message_drops(const mf_view *v, size_t m, size_t from_part, bool skip_alone, mf_profile profile,
                          mf_signed_drop *out, size_t *count)
{
    const mf_msg *msg = &v->msgs[m];
    if (msg->node->kind != MF_OBJECT || !role_is(msg, "assistant")) return;
    if (msg->signed_details) {
        const mf_node *content = mf_get(msg->node, "content");
        bool alone = (!content || content->kind == MF_NULL || mf_str_eq(content, "")) && !has_calls_list(msg->node);
        if (alone && skip_alone) return;
        if (out) out[*count] = (mf_signed_drop){ m, SIZE_MAX, MF_DROP_BESIDE, mf_get(msg->node, "reasoning_details")->count,
                                                 alone, 0, beside_milli(msg, profile) };
        (*count)++;
        return;
    }
    const mf_node *list = blocks_of(msg->node);
    if (!list) return;
    size_t thinking = 0;
    for (size_t p = 0; p < msg->count; p++)
        thinking += msg->parts[p].signing == MF_SIGNING_THINKING && msg->parts[p].index != SIZE_MAX;
    bool alone = thinking == list->count;
    if (alone && skip_alone) return;
    for (size_t p = 0; p < msg->count; p++) {
        const mf_part *part = &msg->parts[p];
        if (part->index == SIZE_MAX || part->index < from_part) continue;
        if (part->signing != MF_SIGNING_THINKING && part->signing != MF_SIGNING_DETAILS) continue;
        bool remove = part->signing == MF_SIGNING_THINKING;
        if (out) out[*count] = (mf_signed_drop){ m, part->index, remove ? MF_DROP_PART : MF_DROP_DETAILS, 1,
                                                 alone, remove ? 0 : mf_details_keys(part->node),
                                                 remove ? part_milli(msg, part, profile) : 0 };
        (*count)++;
    }
}

/* Both passes of a list: counting (out NULL), then filling. */
typedef struct drop_walk {
    size_t from;        /* messages from here on, whole */
    size_t first;       /* SIZE_MAX, or a UIMessage whose parts go from first_part on */
    size_t first_part;
    bool skip_alone;
} drop_walk;

static size_t walk_drops(const mf_view *v, const drop_walk *w, mf_profile profile, mf_signed_drop *out)
{
    size_t count = 0;
    if (w->first != SIZE_MAX) message_drops(v, w->first, w->first_part, false, profile, out, &count);
    for (size_t m = w->from; m < v->count; m++) message_drops(v, m, 0, w->skip_alone, profile, out, &count);
    return count;
}

static mf_status collect(const mf_view *v, const drop_walk *w, mf_profile profile, mf_arena *arena,
                         mf_signed_drop **out, size_t *count)
{
    *out = NULL;
    *count = walk_drops(v, w, profile, NULL);
    if (!*count) return MF_OK;
    *out = mf_arena_alloc(arena, *count * sizeof **out);
    if (!*out) return MF_ERR_NOMEM;
    walk_drops(v, w, profile, *out);
    return MF_OK;
}

mf_status mf_view_fold_drops(const mf_view *v, size_t from, mf_profile profile, mf_arena *arena,
                             mf_signed_drop **out, size_t *count)
{
    drop_walk w = { from, SIZE_MAX, 0, false };
    return collect(v, &w, profile, arena, out, count);
}

mf_status mf_view_edit_drops(const mf_view *v, size_t message, size_t part, mf_profile profile, mf_arena *arena,
                             mf_signed_drop **out, size_t *count)
{
    /* A UIMessage holds a whole tool loop, and the AI SDK sends each later step after the
     * outputs before it: in the first edited one, the signed parts after the first edited part
     * go too (its own step's, before it, stay). */
    const mf_msg *msg = message < v->count ? &v->msgs[message] : NULL;
    const mf_node *parts = msg ? mf_get(msg->node, "parts") : NULL;
    bool loop = msg && role_is(msg, "assistant") && parts && parts->kind == MF_ARRAY;
    drop_walk w = { message + 1, loop ? message : SIZE_MAX, part == SIZE_MAX ? 0 : part, true };
    return collect(v, &w, profile, arena, out, count);
}
