/* test_micro.c — micro-compaction plans: old tool results become "[truncated: NAME result,
 * N chars]" (N in code points), the last keep_recent result turns stay whole, excluded
 * tools and already-truncated results are left alone, clear_at_least and trigger can stop
 * the plan, and applying a plan then planning again gives nothing more to do. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "fixtures.h"
#include "helpers.h"
#include "midfold.h"
#include "suites.h"

static mf_micro_plan *plan_with(const char *json, const mf_micro_options *options, mf_status *status)
{
    mf_doc *doc = parse(json);
    mf_micro_plan *plan = NULL;
    mf_status st = doc ? mf_doc_micro_plan(doc, MF_FORMAT_AUTO, options, &plan, NULL) : MF_ERR_PARSE;
    if (status) *status = st;
    mf_doc_free(doc);
    return plan;
}

static int edit_is(const mf_micro_plan *plan, size_t i, size_t message, size_t part, mf_edit_target target,
                   const char *name, size_t chars)
{
    if (!plan || i >= plan->count) return 0;
    const mf_micro_edit *e = &plan->edits[i];
    char marker[128];
    snprintf(marker, sizeof marker, "[truncated: %s result, %zu chars]", name, chars);
    return e->message == message && (target == MF_EDIT_MESSAGE_CONTENT || e->part == part) && e->target == target &&
           e->tool_name_len == strlen(name) && memcmp(e->tool_name, name, e->tool_name_len) == 0 && e->chars == chars &&
           e->replacement_len == strlen(marker) && memcmp(e->replacement, marker, e->replacement_len) == 0;
}

/* `json` (a list ending in "]") with an assistant answer appended, so its last results
 * are no longer the pending turn. Free with free(). */
static char *with_answer(const char *json)
{
    static const char answer[] = ", {\"role\": \"assistant\", \"content\": \"Done.\"}]";
    const char *end = strrchr(json, ']');
    if (!end) return NULL;
    size_t head = (size_t)(end - json);
    char *out = malloc(head + sizeof answer);
    if (!out) return NULL;
    memcpy(out, json, head);
    memcpy(out + head, answer, sizeof answer);
    return out;
}

static void seed_semantics(void)
{
    mf_micro_plan *p = plan_of(FX_SESSION_ANTHROPIC, MF_FORMAT_AUTO, 3);
    CHECK("keep_recent 3 keeps the last three result turns (messages 6, 8, 10) and clears two results",
          p && p->count == 2);
    CHECK("message 2's ls -la output becomes \"[truncated: bash result, 433 chars]\" in its tool_result block",
          edit_is(p, 0, 2, 0, MF_EDIT_BLOCK_CONTENT, "bash", 433));
    CHECK("message 4's git diff becomes \"[truncated: bash result, 474 chars]\"",
          edit_is(p, 1, 4, 0, MF_EDIT_BLOCK_CONTENT, "bash", 474));
    CHECK("chars_cleared is the sum of the edits' chars", p && p->chars_cleared == 433 + 474);
    CHECK_EQ_U64("milli_before is the session's estimate", p ? p->milli_before : 0, 788750);
    CHECK_EQ_U64("milli_after is the estimate with both markers in place", p ? p->milli_after : 0, 549000);
    CHECK("the plan was not skipped", p && !p->skipped);
    mf_micro_plan_free(p);

    p = plan_of(FX_SESSION_OPENAI, MF_FORMAT_AUTO, 3);
    CHECK("in OpenAI form the same two results are cleared, as whole tool messages 2 and 4",
          p && p->count == 2 && edit_is(p, 0, 2, 0, MF_EDIT_MESSAGE_CONTENT, "bash", 433) &&
              edit_is(p, 1, 4, 0, MF_EDIT_MESSAGE_CONTENT, "bash", 474));
    CHECK_EQ_U64("... and its milli_after is the OpenAI estimate with the markers", p ? p->milli_after : 0, 583000);
    mf_micro_plan_free(p);

    p = plan_of(FX_SESSION_AISDK, MF_FORMAT_AUTO, 3);
    CHECK("in AI SDK form the same two results are cleared, as text outputs",
          p && p->count == 2 && edit_is(p, 0, 2, 0, MF_EDIT_PART_OUTPUT, "bash", 433) &&
              edit_is(p, 1, 4, 0, MF_EDIT_PART_OUTPUT, "bash", 474));
    CHECK_EQ_U64("... and its milli_after is the AI SDK estimate with the markers", p ? p->milli_after : 0, 539250);
    mf_micro_plan_free(p);

    p = plan_with(FX_SESSION_ANTHROPIC, NULL, NULL);
    CHECK("NULL options mean the defaults (keep_recent 3)", p && p->count == 2);
    mf_micro_plan_free(p);
}

