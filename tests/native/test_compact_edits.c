/* test_compact_edits.c — the compaction plan read with micro-compaction's edits equals the
 * plan of the conversation with those edits applied and parsed again (what a fold planned
 * before it read the history once), in every format, through the transcript's cap. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "fixtures.h"
#include "fixtures_responses.h"
#include "helpers.h"
#include "midfold.h"
#include "suites.h"

static bool same_list(const size_t *a, size_t na, const size_t *b, size_t nb)
{
    return na == nb && (na == 0 || memcmp(a, b, na * sizeof *a) == 0);
}

/* The plan read with the edits (and, with `milli`, the micro plan's figures) against the
 * plan of the edited copy, field by field; `what` names the case in the failures. */
static void same_plan(const char *what, const mf_compact_plan *read_plan, const mf_compact_plan *copy_plan)
{
    char fact[200];
    snprintf(fact, sizeof fact, "%s: the same cut", what);
    CHECK_EQ_U64(fact, read_plan->tail_start, copy_plan->tail_start);
    snprintf(fact, sizeof fact, "%s: the same head and middle", what);
    CHECK(fact, same_list(read_plan->head, read_plan->head_count, copy_plan->head, copy_plan->head_count) &&
                    same_list(read_plan->middle, read_plan->middle_count, copy_plan->middle, copy_plan->middle_count));
    snprintf(fact, sizeof fact, "%s: the same prompt, byte for byte", what);
    CHECK_EQ_MEM(fact, read_plan->prompt, read_plan->prompt_len, copy_plan->prompt);
    snprintf(fact, sizeof fact, "%s: the same estimate of the middle", what);
    CHECK_EQ_U64(fact, read_plan->milli_middle, copy_plan->milli_middle);
    snprintf(fact, sizeof fact, "%s: the same estimate of the tail", what);
    CHECK_EQ_U64(fact, read_plan->milli_tail, copy_plan->milli_tail);
    snprintf(fact, sizeof fact, "%s: the same language and transcript figures", what);
    CHECK(fact, read_plan->language == copy_plan->language && read_plan->transcript_chars == copy_plan->transcript_chars &&
                    read_plan->shrunk_results == copy_plan->shrunk_results &&
                    read_plan->omitted_messages == copy_plan->omitted_messages &&
                    read_plan->only_previous_summary == copy_plan->only_previous_summary &&
                    read_plan->ignored_count == copy_plan->ignored_count);
}

/* The plans made three ways and compared: of the edited copy parsed again, of the document
 * with the edits, and of the document with the edits and the micro plan's figures. */
static void compare(const char *what, const char *json, uint64_t tail_tokens, uint64_t transcript_tokens)
{
    char fact[160];
    mf_doc *doc = parse(json);
    mf_micro_options mo;
    mf_micro_options_init(&mo);
    mo.keep_recent = 0;
    mo.per_message = 1;
    mf_micro_plan *micro = NULL;
    snprintf(fact, sizeof fact, "%s: micro-compaction plans", what);
    if (!CHECK(fact, doc && mf_doc_micro_plan(doc, MF_FORMAT_AUTO, &mo, &micro, NULL) == MF_OK)) { mf_doc_free(doc); return; }
    snprintf(fact, sizeof fact, "%s: the plan clears something to compare with", what);
    CHECK(fact, micro->count > 0);
    char *edited_json = apply_plan(json, micro);
    snprintf(fact, sizeof fact, "%s: the edits apply", what);
    uint64_t milli[64];
    if (!CHECK(fact, edited_json != NULL) || !CHECK("the fixture is small", micro->figure_count <= 64)) {
        mf_micro_plan_free(micro);
        mf_doc_free(doc);
        return;
    }
    for (size_t m = 0; m < micro->figure_count; m++) milli[m] = micro->figures[m].milli;
    mf_doc *edited = parse(edited_json);
    mf_compact_options o;
    mf_compact_options_init(&o);
    o.keep_tail_tokens = tail_tokens;
    o.max_transcript_tokens = transcript_tokens;
    mf_compact_plan *copy_plan = NULL, *read_plan = NULL, *priced_plan = NULL;
    mf_status copy_st = mf_doc_compact_plan(edited, MF_FORMAT_AUTO, &o, &copy_plan, NULL);
    o.edits = micro->edits;
    o.edit_count = micro->count;
    mf_status read_st = mf_doc_compact_plan(doc, MF_FORMAT_AUTO, &o, &read_plan, NULL);
    o.message_milli = milli;
    o.message_count = micro->figure_count;
    o.message_format = micro->format;
    mf_status priced_st = mf_doc_compact_plan(doc, MF_FORMAT_AUTO, &o, &priced_plan, NULL);
    snprintf(fact, sizeof fact, "%s: the three plans are made", what);
    if (CHECK(fact, copy_st == MF_OK && read_st == MF_OK && priced_st == MF_OK)) {
        char with[140];
        snprintf(with, sizeof with, "%s, with the edits", what);
        same_plan(with, read_plan, copy_plan);
        snprintf(with, sizeof with, "%s, with the edits and the figures", what);
        same_plan(with, priced_plan, copy_plan);
    }
    mf_compact_plan_free(copy_plan);
    mf_compact_plan_free(read_plan);
    mf_compact_plan_free(priced_plan);
    mf_doc_free(doc);
    mf_doc_free(edited);
    free_json(edited_json);
    mf_micro_plan_free(micro);
}

