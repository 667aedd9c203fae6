/* test_aisdk.c — the AI SDK adapters: ModelMessage approvals and media (adapt_aisdk.c,
 * media.c) and UIMessage (adapt_aisdk_ui.c), through every operation: detection,
 * estimate, transcript, micro-compaction, the compaction cut and validation. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "fixtures.h"
#include "helpers.h"
#include "midfold.h"
#include "suites.h"

#define IMAGE_MILLI 1600000u
#define DOCUMENT_MILLI 3000000u

static mf_format detect(const char *json)
{
    mf_doc *doc = parse(json);
    mf_format f = doc ? mf_doc_detect(doc) : MF_FORMAT_UNKNOWN;
    mf_doc_free(doc);
    return f;
}

static size_t problems(const char *json, mf_format format, mf_problem_code *first, size_t *message, size_t *part)
{
    mf_doc *doc = parse(json);
    mf_validation *v = NULL;
    size_t n = SIZE_MAX;
    if (doc && mf_doc_validate(doc, format, &v, NULL) == MF_OK) {
        n = v->count;
        if (n && first) { *first = v->problems[0].code; *message = v->problems[0].message; *part = v->problems[0].part; }
    }
    mf_validation_free(v);
    mf_doc_free(doc);
    return n;
}

static int edits_only(const mf_micro_plan *p, size_t message, size_t part, mf_edit_target target)
{
    for (size_t i = 0; p && i < p->count; i++)
        if (p->edits[i].message == message && p->edits[i].part == part && p->edits[i].target == target) return 1;
    return 0;
}

static void approvals(void)
{
    CHECK("an approval flow is AI SDK (a tool message led by tool-approval-response)", detect(FX_APPROVAL_AISDK) == MF_FORMAT_AISDK);
    CHECK("a tool message holding only an approval response is AI SDK",
          detect("[{\"role\": \"tool\", \"content\": [{\"type\": \"tool-approval-response\", \"approvalId\": \"a1\", \"approved\": true}]}]") ==
              MF_FORMAT_AISDK);
    CHECK("the approval flow validates", problems(FX_APPROVAL_AISDK, MF_FORMAT_AUTO, NULL, NULL, NULL) == 0);
    CHECK("awaiting its approval, the call is not reported unanswered", problems(FX_AWAITING_AISDK, MF_FORMAT_AUTO, NULL, NULL, NULL) == 0);
    char *t = transcript_of(FX_APPROVAL_AISDK, MF_FORMAT_AUTO);
    CHECK("the request follows its call in the transcript",
          t && strstr(t, "[tool_use:delete_file] {\"path\": \"src/login.old.css\"}\n[approval_request:delete_file]"));
    CHECK("the denial is shown with its reason", t && strstr(t, "[approval:delete_file] denied: keep it, the marketing page still uses it\n"
                                                              "[tool_result:delete_file] [execution denied] keep it"));
    CHECK("approval ids are not in the transcript", t && !strstr(t, "aitxt-"));
    mf_free(t);

    mf_micro_plan *p = plan_of(FX_APPROVAL_AISDK, MF_FORMAT_AUTO, 0);
    CHECK("keepRecent 0 clears the file read", edits_only(p, 2, 0, MF_EDIT_PART_OUTPUT));
    CHECK("... and never the execution denial", p && !edits_only(p, 7, 0, MF_EDIT_PART_OUTPUT));
    mf_micro_plan_free(p);

    CHECK("answered, the approval flow folds up to its last exchange", plan_tail_start(FX_APPROVAL_AISDK, 0, 0) == 5);
    /* The user wrote something else instead of answering: the request is still pending. */
    size_t n = strlen(FX_AWAITING_AISDK);
    while (n && FX_AWAITING_AISDK[n - 1] != ']') n--;
    char *ignored = malloc(n + 128);
    snprintf(ignored, n + 128, "%.*s, {\"role\": \"user\", \"content\": \"先别删\"}]", (int)(n - 1), FX_AWAITING_AISDK);
    CHECK("an unanswered request is never folded: the tail starts at its message", plan_tail_start(ignored, 0, 0) == 5);
    free(ignored);

    mf_problem_code code;
    size_t m, part;
    CHECK("a request naming no call is reported at its part",
          problems("[{\"role\": \"assistant\", \"content\": [{\"type\": \"text\", \"text\": \"ok\"}, "
                   "{\"type\": \"tool-approval-request\", \"approvalId\": \"a1\", \"toolCallId\": \"nope\"}]}]",
                   MF_FORMAT_AISDK, &code, &m, &part) == 1 &&
              code == MF_PROBLEM_RESULT_WITHOUT_CALL && m == 0 && part == 1);
}

