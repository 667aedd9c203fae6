/* validate.c — the providers' rules a conversation must keep to be accepted:
 * every tool call answered by a result right after it, every result answering a call
 * right before it, known roles and block types, and (Anthropic) tool results first in
 * their user message. Calls the provider runs (Anthropic server tools, the MCP connector)
 * have their result in their own assistant message (a server call a turn paused on, in the
 * next assistant message, which continues it). System messages in the list are
 * skipped when looking for "the message before/after", since hosts send them apart from
 * the rest. A block type Anthropic may have added since is a warning, not an error. */
#include "validate.h"

#include <string.h>

typedef struct report_box {
    mf_validation report; /* first, so a report pointer is the box pointer */
    mf_arena arena;
    size_t cap;
    bool failed;
} report_box;

const char *mf_problem_name(mf_problem_code code)
{
    switch (code) {
    case MF_PROBLEM_NOT_A_MESSAGE: return "not-a-message";
    case MF_PROBLEM_UNKNOWN_ROLE: return "unknown-role";
    case MF_PROBLEM_BAD_CONTENT: return "bad-content";
    case MF_PROBLEM_UNKNOWN_BLOCK: return "unknown-block";
    case MF_PROBLEM_CALL_WITHOUT_RESULT: return "call-without-result";
    case MF_PROBLEM_RESULT_WITHOUT_CALL: return "result-without-call";
    case MF_PROBLEM_RESULT_NOT_FIRST: return "result-not-first";
    case MF_PROBLEM_MISSING_ID: return "missing-id";
    case MF_PROBLEM_DUPLICATE_ID: return "duplicate-id";
    case MF_PROBLEM_MISSING_REASONING: return "missing-reasoning";
    case MF_PROBLEM_CONSECUTIVE_ROLE: return "consecutive-role";
    }
    return "unknown";
}

static void add(report_box *box, mf_problem_code code, size_t message, size_t part, const char *fmt,
                const char *arg, size_t arg_len)
{
    if (box->failed) return;
    mf_validation *r = &box->report;
    if (r->count == box->cap) {
        size_t cap = box->cap ? box->cap * 2 : 8;
        mf_problem *grown = mf_arena_alloc(&box->arena, cap * sizeof *grown);
        if (!grown) { box->failed = true; return; }
        if (r->count) memcpy(grown, r->problems, r->count * sizeof *grown);
        r->problems = grown;
        box->cap = cap;
    }
    /* The sentence: fmt with one %s replaced by arg (a role, a type or an id). */
    mf_buf b;
    mf_buf_init(&b);
    for (const char *f = fmt; *f; f++) {
        if (f[0] == '%' && f[1] == 's') { mf_buf_put_utf8(&b, arg, arg_len > 80 ? 80 : arg_len); f++; }
        else mf_buf_putc(&b, *f);
    }
    char *text = b.failed ? NULL : mf_arena_strdup(&box->arena, b.data ? b.data : "", b.len);
    mf_buf_free(&b);
    if (!text) { box->failed = true; return; }
    r->problems[r->count++] = (mf_problem){code, message, part, text, MF_SEVERITY_ERROR};
}

/* A problem midfold reports without calling the conversation broken. */
static void warn(report_box *box, mf_problem_code code, size_t message, size_t part, const char *fmt,
                 const char *arg, size_t arg_len)
{
    size_t before = box->report.count;
    add(box, code, message, part, fmt, arg, arg_len);
    if (box->report.count > before) box->report.problems[before].severity = MF_SEVERITY_WARNING;
}

/* add() for the format files that check their own rules (mf_report_fn). */
static void report_sink(void *ctx, mf_problem_code code, size_t message, size_t part, const char *fmt,
                        const char *arg, size_t arg_len)
{
    add(ctx, code, message, part, fmt, arg, arg_len);
}