static void keep_recent(void)
{
    mf_micro_plan *p = plan_of(FX_SESSION_ANTHROPIC, MF_FORMAT_AUTO, 1);
    CHECK("keep_recent 1 clears five results, both parallel results of message 6 among them",
          p && p->count == 5 && edit_is(p, 2, 6, 0, MF_EDIT_BLOCK_CONTENT, "bash", 567) &&
              edit_is(p, 3, 6, 1, MF_EDIT_BLOCK_CONTENT, "grep", 278));
    CHECK("a result given as text blocks counts the code points of its text",
          edit_is(p, 4, 8, 0, MF_EDIT_BLOCK_CONTENT, "read_file", 244));
    CHECK_EQ_U64("keep_recent 1: milli_after", p ? p->milli_after : 0, 257750);
    mf_micro_plan_free(p);

    p = plan_of(FX_SESSION_OPENAI, MF_FORMAT_AUTO, 1);
    CHECK("in OpenAI form the two tool messages answering one set of parallel calls are one turn",
          p && p->count == 5 && edit_is(p, 2, 6, 0, MF_EDIT_MESSAGE_CONTENT, "bash", 567) &&
              edit_is(p, 3, 7, 0, MF_EDIT_MESSAGE_CONTENT, "grep", 278) &&
              edit_is(p, 4, 9, 0, MF_EDIT_MESSAGE_CONTENT, "read_file", 244));
    mf_micro_plan_free(p);

    p = plan_of(FX_SESSION_AISDK, MF_FORMAT_AUTO, 0);
    CHECK("keep_recent 0 clears every result but the pending one (the test report the model has not read)",
          p && p->count == 5 && p->edits[4].message < 10);
    CHECK_EQ_U64("keep_recent 0 (AI SDK): milli_after", p ? p->milli_after : 0, 248000);
    mf_micro_plan_free(p);
    char *answered = with_answer(FX_SESSION_AISDK);
    p = answered ? plan_of(answered, MF_FORMAT_AUTO, 0) : NULL;
    CHECK("once answered, keep_recent 0 clears the JSON test report too (counted as its JSON text)",
          p && p->count == 6 && edit_is(p, 5, 10, 0, MF_EDIT_PART_OUTPUT, "run_tests", 83));
    mf_micro_plan_free(p);
    free(answered);

    p = plan_of(FX_SESSION_ANTHROPIC, MF_FORMAT_AUTO, 5);
    CHECK("keep_recent equal to the number of result turns clears nothing", p && p->count == 0 && !p->skipped);
    CHECK("an empty plan has milli_after equal to milli_before", p && p->milli_after == p->milli_before);
    mf_micro_plan_free(p);
    p = plan_of(FX_SESSION_ANTHROPIC, MF_FORMAT_AUTO, 1000);
    CHECK("keep_recent beyond the number of result turns clears nothing", p && p->count == 0);
    mf_micro_plan_free(p);

    p = plan_of(FX_CHINESE_ANTHROPIC, MF_FORMAT_AUTO, 0);
    CHECK("a result with Chinese counts code points, not bytes (75, not 89)",
          p && p->count == 1 && edit_is(p, 0, 2, 0, MF_EDIT_BLOCK_CONTENT, "read_file", 75));
    mf_micro_plan_free(p);
}