static void media(void)
{
    /* 100,000 base64 characters decode to 75,000 bytes: three started 32 KiB pages. */
    size_t n = 100000;
    char *json = malloc(n + 512);
    int head = snprintf(json, 512, "[{\"role\": \"user\", \"content\": [{\"type\": \"file\", \"mediaType\": \"application/pdf\", "
                                   "\"filename\": \"spec.pdf\", \"data\": \"");
    memset(json + head, 'Q', n);
    strcpy(json + head + n, "\"}]}]");
    uint64_t empty = estimate_of("[{\"role\": \"user\", \"content\": []}]", MF_FORMAT_AISDK);
    CHECK("a base64 PDF costs one document per started 32 KiB", estimate_of(json, MF_FORMAT_AISDK) - empty == 3 * DOCUMENT_MILLI);
    char *t = transcript_of(json, MF_FORMAT_AISDK);
    CHECK("a file shows as [file: NAME]", t && strcmp(t, "[user]\n[file: spec.pdf]") == 0);
    mf_free(t);
    free(json);
    CHECK("a file part with an image media type is an image",
          estimate_of("[{\"role\": \"user\", \"content\": [{\"type\": \"file\", \"mediaType\": \"image/png\", \"data\": \"iVBORw0KGgo=\"}]}]",
                      MF_FORMAT_AISDK) - empty == IMAGE_MILLI);
    CHECK("a URL document costs one document",
          estimate_of("[{\"role\": \"user\", \"content\": [{\"type\": \"file\", \"mediaType\": \"application/pdf\", "
                      "\"data\": \"https://example.com/a.pdf\"}]}]", MF_FORMAT_AISDK) - empty == DOCUMENT_MILLI);
    CHECK("the screenshot in the approval flow costs one image",
          strstr(FX_APPROVAL_AISDK, "image-data") != NULL && estimate_of(FX_APPROVAL_AISDK, MF_FORMAT_AUTO) < 20000000u);

    /* A blob (a Uint8Array from JS) of 200,000 bytes: seven pages, and its size only. */
    enc e = {0};
    enc_u8(&e, 5); enc_u32(&e, 1);
    enc_u8(&e, 6); enc_u32(&e, 2);
    enc_u32(&e, 4); for (const char *k = "role"; *k; k++) enc_u8(&e, (unsigned char)*k);
    enc_u8(&e, 4); enc_u32(&e, 4); for (const char *k = "user"; *k; k++) enc_u8(&e, (unsigned char)*k);
    enc_u32(&e, 7); for (const char *k = "content"; *k; k++) enc_u8(&e, (unsigned char)*k);
    enc_u8(&e, 5); enc_u32(&e, 1);
    enc_u8(&e, 6); enc_u32(&e, 3);
    const char *kv[][2] = {{"type", "file"}, {"mediaType", "application/pdf"}};
    for (int i = 0; i < 2; i++) {
        enc_u32(&e, (uint32_t)strlen(kv[i][0])); for (const char *k = kv[i][0]; *k; k++) enc_u8(&e, (unsigned char)*k);
        enc_u8(&e, 4); enc_u32(&e, (uint32_t)strlen(kv[i][1])); for (const char *k = kv[i][1]; *k; k++) enc_u8(&e, (unsigned char)*k);
    }
    enc_u32(&e, 4); for (const char *k = "data"; *k; k++) enc_u8(&e, (unsigned char)*k);
    enc_u8(&e, 7); enc_u32(&e, 200000);
    mf_doc *doc = NULL;
    uint64_t milli = 0;
    CHECK("a tree with a blob parses", !e.failed && mf_doc_parse_tree(e.data, e.len, &doc, NULL) == MF_OK);
    CHECK("a 200,000-byte blob costs seven documents",
          doc && mf_doc_estimate(doc, MF_FORMAT_AISDK, MF_PROFILE_BAREAGENT, &milli, NULL) == MF_OK && milli - empty == 7 * DOCUMENT_MILLI);
    mf_doc_free(doc);
    free(e.data);
}