static bool known_other_block(mf_format format, const mf_node *type)
{
    static const char *const anthropic[] = {
        "server_tool_use", "web_search_tool_result", "web_fetch_tool_result", "code_execution_tool_result",
        "bash_code_execution_tool_result", "text_editor_code_execution_tool_result", "mcp_tool_use",
        "mcp_tool_result", "search_result", "container_upload", "tool_reference", "tool_search_tool_result",
        "advisor_tool_result", "compaction", "mcp_tool_listing", "fallback", "tool_addition", "tool_removal", NULL};
    static const char *const openai[] = {"input_audio", NULL};
    static const char *const aisdk[] = {"tool-approval-request", "tool-approval-response", NULL};
    static const char *const responses[] = {"item_reference", "compaction_trigger", "additional_tools",
                                            "configuration_update", NULL};
    /* LangChain: the v1 standard blocks midfold reads as they are, and the provider blocks its
     * integrations keep in content (@langchain/core messages/content, @langchain/anthropic). */
    static const char *const langchain[] = {"non_standard", "citation", "server_tool_call", "server_tool_call_result",
                                            "server_tool_call_chunk", "invalid_tool_call", "input_json_delta",
                                            "server_tool_use", "web_search_tool_result", "search_result", NULL};
    const char *const *list = format == MF_FORMAT_ANTHROPIC ? anthropic : format == MF_FORMAT_OPENAI ? openai
                            : format == MF_FORMAT_OPENAI_RESPONSES ? responses
                            : format == MF_FORMAT_LANGCHAIN ? langchain : aisdk;
    for (int i = 0; list[i]; i++) if (mf_str_eq(type, list[i])) return true;
    return false;
}

/* A UIMessage (validateUIMessages' rules): a string id, a parts list (not empty but for an
 * assistant's), each tool part with its toolCallId and a known state. */
static void check_ui_shape(report_box *box, const mf_view *v, size_t m)
{
    static const char *const states[] = {"input-streaming", "input-available", "approval-requested",
        "approval-responded", "output-available", "output-error", "output-denied", NULL};
    const mf_msg *msg = &v->msgs[m];
    const mf_node *parts = mf_get(msg->node, "parts");
    if (!mf_get_str(msg->node, "id")) add(box, MF_PROBLEM_BAD_CONTENT, m, SIZE_MAX, "a UIMessage needs a string \"id\"%s", "", 0);
    if (!parts || parts->kind != MF_ARRAY) {
        add(box, MF_PROBLEM_BAD_CONTENT, m, SIZE_MAX, "\"parts\" must be a list of parts%s", "", 0);
        return;
    }
    if (!parts->count && msg->role != MF_ROLE_ASSISTANT)
        add(box, MF_PROBLEM_BAD_CONTENT, m, SIZE_MAX, "a %s UIMessage needs at least one part", msg->role_node->str, msg->role_node->len);
    for (size_t p = 0; p < msg->count; p++) {
        const mf_part *part = &msg->parts[p];
        if (part->kind != MF_PART_TOOL_CALL) continue;
        if (!part->id) add(box, MF_PROBLEM_MISSING_ID, m, part->index, "a tool part without a toolCallId%s", "", 0);
        if (!part->name) add(box, MF_PROBLEM_BAD_CONTENT, m, part->index, "a dynamic-tool part without a toolName%s", "", 0);
        const mf_node *state = mf_get_str(part->node, "state");
        bool known = false;
        for (int i = 0; states[i] && !known; i++) known = mf_str_eq(state, states[i]);
        if (!known) add(box, MF_PROBLEM_BAD_CONTENT, m, part->index, "a tool part without a known \"state\"%s", "", 0);
        else if (mf_str_eq(state, "output-error") && !mf_get_str(part->node, "errorText"))
            add(box, MF_PROBLEM_BAD_CONTENT, m, part->index, "an output-error tool part without \"errorText\"%s", "", 0);
        else if (!strncmp(state->str, "approval-", 9) && !mf_get_str(mf_get(part->node, "approval"), "id"))
            add(box, MF_PROBLEM_BAD_CONTENT, m, part->index, "a %s tool part without \"approval.id\"", state->str, state->len);
    }
}

/* An AI SDK image or file part without its data, or a file without its media type, is
 * one the SDK rejects (and midfold could only guess its price). */
static void check_aisdk_media(report_box *box, size_t m, const mf_part *part)
{
    bool image = mf_str_eq(part->type, "image");
    const mf_node *data = mf_get(part->node, image ? "image" : "data");
    if (!data || data->kind == MF_NULL || data->kind == MF_NUMBER || data->kind == MF_TRUE || data->kind == MF_FALSE)
        add(box, MF_PROBLEM_BAD_CONTENT, m, part->index, "a %s part without its data", part->type->str, part->type->len);
    else if (!image && !mf_get_str(part->node, "mediaType") && !mf_get_str(part->node, "mimeType"))
        add(box, MF_PROBLEM_BAD_CONTENT, m, part->index, "a %s part without a string \"mediaType\"", part->type->str, part->type->len);
}

