/* compact.c — the compaction plan: where to cut the conversation and what to ask the
 * summarizer. Nothing is edited here; the wrapper rebuilds the caller's list from the
 * plan only after a summary arrives.
 *
 * The cut: the tail starts at the pending user turn (the last user-side message, with
 * the assistant message whose tool calls it answers) and grows backwards over whole
 * messages while it fits keep_tail_tokens, stopping only at messages that hold no tool
 * results (so no call is ever separated from its result); keep_tail_messages, when set,
 * is a second floor: the tail reaches back over at least that many messages, whatever
 * they cost. System messages before the
 * tail are the head; everything else before it is the middle. */
#include "prompt.h"
#include "result.h"
#include "measure.h"
#include "transcript.h"

#include <string.h>

void mf_compact_options_init(mf_compact_options *o)
{
    memset(o, 0, sizeof *o);
    o->keep_tail_tokens = 10000;
    o->max_transcript_tokens = 60000;
    o->max_summary_tokens = 2000;
    o->language = MF_LANG_AUTO;
    o->profile = MF_PROFILE_BAREAGENT;
}

typedef struct compact_box {
    mf_compact_plan plan; /* first, so a plan pointer is the box pointer */
    mf_arena arena;
} compact_box;

void mf_compact_plan_free(mf_compact_plan *plan)
{
    if (!plan) return;
    compact_box *box = (compact_box *)plan;
    mf_arena_free(&box->arena);
    mf_dealloc(box);
}

/* What a message costs in the plan's profile: its figure from micro-compaction's pass over the
 * same document when the options give them and no edit changed it, else estimated here (the
 * figures are that pass's mf_estimate_msg, so both answers are the same number). */
typedef struct pricing {
    mf_profile profile;
    const uint64_t *milli; /* per message, or NULL */
    const uint8_t *edited; /* per message (with milli): 1 when an edit changed it */
} pricing;

static uint64_t msg_cost(const pricing *pr, const mf_view *v, size_t m)
{
    if (pr->milli && !pr->edited[m]) return pr->milli[m];
    return mf_estimate_msg(&v->msgs[m], pr->profile);
}

static bool user_side(const mf_msg *msg) { return msg->role == MF_ROLE_USER || msg->role == MF_ROLE_TOOL; }

/* A cut may fall before message c only when c needs nothing before it (a UIMessage
 * answers its own calls). */
static bool valid_cut(const mf_msg *msg)
{
    return msg->role != MF_ROLE_TOOL && (msg->self_contained || !mf_msg_has_results(msg)) && !msg->joined;
}

/* An unfinished part (an approval awaiting its answer, a tool still running) is never
 * folded: the tail reaches back to the first message holding one, and on to a cut. */
static size_t keep_pending(const mf_view *v, size_t c, const pricing *pr, uint64_t *tail_milli)
{
    size_t first = c;
    for (size_t m = 0; m < c; m++)
        if (mf_msg_has_pending(&v->msgs[m])) { first = m; break; }
    if (first == c) return c;
    while (first > 0 && (v->msgs[first].role == MF_ROLE_SYSTEM || !valid_cut(&v->msgs[first]))) first--;
    for (size_t m = first; m < c; m++)
        if (v->msgs[m].role != MF_ROLE_SYSTEM) *tail_milli += msg_cost(pr, v, m);
    return first;
}

static size_t pending_turn_start(const mf_view *v)
{
    size_t anchor = v->count;
    while (anchor > 0 && !user_side(&v->msgs[anchor - 1])) anchor--;
    if (anchor == 0) return v->count; /* no user turn: the tail holds what follows none */
    size_t start = anchor - 1;
    while (start > 0 && v->msgs[start].role == MF_ROLE_TOOL && v->msgs[start - 1].role == MF_ROLE_TOOL) start--;
    if (mf_msg_has_results(&v->msgs[start]) || v->msgs[start].role == MF_ROLE_TOOL) {
        size_t p = start;
        while (p > 0 && v->msgs[p - 1].role == MF_ROLE_SYSTEM) p--;
        if (p > 0 && v->msgs[p - 1].role == MF_ROLE_ASSISTANT) start = p - 1;
    }
    while (start > 0 && v->msgs[start].joined) start--; /* a Responses turn: its calls and reasoning */
    return start;
}

