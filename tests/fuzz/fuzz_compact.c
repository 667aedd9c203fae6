/* fuzz_compact.c — mf_doc_compact_plan and mf_doc_digest on JSON or tree input, options
 * from 6 bytes (see common.h).
 *
 * Invariants of the plan:
 * - head, middle and tail partition the messages: head and middle are ascending,
 *   disjoint, together exactly [0, tail_start), the head exactly the system messages
 *   before tail_start;
 * - milli_middle + milli_tail never exceed the conversation's estimate;
 * - in a conversation that validates clean, no tool call before tail_start has its
 *   result at or after tail_start (the kept tail never answers a summarized call);
 * - the prompt is NUL-terminated valid UTF-8 (empty exactly when the middle is empty),
 *   the system prompt and acknowledgement are non-empty, transcript_chars fits in the
 *   prompt, omitted_messages < middle_count unless both are 0, the language is the one
 *   asked for (EN or ZH after AUTO), only_previous_summary only with 1-2 middle messages.
 * Read with its own micro-compaction edits and figures (a fold's plan), the plan is always made
 * and its parts still partition the messages before the tail.
 * Invariants of the digest: NUL-terminated valid UTF-8 whose estimate is within
 * max_tokens (2000 when 0). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

static void check_plan(const mf_doc *doc, mf_format fmt, const mf_compact_options *o, const mf_compact_plan *plan)
{
    mf_error err;
    mf_view view;
    CHECK(mf_view_build(doc, fmt, &view, &err) == MF_OK, "view failed");
    size_t n = view.count;
    CHECK(plan->tail_start <= n, "tail_start %zu of %zu", plan->tail_start, n);
    CHECK(plan->head_count + plan->middle_count + plan->ignored_count == plan->tail_start,
          "head %zu + middle %zu + ignored %zu != tail_start %zu", plan->head_count, plan->middle_count,
          plan->ignored_count, plan->tail_start);
    /* What is ignored lies before the provider's last compaction, so before all of the middle. */
    size_t window = mf_view_window_start(&view);
    CHECK(!plan->ignored_count || (plan->middle_count == 0 || plan->middle[0] >= window),
          "ignored messages after the middle starts");
    uint8_t *seen = calloc(n + 1, 1);
    if (!seen) abort();
    for (size_t i = 0; i < plan->head_count; i++) {
        size_t m = plan->head[i];
        CHECK(m < plan->tail_start && !seen[m], "head index %zu", m);
        if (i) CHECK(m > plan->head[i - 1], "head not ascending");
        CHECK(view.msgs[m].role == MF_ROLE_SYSTEM, "head message %zu is not a system message", m);
        seen[m] = 1;
    }
    for (size_t i = 0; i < plan->middle_count; i++) {
        size_t m = plan->middle[i];
        CHECK(m < plan->tail_start && !seen[m], "middle index %zu", m);
        if (i) CHECK(m > plan->middle[i - 1], "middle not ascending");
        CHECK(view.msgs[m].role != MF_ROLE_SYSTEM, "system message %zu in the middle", m);
        seen[m] = 2;
    }
    free(seen);

    uint64_t total = 0;
    CHECK(mf_doc_estimate(doc, fmt, o->profile, &total, &err) == MF_OK, "estimate failed");
    CHECK(plan->milli_middle + plan->milli_tail <= total, "middle %" PRIu64 " + tail %" PRIu64 " > total %" PRIu64,
          plan->milli_middle, plan->milli_tail, total);

    mf_validation *v = NULL;
    CHECK(mf_doc_validate(doc, fmt, &v, &err) == MF_OK, "validate failed");
    if (v->count == 0) {
        for (size_t m = plan->tail_start; m < n; m++)
            for (size_t p = 0; p < view.msgs[m].count; p++) {
                const mf_part *r = &view.msgs[m].parts[p];
                if (r->kind != MF_PART_TOOL_RESULT || !r->id) continue;
                for (size_t c = 0; c < plan->tail_start; c++)
                    for (size_t q = 0; q < view.msgs[c].count; q++) {
                        const mf_part *call = &view.msgs[c].parts[q];
                        CHECK(!(call->kind == MF_PART_TOOL_CALL && call->id && call->id_len == r->id_len &&
                                memcmp(call->id, r->id, r->id_len) == 0),
                              "call \"%.*s\" in message %zu is cut off from its result in message %zu (tail_start %zu)",
                              (int)r->id_len, r->id, c, m, plan->tail_start);
                    }
            }
    }
    mf_validation_free(v);

    CHECK(plan->prompt && plan->prompt[plan->prompt_len] == 0, "prompt not NUL-terminated");
    CHECK((plan->prompt_len == 0) == (plan->middle_count == 0), "prompt %zu bytes, middle %zu", plan->prompt_len,
          plan->middle_count);
    CHECK(fuzz_utf8_valid(plan->prompt, plan->prompt_len), "prompt not UTF-8");
    CHECK(plan->transcript_chars <= fuzz_count_code_points(plan->prompt, plan->prompt_len), "transcript_chars");
    CHECK(plan->system && plan->system_len && plan->system[plan->system_len] == 0, "system prompt");
    CHECK(fuzz_utf8_valid(plan->system, plan->system_len), "system prompt not UTF-8");
    CHECK(plan->acknowledgement && plan->acknowledgement[0], "acknowledgement");
    CHECK(plan->omitted_messages < plan->middle_count || plan->omitted_messages == 0, "omitted %zu of %zu",
          plan->omitted_messages, plan->middle_count);
    CHECK(plan->language == MF_LANG_EN || plan->language == MF_LANG_ZH, "language %d", plan->language);
    if (o->language != MF_LANG_AUTO) CHECK(plan->language == o->language, "language %d asked %d", plan->language, o->language);
    if (plan->only_previous_summary) CHECK(plan->middle_count == 1 || plan->middle_count == 2, "only_previous_summary");
    mf_view_free(&view);
}