static void check_shape(report_box *box, const mf_view *v, size_t m)
{
    const mf_msg *msg = &v->msgs[m];
    if (msg->role == MF_ROLE_UNKNOWN) {
        add(box, MF_PROBLEM_UNKNOWN_ROLE, m, SIZE_MAX, "unknown role \"%s\"", msg->role_node->str, msg->role_node->len);
        return;
    }
    if (v->format == MF_FORMAT_AISDK_UI) {
        check_ui_shape(box, v, m);
        for (size_t p = 0; p < msg->count; p++)
            if (msg->parts[p].kind == MF_PART_OTHER)
                add(box, MF_PROBLEM_UNKNOWN_BLOCK, m, msg->parts[p].index, "unknown part type \"%s\"",
                    msg->parts[p].type ? msg->parts[p].type->str : "", msg->parts[p].type ? msg->parts[p].type->len : 0);
        return;
    }
    const mf_node *content = mf_get(msg->node, "content");
    bool null_ok = v->format == MF_FORMAT_OPENAI && msg->role == MF_ROLE_ASSISTANT;
    bool ok = content && (content->kind == MF_STRING || content->kind == MF_ARRAY ||
                          (content->kind == MF_NULL && null_ok));
    if (!content && null_ok && mf_get(msg->node, "tool_calls")) ok = true;
    if (v->format == MF_FORMAT_AISDK && msg->role == MF_ROLE_TOOL && content && content->kind != MF_ARRAY) ok = false;
    if (v->format == MF_FORMAT_OPENAI_RESPONSES && mf_responses_is_item(msg->node)) ok = true; /* no content */
    if (!ok) {
        add(box, MF_PROBLEM_BAD_CONTENT, m, SIZE_MAX, "content must be a string or a list of blocks%s", "", 0);
        return;
    }
    for (size_t p = 0; p < msg->count; p++) {
        const mf_part *part = &msg->parts[p];
        if (part->kind == MF_PART_OTHER) {
            if (part->node->kind != MF_OBJECT)
                add(box, MF_PROBLEM_BAD_CONTENT, m, part->index, "a content entry that is not an object%s", "", 0);
            else if (!part->type)
                add(box, MF_PROBLEM_UNKNOWN_BLOCK, m, part->index, "a block without a \"type\"%s", "", 0);
            else if (!known_other_block(v->format, part->type) &&
                     (v->format == MF_FORMAT_ANTHROPIC || v->format == MF_FORMAT_LANGCHAIN))
                /* Anthropic adds block types often, and a LangChain message carries whatever its
                 * provider gave: one midfold does not know yet is kept. */
                warn(box, MF_PROBLEM_UNKNOWN_BLOCK, m, part->index, "block type \"%s\" is not one midfold knows; it is "
                     "kept and priced by its text", part->type->str, part->type->len);
            else if (!known_other_block(v->format, part->type))
                add(box, MF_PROBLEM_UNKNOWN_BLOCK, m, part->index, "unknown block type \"%s\"", part->type->str,
                    part->type->len);
        }
        bool call = part->kind == MF_PART_TOOL_CALL, result = part->kind == MF_PART_TOOL_RESULT;
        if ((call || result) && !part->id && v->format != MF_FORMAT_OPENAI_RESPONSES && /* its own rules */
            !(v->format == MF_FORMAT_OPENAI && part->index == SIZE_MAX && part->name))
            add(box, MF_PROBLEM_MISSING_ID, m, part->index, call ? "a tool call without an id%s" : "a tool result without an id%s", "", 0);
        if (call && msg->role != MF_ROLE_ASSISTANT)
            add(box, MF_PROBLEM_BAD_CONTENT, m, part->index, "a tool call outside an assistant message%s", "", 0);
        if (result && part->same_message && msg->role != MF_ROLE_ASSISTANT)
            add(box, MF_PROBLEM_BAD_CONTENT, m, part->index, "a server-tool or MCP result outside an assistant message%s", "", 0);
        if (result && v->format == MF_FORMAT_ANTHROPIC && !part->same_message && msg->role != MF_ROLE_USER)
            add(box, MF_PROBLEM_BAD_CONTENT, m, part->index, "a tool_result outside a user message%s", "", 0);
        if (result && v->format == MF_FORMAT_ANTHROPIC && !part->same_message && p > 0 &&
            msg->parts[p - 1].kind != MF_PART_TOOL_RESULT)
            add(box, MF_PROBLEM_RESULT_NOT_FIRST, m, part->index,
                "tool_result blocks must come before any other block in their message%s", "", 0);
        /* modelMessageSchema (ai 6 and 7) and LanguageModelV3/V4: tool-result and
         * tool-approval-response parts only; calls and unknown types are reported above. */
        if (v->format == MF_FORMAT_AISDK && msg->role == MF_ROLE_TOOL && part->type && !call && !result && part->kind != MF_PART_OTHER &&
            !mf_str_eq(part->type, "tool-approval-response"))
            add(box, MF_PROBLEM_BAD_CONTENT, m, part->index,
                "a %s part in a tool message (it holds tool-result and tool-approval-response parts only)",
                part->type->str, part->type->len);
        if (v->format == MF_FORMAT_AISDK && (part->kind == MF_PART_IMAGE || part->kind == MF_PART_DOCUMENT))
            check_aisdk_media(box, m, part);
        if (part->kind == MF_PART_APPROVAL && part->unmatched && mf_str_eq(part->type, "tool-approval-request"))
            add(box, MF_PROBLEM_RESULT_WITHOUT_CALL, m, part->index,
                "tool-approval-request \"%s\" names no tool call before it", part->id ? part->id : "", part->id_len);
    }
}