static void options(void)
{
    mf_micro_options o;
    mf_micro_options_init(&o);
    CHECK("the default options are keep_recent 3, nothing excluded, no minimum, no trigger, reference profile",
          o.keep_recent == 3 && o.exclude_count == 0 && o.exclude_tools == NULL && o.clear_at_least == 0 &&
              o.trigger == 0 && o.profile == MF_PROFILE_BAREAGENT);

    const char *const bash[] = {"bash"};
    o.keep_recent = 0;
    o.exclude_tools = bash;
    o.exclude_count = 1;
    mf_micro_plan *p = plan_with(FX_SESSION_ANTHROPIC, &o, NULL);
    CHECK("an excluded tool's results are never cleared (nor the pending run_tests result)",
          p && p->count == 2 && edit_is(p, 0, 6, 1, MF_EDIT_BLOCK_CONTENT, "grep", 278) &&
              edit_is(p, 1, 8, 0, MF_EDIT_BLOCK_CONTENT, "read_file", 244));
    CHECK_EQ_U64("... and milli_after counts only the cleared ones", p ? p->milli_after : 0, 661250);
    mf_micro_plan_free(p);

    mf_micro_options_init(&o);
    o.clear_at_least = 240; /* the plan frees 789 - 549 = 240 tokens */
    p = plan_with(FX_SESSION_ANTHROPIC, &o, NULL);
    CHECK("clear_at_least equal to what the plan frees lets it through", p && p->count == 2 && !p->skipped);
    mf_micro_plan_free(p);
    o.clear_at_least = 241;
    p = plan_with(FX_SESSION_ANTHROPIC, &o, NULL);
    CHECK("clear_at_least one token above what the plan frees stops it: no edits, skipped",
          p && p->count == 0 && p->skipped == 1 && p->chars_cleared == 0);
    CHECK("a skipped plan reports milli_after equal to milli_before", p && p->milli_after == p->milli_before);
    mf_micro_plan_free(p);

    mf_micro_options_init(&o);
    o.trigger = 789; /* the session is 789 tokens */
    p = plan_with(FX_SESSION_ANTHROPIC, &o, NULL);
    CHECK("a trigger equal to the estimate stops the plan (at or below: nothing to do)",
          p && p->count == 0 && p->skipped == 1);
    mf_micro_plan_free(p);
    o.trigger = 788;
    p = plan_with(FX_SESSION_ANTHROPIC, &o, NULL);
    CHECK("a trigger one token below the estimate lets it through", p && p->count == 2 && !p->skipped);
    mf_micro_plan_free(p);

    mf_status st;
    mf_micro_options_init(&o);
    o.exclude_count = 2;
    p = plan_with(FX_SESSION_ANTHROPIC, &o, &st);
    CHECK("exclude_count without exclude_tools is an invalid argument", st == MF_ERR_INVALID_ARG && p == NULL);
    mf_micro_options_init(&o);
    o.profile = (mf_profile)9;
    p = plan_with(FX_SESSION_ANTHROPIC, &o, &st);
    CHECK("an unknown profile is an invalid argument", st == MF_ERR_INVALID_ARG && p == NULL);
    p = plan_with("{\"model\": \"gpt-4o\"}", NULL, &st);
    CHECK("a value that is no conversation is MF_ERR_SHAPE", st == MF_ERR_SHAPE && p == NULL);
    mf_doc *doc = parse(FX_SEED_ANTHROPIC);
    CHECK("a NULL output pointer is an invalid argument",
          mf_doc_micro_plan(doc, MF_FORMAT_AUTO, NULL, NULL, NULL) == MF_ERR_INVALID_ARG);
    mf_doc_free(doc);
    mf_micro_plan_free(NULL); /* documented as fine */
}

