/* test_alloc_failure.c — issue 7's allocation-failure injection: for each representative
 * operation on a realistic conversation, every allocation it makes is failed in turn
 * (once, then from there on). Each time the call must return MF_ERR_NOMEM (never crash,
 * never another code, never MF_OK with a different answer), leave no allocation live,
 * and the same call must succeed afterwards with the normal allocator. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "failing_alloc.h"
#include "fixtures.h"
#include "fixtures_responses.h"
#include "helpers.h"
#include "midfold.h"
#include "suites.h"

/* One operation under test: `run` makes the call (keeping its result), `fingerprint`
 * reads the result with failures off, `release` frees it. */
typedef struct op op;
struct op {
    const char *name;
    mf_status (*run)(op *o, mf_error *err);
    uint64_t (*fingerprint)(op *o);
    void (*release)(op *o);
    const char *json;           /* input text */
    enc tree;                   /* input as tree encoding (parse_tree) */
    mf_doc *doc;                /* input document (everything but the parsers) */
    mf_format format;
    mf_micro_options options;
    mf_compact_options compact;
    /* results */
    mf_doc *out_doc;
    char *text;
    size_t text_len;
    uint64_t milli;
    mf_micro_plan *plan;
    mf_validation *report;
    mf_compact_plan *cplan;
};

/* ---- the operations ---- */

static uint64_t fp_doc(const mf_doc *doc)
{
    char *t = NULL;
    size_t n = 0;
    uint64_t milli = 0, h = FP_START;
    if (mf_doc_serialize(doc, MF_FORMAT_AUTO, &t, &n, NULL) == MF_OK) h = fp_bytes(h, t, n);
    mf_free(t);
    if (mf_doc_estimate(doc, MF_FORMAT_AUTO, MF_PROFILE_BAREAGENT, &milli, NULL) == MF_OK) h = fp_u64(h, milli);
    return fp_u64(h, (uint64_t)mf_doc_detect(doc));
}

static mf_status run_parse_json(op *o, mf_error *err) { return mf_doc_parse_json(o->json, strlen(o->json), &o->out_doc, err); }
static mf_status run_parse_tree(op *o, mf_error *err) { return mf_doc_parse_tree(o->tree.data, o->tree.len, &o->out_doc, err); }
static uint64_t fp_out_doc(op *o) { return fp_doc(o->out_doc); }
static void release_out_doc(op *o) { mf_doc_free(o->out_doc); o->out_doc = NULL; }

static mf_status run_estimate(op *o, mf_error *err)
{
    return mf_doc_estimate(o->doc, o->format, MF_PROFILE_BAREAGENT, &o->milli, err);
}
static uint64_t fp_milli(op *o) { return o->milli; }
static void release_nothing(op *o) { o->milli = 0; }

static mf_status run_serialize(op *o, mf_error *err)
{
    return mf_doc_serialize(o->doc, o->format, &o->text, &o->text_len, err);
}
static uint64_t fp_text(op *o) { return o->text ? fp_bytes(FP_START, o->text, o->text_len) : 0; }
static void release_text(op *o) { mf_free(o->text); o->text = NULL; }

static mf_status run_micro(op *o, mf_error *err) { return mf_doc_micro_plan(o->doc, o->format, &o->options, &o->plan, err); }
static uint64_t fp_plan(op *o)
{
    const mf_micro_plan *p = o->plan;
    if (!p) return 0;
    uint64_t h = fp_u64(FP_START, p->count);
    h = fp_u64(fp_u64(fp_u64(fp_u64(h, p->chars_cleared), p->milli_before), p->milli_after), (uint64_t)p->skipped);
    for (size_t i = 0; i < p->count; i++) {
        const mf_micro_edit *e = &p->edits[i];
        h = fp_u64(fp_u64(fp_u64(fp_u64(h, e->message), e->part), (uint64_t)e->target), e->chars);
        h = fp_bytes(fp_bytes(h, e->tool_name, e->tool_name_len), e->replacement, e->replacement_len);
    }
    return h;
}
static void release_plan(op *o) { mf_micro_plan_free(o->plan); o->plan = NULL; }