/* Figures read in another format than the plan's, or of another length, are not used: the
 * plan estimates every message itself and says the same. */
static void foreign_figures(void)
{
    mf_doc *doc = parse(FX_SESSION_OPENAI);
    uint64_t wrong[64];
    for (size_t m = 0; m < 64; m++) wrong[m] = 1;
    mf_compact_options o;
    mf_compact_options_init(&o);
    o.keep_tail_tokens = 0;
    mf_compact_plan *own = NULL, *other_format = NULL, *other_length = NULL, *used = NULL;
    mf_status st = mf_doc_compact_plan(doc, MF_FORMAT_AUTO, &o, &own, NULL);
    mf_micro_options mo;
    mf_micro_options_init(&mo);
    mo.per_message = 1;
    mf_micro_plan *micro = NULL;
    st = st ? st : mf_doc_micro_plan(doc, MF_FORMAT_AUTO, &mo, &micro, NULL);
    size_t count = micro ? micro->figure_count : 0;
    CHECK("the fixture is small", count > 0 && count < 64);
    o.message_milli = wrong;
    o.message_count = count + 1;
    o.message_format = MF_FORMAT_OPENAI;
    st = st ? st : mf_doc_compact_plan(doc, MF_FORMAT_AUTO, &o, &other_length, NULL);
    o.message_count = count;
    o.message_format = MF_FORMAT_ANTHROPIC;
    st = st ? st : mf_doc_compact_plan(doc, MF_FORMAT_AUTO, &o, &other_format, NULL);
    o.message_format = MF_FORMAT_OPENAI;
    st = st ? st : mf_doc_compact_plan(doc, MF_FORMAT_AUTO, &o, &used, NULL);
    if (CHECK("plans with and without foreign figures are made", st == MF_OK && doc)) {
        CHECK("figures of another length are not used",
              other_length->milli_middle == own->milli_middle && other_length->milli_tail == own->milli_tail);
        CHECK("figures of another format are not used",
              other_format->milli_middle == own->milli_middle && other_format->milli_tail == own->milli_tail);
        CHECK("figures of the plan's length and format are what it prices the middle with",
              used->milli_middle == used->middle_count && used->middle_count > 0);
    }
    mf_compact_plan_free(own);
    mf_compact_plan_free(other_length);
    mf_compact_plan_free(other_format);
    mf_compact_plan_free(used);
    mf_micro_plan_free(micro);
    mf_doc_free(doc);
}

/* An edit that points at nothing is refused with its message as the position, not read. */
static void misfits(void)
{
    mf_doc *doc = parse(FX_SESSION_ANTHROPIC);
    mf_micro_plan *micro = plan_of(FX_SESSION_ANTHROPIC, MF_FORMAT_AUTO, 0);
    if (!CHECK("a plan to spoil", doc && micro && micro->count > 0)) { mf_doc_free(doc); mf_micro_plan_free(micro); return; }
    mf_micro_edit bad = micro->edits[0];
    mf_compact_options o;
    mf_compact_options_init(&o);
    o.edits = &bad;
    o.edit_count = 1;
    mf_compact_plan *plan = NULL;
    mf_error err;
    bad.part = 1000;
    CHECK("an edit of a block the message does not have is refused",
          mf_doc_compact_plan(doc, MF_FORMAT_AUTO, &o, &plan, &err) == MF_ERR_INVALID_ARG && plan == NULL &&
              err.position == micro->edits[0].message);
    bad = micro->edits[0];
    bad.message = 1000000;
    CHECK("an edit of a message past the end is refused",
          mf_doc_compact_plan(doc, MF_FORMAT_AUTO, &o, &plan, &err) == MF_ERR_INVALID_ARG && plan == NULL);
    bad = micro->edits[0];
    bad.target = (mf_edit_target)99;
    CHECK("an edit of an unknown target is refused",
          mf_doc_compact_plan(doc, MF_FORMAT_AUTO, &o, &plan, &err) == MF_ERR_INVALID_ARG && plan == NULL);
    o.edits = NULL;
    CHECK("a count without edits is refused", mf_doc_compact_plan(doc, MF_FORMAT_AUTO, &o, &plan, &err) == MF_ERR_INVALID_ARG);
    mf_doc_free(doc);
    mf_micro_plan_free(micro);
}

void test_compact_edits(void)
{
    static const struct { const char *name, *json; } cases[] = {
        { "Anthropic session", FX_SESSION_ANTHROPIC },
        { "OpenAI session", FX_SESSION_OPENAI },       { "AI SDK session", FX_SESSION_AISDK },
        { "Chinese Anthropic", FX_CHINESE_ANTHROPIC }, { "Anthropic server tools", FX_SERVER_TOOLS_ANTHROPIC },
        { "AI SDK approvals", FX_APPROVAL_AISDK },     { "AI SDK UIMessages", FX_CHAT_AISDK_UI },
        { "OpenAI Responses run", FX_RESPONSES_RUN },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char what[96];
        snprintf(what, sizeof what, "%s, whole tail budget", cases[i].name);
        compare(what, cases[i].json, 10000, 60000);
        snprintf(what, sizeof what, "%s, no tail budget", cases[i].name);
        compare(what, cases[i].json, 0, 60000);
        snprintf(what, sizeof what, "%s, a transcript cap of 40 tokens", cases[i].name);
        compare(what, cases[i].json, 0, 40);
    }
    misfits();
    foreign_figures();
}