/* A fold's plan: the document read with its own micro-compaction edits (keep_recent 0) and
 * priced with that plan's figures is always made, and is a plan: its parts partition the
 * messages before the tail, its prompt is NUL-terminated UTF-8. */
static void check_read_with_clearing(const mf_doc *doc, mf_format fmt, const mf_compact_options *base)
{
    mf_error err;
    mf_micro_options mo;
    mf_micro_options_init(&mo);
    mo.keep_recent = 0;
    mo.profile = base->profile;
    mo.per_message = 1;
    mf_micro_plan *micro = NULL;
    if (mf_doc_micro_plan(doc, fmt, &mo, &micro, &err) != MF_OK) return;
    uint64_t *milli = micro->figure_count ? malloc(micro->figure_count * sizeof *milli) : NULL;
    if (micro->figure_count && !milli) abort();
    for (size_t m = 0; m < micro->figure_count; m++) milli[m] = micro->figures[m].milli;
    mf_compact_options o = *base;
    o.edits = micro->edits;
    o.edit_count = micro->count;
    o.message_milli = milli;
    o.message_count = micro->figure_count;
    o.message_format = micro->format;
    mf_compact_plan *plan = NULL;
    mf_status st = mf_doc_compact_plan(doc, fmt, &o, &plan, &err);
    /* (detected again as the edits leave it, a conversation may read as mixed formats: so would
     * an edited copy) */
    if (st == MF_ERR_FORMAT && fmt == MF_FORMAT_AUTO) {
        free(milli);
        mf_micro_plan_free(micro);
        return;
    }
    CHECK(st == MF_OK, "the plan read with %zu edits failed: %d (%s)", micro->count, st, err.message);
    CHECK(plan->head_count + plan->middle_count + plan->ignored_count == plan->tail_start &&
              plan->tail_start <= micro->figure_count,
          "read with its clearing: head %zu + middle %zu + ignored %zu, tail_start %zu of %zu", plan->head_count,
          plan->middle_count, plan->ignored_count, plan->tail_start, micro->figure_count);
    CHECK(plan->prompt && plan->prompt[plan->prompt_len] == 0 && fuzz_utf8_valid(plan->prompt, plan->prompt_len),
          "read with its clearing: the prompt");
    mf_compact_plan_free(plan);
    free(milli);
    mf_micro_plan_free(micro);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_input in;
    if (!fuzz_load(data, size, FUZZ_COMPACT_OPTION_BYTES, &in)) return 0;
    mf_doc *doc = in.parsed;
    mf_error err;
    mf_compact_options o;
    fuzz_compact_options(in.options, &o);

    mf_compact_plan *plan = NULL;
    mf_status st = mf_doc_compact_plan(doc, in.format, &o, &plan, &err);
    bool refused = mf_doc_is_conversation(doc, NULL) && !fuzz_format_supported(in.format);
    if (refused) {
        fuzz_check_format_refused(st, &err, in.format, "compact plan");
        CHECK(plan == NULL, "plan left on failure");
    } else if (st) {
        CHECK(plan == NULL, "plan left on failure");
        CHECK(st == MF_ERR_SHAPE || st == MF_ERR_FORMAT, "unexpected status %d (%s)", st, err.message);
    } else {
        check_plan(doc, fuzz_effective_format(doc, in.format), &o, plan);
        mf_compact_plan_free(plan);
        check_read_with_clearing(doc, in.format, &o);
    }

    uint32_t max_tokens = fuzz_digest_tokens(in.options);
    char *out = NULL;
    size_t len = 0;
    st = mf_doc_digest(doc, in.format, max_tokens, o.language, o.profile, &out, &len, &err);
    if (refused) {
        fuzz_check_format_refused(st, &err, in.format, "digest");
        CHECK(out == NULL, "digest left on failure");
    } else if (st) {
        CHECK(out == NULL, "digest left on failure");
        CHECK(st == MF_ERR_SHAPE || st == MF_ERR_FORMAT, "digest: unexpected status %d (%s)", st, err.message);
    } else {
        CHECK(out && out[len] == 0, "digest not NUL-terminated");
        CHECK(fuzz_utf8_valid(out, len), "digest not UTF-8");
        uint64_t budget = (uint64_t)(max_tokens ? max_tokens : 2000) * MF_MILLI;
        uint64_t milli = mf_estimate_text(out, len, o.profile);
        CHECK(milli <= budget, "digest of %" PRIu64 " milli-tokens over its budget %" PRIu64, milli, budget);
        mf_free(out);
    }
    fuzz_release(&in);
    return 0;
}