/* True when some assistant message of a Chat Completions list carries reasoning_content: the
 * conversation was held in a thinking mode (DeepSeek's is on by default on V4). */
static bool has_reasoning(const mf_view *v)
{
    if (v->format != MF_FORMAT_OPENAI) return false;
    for (size_t m = 0; m < v->count; m++)
        if (v->msgs[m].role == MF_ROLE_ASSISTANT && mf_get_str(v->msgs[m].node, "reasoning_content")) return true;
    return false;
}

/* DeepSeek rejects (400, "The reasoning_content in the thinking mode must be passed back to the
 * API") a tool-calling assistant message sent back without its reasoning_content; other
 * OpenAI-compatible providers take it, so a warning: the host dropped what DeepSeek needs. */
static void check_reasoning(report_box *box, const mf_view *v, size_t m)
{
    const mf_msg *msg = &v->msgs[m];
    if (msg->role != MF_ROLE_ASSISTANT || mf_get_str(msg->node, "reasoning_content")) return;
    for (size_t p = 0; p < msg->count; p++)
        if (msg->parts[p].kind == MF_PART_TOOL_CALL) {
            warn(box, MF_PROBLEM_MISSING_REASONING, m, SIZE_MAX, "an assistant message with tool calls and no "
                 "reasoning_content, while others carry it: DeepSeek's thinking mode rejects it%s", "", 0);
            return;
        }
}

/* The messages that answer the calls of assistant message `a`: [*from, *to). Anthropic:
 * the next non-system message, when it is a user message. OpenAI and AI SDK: the run of
 * tool messages right after it. */
static void answer_window(const mf_view *v, size_t a, size_t *from, size_t *to)
{
    size_t i = a + 1;
    if (v->format == MF_FORMAT_ANTHROPIC) {
        while (i < v->count && v->msgs[i].role == MF_ROLE_SYSTEM) i++;
        *from = i;
        *to = i < v->count && v->msgs[i].role == MF_ROLE_USER ? i + 1 : i;
        return;
    }
    *from = i;
    while (i < v->count && v->msgs[i].role == MF_ROLE_TOOL) i++;
    *to = i;
}

/* Lookups that would make validation quadratic if done naively: every call of an
 * assistant message asks the same answer window, every result in a run of tool messages
 * asks the same assistant message. A run of 100,000 tool messages (or one message with
 * 100,000 parallel calls) must not mean 10^10 steps, so the answers are cached. */
#define SCAN_LIMIT 16 /* up to this many ids a range is scanned, beyond it hashed */

typedef struct id_range {
    size_t from, to;
    mf_part_kind kind;
    bool ready, mapped;
    size_t ids;       /* parts of `kind` with an id in [from, to) */
    mf_idmap map;
    mf_arena arena;   /* the map's memory; only the latest range's is kept */
} id_range;

/* The server tool calls a paused turn ends with (see paused_calls_of), for one message. */
typedef struct paused_calls {
    size_t of;        /* the message, or SIZE_MAX before the first */
    size_t start;     /* its parts from here on are those calls (the count: none) */
    mf_idmap ids;     /* their ids */
    mf_arena arena;   /* the map's memory; only the latest message's is kept */
} paused_calls;

typedef struct pair_cache {
    id_range window, own_results, asker_calls, own_calls, next_results, paused_results;
    size_t asker_of, asker; /* asking_message(asker_of) == asker, when asker_of != SIZE_MAX */
    paused_calls paused;
} pair_cache;

