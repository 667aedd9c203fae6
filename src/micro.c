/* micro.c — micro-compaction: old tool results become one line that keeps what
 * happened and how big it was, "[truncated: bash result, 1204 chars]".
 *
 * The most recent `keep_recent` tool-result turns stay whole. A turn is a message that
 * carries tool results; consecutive OpenAI `tool` messages (the answers to one set of
 * parallel calls) count as one turn, so the same conversation is cleared alike in all
 * five formats. Results of excluded tools, and results already cleared (content that
 * starts with "[truncated:"), are left alone, and so is a result no costlier than its
 * marker would be (clearing it would not free anything). A result without an edit target
 * (an Anthropic web search: its content has no valid shorter form) is left whole too. The
 * pending turn is never edited (pending_from). The document is never modified: the plan
 * lists the edits, which the caller applies to its own objects. */
#include "profiles.h"
#include "result.h"
#include "measure.h"
#include "micro_inputs.h"

#include <stdlib.h>
#include <string.h>

void mf_micro_options_init(mf_micro_options *options)
{
    memset(options, 0, sizeof *options);
    options->keep_recent = 3;
    options->profile = MF_PROFILE_BAREAGENT;
}

typedef struct plan_box {
    mf_micro_plan plan; /* first, so a plan pointer is the box pointer */
    mf_arena arena;
} plan_box;

void mf_micro_plan_free(mf_micro_plan *plan)
{
    if (!plan) return;
    plan_box *box = (plan_box *)plan;
    mf_arena_free(&box->arena);
    mf_dealloc(box);
}

static bool excluded(const mf_micro_options *o, const char *name, size_t len)
{
    for (size_t i = 0; i < o->exclude_count; i++) {
        const char *x = o->exclude_tools[i];
        if (x && strlen(x) == len && memcmp(x, name, len) == 0) return true;
    }
    return false;
}

/* The pending turn: what follows the last assistant message (the results the model has
 * not answered yet, whatever message shape carries them), and that message itself when it
 * ends the list (a paused turn whose provider-run results it continues from). Never
 * edited, whatever keep_recent says. */
static size_t pending_from(const mf_view *view)
{
    for (size_t m = view->count; m-- > 0;)
        if (view->msgs[m].role == MF_ROLE_ASSISTANT) return m + 1 == view->count ? m : m + 1;
    return 0;
}

/* The first message of the last `keep` tool-result turns (view->count when keep is 0). */
static size_t protected_from(const mf_view *view, uint32_t keep)
{
    size_t from = view->count;
    uint32_t turns = 0;
    for (size_t m = view->count; m-- > 0;) {
        if (!mf_msg_has_results(&view->msgs[m])) continue;
        bool same_turn = view->msgs[m].role == MF_ROLE_TOOL && m + 1 < view->count &&
                         view->msgs[m + 1].role == MF_ROLE_TOOL && from == m + 1;
        if (!same_turn) {
            if (turns == keep) break;
            turns++;
        }
        from = m;
    }
    return from;
}

static char *make_marker(mf_arena *arena, const char *name, size_t name_len, size_t chars, const mf_micro_edit *e,
                         size_t *len)
{
    mf_buf b;
    mf_buf_init(&b);
    mf_write_marker_recall(&b, name, name_len, chars, e->recall_id, e->recall_id_len);
    char *out = b.failed ? NULL : mf_arena_strdup(arena, b.data, b.len);
    *len = b.len;
    mf_buf_free(&b);
    return out;
}

/* A result the plan may clear, found by the estimating pass: what the marker decision needs. */
typedef struct candidate {
    const mf_part *part;
    const char *name; /* borrowed from the document until the edit copies it */
    size_t name_len;
    uint64_t old_cost;
} candidate;

/* What a marker names while the plan decides: an id of the real one's length and characters'
 * kind (letters and digits), so the decision prices what the id will cost without hashing a
 * result that may not be cleared; the edits kept get their real ids after (name_kept). */