static void odd_results(void)
{
    mf_micro_plan *p = plan_of(
        "[{\"role\": \"user\", \"content\": [{\"type\": \"tool_result\", \"tool_use_id\": \"toolu_gone\", "
        "\"content\": \"Deleted 214 files from build/ and cache/.\"}]},"
        " {\"role\": \"assistant\", \"content\": \"Cleaned.\"}]", MF_FORMAT_AUTO, 0);
    CHECK("a result whose call is missing is named \"unknown\" in its marker",
          p && p->count == 1 && edit_is(p, 0, 0, 0, MF_EDIT_BLOCK_CONTENT, "unknown", 41));
    mf_micro_plan_free(p);

    p = plan_of("[{\"role\": \"assistant\", \"content\": [{\"type\": \"tool_use\", \"id\": \"t1\", \"name\": \"pwd\", \"input\": {}}]},"
                " {\"role\": \"user\", \"content\": [{\"type\": \"tool_result\", \"tool_use_id\": \"t1\", \"content\": \"/home/dev\"}]}]",
                MF_FORMAT_AUTO, 0);
    CHECK("a result cheaper than its marker is left alone (clearing it would free nothing)", p && p->count == 0);
    mf_micro_plan_free(p);

    /* Below a trigger the markers are priced only to tell `skipped`: it says whether
     * anything would have been cleared, as the plan above the trigger would. */
    const char *short_then_long =
        "[{\"role\": \"assistant\", \"content\": [{\"type\": \"tool_use\", \"id\": \"t1\", \"name\": \"pwd\", \"input\": {}}]},"
        " {\"role\": \"user\", \"content\": [{\"type\": \"tool_result\", \"tool_use_id\": \"t1\", \"content\": \"/home/dev\"}]},"
        " {\"role\": \"assistant\", \"content\": [{\"type\": \"tool_use\", \"id\": \"t2\", \"name\": \"bash\", \"input\": {\"command\": \"ls -la src\"}}]},"
        " {\"role\": \"user\", \"content\": [{\"type\": \"tool_result\", \"tool_use_id\": \"t2\", \"content\": "
        "\"total 48\\ndrwxr-xr-x 2 dev dev 4096 Nov 30 09:12 .\\n-rw-r--r-- 1 dev dev 2210 Nov 30 09:12 micro.c\\n"
        "-rw-r--r-- 1 dev dev 5120 Nov 30 09:12 compact.c\\n-rw-r--r-- 1 dev dev 1044 Nov 30 09:12 view.c\"}]},"
        " {\"role\": \"assistant\", \"content\": \"Three C files.\"}]";
    mf_micro_options o;
    mf_micro_options_init(&o);
    o.keep_recent = 0;
    p = plan_with(short_then_long, &o, NULL);
    CHECK("above any trigger only the listing is cleared (pwd's result is cheaper than its marker)",
          p && p->count == 1 && edit_is(p, 0, 3, 0, MF_EDIT_BLOCK_CONTENT, "bash", 191) && !p->skipped);
    uint64_t milli_before = p ? p->milli_before : 0;
    mf_micro_plan_free(p);
    o.trigger = 1000000;
    p = plan_with(short_then_long, &o, NULL);
    CHECK("below the trigger nothing is cleared, and skipped says the listing would have been",
          p && p->count == 0 && p->skipped == 1 && p->chars_cleared == 0 && p->milli_after == p->milli_before &&
              p->milli_before == milli_before);
    mf_micro_plan_free(p);
    p = plan_with("[{\"role\": \"assistant\", \"content\": [{\"type\": \"tool_use\", \"id\": \"t1\", \"name\": \"pwd\", \"input\": {}}]},"
                  " {\"role\": \"user\", \"content\": [{\"type\": \"tool_result\", \"tool_use_id\": \"t1\", \"content\": \"/home/dev\"}]}]",
                  &o, NULL);
    CHECK("below the trigger, with only results cheaper than their markers, nothing was held back: not skipped",
          p && p->count == 0 && !p->skipped);
    mf_micro_plan_free(p);

    p = plan_of("[{\"role\": \"user\", \"content\": [{\"type\": \"tool_result\", \"tool_use_id\": \"t9\", \"content\": "
                "[{\"type\": \"text\", \"text\": \"Screenshot of the login page:\"}, {\"type\": \"image\", \"source\": "
                "{\"type\": \"base64\", \"media_type\": \"image/png\", \"data\": \"iVBORw0KGgo=\"}}]}]},"
                " {\"role\": \"assistant\", \"content\": \"The login page loads.\"}]",
                MF_FORMAT_AUTO, 0);
    CHECK("an image inside a result counts as its marker \"[image]\" (29 + 7 chars)",
          p && p->count == 1 && edit_is(p, 0, 0, 0, MF_EDIT_BLOCK_CONTENT, "unknown", 36));
    CHECK_EQ_U64("... and clearing it frees the image's 1600 tokens",
                 p ? p->milli_before - p->milli_after : 0, 1600000 + 7500 - 10250 /* the marker's own cost */);
    mf_micro_plan_free(p);

    p = plan_of("[{\"role\": \"assistant\", \"content\": [{\"type\": \"tool-call\", \"toolCallId\": \"c1\", \"toolName\": \"bash\", \"input\": {\"command\": \"pnpm build\"}}]},"
                " {\"role\": \"tool\", \"content\": [{\"type\": \"tool-result\", \"toolCallId\": \"c1\", \"toolName\": \"bash\", "
                "\"output\": {\"type\": \"error-text\", \"value\": \"sh: 1: pnpm: not found\\nexit status 127\"}}]},"
                " {\"role\": \"assistant\", \"content\": [{\"type\": \"tool-call\", \"toolCallId\": \"c2\", \"toolName\": \"bash\", \"input\": {\"command\": \"npm run build\"}}]},"
                " {\"role\": \"tool\", \"content\": [{\"type\": \"tool-result\", \"toolCallId\": \"c2\", \"toolName\": \"bash\", "
                "\"result\": \"> app@1.0.0 build\\n> vite build\\n\\nbuilt in 2.31s\"}]},"
                " {\"role\": \"assistant\", \"content\": \"It builds with npm.\"}]",
                MF_FORMAT_AUTO, 0);
    CHECK("an AI SDK error output is replaced as an error-text output",
          p && p->count == 2 && edit_is(p, 0, 1, 0, MF_EDIT_PART_OUTPUT_ERROR, "bash", 38));
    CHECK("an AI SDK v4 result is replaced in its \"result\" field",
          edit_is(p, 1, 3, 0, MF_EDIT_PART_RESULT, "bash", 46));
    mf_micro_plan_free(p);

    p = plan_of("[{\"role\": \"user\", \"content\": [{\"type\": \"tool_result\", \"tool_use_id\": \"t1\", "
                "\"content\": \"[truncated: bash result, 5120 chars]\"}]},"
                " {\"role\": \"user\", \"content\": [{\"type\": \"tool_result\", \"tool_use_id\": \"t2\", "
                "\"content\": [{\"type\": \"text\", \"text\": \"[truncated: read_file result, 880 chars]\"}]}]}]",
                MF_FORMAT_AUTO, 0);
    CHECK("results already starting with \"[truncated:\" (string or first text block) are left alone",
          p && p->count == 0 && !p->skipped);
    mf_micro_plan_free(p);
}