static void pair_cache_init(pair_cache *c)
{
    memset(c, 0, sizeof *c);
    id_range *all[] = {&c->window, &c->own_results, &c->asker_calls, &c->own_calls, &c->next_results, &c->paused_results};
    for (int i = 0; i < 6; i++) mf_arena_init(&all[i]->arena);
    mf_arena_init(&c->paused.arena);
    c->asker_of = SIZE_MAX;
    c->paused.of = SIZE_MAX;
}

static void pair_cache_free(pair_cache *c)
{
    id_range *all[] = {&c->window, &c->own_results, &c->asker_calls, &c->own_calls, &c->next_results, &c->paused_results};
    for (int i = 0; i < 6; i++) mf_arena_free(&all[i]->arena);
    mf_arena_free(&c->paused.arena);
}

static bool skipped_when_asking(const mf_view *v, size_t i)
{
    mf_role r = v->msgs[i].role;
    return v->format == MF_FORMAT_ANTHROPIC ? r == MF_ROLE_SYSTEM : r == MF_ROLE_TOOL;
}

/* The assistant message whose calls message `m`'s results answer, or SIZE_MAX. */
static size_t asking_message(pair_cache *c, const mf_view *v, size_t m)
{
    if (c->asker_of != SIZE_MAX && c->asker_of + 1 == m && skipped_when_asking(v, m - 1)) {
        c->asker_of = m; /* the same as for the message before */
        return c->asker;
    }
    size_t i = m, found = SIZE_MAX;
    while (i-- > 0) {
        if (skipped_when_asking(v, i)) continue;
        found = v->msgs[i].role == MF_ROLE_ASSISTANT ? i : SIZE_MAX;
        break;
    }
    c->asker_of = m;
    c->asker = found;
    return found;
}

/* Whether messages [from, to) hold a part of `kind` with the id of `like`. */
static bool has_part(id_range *r, bool *failed, const mf_view *v, size_t from, size_t to, mf_part_kind kind,
                     const mf_part *like)
{
    if (!r->ready || r->from != from || r->to != to || r->kind != kind) {
        mf_arena_free(&r->arena);
        *r = (id_range){.from = from, .to = to, .kind = kind, .ready = true};
        for (size_t m = from; m < to; m++)
            for (size_t p = 0; p < v->msgs[m].count; p++)
                r->ids += v->msgs[m].parts[p].kind == kind && v->msgs[m].parts[p].id;
        if (r->ids > SCAN_LIMIT) {
            if (!mf_idmap_init(&r->map, &r->arena, r->ids)) {
                r->ready = false;
                *failed = true;
                return false;
            }
            for (size_t m = from; m < to; m++)
                for (size_t p = 0; p < v->msgs[m].count; p++) {
                    const mf_part *q = &v->msgs[m].parts[p];
                    if (q->kind != kind || !q->id) continue;
                    mf_idslot *s = mf_idmap_slot(&r->map, q->id, q->id_len);
                    s->id = q->id;
                    s->len = q->id_len;
                }
            r->mapped = true;
        }
    }
    if (r->mapped) return mf_idmap_slot(&r->map, like->id, like->id_len)->id != NULL;
    for (size_t m = from; m < to; m++)
        for (size_t p = 0; p < v->msgs[m].count; p++) {
            const mf_part *q = &v->msgs[m].parts[p];
            if (q->kind == kind && q->id && q->id_len == like->id_len && memcmp(q->id, like->id, like->id_len) == 0)
                return true;
        }
    return false;
}

/* An Anthropic server tool call whose result is not in its own message, at the end of it: the
 * calls a turn paused with stop_reason "pause_turn" had not run yet. The client sends the
 * paused message back as it is and appends the response, the next assistant message, which
 * continues the turn with their results; the API combines consecutive assistant messages into
 * one turn, where each call has its result (docs/anthropic-blocks.md). */
static bool is_unanswered_server_call(pair_cache *c, bool *failed, const mf_view *v, size_t m, const mf_part *q)
{
    return q->kind == MF_PART_TOOL_CALL && q->same_message && q->id && mf_str_eq(q->type, "server_tool_use") &&
           !has_part(&c->paused_results, failed, v, m, m + 1, MF_PART_TOOL_RESULT, q);
}