static mf_status run_validate(op *o, mf_error *err) { return mf_doc_validate(o->doc, o->format, &o->report, err); }
static uint64_t fp_report(op *o)
{
    const mf_validation *v = o->report;
    if (!v) return 0;
    uint64_t h = fp_u64(fp_u64(FP_START, (uint64_t)v->format), v->count);
    for (size_t i = 0; i < v->count; i++) {
        const mf_problem *p = &v->problems[i];
        h = fp_u64(fp_u64(fp_u64(h, (uint64_t)p->code), p->message), p->part);
        h = fp_bytes(h, p->text, strlen(p->text));
    }
    return h;
}
static void release_report(op *o) { mf_validation_free(o->report); o->report = NULL; }

static mf_status run_compact(op *o, mf_error *err) { return mf_doc_compact_plan(o->doc, o->format, &o->compact, &o->cplan, err); }
static uint64_t fp_compact(op *o)
{
    const mf_compact_plan *p = o->cplan;
    if (!p) return 0;
    uint64_t h = fp_u64(fp_u64(fp_u64(FP_START, p->tail_start), p->head_count), p->middle_count);
    h = fp_bytes(h, p->head, p->head_count * sizeof *p->head);
    h = fp_bytes(h, p->middle, p->middle_count * sizeof *p->middle);
    h = fp_bytes(fp_bytes(h, p->system, p->system_len), p->prompt, p->prompt_len);
    h = fp_u64(fp_u64(fp_u64(h, (uint64_t)p->language), p->transcript_chars), p->shrunk_results);
    h = fp_u64(fp_u64(fp_u64(h, p->omitted_messages), p->milli_middle), p->milli_tail);
    return fp_u64(h, (uint64_t)p->only_previous_summary);
}
static void release_compact(op *o) { mf_compact_plan_free(o->cplan); o->cplan = NULL; }

static mf_status run_digest(op *o, mf_error *err)
{
    return mf_doc_digest(o->doc, o->format, 300, MF_LANG_AUTO, MF_PROFILE_BAREAGENT, &o->text, &o->text_len, err);
}

/* ---- the walk ---- */

typedef struct tally {
    size_t total;        /* allocations of the reference run */
    size_t other_code;   /* a failure reported as something else than MF_ERR_NOMEM */
    size_t wrong_ok;     /* MF_OK with an answer different from the reference */
    size_t same_ok;      /* MF_OK with the reference answer (the failure was absorbed) */
    size_t not_reached;  /* the planned failure never happened */
    size_t leaked;       /* allocations left live after the call */
    size_t bad_error;    /* the error out-parameter or the output pointer not as documented */
} tally;

static void fail_each(op *o, uint64_t reference, bool persistent, tally *t)
{
    size_t live = fa_live();
    for (size_t n = 1; n <= t->total; n++) {
        mf_error err;
        memset(&err, 0, sizeof err);
        fa_fail_nth(n, persistent);
        mf_status st = o->run(o, &err);
        bool reached = fa_failed();
        fa_reset();
        if (!reached) t->not_reached++;
        if (st == MF_OK) {
            if (o->fingerprint(o) == reference) t->same_ok++;
            else t->wrong_ok++;
        } else if (st != MF_ERR_NOMEM) {
            t->other_code++;
            if (t->other_code == 1) printf("     %s: allocation %zu failing gave status %d (%s)\n", o->name, n, st, err.message);
        } else if (err.code != MF_ERR_NOMEM || o->out_doc || o->text || o->plan || o->report || o->cplan) {
            t->bad_error++;
        }
        if (st == MF_OK && t->wrong_ok + t->same_ok == 1)
            printf("     %s: allocation %zu failing still gave MF_OK (%s answer)\n", o->name, n,
                   t->wrong_ok ? "a different" : "the same");
        o->release(o);
        if (fa_live() != live) {
            t->leaked++;
            live = fa_live();
        }
    }
}