static const char PLACEHOLDER_ID[MF_RECALL_ID_LEN] = { 'r', '0', '0', '0', '0', '0', '0', '0', '0' };

/* Fills in edit `e` for candidate `c` (its marker, in the plan's arena) and tells what
 * clearing it saves: 0 when the result is no costlier than its marker (keep it whole).
 * With a recall key the marker names e->recall_id when it is set, else the placeholder.
 * Returns false when out of memory. */
static bool price_marker(mf_arena *arena, const candidate *c, mf_micro_edit *e, const mf_micro_options *o,
                         uint64_t *saved)
{
    mf_profile profile = o->profile;
    e->tool_name = mf_arena_strdup(arena, c->name, c->name_len);
    e->tool_name_len = c->name_len;
    if (o->recall_key_len && !e->recall_id_len) memcpy(e->recall_id, PLACEHOLDER_ID, MF_RECALL_ID_LEN);
    mf_micro_edit named = *e;
    named.recall_id_len = o->recall_key_len ? MF_RECALL_ID_LEN : 0;
    e->replacement = make_marker(arena, c->name, c->name_len, e->chars, &named, &e->replacement_len);
    if (!e->tool_name || !e->replacement) return false;
    uint64_t new_cost = mf_estimate_text(e->replacement, e->replacement_len, profile);
    if (e->target >= MF_EDIT_RESULT_STDOUT) { /* the marker goes into one field: price what is left */
        const mf_node *left = mf_anthropic_cleared(arena, c->part->content, e->target, e->replacement, e->replacement_len);
        if (!left) return false;
        new_cost = mf_estimate_tool_result_content(left, profile);
    }
    *saved = new_cost < c->old_cost ? c->old_cost - new_cost : 0;
    return true;
}

/* With a recall key: each kept edit (`kept[i]` its candidate) gets its result's real id, its
 * marker is written again naming it, and milli_after is what the real markers leave (a fitted
 * profile may price letters and digits apart). False when out of memory. */
static bool name_kept(mf_arena *arena, mf_micro_plan *plan, const candidate *cands, const size_t *kept,
                      const mf_micro_options *o, uint64_t before)
{
    uint64_t saved = 0;
    for (size_t i = 0; i < plan->count; i++) {
        mf_micro_edit *e = &plan->edits[i];
        const candidate *c = &cands[kept[i]];
        if (!mf_result_recall_id(o->recall_key, o->recall_key_len, c->name, c->name_len, c->part->content, e->recall_id))
            return false;
        e->recall_id_len = MF_RECALL_ID_LEN;
        uint64_t frees;
        if (!price_marker(arena, c, e, o, &frees)) return false;
        saved += frees;
    }
    plan->milli_after = before - saved;
    return true;
}

static bool is_thinking(const mf_part *part)
{
    return part->kind == MF_PART_THINKING || part->kind == MF_PART_REDACTED_THINKING;
}

/* The thinking parts of the assistant messages from `from` on, each with its estimate: a
 * caller whose policy drops signed thinking after an edit (js/core/thinking.js) prices what
 * it leaves from these, so its report is the estimate of what is left. False on OOM. */
static bool list_thinking(const mf_view *view, size_t from, mf_profile profile, mf_micro_plan *plan, mf_arena *arena)
{
    size_t n = 0;
    for (size_t m = from; m < view->count; m++)
        for (size_t p = 0; view->msgs[m].role == MF_ROLE_ASSISTANT && p < view->msgs[m].count; p++)
            n += is_thinking(&view->msgs[m].parts[p]);
    if (!n) return true;
    plan->thinking = mf_arena_alloc(arena, n * sizeof *plan->thinking);
    if (!plan->thinking) return false;
    for (size_t m = from; m < view->count; m++)
        for (size_t p = 0; view->msgs[m].role == MF_ROLE_ASSISTANT && p < view->msgs[m].count; p++) {
            const mf_part *part = &view->msgs[m].parts[p];
            if (is_thinking(part))
                plan->thinking[plan->thinking_count++] = (mf_thinking_cost){ m, part->index, mf_estimate_part(part, profile) };
        }
    return true;
}