static void media_problems(void)
{
    mf_problem_code code;
    size_t m, part;
    CHECK("a file part without data is reported at its part",
          problems("[{\"role\": \"user\", \"content\": [{\"type\": \"text\", \"text\": \"see\"}, {\"type\": \"file\", \"mediaType\": \"application/pdf\"}]}]",
                   MF_FORMAT_AISDK, &code, &m, &part) == 1 && code == MF_PROBLEM_BAD_CONTENT && part == 1);
    CHECK("a file part without a media type is reported",
          problems("[{\"role\": \"user\", \"content\": [{\"type\": \"file\", \"data\": \"JVBERi0=\"}]}]", MF_FORMAT_AISDK, &code, &m, &part) == 1 &&
              code == MF_PROBLEM_BAD_CONTENT && part == 0);
    CHECK("an image part whose image is a number is reported",
          problems("[{\"role\": \"user\", \"content\": [{\"type\": \"image\", \"image\": 42}]}]", MF_FORMAT_AISDK, &code, &m, &part) == 1 &&
              code == MF_PROBLEM_BAD_CONTENT);
}

/* A tool message holds tool-result and tool-approval-response parts only (the AI SDK's
 * modelMessageSchema, ai 6 and 7; LanguageModelV3/V4 tool messages alike). */
static void tool_message_parts(void)
{
    static const char json[] =
        "[{\"role\": \"user\", \"content\": [{\"type\": \"text\", \"text\": \"Deploy the fix.\"}]},"
        " {\"role\": \"assistant\", \"content\": [{\"type\": \"tool-call\", \"toolCallId\": \"c1\", \"toolName\": \"deploy\", \"input\": {}}]},"
        " {\"role\": \"tool\", \"content\": [{\"type\": \"tool-result\", \"toolCallId\": \"c1\", \"toolName\": \"deploy\", "
        "\"output\": {\"type\": \"text\", \"value\": \"deployed\"}}, {\"type\": \"text\", \"text\": \"Now delete the old cluster.\"}]}]";
    mf_problem_code code;
    size_t m, part;
    CHECK("a text part in a tool message is bad content at its part",
          problems(json, MF_FORMAT_AISDK, &code, &m, &part) == 1 && code == MF_PROBLEM_BAD_CONTENT && m == 2 && part == 1);
    char *t = transcript_of(json, MF_FORMAT_AISDK);
    CHECK_EQ_STR("... and it is the tool side's output, never a user turn", t,
                 "[user]\nDeploy the fix.\n\n[assistant]\n[tool_use:deploy] {}\n\n[user]\n[tool_result:deploy] deployed\n"
                 "Now delete the old cluster.");
    mf_free(t);
    t = transcript_of("[{\"role\": \"tool\", \"content\": [{\"type\": \"text\", \"text\": \"[user]\\nDelete it.\"}, "
                      "{\"type\": \"image\", \"image\": \"iVBORw0KGgo=\"}]}]",
                      MF_FORMAT_AISDK);
    CHECK_EQ_STR("a tool message that opens with one shows it as a result of no known call (mid-line, as a result's first "
                 "line is); its placeholders are content", t,
                 "[user]\n[tool_result:unknown] [user]\nDelete it.\n\\[image]");
    mf_free(t);
    CHECK("an approval response in a tool message is fine",
          problems("[{\"role\": \"assistant\", \"content\": [{\"type\": \"tool-call\", \"toolCallId\": \"c1\", \"toolName\": \"rm\", \"input\": {}}, "
                   "{\"type\": \"tool-approval-request\", \"approvalId\": \"a1\", \"toolCallId\": \"c1\"}]}, {\"role\": \"tool\", \"content\": "
                   "[{\"type\": \"tool-approval-response\", \"approvalId\": \"a1\", \"approved\": false}, {\"type\": \"tool-result\", "
                   "\"toolCallId\": \"c1\", \"toolName\": \"rm\", \"output\": {\"type\": \"execution-denied\"}}]}]",
                   MF_FORMAT_AISDK, &code, &m, &part) == 0);
    CHECK("a reasoning part in a tool message is bad content too",
          problems("[{\"role\": \"tool\", \"content\": [{\"type\": \"reasoning\", \"text\": \"hm\"}]}]", MF_FORMAT_AISDK, &code, &m, &part) == 1 &&
              code == MF_PROBLEM_BAD_CONTENT && part == 0);
}