static void walk(op *o)
{
    char fact[240];
    fa_reset();
    size_t live = fa_live();
    mf_status st = o->run(o, NULL);
    tally t = {0, 0, 0, 0, 0, 0, 0};
    t.total = fa_allocations();
    uint64_t reference = st == MF_OK ? o->fingerprint(o) : 0;
    o->release(o);
    snprintf(fact, sizeof fact, "%s succeeds with the counting allocator", o->name);
    if (!CHECK(fact, st == MF_OK && fa_live() == live)) return;
    snprintf(fact, sizeof fact, "%s allocates (there is something to fail)", o->name);
    CHECK(fact, t.total > 0);

    tally once = t, from = t;
    fail_each(o, reference, false, &once);
    fail_each(o, reference, true, &from);

    snprintf(fact, sizeof fact, "%s: each of its %zu allocations failing in turn gives MF_ERR_NOMEM", o->name, t.total);
    CHECK(fact, once.other_code == 0 && once.wrong_ok == 0 && once.same_ok == 0);
    snprintf(fact, sizeof fact, "%s: never MF_OK with a different answer when an allocation fails", o->name);
    CHECK(fact, once.wrong_ok == 0 && from.wrong_ok == 0);
    snprintf(fact, sizeof fact, "%s: every allocation failing from the Nth on gives MF_ERR_NOMEM", o->name);
    CHECK(fact, from.other_code == 0 && from.wrong_ok == 0 && from.same_ok == 0);
    snprintf(fact, sizeof fact, "%s: on MF_ERR_NOMEM the error says so and no result is handed out", o->name);
    CHECK(fact, once.bad_error == 0 && from.bad_error == 0);
    snprintf(fact, sizeof fact, "%s: the allocations it makes are the same each run (every planned failure happens)", o->name);
    CHECK(fact, once.not_reached == 0 && from.not_reached == 0);
    snprintf(fact, sizeof fact, "%s: no allocation is left live after any failure", o->name);
    CHECK(fact, once.leaked == 0 && from.leaked == 0);

    fa_reset();
    st = o->run(o, NULL);
    snprintf(fact, sizeof fact, "%s succeeds again, with the same answer, after all those failures", o->name);
    CHECK(fact, st == MF_OK && o->fingerprint(o) == reference);
    o->release(o);
    snprintf(fact, sizeof fact, "%s: nothing live once its result is freed", o->name);
    CHECK(fact, fa_live() == live);
}

/* A conversation breaking several rules, so validation allocates for its problems. */
static const char BROKEN[] =
    "[{\"role\": \"user\", \"content\": \"Clean the build folder.\"},"
    " {\"role\": \"assistant\", \"content\": [{\"type\": \"tool_use\", \"id\": \"toolu_01\", \"name\": \"bash\", \"input\": {\"command\": \"rm -rf build\"}},"
    " {\"type\": \"tool_use\", \"id\": \"toolu_01\", \"name\": \"bash\", \"input\": {\"command\": \"ls\"}}]},"
    " {\"role\": \"user\", \"content\": [{\"type\": \"text\", \"text\": \"done?\"}, {\"type\": \"tool_result\", \"tool_use_id\": \"toolu_09\", \"content\": \"\"}]},"
    " {\"role\": \"robot\", \"content\": \"beep\"},"
    " {\"role\": \"assistant\", \"content\": [{\"type\": \"video\"}, {\"type\": \"tool_use\", \"name\": \"ls\", \"input\": {}}]}]";

static void with_doc(op *o, const char *json, mf_format format)
{
    o->json = json;
    o->format = format;
    o->doc = parse(json);
    mf_micro_options_init(&o->options);
}

/* Calls whose inputs carry a file (clear_tool_inputs replaces it): as an object and as a string of JSON. */
#define WRITTEN "The micro-compaction plan lists edits; the caller applies them to its own objects. 待处理的轮次永远不会被编辑。" \
                "The micro-compaction plan lists edits; the caller applies them to its own objects. 待处理的轮次永远不会被编辑。"
static const char FX_WRITES[] =
    "[{\"role\":\"user\",\"content\":\"back up the notes\"},"
    "{\"role\":\"assistant\",\"content\":[{\"type\":\"tool_use\",\"id\":\"t1\",\"name\":\"write_file\",\"input\":{\"path\":\"a.md\",\"content\":\"" WRITTEN "\"}}]},"
    "{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\",\"tool_use_id\":\"t1\",\"content\":\"" WRITTEN "\"}]},"
    "{\"role\":\"assistant\",\"content\":\"done\"},{\"role\":\"user\",\"content\":\"next\"}]";