static size_t grow_tail(const mf_view *v, size_t start, uint64_t budget, const pricing *pr, uint64_t *tail_milli)
{
    uint64_t used = 0;
    for (size_t m = start; m < v->count; m++)
        if (v->msgs[m].role != MF_ROLE_SYSTEM) used += msg_cost(pr, v, m);
    size_t c = start;
    /* Hosts send system messages apart from the rest, so a cut before system messages is
     * only as good as a cut before the next other message ([assistant call][system][user
     * result] must not be cut after the call). `after` is that message for c. */
    size_t after = c;
    while (after < v->count && v->msgs[after].role == MF_ROLE_SYSTEM) after++;
    while (c > 0) {
        size_t next = c, next_after = after;
        bool found = false;
        while (next > 0 && !found) {
            next--;
            if (v->msgs[next].role != MF_ROLE_SYSTEM) next_after = next;
            found = next_after == v->count || valid_cut(&v->msgs[next_after]);
        }
        if (!found) break; /* only an orphan result is left before */
        uint64_t cost = 0;
        for (size_t m = next; m < c; m++)
            if (v->msgs[m].role != MF_ROLE_SYSTEM) cost += msg_cost(pr, v, m);
        if (used + cost > budget) break;
        used += cost;
        c = next;
        after = next_after;
    }
    *tail_milli = used;
    return c;
}

/* The tail grown back from c until it holds at least `want` non-system messages, to the
 * nearest valid cut at or before that point (a count that lands among a call's results
 * keeps the call too); adds what it takes to *tail_milli. */
static size_t reach_messages(const mf_view *v, size_t c, uint64_t want, const pricing *pr, uint64_t *tail_milli)
{
    uint64_t have = 0;
    for (size_t m = c; m < v->count; m++)
        if (v->msgs[m].role != MF_ROLE_SYSTEM) have++;
    size_t t = c;
    while (t > 0 && have < want) {
        t--;
        if (v->msgs[t].role != MF_ROLE_SYSTEM) have++;
    }
    /* a cut before system messages is as good as one before the next other message */
    for (;;) {
        size_t after = t;
        while (after < v->count && v->msgs[after].role == MF_ROLE_SYSTEM) after++;
        if (t == 0 || after == v->count || valid_cut(&v->msgs[after])) break;
        t--;
    }
    if (t >= c) return c;
    for (size_t m = t; m < c; m++)
        if (v->msgs[m].role != MF_ROLE_SYSTEM) *tail_milli += msg_cost(pr, v, m);
    return t;
}

static bool is_summary_message(const mf_msg *msg)
{
    if (msg->role != MF_ROLE_USER || msg->count == 0 || msg->parts[0].kind != MF_PART_TEXT) return false;
    const mf_part *p = &msg->parts[0];
    return p->text_len >= sizeof MF_SUMMARY_MARK - 1 && memcmp(p->text, MF_SUMMARY_MARK, sizeof MF_SUMMARY_MARK - 1) == 0;
}

/* What a result's marker line costs in the transcript, in the plan's profile; false when
 * memory ran out on the way. */
static bool marker_cost(const mf_part *part, mf_profile profile, uint64_t *cost)
{
    size_t failures = mf_alloc_failures();
    mf_buf b;
    mf_buf_init(&b);
    mf_write_marker(&b, part->name_len ? part->name : "unknown", part->name_len ? part->name_len : 7,
                    mf_tool_result_chars(part->content));
    *cost = b.failed ? 0 : mf_estimate_text(b.data, b.len, profile);
    mf_buf_free(&b);
    return mf_alloc_failures() == failures;
}

/* Serializes the middle into b, shrinking the oldest tool results and then leaving out
 * the oldest messages until the transcript fits the cap. */