/* The run of such calls message m ends with (c->paused), computed once per message. */
static paused_calls *paused_calls_of(pair_cache *c, bool *failed, const mf_view *v, size_t m)
{
    paused_calls *pc = &c->paused;
    if (pc->of == m) return pc;
    mf_arena_free(&pc->arena);
    mf_arena_init(&pc->arena);
    memset(&pc->ids, 0, sizeof pc->ids);
    pc->of = m;
    const mf_msg *msg = &v->msgs[m];
    size_t start = msg->count;
    while (start > 0 && is_unanswered_server_call(c, failed, v, m, &msg->parts[start - 1])) start--;
    pc->start = start;
    if (start == msg->count) return pc;
    if (!mf_idmap_init(&pc->ids, &pc->arena, msg->count - start)) {
        *failed = true;
        pc->start = msg->count;
        return pc;
    }
    for (size_t p = start; p < msg->count; p++) {
        mf_idslot *s = mf_idmap_slot(&pc->ids, msg->parts[p].id, msg->parts[p].id_len);
        s->id = msg->parts[p].id;
        s->len = msg->parts[p].id_len;
    }
    return pc;
}

/* Whether server call p of assistant message m, not answered there, is answered by the
 * continuation of its paused turn: it is among the calls m ends with, and the very next
 * message is an assistant message that holds its result. */
static bool answered_by_continuation(pair_cache *c, bool *failed, const mf_view *v, size_t m, size_t p)
{
    const mf_part *part = &v->msgs[m].parts[p];
    if (v->format != MF_FORMAT_ANTHROPIC || !mf_str_eq(part->type, "server_tool_use") || m + 1 >= v->count ||
        v->msgs[m + 1].role != MF_ROLE_ASSISTANT)
        return false;
    return p >= paused_calls_of(c, failed, v, m)->start &&
           has_part(&c->next_results, failed, v, m + 1, m + 2, MF_PART_TOOL_RESULT, part);
}

/* Whether server result `part` of assistant message m, whose call is not in m, answers one of
 * the calls the assistant message right before it was paused on. */
static bool continues_paused_turn(pair_cache *c, bool *failed, const mf_view *v, size_t m, const mf_part *part)
{
    if (v->format != MF_FORMAT_ANTHROPIC || m == 0 || v->msgs[m].role != MF_ROLE_ASSISTANT ||
        v->msgs[m - 1].role != MF_ROLE_ASSISTANT)
        return false;
    paused_calls *pc = paused_calls_of(c, failed, v, m - 1);
    return pc->start < v->msgs[m - 1].count && mf_idmap_slot(&pc->ids, part->id, part->id_len)->id != NULL;
}

/* A UIMessage tool part is its own call and result, but convertToModelMessages makes each a
 * call the provider pairs by id, and Anthropic rejects a request whose tool_use ids repeat
 * ("`tool_use` ids must be unique", docs/provider-rules.md): one toolCallId, one part. */
static void check_ui_ids(report_box *box, const mf_view *v, size_t m, mf_idmap *seen)
{
    const mf_msg *msg = &v->msgs[m];
    for (size_t p = 0; p < msg->count; p++) {
        const mf_part *part = &msg->parts[p];
        if (part->kind != MF_PART_TOOL_CALL || !part->id) continue;
        mf_idslot *s = mf_idmap_slot(seen, part->id, part->id_len);
        if (s->id) add(box, MF_PROBLEM_DUPLICATE_ID, m, part->index, "tool call id \"%s\" is used twice", part->id, part->id_len);
        s->id = part->id;
        s->len = part->id_len;
    }
}