/* Applies the plan the way the wrapper does, then checks what must hold of the result. */
static void apply_and_replan(const char *name, const char *json, uint32_t keep)
{
    char fact[200];
    mf_micro_plan *p = plan_of(json, MF_FORMAT_AUTO, keep);
    snprintf(fact, sizeof fact, "%s, keep_recent %u: milli_after <= milli_before", name, keep);
    CHECK(fact, p && p->milli_after <= p->milli_before);
    char *applied = p ? apply_plan(json, p) : NULL;
    snprintf(fact, sizeof fact, "%s, keep_recent %u: every edit points at a tool result it can replace", name, keep);
    CHECK(fact, applied != NULL);
    if (!applied) { mf_micro_plan_free(p); return; }
    snprintf(fact, sizeof fact, "%s, keep_recent %u: the applied conversation's estimate is milli_after", name, keep);
    CHECK_EQ_U64(fact, estimate_of(applied, MF_FORMAT_AUTO), p->milli_after);
    mf_micro_plan *again = plan_of(applied, MF_FORMAT_AUTO, keep);
    snprintf(fact, sizeof fact, "%s, keep_recent %u: planning again on the applied conversation gives no edits", name, keep);
    CHECK(fact, again && again->count == 0);
    mf_micro_plan_free(again);
    again = plan_of(applied, MF_FORMAT_AUTO, 0);
    mf_micro_plan *all_of_them = plan_of(json, MF_FORMAT_AUTO, 0);
    snprintf(fact, sizeof fact, "%s, keep_recent %u: a later keep_recent 0 plan clears only what is left", name, keep);
    CHECK(fact, again && all_of_them && again->count + p->count == all_of_them->count);
    mf_micro_plan_free(all_of_them);
    mf_micro_plan_free(again);

    /* The transcript shows each marker where the result was, under the right tool name. */
    char *transcript = transcript_of(applied, MF_FORMAT_AUTO);
    int all = transcript != NULL;
    for (size_t i = 0; all && i < p->count; i++) {
        char line[160];
        snprintf(line, sizeof line, "[tool_result:%.*s] %.*s", (int)p->edits[i].tool_name_len, p->edits[i].tool_name,
                 (int)p->edits[i].replacement_len, p->edits[i].replacement);
        all = strstr(transcript, line) != NULL;
    }
    snprintf(fact, sizeof fact, "%s, keep_recent %u: the transcript shows each marker as the tool's result", name, keep);
    CHECK(fact, all);
    mf_free(transcript);
    free_json(applied);
    mf_micro_plan_free(p);
}