static bool write_transcript(mf_buf *b, const mf_view *v, mf_compact_plan *plan, mf_arena *arena,
                             const mf_compact_options *o)
{
    const size_t *list = plan->middle;
    size_t n = plan->middle_count;
    uint64_t cap = o->max_transcript_tokens * MF_MILLI;
    mf_serialize_list(b, v, list, n, NULL);
    if (b->failed) return false;
    if (!cap) return true;
    /* `total` is always the estimate of the transcript in b as it stands (each text estimated once). */
    uint64_t total = mf_estimate_text(b->data, b->len, o->profile);
    if (total <= cap) return true;

    uint8_t *shrink = mf_arena_calloc(arena, v->count, 1);
    if (!shrink) return false;
    /* Shrink the oldest results until the estimate says it fits, then measure the real
     * transcript: the estimate is close, not exact (a marker's cost depends on what is
     * around it), so shrinking resumes from where it stopped until it fits or no result
     * is left whole. Each round serializes once; rounds are few. */
    size_t next = 0;
    for (;;) {
        if (total <= cap || next >= n) break;
        uint64_t guess = total;
        for (; next < n && guess > cap; next++) {
            const mf_msg *msg = &v->msgs[list[next]];
            if (!mf_msg_has_results(msg)) continue;
            uint64_t saved = 0;
            bool any = false;
            for (size_t p = 0; p < msg->count; p++) {
                const mf_part *part = &msg->parts[p];
                if (part->kind != MF_PART_TOOL_RESULT || part->pinned || mf_result_is_truncated(part->content)) continue;
                uint64_t old_cost = mf_estimate_tool_result_content(part->content, o->profile);
                uint64_t marker;
                if (!marker_cost(part, o->profile, &marker)) return false;
                saved += old_cost > marker ? old_cost - marker : 0;
                plan->shrunk_results++;
                any = true;
            }
            if (any) shrink[list[next]] = 1;
            guess = saved < guess ? guess - saved : 0;
        }
        mf_buf_reset(b);
        mf_serialize_list(b, v, list, n, shrink);
        if (b->failed) return false;
        total = mf_estimate_text(b->data, b->len, o->profile);
    }
    if (total <= cap) return true;

    const uint64_t separator = mf_estimate_text("\n\n", 2, o->profile);
    /* Still too long: leave out the oldest messages, measured one by one — but keep the
     * first one when it is the user's own request (it usually states the goal). */
    const mf_msg *first = &v->msgs[list[0]];
    size_t pinned = n > 1 && first->role == MF_ROLE_USER && !mf_msg_has_results(first) ? 1 : 0;
    /* "[N earlier messages omitted]" and its separator, priced at its longest. */
    const char *longest_note = plan->language == MF_LANG_ZH ? "[省略了 99999999 条较早的消息]\n\n"
                                                              : "[99999999 earlier messages omitted]\n\n";
    const uint64_t note = mf_estimate_text(longest_note, strlen(longest_note), o->profile);
    /* The fewest oldest messages whose leaving out makes the rest fit (at most all but the
     * newest): what is kept only shrinks as more go, so the newest are measured back from the
     * end until the next would not fit, and the older ones, which go, are never measured. */
    mf_buf one;
    mf_buf_init(&one);
    bool ok = true;
    uint64_t kept = 0;
    if (pinned) {
        mf_serialize_list(&one, v, list, 1, shrink);
        ok = !one.failed;
        kept = ok ? mf_estimate_text(one.data, one.len, o->profile) + separator : 0;
    }
    size_t from = n; /* the suffix list[from..n) fits with the note */
    while (ok && from > pinned) {
        mf_buf_reset(&one);
        mf_serialize_list(&one, v, list + from - 1, 1, shrink);
        if (one.failed) { ok = false; break; }
        uint64_t c = mf_estimate_text(one.data, one.len, o->profile) + separator;
        if (kept + c + note > cap) break;
        kept += c;
        from--;
    }
    mf_buf_free(&one);
    if (!ok) return false;
    size_t skip = from - pinned;
    if (pinned + skip + 1 > n) skip = n - pinned - 1; /* the newest is kept whatever it costs */
    plan->omitted_messages = skip;
    mf_buf_reset(b);
    if (pinned) {
        mf_serialize_list(b, v, list, 1, shrink);
        mf_buf_append(b, "\n\n", 2);
    }
    if (skip) {
        mf_buf_puts(b, plan->language == MF_LANG_ZH ? "[省略了 " : "[");
        mf_buf_put_uint(b, skip);
        mf_buf_puts(b, plan->language == MF_LANG_ZH ? " 条较早的消息]\n\n" : " earlier messages omitted]\n\n");
    }
    mf_serialize_list(b, v, list + pinned + skip, n - pinned - skip, shrink);
    return !b->failed;
}

