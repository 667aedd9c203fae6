/* responses_join.c — where a compaction cut may not fall in an OpenAI Responses item
 * list: inside a call pair (outputs are later items of their own, found by call_id, after
 * every parallel call of the response) and inside the items one reasoning item produced;
 * and which async calls still wait for their output. Sets msg->joined and part->pending;
 * compact.c reads them, format-blind. docs/openai-responses.md. */
#include "view.h"

mf_status mf_responses_join(mf_view *view)
{
    size_t n = view->count;
    if (!n) return MF_OK;
    /* reach[i]: the last item that belongs with item i (its output, or the approval that
     * answers it); every item in (i, reach[i]] is joined to the one before. */
    size_t *reach = mf_arena_alloc(&view->arena, n * sizeof *reach);
    if (!reach) return MF_ERR_NOMEM;
    size_t calls = 0;
    for (size_t m = 0; m < n; m++) {
        reach[m] = m;
        for (size_t p = 0; p < view->msgs[m].count; p++) calls += view->msgs[m].parts[p].kind == MF_PART_TOOL_CALL;
    }
    mf_idmap map;
    if (calls && !mf_idmap_init(&map, &view->arena, calls)) return MF_ERR_NOMEM;
    for (size_t m = 0; m < n && calls; m++) {
        for (size_t p = 0; p < view->msgs[m].count; p++) {
            const mf_part *part = &view->msgs[m].parts[p];
            if (!part->id) continue;
            mf_idslot *s = mf_idmap_slot(&map, part->id, part->id_len);
            if (part->kind == MF_PART_TOOL_CALL) {
                s->id = part->id;
                s->len = part->id_len;
                s->message = m;
            } else if (part->kind == MF_PART_TOOL_RESULT && s->id && s->message < m) {
                reach[s->message] = m;
            }
        }
    }
    /* An async call (`async: true`, GPT-6's async tool calling) lets the model go on before
     * its output exists; the output comes in a later request, matched by call_id. Until it
     * does, the call is pending: never folded (the output would then answer no call, which
     * the API rejects), and no problem for validate. */
    for (size_t m = 0; m < n && calls; m++) {
        if (reach[m] != m || !mf_is(mf_get(view->msgs[m].node, "async"), MF_TRUE)) continue;
        for (size_t p = 0; p < view->msgs[m].count; p++)
            if (view->msgs[m].parts[p].kind == MF_PART_TOOL_CALL) view->msgs[m].parts[p].pending = true;
    }
    /* A reasoning item binds what the model produced with it: the items after it up to the
     * next item that is not the assistant's (the API rejects "msg_..." or "fc_..." sent
     * without "its required reasoning item", and a reasoning item without its following
     * item). */
    size_t open = 0;      /* the furthest reach of the items before m */
    bool reasoned = false; /* the current run of assistant items holds a reasoning item */
    for (size_t m = 0; m < n; m++) {
        mf_msg *msg = &view->msgs[m];
        bool assistant = msg->role == MF_ROLE_ASSISTANT;
        bool after_reasoning = m > 0 && mf_str_eq(mf_get_str(view->msgs[m - 1].node, "type"), "reasoning");
        if (!assistant) reasoned = false;
        msg->joined = (m > 0 && open >= m) || after_reasoning ||
                      (assistant && reasoned && view->msgs[m - 1].role == MF_ROLE_ASSISTANT);
        if (mf_str_eq(mf_get_str(msg->node, "type"), "reasoning")) reasoned = true;
        if (reach[m] > open) open = reach[m];
    }
    return MF_OK;
}