static const char FX_WRITES_OPENAI[] =
    "[{\"role\":\"user\",\"content\":\"back up the notes\"},"
    "{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"id\":\"c1\",\"type\":\"function\",\"function\":{\"name\":\"write_file\","
    "\"arguments\":\"{\\\"path\\\":\\\"a.md\\\",\\\"content\\\":\\\"" WRITTEN "\\\"}\"}}]},"
    "{\"role\":\"tool\",\"tool_call_id\":\"c1\",\"content\":\"" WRITTEN "\"},"
    "{\"role\":\"assistant\",\"content\":\"done\"},{\"role\":\"user\",\"content\":\"next\"}]";

void test_alloc_failure(void)
{
    static const struct { const char *label, *json; } inputs[] = {
        {"Anthropic session", FX_SESSION_ANTHROPIC},
        {"OpenAI session", FX_SESSION_OPENAI},
        {"AI SDK session", FX_SESSION_AISDK},
        {"Chinese conversation", FX_CHINESE_ANTHROPIC},
        {"Responses agent run", FX_RESPONSES_RUN},
        {"Anthropic server tools", FX_SERVER_TOOLS_ANTHROPIC},
        {"AI SDK approval flow", FX_APPROVAL_AISDK},
        {"AI SDK chat UI mid-stream", FX_STREAMING_AISDK_UI},
        {"Anthropic file writes", FX_WRITES},
        {"OpenAI file writes", FX_WRITES_OPENAI},
    };
    char name[120];
    for (size_t i = 0; i < sizeof inputs / sizeof inputs[0]; i++) {
        op o;
        memset(&o, 0, sizeof o);
        with_doc(&o, inputs[i].json, MF_FORMAT_AUTO);
        if (!CHECK("the fixture parses", o.doc != NULL)) continue;
        o.name = name;

        snprintf(name, sizeof name, "parsing the %s as JSON", inputs[i].label);
        o.run = run_parse_json; o.fingerprint = fp_out_doc; o.release = release_out_doc;
        walk(&o);

        o.tree = tree_encode_json(inputs[i].json);
        snprintf(name, sizeof name, "parsing the %s as a tree encoding", inputs[i].label);
        o.run = run_parse_tree;
        if (CHECK("the fixture tree-encodes", !o.tree.failed)) walk(&o);
        free(o.tree.data);

        snprintf(name, sizeof name, "estimating the %s", inputs[i].label);
        o.run = run_estimate; o.fingerprint = fp_milli; o.release = release_nothing;
        walk(&o);

        snprintf(name, sizeof name, "serializing the %s", inputs[i].label);
        o.run = run_serialize; o.fingerprint = fp_text; o.release = release_text;
        walk(&o);

        snprintf(name, sizeof name, "planning micro-compaction of the %s (keep_recent 0)", inputs[i].label);
        o.options.keep_recent = 0;
        o.run = run_micro; o.fingerprint = fp_plan; o.release = release_plan;
        walk(&o);

        snprintf(name, sizeof name, "planning micro-compaction of the %s (keep_recent 0, clear_tool_inputs)", inputs[i].label);
        o.options.clear_tool_inputs = 1;
        walk(&o);
        o.options.clear_tool_inputs = 0;

        snprintf(name, sizeof name, "validating the %s", inputs[i].label);
        o.run = run_validate; o.fingerprint = fp_report; o.release = release_report;
        walk(&o);

        snprintf(name, sizeof name, "planning compaction of the %s (no tail budget)", inputs[i].label);
        mf_compact_options_init(&o.compact);
        o.compact.keep_tail_tokens = 0;
        o.run = run_compact; o.fingerprint = fp_compact; o.release = release_compact;
        walk(&o);

        snprintf(name, sizeof name, "planning compaction of the %s with a 120-token transcript cap", inputs[i].label);
        o.compact.max_transcript_tokens = 120;
        walk(&o);

        /* A fold's plan: the document read with its micro-compaction edits and priced with the
         * micro plan's figures (the plans themselves made with every allocation working). */
        mf_micro_options mo;
        mf_micro_options_init(&mo);
        mo.keep_recent = 0;
        mo.per_message = 1;
        mf_micro_plan *mp = NULL;
        uint64_t *milli = NULL;
        if (mf_doc_micro_plan(o.doc, MF_FORMAT_AUTO, &mo, &mp, NULL) == MF_OK && mp->count &&
            (milli = malloc(mp->figure_count * sizeof *milli)) != NULL) {
            for (size_t m = 0; m < mp->figure_count; m++) milli[m] = mp->figures[m].milli;
            snprintf(name, sizeof name, "planning compaction of the %s read with its clearing, with a 120-token transcript cap",
                     inputs[i].label);
            o.compact.edits = mp->edits;
            o.compact.edit_count = mp->count;
            o.compact.message_milli = milli;
            o.compact.message_count = mp->figure_count;
            o.compact.message_format = mp->format;
            walk(&o);
            mf_compact_options_init(&o.compact);
        }
        free(milli);
        mf_micro_plan_free(mp);

        snprintf(name, sizeof name, "writing a digest of the %s", inputs[i].label);
        o.run = run_digest; o.fingerprint = fp_text; o.release = release_text;
        walk(&o);
        mf_doc_free(o.doc);
    }

    /* The AI SDK session answered and followed by a new request: its JSON test report is
     * in the middle now, and a tight cap writes it as a marker counting its JSON text. */
    static char followed[16384];
    size_t n = strlen(FX_SESSION_AISDK);
    while (n && FX_SESSION_AISDK[n - 1] != ']') n--;
    CHECK("the session with a new request fits the test's buffer", n + 64 < sizeof followed);
    snprintf(followed, sizeof followed, "%.*s, {\"role\": \"user\", \"content\": \"Fix it, please.\"}]",
             (int)(n ? n - 1 : 0), FX_SESSION_AISDK);
    op o;
    memset(&o, 0, sizeof o);
    with_doc(&o, followed, MF_FORMAT_AUTO);
    o.name = "planning compaction of the AI SDK session and a new request, with a 120-token transcript cap";
    mf_compact_options_init(&o.compact);
    o.compact.keep_tail_tokens = 0;
    o.compact.max_transcript_tokens = 120;
    o.run = run_compact; o.fingerprint = fp_compact; o.release = release_compact;
    if (CHECK("the session with a new request parses", o.doc != NULL)) {
        mf_compact_plan *p = NULL;
        CHECK("its compaction plan shrinks every result in the middle, the JSON report too",
              mf_doc_compact_plan(o.doc, MF_FORMAT_AUTO, &o.compact, &p, NULL) == MF_OK && p->shrunk_results == 6 &&
                  strstr(p->prompt, "[tool_result:run_tests] [truncated: run_tests result, 83 chars]") != NULL);
        mf_compact_plan_free(p);
        walk(&o);
    }
    mf_doc_free(o.doc);

    memset(&o, 0, sizeof o);
    with_doc(&o, BROKEN, MF_FORMAT_ANTHROPIC);
    o.name = "validating a conversation with seven problems";
    o.run = run_validate; o.fingerprint = fp_report; o.release = release_report;
    if (CHECK("the broken conversation parses", o.doc != NULL)) {
        mf_validation *v = NULL;
        CHECK("the broken conversation has problems to report",
              mf_doc_validate(o.doc, MF_FORMAT_ANTHROPIC, &v, NULL) == MF_OK && v && v->count >= 5);
        mf_validation_free(v);
        walk(&o);
    }
    mf_doc_free(o.doc);

    /* Detection reads the document and needs no memory. */
    mf_doc *doc = parse(FX_SESSION_ANTHROPIC);
    fa_fail_nth(1, true);
    mf_format f = mf_doc_detect(doc);
    bool allocated = fa_allocations() > 0;
    fa_reset();
    CHECK("detecting a format allocates nothing", f == MF_FORMAT_ANTHROPIC && !allocated);
    uint64_t milli = mf_estimate_text(FX_SESSION_ANTHROPIC, strlen(FX_SESSION_ANTHROPIC), MF_PROFILE_BAREAGENT);
    CHECK("estimating text allocates nothing", milli > 0 && fa_allocations() == 0);
    mf_doc_free(doc);
}