mf_status mf_doc_compact_plan(const mf_doc *doc, mf_format format, const mf_compact_options *options,
                              mf_compact_plan **out, mf_error *err)
{
    if (!out) return mf_fail(err, MF_ERR_INVALID_ARG, SIZE_MAX, "NULL output pointer");
    *out = NULL;
    mf_compact_options defaults;
    if (!options) { mf_compact_options_init(&defaults); options = &defaults; }
    if ((unsigned)options->profile >= MF_PROFILE_COUNT)
        return mf_fail(err, MF_ERR_INVALID_ARG, SIZE_MAX, "unknown profile");
    if (options->language > MF_LANG_ZH) return mf_fail(err, MF_ERR_INVALID_ARG, SIZE_MAX, "unknown language");
    /* The conversation as the micro-compaction edits leave it, read from the same document
     * (the copied nodes live in `edits` until the view is done with them). */
    mf_arena edits;
    mf_arena_init(&edits);
    mf_doc edited;
    mf_status st = mf_doc_edited(doc, options->edits, options->edit_count, &edits, &edited, err);
    mf_view view;
    if (!st) st = mf_view_build(&edited, format, &view, err);
    if (st) { mf_arena_free(&edits); return st; }
    compact_box *box = mf_alloc(sizeof *box);
    if (!box) {
        mf_view_free(&view);
        mf_arena_free(&edits);
        return mf_fail(err, MF_ERR_NOMEM, SIZE_MAX, "out of memory");
    }
    memset(box, 0, sizeof *box);
    mf_arena_init(&box->arena);
    mf_compact_plan *plan = &box->plan;
    mf_buf b;
    mf_buf_init(&b);
    pricing pr = { options->profile, NULL, NULL };
    if (options->message_milli && options->message_count == view.count && options->message_format == view.format) {
        uint8_t *edited_msgs = mf_arena_calloc(&edits, view.count ? view.count : 1, 1);
        if (!edited_msgs) goto nomem;
        for (size_t i = 0; i < options->edit_count; i++) edited_msgs[options->edits[i].message] = 1;
        pr = (pricing){ options->profile, options->message_milli, edited_msgs };
    }

    size_t start = pending_turn_start(&view);
    plan->tail_start = grow_tail(&view, start, options->keep_tail_tokens * MF_MILLI, &pr, &plan->milli_tail);
    if (options->keep_tail_messages)
        plan->tail_start = reach_messages(&view, plan->tail_start, options->keep_tail_messages, &pr, &plan->milli_tail);
    plan->tail_start = keep_pending(&view, plan->tail_start, &pr, &plan->milli_tail);
    /* The provider reads from its last compaction on: a summary placed before it would be
     * dropped, so the cut comes after it (the first cut that does, up to the pending turn),
     * and what precedes it, which the provider no longer reads, is left out of the middle. */
    size_t window = mf_view_window_start(&view);
    bool compacted_before = window > 0 || (view.count && mf_msg_has_compaction(&view.msgs[0]));
    if (compacted_before && plan->tail_start <= window) {
        size_t c = window + 1;
        while (c < start && !valid_cut(&view.msgs[c])) c++;
        plan->tail_start = c <= start && c < view.count ? c : 0; /* 0: nothing can be folded */
        uint64_t unused = 0;
        if (plan->tail_start) {
            size_t kept = keep_pending(&view, plan->tail_start, &pr, &unused);
            plan->tail_start = kept <= window ? 0 : kept;
        }
        /* The tail's estimate is what the provider reads of it: from its compaction on, as
         * mf_doc_estimate counts (a tail from 0 keeps the ignored messages, never billed). */
        plan->milli_tail = 0;
        for (size_t m = plan->tail_start > window ? plan->tail_start : window; m < view.count; m++)
            if (view.msgs[m].role != MF_ROLE_SYSTEM) plan->milli_tail += msg_cost(&pr, &view, m);
    }
    size_t nhead = 0, nmid = 0;
    for (size_t m = 0; m < plan->tail_start; m++) {
        if (view.msgs[m].role == MF_ROLE_SYSTEM) nhead++;
        else if (m >= window) nmid++;
        else plan->ignored_count++;
    }
    plan->head = mf_arena_alloc(&box->arena, (nhead ? nhead : 1) * sizeof(size_t));
    plan->middle = mf_arena_alloc(&box->arena, (nmid ? nmid : 1) * sizeof(size_t));
    if (!plan->head || !plan->middle) goto nomem;
    bool has_previous = false;
    for (size_t m = 0; m < plan->tail_start; m++) {
        if (view.msgs[m].role == MF_ROLE_SYSTEM) {
            plan->head[plan->head_count++] = m;
        } else if (m >= window) {
            plan->middle[plan->middle_count++] = m;
            plan->milli_middle += msg_cost(&pr, &view, m);
            has_previous = has_previous || is_summary_message(&view.msgs[m]) || mf_msg_has_compaction(&view.msgs[m]);
        }
    }
    plan->only_previous_summary =
        plan->middle_count >= 1 && plan->middle_count <= 2 &&
        (is_summary_message(&view.msgs[plan->middle[0]]) || mf_msg_has_compaction(&view.msgs[plan->middle[0]])) &&
        (plan->middle_count == 1 || view.msgs[plan->middle[1]].role == MF_ROLE_ASSISTANT);

    /* The signed loop in flight (every fold waits for it) and the kept turns' signed parts, which
     * a fold leaves after a new prefix (signed.c). */
    bool open;
    plan->in_flight = mf_view_in_flight(&view, &open);
    if (mf_view_fold_drops(&view, plan->tail_start, options->profile, &box->arena, &plan->drops, &plan->drop_count))
        goto nomem;

    plan->language = options->language != MF_LANG_AUTO ? options->language : mf_detect_language(&view);
    plan->acknowledgement = mf_prompt_acknowledgement(plan->language);
    const char *system = mf_prompt_system(plan->language);
    plan->system_len = strlen(system);
    plan->system = mf_arena_strdup(&box->arena, system, plan->system_len);
    if (!plan->system) goto nomem;

    if (plan->middle_count) {
        mf_buf transcript;
        mf_buf_init(&transcript);
        bool ok = write_transcript(&transcript, &view, plan, &box->arena, options);
        if (ok) {
            plan->transcript_chars = mf_count_code_points(transcript.data, transcript.len);
            mf_prompt_instructions(&b, options, plan->language, has_previous);
            mf_buf_puts(&b, "\n<transcript>\n");
            mf_buf_append(&b, transcript.data, transcript.len);
            mf_buf_puts(&b, "\n</transcript>\n");
        }
        mf_buf_free(&transcript);
        if (!ok || b.failed) goto nomem;
        plan->prompt = mf_arena_strdup(&box->arena, b.data, b.len);
        plan->prompt_len = b.len;
        if (!plan->prompt) goto nomem;
    } else {
        plan->prompt = mf_arena_strdup(&box->arena, "", 0);
        if (!plan->prompt) goto nomem;
    }
    mf_buf_free(&b);
    mf_view_free(&view);
    mf_arena_free(&edits);
    *out = plan;
    return MF_OK;
nomem:
    mf_buf_free(&b);
    mf_view_free(&view);
    mf_arena_free(&edits);
    mf_compact_plan_free(plan);
    return mf_fail(err, MF_ERR_NOMEM, SIZE_MAX, "out of memory while planning compaction");
}