static void invariants(void)
{
    static const struct { const char *name, *json; } cases[] = {
        {"the Anthropic session", FX_SESSION_ANTHROPIC},
        {"the OpenAI session", FX_SESSION_OPENAI},
        {"the AI SDK session", FX_SESSION_AISDK},
        {"the Chinese conversation", FX_CHINESE_ANTHROPIC},
        {"the seed", FX_SEED_ANTHROPIC},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
        for (uint32_t keep = 0; keep <= 3; keep++) apply_and_replan(cases[c].name, cases[c].json, keep);

    /* The three forms of one session are cleared alike. */
    int alike = 1;
    for (uint32_t keep = 0; keep <= 5; keep++) {
        mf_micro_plan *a = plan_of(FX_SESSION_ANTHROPIC, MF_FORMAT_AUTO, keep);
        mf_micro_plan *o = plan_of(FX_SESSION_OPENAI, MF_FORMAT_AUTO, keep);
        mf_micro_plan *s = plan_of(FX_SESSION_AISDK, MF_FORMAT_AUTO, keep);
        alike &= a && o && s && a->count == o->count && a->count == s->count && a->chars_cleared == o->chars_cleared &&
                 a->chars_cleared == s->chars_cleared;
        for (size_t i = 0; alike && i < a->count; i++)
            alike &= a->edits[i].replacement_len == o->edits[i].replacement_len &&
                     memcmp(a->edits[i].replacement, o->edits[i].replacement, a->edits[i].replacement_len) == 0 &&
                     a->edits[i].replacement_len == s->edits[i].replacement_len &&
                     memcmp(a->edits[i].replacement, s->edits[i].replacement, a->edits[i].replacement_len) == 0;
        mf_micro_plan_free(a);
        mf_micro_plan_free(o);
        mf_micro_plan_free(s);
    }
    CHECK("for every keep_recent, the session's three forms get the same markers", alike);
}

/* A plan asked for per-message figures gives, from its one pass, exactly what
 * mf_doc_estimate_each gives, and their sum is the plan's milli_before; the flags name the
 * messages that hold results. */
static void figures_from_the_plan(void)
{
    static const struct { const char *name, *json; } cases[] = {
        {"the Anthropic session", FX_SESSION_ANTHROPIC},
        {"the OpenAI session", FX_SESSION_OPENAI},
        {"the AI SDK session", FX_SESSION_AISDK},
        {"the Chinese conversation", FX_CHINESE_ANTHROPIC},
        {"the server-tool conversation", FX_SERVER_TOOLS_ANTHROPIC},
        {"the AI SDK UI chat", FX_CHAT_AISDK_UI},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        for (int profile = 0; profile < MF_PROFILE_COUNT; profile++) {
            mf_doc *doc = parse(cases[c].json);
            mf_micro_options o;
            mf_micro_options_init(&o);
            o.profile = (mf_profile)profile;
            o.per_message = 1;
            mf_micro_plan *plan = NULL;
            mf_status st = doc ? mf_doc_micro_plan(doc, MF_FORMAT_AUTO, &o, &plan, NULL) : MF_ERR_PARSE;
            size_t n = plan ? plan->figure_count : 0;
            mf_msg_figures *each = n ? calloc(n, sizeof *each) : NULL;
            mf_status st_each = doc && each ? mf_doc_estimate_each(doc, MF_FORMAT_AUTO, (mf_profile)profile, each, n, NULL) : MF_ERR_NOMEM;
            uint64_t sum = 0, whole = 0;
            int same = st == MF_OK && st_each == MF_OK && n > 0, results_flagged = 0;
            for (size_t m = 0; same && m < n; m++) {
                same = plan->figures[m].milli == each[m].milli && plan->figures[m].results == each[m].results &&
                       plan->figures[m].flags == each[m].flags && each[m].results <= each[m].milli;
                sum += each[m].milli;
                results_flagged += (each[m].flags & MF_FIGURES_RESULTS) != 0;
            }
            if (doc) mf_doc_estimate(doc, MF_FORMAT_AUTO, (mf_profile)profile, &whole, NULL);
            char what[160];
            snprintf(what, sizeof what, "%s, profile %d: the plan's per-message figures are mf_doc_estimate_each's", cases[c].name, profile);
            CHECK(what, same);
            snprintf(what, sizeof what, "%s, profile %d: they sum to milli_before and to mf_doc_estimate", cases[c].name, profile);
            CHECK(what, same && sum == plan->milli_before && sum == whole);
            snprintf(what, sizeof what, "%s, profile %d: some message is flagged as holding results", cases[c].name, profile);
            CHECK(what, results_flagged > 0);
            free(each);
            mf_micro_plan_free(plan);
            mf_doc_free(doc);
        }
    }
    mf_micro_plan *plain = plan_of(FX_SESSION_ANTHROPIC, MF_FORMAT_AUTO, 3);
    CHECK("without per_message, a plan holds no figures", plain && plain->figures == NULL && plain->figure_count == 0);
    mf_micro_plan_free(plain);

    mf_doc *doc = parse(FX_SESSION_ANTHROPIC);
    mf_msg_figures one[1];
    mf_error err;
    CHECK("mf_doc_estimate_each refuses a count that is not the document's",
          doc && mf_doc_estimate_each(doc, MF_FORMAT_AUTO, MF_PROFILE_BAREAGENT, one, 1, &err) == MF_ERR_INVALID_ARG &&
              strstr(err.message, "expected 1 messages") != NULL);
    mf_doc_free(doc);
}

/* A plan with edits lists the thinking of the assistant messages from the first edited one on,
 * each with its estimate: what a caller that drops that thinking after the edits (the JS
 * wrapper's prefix-bound policy) takes off milli_after to price what is left. */
#define RUN_OUTPUT "FAIL test/date.test.js: formats UTC midnight (12 ms); expected 00:00, got 08:00. "
#define RUN_OUTPUT8 RUN_OUTPUT RUN_OUTPUT RUN_OUTPUT RUN_OUTPUT RUN_OUTPUT RUN_OUTPUT RUN_OUTPUT RUN_OUTPUT
static void thinking_after_the_edits(void)
{
    static const char json[] =
        "[{\"role\": \"user\", \"content\": \"Run the tests and fix what fails.\"},"
        " {\"role\": \"assistant\", \"content\": [{\"type\": \"thinking\", \"thinking\": \"Start with the suite.\", \"signature\": \"EqQBCkgIARABGAIiQL2v\"},"
        "   {\"type\": \"tool_use\", \"id\": \"toolu_01\", \"name\": \"bash\", \"input\": {\"command\": \"npm test\"}}]},"
        " {\"role\": \"user\", \"content\": [{\"type\": \"tool_result\", \"tool_use_id\": \"toolu_01\", \"content\": \"" RUN_OUTPUT8 "\"}]},"
        " {\"role\": \"assistant\", \"content\": [{\"type\": \"thinking\", \"thinking\": \"The offset is applied twice; read the helper.\", \"signature\": \"EqQBCkgIARABGAIiQM9x\"},"
        "   {\"type\": \"text\", \"text\": \"Reading the date helper.\"},"
        "   {\"type\": \"tool_use\", \"id\": \"toolu_02\", \"name\": \"read_file\", \"input\": {\"path\": \"src/date.js\"}}]},"
        " {\"role\": \"user\", \"content\": [{\"type\": \"tool_result\", \"tool_use_id\": \"toolu_02\", \"content\": \"" RUN_OUTPUT8 "\"}]},"
        " {\"role\": \"assistant\", \"content\": [{\"type\": \"redacted_thinking\", \"data\": \"EmwKAhgBEgy3va3pzix\"}, {\"type\": \"text\", \"text\": \"Fixed.\"}]},"
        " {\"role\": \"user\", \"content\": \"Thanks.\"}]";
    mf_micro_plan *p = plan_of(json, MF_FORMAT_AUTO, 1);
    CHECK("keep_recent 1 clears the first run's output only", p && p->count == 1 && p->edits[0].message == 2);
    CHECK("the thinking from the edited message on is listed: message 3's thinking, message 5's redacted thinking",
          p && p->thinking_count == 2 && p->thinking[0].message == 3 && p->thinking[0].part == 0 &&
              p->thinking[1].message == 5 && p->thinking[1].part == 0);
    CHECK("message 1's thinking, before the edit, is not", p && p->thinking_count == 2);
    char left[2048];
    snprintf(left, sizeof left,
             "[{\"role\": \"user\", \"content\": \"Run the tests and fix what fails.\"},"
             " {\"role\": \"assistant\", \"content\": [{\"type\": \"thinking\", \"thinking\": \"Start with the suite.\", \"signature\": \"EqQBCkgIARABGAIiQL2v\"},"
             "   {\"type\": \"tool_use\", \"id\": \"toolu_01\", \"name\": \"bash\", \"input\": {\"command\": \"npm test\"}}]},"
             " {\"role\": \"user\", \"content\": [{\"type\": \"tool_result\", \"tool_use_id\": \"toolu_01\", \"content\": \"[truncated: bash result, %zu chars]\"}]},"
             " {\"role\": \"assistant\", \"content\": [{\"type\": \"text\", \"text\": \"Reading the date helper.\"},"
             "   {\"type\": \"tool_use\", \"id\": \"toolu_02\", \"name\": \"read_file\", \"input\": {\"path\": \"src/date.js\"}}]},"
             " {\"role\": \"user\", \"content\": [{\"type\": \"tool_result\", \"tool_use_id\": \"toolu_02\", \"content\": \"" RUN_OUTPUT8 "\"}]},"
             " {\"role\": \"assistant\", \"content\": [{\"type\": \"text\", \"text\": \"Fixed.\"}]},"
             " {\"role\": \"user\", \"content\": \"Thanks.\"}]",
             strlen(RUN_OUTPUT8));
    uint64_t thinking = 0;
    for (size_t t = 0; p && t < p->thinking_count; t++) thinking += p->thinking[t].milli;
    CHECK("milli_after less the listed thinking is the estimate of the conversation cleared and without that thinking",
          p && thinking > 0 && p->milli_after - thinking == estimate_of(left, MF_FORMAT_AUTO));
    mf_micro_plan_free(p);

    static const char chat[] =
        "[{\"role\": \"user\", \"content\": \"Run the tests.\"},"
        " {\"role\": \"assistant\", \"content\": null, \"tool_calls\": [{\"id\": \"call_1\", \"type\": \"function\", \"function\": {\"name\": \"bash\", \"arguments\": \"{\\\"command\\\": \\\"npm test\\\"}\"}}]},"
        " {\"role\": \"tool\", \"tool_call_id\": \"call_1\", \"content\": \"" RUN_OUTPUT8 "\"},"
        " {\"role\": \"assistant\", \"content\": \"The offset is applied twice.\", \"reasoning\": \"Compare the expected and actual hours.\"},"
        " {\"role\": \"user\", \"content\": \"Fix it.\"}]";
    p = plan_of(chat, MF_FORMAT_AUTO, 0);
    CHECK("a Chat message's reasoning, beside its content, is listed with part SIZE_MAX",
          p && p->count == 1 && p->thinking_count == 1 && p->thinking[0].message == 3 && p->thinking[0].part == SIZE_MAX &&
              p->thinking[0].milli == mf_estimate_text("Compare the expected and actual hours.", 38, MF_PROFILE_BAREAGENT));
    mf_micro_plan_free(p);
    p = plan_of(chat, MF_FORMAT_AUTO, 3);
    CHECK("a plan without edits lists no thinking", p && p->count == 0 && p->thinking_count == 0 && p->thinking == NULL);
    mf_micro_plan_free(p);
}

/* The plan of `json` with clear_tool_inputs and keep_recent 0, or NULL. */
static mf_micro_plan *inputs_plan(const char *json)
{
    mf_doc *doc = parse(json);
    mf_micro_options o;
    mf_micro_options_init(&o);
    o.keep_recent = 0;
    o.clear_tool_inputs = 1;
    mf_micro_plan *plan = NULL;
    if (doc && mf_doc_micro_plan(doc, MF_FORMAT_AUTO, &o, &plan, NULL) != MF_OK) plan = NULL;
    mf_doc_free(doc);
    return plan;
}

static int replacement_is(const mf_micro_edit *e, const char *json)
{
    return e->replacement_len == strlen(json) && memcmp(e->replacement, json, e->replacement_len) == 0;
}

static void clear_tool_inputs(void)
{
    /* 200 CJK characters and 400 letters: each costlier than its marker; "a.txt" is not */
    char big[1024] = "";
    for (int i = 0; i < 200; i++) strcat(big, "\xe6\x96\x87");
    for (int i = 0; i < 400; i++) strcat(big, "x");
    char json[8192];
    snprintf(json, sizeof json,
             "[{\"role\":\"user\",\"content\":\"go\"},"
             "{\"role\":\"assistant\",\"content\":[{\"type\":\"tool_use\",\"id\":\"t1\",\"name\":\"write_file\",\"input\":{\"path\":\"a.txt\",\"content\":\"%s\",\"mode\":420}},"
             "{\"type\":\"tool_use\",\"id\":\"t2\",\"name\":\"write_file\",\"input\":{\"path\":\"b.txt\",\"content\":\"%s\"}}]},"
             "{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\",\"tool_use_id\":\"t1\",\"content\":\"%s\"},"
             "{\"type\":\"tool_result\",\"tool_use_id\":\"t2\",\"content\":\"ok\"}]},"
             "{\"role\":\"assistant\",\"content\":\"done\"},{\"role\":\"user\",\"content\":\"next\"}]",
             big, big, big);
    mf_micro_plan *p = inputs_plan(json);
    CHECK("the cleared result's call gets an input edit before it, in message order",
          p && p->count == 2 && p->edits[0].message == 1 && p->edits[0].part == 0 && p->edits[0].target == MF_EDIT_CALL_INPUT &&
              p->edits[1].message == 2 && p->edits[1].target == MF_EDIT_BLOCK_CONTENT);
    CHECK("the new input keeps path and mode, its content a marker that counts code points",
          p && replacement_is(&p->edits[0], "{\"path\":\"a.txt\",\"content\":\"[truncated: write_file input, 600 chars]\",\"mode\":420}"));
    CHECK("a call whose result is kept (no cheaper than its marker) keeps its input", p && p->count == 2);
    CHECK("chars_cleared counts the input's strings too", p && p->chars_cleared == 600 + 600);
    char *after = p ? apply_plan(json, p) : NULL;
    CHECK("milli_after is the estimate of the conversation with both edits applied",
          after && p->milli_after == estimate_of(after, MF_FORMAT_AUTO));
    mf_micro_plan *again = after ? inputs_plan(after) : NULL;
    CHECK("a second plan has nothing left to clear (markers are left alone)", again && again->count == 0);
    mf_micro_plan_free(again);
    free_json(after);
    mf_micro_plan_free(p);

    /* OpenAI Chat: arguments are a string of JSON, and stay one */
    snprintf(json, sizeof json,
             "[{\"role\":\"user\",\"content\":\"go\"},"
             "{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"id\":\"c1\",\"type\":\"function\",\"function\":{\"name\":\"write_file\",\"arguments\":\"{\\\"path\\\":\\\"a.txt\\\",\\\"content\\\":\\\"%s\\\"}\"}}]},"
             "{\"role\":\"tool\",\"tool_call_id\":\"c1\",\"content\":\"%s\"},"
             "{\"role\":\"assistant\",\"content\":\"done\"},{\"role\":\"user\",\"content\":\"next\"}]",
             big, big);
    p = inputs_plan(json);
    CHECK("OpenAI Chat: the call's function.arguments get a string edit",
          p && p->count == 2 && p->edits[0].target == MF_EDIT_CALL_ARGUMENTS && p->edits[0].part == 0 &&
              replacement_is(&p->edits[0], "{\"path\":\"a.txt\",\"content\":\"[truncated: write_file input, 600 chars]\"}"));
    after = p ? apply_plan(json, p) : NULL;
    CHECK("OpenAI Chat: milli_after is the estimate with both edits applied", after && p->milli_after == estimate_of(after, MF_FORMAT_AUTO));
    free_json(after);
    mf_micro_plan_free(p);

    /* arguments that are not JSON holding an object are left as they are */
    snprintf(json, sizeof json,
             "[{\"role\":\"user\",\"content\":\"go\"},"
             "{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"id\":\"c1\",\"type\":\"function\",\"function\":{\"name\":\"run\",\"arguments\":\"%s\"}}]},"
             "{\"role\":\"tool\",\"tool_call_id\":\"c1\",\"content\":\"%s\"},"
             "{\"role\":\"assistant\",\"content\":\"done\"},{\"role\":\"user\",\"content\":\"next\"}]",
             big, big);
    p = inputs_plan(json);
    CHECK("arguments that are no JSON object get no edit (the result still goes)", p && p->count == 1 && p->edits[0].target == MF_EDIT_MESSAGE_CONTENT);
    mf_micro_plan_free(p);
}

void test_micro(void)
{
    seed_semantics();
    keep_recent();
    options();
    odd_results();
    invariants();
    figures_from_the_plan();
    thinking_after_the_edits();
    clear_tool_inputs();
}