/* Pairing rules for message m; `seen` collects call ids across messages for duplicates. */
static void check_pairs(report_box *box, const mf_view *v, size_t m, mf_idmap *seen, pair_cache *c)
{
    {
        const mf_msg *msg = &v->msgs[m];
        size_t from = 0, to = 0, asker = SIZE_MAX;
        bool window_ready = false, asker_ready = false;
        for (size_t p = 0; p < msg->count; p++) {
            const mf_part *part = &msg->parts[p];
            if (!part->id) continue;
            if (part->kind == MF_PART_TOOL_CALL && msg->role == MF_ROLE_ASSISTANT) {
                mf_idslot *s = mf_idmap_slot(seen, part->id, part->id_len);
                if (s->id) add(box, MF_PROBLEM_DUPLICATE_ID, m, part->index, "tool call id \"%s\" is used twice", part->id, part->id_len);
                s->id = part->id;
                s->len = part->id_len;
                if (part->same_message) { /* server tools, MCP: the result is in this message */
                    if (has_part(&c->own_results, &box->failed, v, m, m + 1, MF_PART_TOOL_RESULT, part)) continue;
                    if (answered_by_continuation(c, &box->failed, v, m, p)) continue; /* ...or the paused turn's next */
                    if (m + 1 == v->count) /* a paused turn the provider continues from */
                        warn(box, MF_PROBLEM_CALL_WITHOUT_RESULT, m, part->index,
                             "server tool call \"%s\" has no result yet (a paused turn)", part->id, part->id_len);
                    else
                        add(box, MF_PROBLEM_CALL_WITHOUT_RESULT, m, part->index,
                            "server tool call \"%s\" has no result in its own message", part->id, part->id_len);
                    continue;
                }
                if (!window_ready) { answer_window(v, m, &from, &to); window_ready = true; }
                /* AI SDK lets a provider-executed tool's result sit in the same message. */
                bool answered = has_part(&c->window, &box->failed, v, from, to, MF_PART_TOOL_RESULT, part) ||
                                (v->format == MF_FORMAT_AISDK &&
                                 has_part(&c->own_results, &box->failed, v, m, m + 1, MF_PART_TOOL_RESULT, part));
                if (!answered && !part->pending) /* a pending call awaits its approval or run */
                    add(box, MF_PROBLEM_CALL_WITHOUT_RESULT, m, part->index,
                        "tool call \"%s\" has no result right after it", part->id, part->id_len);
            } else if (part->kind == MF_PART_TOOL_RESULT) {
                if (part->same_message) {
                    if (!has_part(&c->own_calls, &box->failed, v, m, m + 1, MF_PART_TOOL_CALL, part) &&
                        !continues_paused_turn(c, &box->failed, v, m, part))
                        add(box, MF_PROBLEM_RESULT_WITHOUT_CALL, m, part->index,
                            "server tool result \"%s\" answers no call in its own message", part->id, part->id_len);
                    continue;
                }
                if (v->format == MF_FORMAT_AISDK && msg->role == MF_ROLE_ASSISTANT &&
                    has_part(&c->own_calls, &box->failed, v, m, m + 1, MF_PART_TOOL_CALL, part))
                    continue;
                if (!asker_ready) { asker = asking_message(c, v, m); asker_ready = true; }
                if (asker == SIZE_MAX || !has_part(&c->asker_calls, &box->failed, v, asker, asker + 1, MF_PART_TOOL_CALL, part))
                    add(box, MF_PROBLEM_RESULT_WITHOUT_CALL, m, part->index,
                        "tool result \"%s\" answers no call in the assistant message before it", part->id, part->id_len);
            }
        }
    }
}

/* Configuration updates one after the other: the Responses API rejects them with a 400 and
 * @ai-sdk/openai throws before sending ("Configuration updates cannot be consecutive"); one
 * update can carry both settings. docs/openai-responses.md. */
static bool is_configuration_update(const mf_view *v, size_t m)
{
    const mf_node *n = v->msgs[m].node;
    return v->format == MF_FORMAT_OPENAI_RESPONSES ? mf_responses_is_configuration_update(n)
         : v->format == MF_FORMAT_AISDK && mf_aisdk_is_configuration_update(n);
}

static void check_configuration_update(report_box *box, const mf_view *v, size_t m)
{
    if (m > 0 && is_configuration_update(v, m) && is_configuration_update(v, m - 1))
        add(box, MF_PROBLEM_BAD_CONTENT, m, SIZE_MAX,
            "a configuration update right after another (the provider rejects consecutive ones; one can carry both "
            "settings)%s", "", 0);
}

/* Two user or two assistant messages in a row. No provider midfold writes for refuses them as such,
 * so a warning: Anthropic's Messages API combines consecutive turns into one (the SDK's `messages`
 * doc; "Compaction and preserved thinking" relies on it), and the combined turn must then keep the
 * rules of one message (thinking first, tool results first); in Chat Completions OpenAI takes them,
 * while deepseek-reasoner answers a 400 ("does not support successive user or assistant messages")
 * and so do chat templates that require alternating roles. A system or tool message between breaks
 * the run. Responses items and AI SDK messages are left alone: items of one role are one turn there,
 * and the AI SDK's providers group consecutive messages themselves. docs/provider-rules.md. */