/* An edit and its place in the plan as first made: sorting by message and part keeps the
 * two edits of one UIMessage tool part (its output, its input) in that order (qsort is not
 * stable). */
typedef struct ordered_edit { mf_micro_edit edit; size_t seq; } ordered_edit;

static int by_place(const void *a, const void *b)
{
    const ordered_edit *x = a, *y = b;
    if (x->edit.message != y->edit.message) return x->edit.message < y->edit.message ? -1 : 1;
    if (x->edit.part != y->edit.part) return x->edit.part < y->edit.part ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* clear_tool_inputs: adds to the plan an edit of the call of each result it clears, and of
 * each result cleared before (a marker already), when the call's input has strings to clear
 * (micro_inputs.c), keeping the edits in message and part order; adds what they free to *saved.
 * `limit`: where the kept turns (or the pending turn) begin. False on OOM. */
static bool plan_inputs(const mf_view *view, size_t window, size_t limit, const mf_micro_options *o,
                        mf_micro_plan *plan, mf_arena *arena, uint64_t *saved)
{
    size_t calls = 0;
    for (size_t m = window; m < limit; m++)
        for (size_t p = 0; p < view->msgs[m].count; p++) calls += view->msgs[m].parts[p].kind == MF_PART_TOOL_CALL;
    if (!calls) return true;
    mf_idmap ids;
    if (!mf_idmap_init(&ids, arena, calls)) return false;
    ordered_edit *all = mf_alloc((plan->count + calls) * sizeof *all);
    if (!all) return false;
    size_t n = 0, k = 0;
    for (size_t i = 0; i < plan->count; i++, n++) all[n] = (ordered_edit){ plan->edits[i], n };
    bool ok = true;
    for (size_t m = window; ok && m < limit; m++) {
        for (size_t p = 0; ok && p < view->msgs[m].count; p++) {
            const mf_part *part = &view->msgs[m].parts[p];
            if (part->kind == MF_PART_TOOL_CALL && part->id) {
                mf_idslot *slot = mf_idmap_slot(&ids, part->id, part->id_len);
                slot->id = part->id; slot->len = part->id_len; slot->value = part; slot->message = m;
                continue;
            }
            if (part->kind != MF_PART_TOOL_RESULT || !part->id || part->pinned || part->pending) continue;
            while (k < plan->count && (plan->edits[k].message < m || (plan->edits[k].message == m && plan->edits[k].part < part->index))) k++;
            bool cleared_now = k < plan->count && plan->edits[k].message == m && plan->edits[k].part == part->index;
            if (!cleared_now && !mf_result_is_truncated(part->content)) continue;
            const char *name = part->name && part->name_len ? part->name : "unknown";
            size_t name_len = part->name && part->name_len ? part->name_len : strlen("unknown");
            if (excluded(o, name, name_len)) continue;
            mf_idslot *slot = mf_idmap_slot(&ids, part->id, part->id_len);
            if (!slot->id) continue; /* its call lies before the window, or nowhere */
            const mf_part *call = slot->value;
            slot->value = NULL; /* one edit per call, whatever answers it twice */
            if (!call) continue;
            mf_micro_edit e;
            uint64_t frees;
            bool found;
            ok = mf_plan_input_edit(arena, view, slot->message, call, o->profile, &e, &frees, &found);
            if (ok && found) {
                all[n] = (ordered_edit){ e, n };
                n++;
                *saved += frees;
            }
        }
    }
    if (ok && n > plan->count) {
        qsort(all, n, sizeof *all, by_place);
        mf_micro_edit *edits = mf_arena_alloc(arena, n * sizeof *edits);
        ok = edits != NULL;
        for (size_t i = 0; ok && i < n; i++) {
            edits[i] = all[i].edit;
            if (edits[i].target >= MF_EDIT_CALL_INPUT) plan->chars_cleared += edits[i].chars;
        }
        if (ok) { plan->edits = edits; plan->count = n; }
    }
    mf_dealloc(all);
    return ok;
}

/* The signed parts the edits make go (signed.c), from the first edit: its message, and in it
 * the first edited part (an edit of the message itself counts as before every part). */
static bool plan_drops(const mf_view *view, mf_micro_plan *plan, mf_profile profile, mf_arena *arena)
{
    size_t message = plan->edits[0].message, part = SIZE_MAX - 1;
    for (size_t k = 0; k < plan->count && plan->edits[k].message == message; k++) {
        size_t at = plan->edits[k].part == SIZE_MAX ? 0 : plan->edits[k].part;
        if (at < part) part = at;
    }
    if (mf_view_edit_drops(view, message, part, profile, arena, &plan->drops, &plan->drop_count)) return false;
    for (size_t d = 0; d < plan->drop_count; d++) plan->milli_drops += plan->drops[d].milli;
    return true;
}

mf_status mf_doc_micro_plan(const mf_doc *doc, mf_format format, const mf_micro_options *options,
                            mf_micro_plan **out, mf_error *err)
{
    if (!out) return mf_fail(err, MF_ERR_INVALID_ARG, SIZE_MAX, "NULL output pointer");
    *out = NULL;
    mf_micro_options defaults;
    if (!options) { mf_micro_options_init(&defaults); options = &defaults; }
    if ((unsigned)options->profile >= MF_PROFILE_COUNT)
        return mf_fail(err, MF_ERR_INVALID_ARG, SIZE_MAX, "unknown profile");
    if (options->exclude_count && !options->exclude_tools)
        return mf_fail(err, MF_ERR_INVALID_ARG, SIZE_MAX, "exclude_count without exclude_tools");
    if (options->recall_key_len && !options->recall_key)
        return mf_fail(err, MF_ERR_INVALID_ARG, SIZE_MAX, "recall_key_len without recall_key");
    mf_view view;
    mf_status st = mf_view_build(doc, format, &view, err);
    if (st) return st;

    plan_box *box = mf_alloc(sizeof *box);
    if (!box) { mf_view_free(&view); return mf_fail(err, MF_ERR_NOMEM, SIZE_MAX, "out of memory"); }
    memset(box, 0, sizeof *box);
    mf_arena_init(&box->arena);
    mf_micro_plan *plan = &box->plan;
    plan->format = view.format;

    size_t limit = protected_from(&view, options->keep_recent), pending = pending_from(&view);
    if (pending < limit) limit = pending;
    size_t candidates = 0;
    for (size_t m = 0; m < limit; m++)
        for (size_t p = 0; p < view.msgs[m].count; p++) candidates += view.msgs[m].parts[p].kind == MF_PART_TOOL_RESULT;
    plan->edits = candidates ? mf_arena_alloc(&box->arena, candidates * sizeof(mf_micro_edit)) : NULL;
    candidate *cands = candidates ? mf_arena_alloc(&box->arena, candidates * sizeof *cands) : NULL;
    size_t *kept = candidates ? mf_arena_alloc(&box->arena, candidates * sizeof *kept) : NULL;
    if (candidates && (!plan->edits || !cands || !kept)) goto nomem;

    /* One pass reads the history: the estimate of everything, each clearable result's size
     * and cost, and (when asked) each message's figures, so that a caller keeping them reads
     * the history once. The markers are priced after it, and only when the trigger lets the
     * plan clear: a check below it (the common call, before every model call) makes none. */
    mf_msg_figures *figures = NULL;
    if (options->per_message && view.count) {
        figures = mf_arena_alloc(&box->arena, view.count * sizeof *figures);
        if (!figures) goto nomem;
        plan->figures = figures;
        plan->figure_count = view.count;
    }
    const uint32_t message_milli = mf_profile_get(options->profile)->message_milli;
    uint64_t before = mf_estimate_request_extras(doc, options->profile), saved = 0;
    size_t found = 0;
    /* The provider ignores what comes before its last compaction: it is neither counted nor edited. */
    size_t window = mf_view_window_start(&view);
    for (size_t m = 0; figures && m < window; m++) mf_msg_figures_of(&view.msgs[m], options->profile, &figures[m]);
    for (size_t m = window; m < view.count; m++) {
        const mf_msg *msg = &view.msgs[m];
        uint64_t msg_milli = message_milli, msg_results = 0;
        for (size_t p = 0; p < msg->count; p++) {
            const mf_part *part = &msg->parts[p];
            if (part->kind != MF_PART_TOOL_RESULT) { msg_milli += mf_estimate_part(part, options->profile); continue; }
            size_t failures = mf_alloc_failures(), chars;
            uint64_t old_cost = mf_measure_result_part(part, options->profile, &chars);
            if (mf_alloc_failures() != failures) goto nomem; /* the count would be wrong */
            msg_milli += old_cost;
            if (mf_result_is_truncated(part->content)) continue;
            msg_results += old_cost;
            if (m >= limit || !part->target || part->pinned || part->pending) continue;
            const char *name = part->name && part->name_len ? part->name : "unknown";
            size_t name_len = part->name && part->name_len ? part->name_len : strlen("unknown");
            if (excluded(options, name, name_len)) continue;
            mf_micro_edit *e = &plan->edits[found];
            memset(e, 0, sizeof *e);
            e->message = m;
            e->part = part->index;
            e->target = part->target;
            e->chars = chars;
            cands[found++] = (candidate){ part, name, name_len, old_cost };
        }
        before += msg_milli;
        if (figures) {
            figures[m].milli = msg_milli;
            figures[m].results = msg_results;
            figures[m].flags = mf_msg_figures_flags(msg);
        }
    }
    plan->milli_before = before;
    uint64_t tokens_before = mf_ceil_tokens(before);
    bool below_trigger = options->trigger && tokens_before <= options->trigger;
    if (below_trigger) {
        /* Nothing is cleared; `skipped` says whether anything would have been (a result
         * costlier than its marker), which the first such result tells. */
        for (size_t k = 0; k < found && !plan->skipped; k++) {
            uint64_t frees;
            if (!price_marker(&box->arena, &cands[k], &plan->edits[k], options, &frees)) goto nomem;
            plan->skipped = frees > 0;
        }
        plan->milli_after = before;
    } else {
        for (size_t k = 0; k < found; k++) {
            mf_micro_edit *e = &plan->edits[plan->count];
            if (k != plan->count) *e = plan->edits[k];
            uint64_t frees;
            if (!price_marker(&box->arena, &cands[k], e, options, &frees)) goto nomem;
            if (frees == 0) continue; /* as short as its marker already: keep it */
            kept[plan->count] = k;
            plan->count++;
            plan->chars_cleared += e->chars;
            saved += frees;
        }
        if (options->clear_tool_inputs && !plan_inputs(&view, window, limit, options, plan, &box->arena, &saved)) goto nomem;
        uint64_t after = before - saved, tokens_after = mf_ceil_tokens(after);
        plan->milli_after = after;
        bool too_little = options->clear_at_least &&
                          (tokens_after >= tokens_before || tokens_before - tokens_after < options->clear_at_least);
        if (plan->count && too_little) {
            plan->count = 0;
            plan->chars_cleared = 0;
            plan->milli_after = before;
            plan->skipped = 1;
        }
    }
    if (plan->count && options->recall_key_len && !name_kept(&box->arena, plan, cands, kept, options, before)) goto nomem;
    if (plan->count && !list_thinking(&view, plan->edits[0].message, options->profile, plan, &box->arena)) goto nomem;
    bool open;
    plan->in_flight = mf_view_in_flight(&view, &open);
    plan->in_flight_open = open;
    if (plan->count && !plan_drops(&view, plan, options->profile, &box->arena)) goto nomem;
    mf_view_free(&view);
    *out = plan;
    return MF_OK;
nomem:
    mf_view_free(&view);
    mf_micro_plan_free(plan);
    return mf_fail(err, MF_ERR_NOMEM, SIZE_MAX, "out of memory while planning");
}
