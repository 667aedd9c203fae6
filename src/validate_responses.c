/* validate_responses.c — the pairing rules of OpenAI Responses input items, which are
 * flat: a call's output is a later item of its own, found by call_id, not the message
 * right after (parallel calls come first, their outputs after). The API answers a
 * broken pair with 400 "No tool output found for function call ..." or "No tool call
 * found for function call output with call_id ...", and a reasoning item whose next item
 * is missing with "Item 'rs_...' of type 'reasoning' was provided without its required
 * following item" (docs/openai-responses.md). */
#include "validate.h"

#include <string.h>

/* Each client-side call type and the only output type that answers it. `required`: an
 * unanswered call is rejected (an approval request may wait for its decision; a tool
 * search or a program may run on the server). */
typedef struct pair_rule { const char *call, *output, *sdk_output; bool required; } pair_rule;

/* sdk_output: the OpenAI Agents SDK's own name for the output item, where it has one. */
static const pair_rule RULES[] = {
    {"function_call", "function_call_output", "function_call_result", true},
    {"custom_tool_call", "custom_tool_call_output", NULL, true},
    {"computer_call", "computer_call_output", "computer_call_result", true},
    {"local_shell_call", "local_shell_call_output", NULL, true},
    {"shell_call", "shell_call_output", NULL, true},
    {"apply_patch_call", "apply_patch_call_output", NULL, true},
    {"tool_search_call", "tool_search_output", NULL, false},
    {"program", "program_output", NULL, false},
    {"mcp_approval_request", "mcp_approval_response", NULL, false},
    {NULL, NULL, NULL, false}};

/* The rule an item takes part in, and whether it is the call (else the output). */
static const pair_rule *rule_of(const mf_node *item, bool *is_call)
{
    const mf_node *type = mf_get_str(item, "type");
    if (!type) return NULL;
    for (const pair_rule *r = RULES; r->call; r++) {
        if (mf_str_eq(type, r->call)) { *is_call = true; return r; }
        if (mf_str_eq(type, r->output) || (r->sdk_output && mf_str_eq(type, r->sdk_output))) { *is_call = false; return r; }
    }
    return NULL;
}

/* The part of message m that carries its pairing id (the call or the output). */
static const mf_part *paired_part(const mf_msg *msg, bool is_call)
{
    for (size_t p = 0; p < msg->count; p++)
        if (msg->parts[p].kind == (is_call ? MF_PART_TOOL_CALL : MF_PART_TOOL_RESULT)) return &msg->parts[p];
    return NULL;
}

static void check_reasoning(const mf_view *v, size_t m, mf_report_fn report, void *ctx)
{
    const mf_node *id = mf_get_str(v->msgs[m].node, "id");
    size_t next = m + 1;
    /* It precedes what the model produced with it: a call, a message of its own, or
     * more reasoning; never a user turn, an output, or nothing. */
    bool followed = next < v->count && v->msgs[next].role == MF_ROLE_ASSISTANT;
    if (!followed)
        report(ctx, MF_PROBLEM_BAD_CONTENT, m, SIZE_MAX,
               "reasoning item \"%s\" is not followed by the item it produced", id ? id->str : "",
               id ? id->len : 0);
}

bool mf_responses_pairs_init(mf_responses_pairs *pairs, const mf_view *v, mf_arena *arena)
{
    size_t n = 1;
    for (size_t m = 0; m < v->count; m++) n += v->msgs[m].count;
    if (!mf_idmap_init(&pairs->calls, arena, n) || !mf_idmap_init(&pairs->outputs, arena, n) ||
        !mf_idmap_init(&pairs->seen, arena, n) || !mf_idmap_init(&pairs->answered, arena, n))
        return false;
    /* Each id's first call and last output, with the rule it belongs to. */
    for (size_t m = 0; m < v->count; m++) {
        bool is_call;
        const pair_rule *r = rule_of(v->msgs[m].node, &is_call);
        const mf_part *part = r ? paired_part(&v->msgs[m], is_call) : NULL;
        if (!part || !part->id) continue;
        mf_idslot *s = mf_idmap_slot(is_call ? &pairs->calls : &pairs->outputs, part->id, part->id_len);
        if (is_call && s->id) continue;
        s->id = part->id;
        s->len = part->id_len;
        s->value = r;
        s->message = m;
    }
    return true;
}

void mf_responses_check_item(mf_responses_pairs *pairs, const mf_view *v, size_t m, mf_report_fn report, void *ctx)
{
    const mf_msg *msg = &v->msgs[m];
    if (mf_str_eq(mf_get_str(msg->node, "type"), "reasoning")) check_reasoning(v, m, report, ctx);
    bool is_call;
    const pair_rule *r = rule_of(msg->node, &is_call);
    const mf_part *part = r ? paired_part(msg, is_call) : NULL;
    if (!part) return;
    const char *type = is_call ? r->call : r->output;
    if (!part->id) {
        report(ctx, MF_PROBLEM_MISSING_ID, m, SIZE_MAX,
               is_call ? "a %s item without a call_id" : "a %s item without the id of its call", type, strlen(type));
        return;
    }
    if (is_call) {
        mf_idslot *d = mf_idmap_slot(&pairs->seen, part->id, part->id_len);
        if (d->id) report(ctx, MF_PROBLEM_DUPLICATE_ID, m, SIZE_MAX, "call id \"%s\" is used twice", part->id, part->id_len);
        d->id = part->id;
        d->len = part->id_len;
        const mf_idslot *o = mf_idmap_slot(&pairs->outputs, part->id, part->id_len);
        bool answered = o->id && o->value == r && o->message > m;
        if (!answered && r->required && !part->pending) /* an async call may wait for its output */
            report(ctx, MF_PROBLEM_CALL_WITHOUT_RESULT, m, SIZE_MAX, "call \"%s\" has no output item after it",
                   part->id, part->id_len);
    } else {
        const mf_idslot *c = mf_idmap_slot(&pairs->calls, part->id, part->id_len);
        if (!(c->id && c->value == r && c->message < m)) {
            report(ctx, MF_PROBLEM_RESULT_WITHOUT_CALL, m, SIZE_MAX, "output \"%s\" answers no call before it",
                   part->id, part->id_len);
            return;
        }
        /* One output per call: the API refuses a second one for the same call_id. */
        mf_idslot *a = mf_idmap_slot(&pairs->answered, part->id, part->id_len);
        if (a->id) report(ctx, MF_PROBLEM_DUPLICATE_ID, m, SIZE_MAX, "call \"%s\" is answered twice", part->id, part->id_len);
        a->id = part->id;
        a->len = part->id_len;
    }
}