static void check_consecutive_role(report_box *box, const mf_view *v, size_t m, pair_cache *c)
{
    if (m == 0 || (v->format != MF_FORMAT_ANTHROPIC && v->format != MF_FORMAT_OPENAI)) return;
    mf_role role = v->msgs[m].role;
    if ((role != MF_ROLE_USER && role != MF_ROLE_ASSISTANT) || v->msgs[m - 1].role != role) return;
    /* The response that continues a paused turn is appended as the next assistant message: that
     * is how the API continues it (continues_paused_turn), not a slip to warn of. */
    for (size_t p = 0; p < v->msgs[m].count; p++) {
        const mf_part *part = &v->msgs[m].parts[p];
        if (part->kind == MF_PART_TOOL_RESULT && part->id && continues_paused_turn(c, &box->failed, v, m, part)) return;
    }
    const char *name = role == MF_ROLE_USER ? "user" : "assistant";
    if (v->format == MF_FORMAT_ANTHROPIC)
        warn(box, MF_PROBLEM_CONSECUTIVE_ROLE, m, SIZE_MAX, "a second %s message in a row: Anthropic combines the two into "
             "one turn, which must then keep one message's rules (thinking first, tool results first)", name, strlen(name));
    else
        warn(box, MF_PROBLEM_CONSECUTIVE_ROLE, m, SIZE_MAX, "a second %s message in a row: OpenAI takes it, deepseek-reasoner "
             "and templates that require alternating roles refuse it", name, strlen(name));
}

void mf_validation_free(mf_validation *report)
{
    if (!report) return;
    report_box *box = (report_box *)report;
    mf_arena_free(&box->arena);
    mf_dealloc(box);
}

mf_status mf_doc_validate(const mf_doc *doc, mf_format format, mf_validation **out, mf_error *err)
{
    if (!doc || !out) return mf_fail(err, MF_ERR_INVALID_ARG, SIZE_MAX, "NULL argument");
    *out = NULL;
    report_box *box = mf_alloc(sizeof *box);
    if (!box) return mf_fail(err, MF_ERR_NOMEM, SIZE_MAX, "out of memory");
    memset(box, 0, sizeof *box);
    mf_arena_init(&box->arena);
    box->report.format = format;
    mf_status st = MF_OK;
    size_t bad;
    if (!mf_doc_is_conversation(doc, &bad)) {
        if (!doc->messages) {
            add(box, MF_PROBLEM_NOT_A_MESSAGE, 0, SIZE_MAX, "expected a list of messages%s", "", 0);
        } else {
            for (size_t i = 0; i < doc->messages->count; i++)
                if (!mf_get_str(&doc->messages->items[i], "role") && !mf_responses_is_item(&doc->messages->items[i]) &&
                    !mf_langchain_type(&doc->messages->items[i]))
                    add(box, MF_PROBLEM_NOT_A_MESSAGE, i, SIZE_MAX, "not an object with a string \"role\"%s", "", 0);
        }
        if (box->report.format == MF_FORMAT_AUTO) box->report.format = MF_FORMAT_UNKNOWN;
    } else {
        mf_view view;
        st = mf_view_build(doc, format, &view, err);
        if (st == MF_OK) {
            box->report.format = view.format;
            size_t calls = 0;
            for (size_t m = 0; m < view.count; m++) calls += view.msgs[m].count;
            mf_idmap seen;
            if (!mf_idmap_init(&seen, &box->arena, calls)) box->failed = true;
            pair_cache cache;
            pair_cache_init(&cache);
            /* Message by message, so problems come out in message order. */
            bool items = view.format == MF_FORMAT_OPENAI_RESPONSES; /* pairs by call_id, not adjacency */
            bool reasoning = has_reasoning(&view);
            mf_responses_pairs pairs;
            if (items && !mf_responses_pairs_init(&pairs, &view, &box->arena)) box->failed = true;
            for (size_t m = 0; m < view.count && !box->failed; m++) {
                check_shape(box, &view, m);
                check_configuration_update(box, &view, m);
                check_consecutive_role(box, &view, m, &cache);
                if (reasoning) check_reasoning(box, &view, m);
                if (items) mf_responses_check_item(&pairs, &view, m, report_sink, box);
                /* A UIMessage tool part is its own call and result: no pairs across messages. */
                else if (view.format == MF_FORMAT_AISDK_UI) check_ui_ids(box, &view, m, &seen);
                else check_pairs(box, &view, m, &seen, &cache);
            }
            pair_cache_free(&cache);
            mf_view_free(&view);
        } else if (st == MF_ERR_FORMAT) {
            /* Mixed formats are a finding, not a failure. */
            st = MF_OK;
            box->report.format = MF_FORMAT_UNKNOWN;
            add(box, MF_PROBLEM_BAD_CONTENT, 0, SIZE_MAX,
                "the messages mix Anthropic, OpenAI and AI SDK features%s", "", 0);
        }
    }
    if (!st && box->failed) st = mf_fail(err, MF_ERR_NOMEM, SIZE_MAX, "out of memory while validating");
    if (st) { mf_validation_free(&box->report); return st; }
    *out = &box->report;
    return MF_OK;
}