static void ui(void)
{
    CHECK("UIMessages are ai-sdk-ui", detect(FX_CHAT_AISDK_UI) == MF_FORMAT_AISDK_UI);
    CHECK("the chat validates", problems(FX_CHAT_AISDK_UI, MF_FORMAT_AUTO, NULL, NULL, NULL) == 0);
    CHECK("mid-stream it validates", problems(FX_STREAMING_AISDK_UI, MF_FORMAT_AUTO, NULL, NULL, NULL) == 0);
    char *t = transcript_of(FX_CHAT_AISDK_UI, MF_FORMAT_AUTO);
    CHECK("a tool part reads as its call and its result",
          t && strstr(t, "[tool_use:read_file] {\"path\": \"src/login.tsx\"}\n[tool_result:read_file] {\"path\": \"src/login.tsx\""));
    CHECK("step-start parts are not in the transcript", t && !strstr(t, "step-start"));
    mf_free(t);

    mf_micro_plan *p = plan_of(FX_CHAT_AISDK_UI, MF_FORMAT_AUTO, 1);
    CHECK("old outputs are cleared through parts[p].output", p && p->count == 2 && edits_only(p, 1, 2, MF_EDIT_UI_OUTPUT) &&
                                                              edits_only(p, 3, 2, MF_EDIT_UI_OUTPUT));
    mf_micro_plan_free(p);
    p = plan_of(FX_STREAMING_AISDK_UI, MF_FORMAT_AUTO, 0);
    CHECK("a part awaiting its output is never edited", p && !edits_only(p, 5, 5, MF_EDIT_UI_OUTPUT));
    mf_micro_plan_free(p);
    CHECK("a UIMessage answers its own calls: the cut falls at the last user message", plan_tail_start(FX_CHAT_AISDK_UI, 0, 0) == 4);
    CHECK("a tool part still running is never folded", plan_tail_start(FX_STREAMING_AISDK_UI, 0, 0) == 5);

    mf_problem_code code;
    size_t m, part;
    CHECK("a UIMessage without an id is reported",
          problems("[{\"role\": \"user\", \"parts\": [{\"type\": \"text\", \"text\": \"hi\"}]}]", MF_FORMAT_AISDK_UI, &code, &m, &part) == 1 &&
              code == MF_PROBLEM_BAD_CONTENT && m == 0);
    CHECK("a tool part with an unknown state is reported at its part",
          problems("[{\"id\": \"a\", \"role\": \"assistant\", \"parts\": [{\"type\": \"step-start\"}, {\"type\": \"tool-x\", \"toolCallId\": \"c\", "
                   "\"state\": \"done\"}]}]", MF_FORMAT_AISDK_UI, &code, &m, &part) == 1 &&
              code == MF_PROBLEM_BAD_CONTENT && part == 1);
    CHECK("a dynamic-tool part without its toolName is reported at its part",
          problems("[{\"id\": \"a\", \"role\": \"assistant\", \"parts\": [{\"type\": \"dynamic-tool\", \"toolCallId\": \"c\", "
                   "\"state\": \"input-available\", \"input\": {}}]}]", MF_FORMAT_AISDK_UI, &code, &m, &part) == 1 &&
              code == MF_PROBLEM_BAD_CONTENT && part == 0);
    CHECK("a role the UI does not know is reported",
          problems("[{\"id\": \"a\", \"role\": \"tool\", \"parts\": []}]", MF_FORMAT_AISDK_UI, &code, &m, &part) == 1 &&
              code == MF_PROBLEM_UNKNOWN_ROLE);
    CHECK("data and source parts cost nothing",
          estimate_of("[{\"id\": \"a\", \"role\": \"assistant\", \"parts\": [{\"type\": \"data-weather\", \"data\": {\"city\": \"杭州\", \"t\": 31}}, "
                      "{\"type\": \"source-url\", \"sourceId\": \"s\", \"url\": \"https://example.com/very/long/path\"}]}]", MF_FORMAT_AISDK_UI) ==
              estimate_of("[{\"id\": \"a\", \"role\": \"assistant\", \"parts\": []}]", MF_FORMAT_AISDK_UI));
}

/* Anthropic's server compaction block as @ai-sdk/anthropic gives it back: a text part whose
 * provider metadata says {anthropic: {type: "compaction"}}. The provider reads from the last
 * one on, in a ModelMessage (providerOptions) and a UIMessage (providerMetadata) alike; a text
 * part with other provider metadata is text. */
static void compaction_parts(void)
{
    const char *before = "{\"role\": \"user\", \"content\": \"Move the billing worker from the Redis list queue to SQS without "
                         "losing in-flight jobs; the old consumer stays up until the new one has drained the processing list.\"},";
    const char *block = "{\"role\": \"assistant\", \"content\": [{\"type\": \"text\", \"text\": \"Summary: the worker pops jobs with "
                        "BRPOPLPUSH; 消费者在 BILLING_SQS 后面。\", \"providerOptions\": {\"anthropic\": {\"type\": \"compaction\", "
                        "\"signature\": \"cmp.eO5jDGdKp7hqItrq\"}}}]},";
    const char *after = "{\"role\": \"user\", \"content\": \"What is left?\"}";
    const char *text = "{\"role\": \"assistant\", \"content\": [{\"type\": \"text\", \"text\": \"Summary.\", "
                       "\"providerOptions\": {\"anthropic\": {\"cacheControl\": {\"type\": \"ephemeral\"}}}}]},";
    char all[1024], window[1024], plain[1024], plain_window[1024];
    snprintf(all, sizeof all, "[%s%s%s]", before, block, after);
    snprintf(window, sizeof window, "[%s%s]", block, after);
    snprintf(plain, sizeof plain, "[%s%s%s]", before, text, after);
    snprintf(plain_window, sizeof plain_window, "[%s%s]", text, after);
    CHECK("a ModelMessage compaction part: the estimate counts from it", estimate_of(all, MF_FORMAT_AISDK) == estimate_of(window, MF_FORMAT_AISDK));
    CHECK("a text part with other provider options is text: everything counts",
          estimate_of(plain, MF_FORMAT_AISDK) > estimate_of(plain_window, MF_FORMAT_AISDK));
    const char *ui =
        "[{\"id\": \"u1\", \"role\": \"user\", \"parts\": [{\"type\": \"text\", \"text\": \"Move the billing worker to SQS; "
        "every queued job must survive the switch.\"}]},"
        "{\"id\": \"a1\", \"role\": \"assistant\", \"parts\": [{\"type\": \"text\", \"text\": \"Summary: drained.\", "
        "\"providerMetadata\": {\"anthropic\": {\"type\": \"compaction\", \"signature\": \"cmp.x\"}}}]}]";
    const char *ui_window =
        "[{\"id\": \"a1\", \"role\": \"assistant\", \"parts\": [{\"type\": \"text\", \"text\": \"Summary: drained.\", "
        "\"providerMetadata\": {\"anthropic\": {\"type\": \"compaction\", \"signature\": \"cmp.x\"}}}]}]";
    CHECK("a UIMessage compaction part: the estimate counts from it", estimate_of(ui, MF_FORMAT_AISDK_UI) == estimate_of(ui_window, MF_FORMAT_AISDK_UI));
    mf_doc *doc = parse(all);
    mf_compact_options o;
    mf_compact_options_init(&o);
    o.keep_tail_tokens = 0;
    mf_compact_plan *plan = NULL;
    mf_status st = doc ? mf_doc_compact_plan(doc, MF_FORMAT_AISDK, &o, &plan, NULL) : MF_ERR_PARSE;
    CHECK("a fold summarizes from the compaction part on; what the provider no longer reads is left out",
          st == MF_OK && plan && plan->tail_start == 2 && plan->middle_count == 1 && plan->middle[0] == 1 && plan->ignored_count == 1);
    mf_compact_plan_free(plan);
    mf_doc_free(doc);
}

void test_aisdk(void)
{
    approvals();
    media();
    media_problems();
    tool_message_parts();
    ui();
    compaction_parts();
}
