/* test_responses.c — OpenAI Responses input items: detected, read one item per message,
 * priced by what the model reads, serialized readably, outputs cleared in place, cuts that
 * keep call pairs and reasoning whole, and the call_id pairing rules; plus Chat
 * Completions custom tool calls. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "fixtures_responses.h"
#include "helpers.h"
#include "midfold.h"
#include "suites.h"

#define R MF_FORMAT_OPENAI_RESPONSES
#define FC(id) "{\"type\": \"function_call\", \"call_id\": \"" id "\", \"name\": \"f\", \"arguments\": \"{}\"}"
#define FCO(id) "{\"type\": \"function_call_output\", \"call_id\": \"" id "\", \"output\": \"done\"}"
#define USER "{\"role\": \"user\", \"content\": \"go\"}"

static mf_validation *validate(const char *json)
{
    mf_doc *doc = parse(json);
    mf_validation *v = NULL;
    if (doc && mf_doc_validate(doc, MF_FORMAT_AUTO, &v, NULL) != MF_OK) v = NULL;
    mf_doc_free(doc);
    return v;
}

/* True when the report holds exactly these (code, message) problems, in order. */
static int problems_are(const char *json, size_t n, const mf_problem_code *codes, const size_t *messages)
{
    mf_validation *v = validate(json);
    int ok = v && v->count == n && v->format == R;
    for (size_t i = 0; ok && i < n; i++) ok = v->problems[i].code == codes[i] && v->problems[i].message == messages[i];
    mf_validation_free(v);
    return ok;
}

static void detection(void)
{
    mf_doc *doc = parse(FX_RESPONSES_RUN);
    CHECK("the run is detected as openai-responses", doc && mf_doc_detect(doc) == R);
    mf_doc_free(doc);
    doc = parse("[{\"role\": \"developer\", \"content\": \"Be brief.\"}, " USER "]");
    CHECK("easy input messages alone stay Chat Completions", doc && mf_doc_detect(doc) == MF_FORMAT_OPENAI);
    mf_doc_free(doc);
    doc = parse("[" FC("c1") ", " FCO("c1") "]");
    CHECK("a list of role-less items is a conversation", doc && mf_doc_detect(doc) == R);
    mf_doc_free(doc);
    mf_format f;
    CHECK("the name parses", mf_format_parse("openai-responses", 16, &f) == MF_OK && f == R);
}

static void transcript(void)
{
    char *t = transcript_of(FX_RESPONSES_RUN, MF_FORMAT_AUTO);
    CHECK("the run serializes", t != NULL);
    if (!t) return;
    CHECK("the developer message is a system section", strncmp(t, "[system]\nYou are the on-call SRE assistant.\n\n[user]\n", 52) == 0);
    CHECK("reasoning and parallel calls are one assistant section",
          strstr(t, "[assistant]\n[thinking] Pull the logs and read the cart loader.\n[tool_use:search_logs] "
                    "{\"service\": \"checkout-api\"}\n[tool_use:read_file] {\"path\": \"src/cart.ts\"}\n\n[user]\n"
                    "[tool_result:search_logs] 14:20:01") != NULL);
    CHECK("an output in input_text parts is its text", strstr(t, "[tool_result:read_file] for (const line of cart.lines) {") != NULL);
    CHECK("a web search shows its action", strstr(t, "[tool_use:web_search] {\"type\": \"search\", \"query\": \"prisma N+1 findMany in loop\"}\n") != NULL);
    CHECK("a screenshot is [image]", strstr(t, "[tool_use:computer] {\"type\": \"screenshot\"}\n\n[user]\n[tool_result:computer] [image]") != NULL);
    CHECK("an approval names its tool and the decision (its own section: text after a result is never read as the result)",
          strstr(t, "[tool_result:create_issue]\n\n[user]\napproved") != NULL);
    CHECK("an MCP call shows its output", strstr(t, "[tool_result:create_issue] {\"id\":\"CHK-1187\"}") != NULL);
    CHECK("no encrypted content, no base64", !strstr(t, "gAAAA") && !strstr(t, "iVBORw0KGgo"));
    mf_free(t);
}

static void estimates(void)
{
    uint64_t a = estimate_of("[{\"type\": \"reasoning\", \"summary\": [{\"type\": \"summary_text\", \"text\": \"Plan.\"}], "
                             "\"encrypted_content\": \"gAAAAA\"}, " USER "]", R);
    uint64_t b = estimate_of("[{\"type\": \"reasoning\", \"summary\": [{\"type\": \"summary_text\", \"text\": \"Plan.\"}], "
                             "\"encrypted_content\": \"gAAAAABpZm9vYmFyYmF6cXV4cXV1eHF1dXhxdXV4cXV1eHF1dXhxdXV4cXV1eA==\"}, " USER "]", R);
    CHECK("encrypted reasoning is not priced", a != UINT64_MAX && a == b);
    /* 160 and 320 characters of ciphertext: 160 * 3/16 tokens apart. */
    char small[400], big[600];
    strcpy(small, "[{\"type\": \"compaction\", \"encrypted_content\": \"");
    strcpy(big, small);
    for (int i = 0; i < 160; i++) strcat(small, "Q");
    for (int i = 0; i < 320; i++) strcat(big, "Q");
    strcat(small, "\"}, " USER "]");
    strcat(big, "\"}, " USER "]");
    CHECK_EQ_U64("a compaction item costs 3/16 of a token per ciphertext character", estimate_of(big, R) - estimate_of(small, R),
                 160u * 3u * MF_MILLI / 16u);
    uint64_t shot = estimate_of("[{\"type\": \"computer_call\", \"call_id\": \"c\", \"action\": {\"type\": \"screenshot\"}}, "
                                "{\"type\": \"computer_call_output\", \"call_id\": \"c\", \"output\": {\"type\": "
                                "\"computer_screenshot\", \"image_url\": \"data:image/png;base64,QUFB\"}}]", R);
    uint64_t bigger = estimate_of("[{\"type\": \"computer_call\", \"call_id\": \"c\", \"action\": {\"type\": \"screenshot\"}}, "
                                  "{\"type\": \"computer_call_output\", \"call_id\": \"c\", \"output\": {\"type\": "
                                  "\"computer_screenshot\", \"image_url\": \"data:image/png;base64,QUFBQUFBQUFBQUFBQUFBQUFB"
                                  "QUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFB\"}}]", R);
    CHECK("a screenshot costs an image, whatever its size", shot != UINT64_MAX && shot == bigger);
}

static void micro(void)
{
    mf_micro_plan *plan = plan_of(FX_RESPONSES_RUN, MF_FORMAT_AUTO, 1);
    CHECK("a plan is made", plan != NULL);
    if (!plan) return;
    /* Result turns: 5+6 (parallel outputs), 11 (a screenshot: no marker fits its shape),
     * 13 (a decision), 14 (kept by keep_recent 1). */
    CHECK("the two function outputs are cleared, in place on the item",
          plan->count == 2 && plan->edits[0].message == 5 && plan->edits[1].message == 6 &&
          plan->edits[0].target == MF_EDIT_ITEM_OUTPUT && plan->edits[1].target == MF_EDIT_ITEM_OUTPUT);
    char *edited = apply_plan(FX_RESPONSES_RUN, plan);
    CHECK("the output becomes the marker string",
          edited && strstr(edited, "\"call_id\":\"call_logs\",\"output\":\"[truncated: search_logs result, 235 chars]\"") &&
          strstr(edited, "\"call_id\":\"call_cart\",\"output\":\"[truncated: read_file result, 113 chars]\""));
    mf_doc *doc = edited ? parse(edited) : NULL;
    mf_validation *v = NULL;
    CHECK("the edited run is still valid", doc && mf_doc_validate(doc, R, &v, NULL) == MF_OK && v->count == 0);
    mf_validation_free(v);
    mf_micro_plan *again = NULL;
    CHECK("clearing again changes nothing", doc && mf_doc_micro_plan(doc, R, NULL, &again, NULL) == MF_OK && again->count == 0);
    mf_micro_plan_free(again);
    mf_doc_free(doc);
    free_json(edited);
    mf_micro_plan_free(plan);
}

static void cuts(void)
{
    mf_doc *doc = parse(FX_RESPONSES_RUN);
    mf_compact_options o;
    mf_compact_options_init(&o);
    int ok = doc != NULL, seen = 0;
    for (uint32_t k = 0; ok && k <= 3000; k += 10) {
        o.keep_tail_tokens = k;
        mf_compact_plan *p = NULL;
        ok = mf_doc_compact_plan(doc, R, &o, &p, NULL) == MF_OK;
        if (!ok) break;
        size_t c = p->tail_start;
        /* 3, 4: after the reasoning item / between parallel calls; 5, 6: outputs; 11, 13:
         * outputs; 14: an MCP call (carries its result). */
        if (c == 3 || c == 4 || c == 5 || c == 6 || c == 11 || c == 13 || c == 14) ok = 0;
        seen |= 1 << (c < 16 ? c : 0);
        mf_compact_plan_free(p);
    }
    CHECK("no cut falls after a reasoning item or inside a call pair", ok);
    CHECK("the cut moves over the whole run", (seen & (1 << 15)) && (seen & (1 << 2)) && (seen & (1 << 9)));
    mf_doc_free(doc);
}

static void pairing(void)
{
    CHECK("the run is valid", problems_are(FX_RESPONSES_RUN, 0, NULL, NULL));
    {
        const mf_problem_code c[] = {MF_PROBLEM_CALL_WITHOUT_RESULT};
        const size_t m[] = {1};
        CHECK("a call without its output", problems_are("[" USER ", " FC("c1") "]", 1, c, m));
    }
    {
        const mf_problem_code c[] = {MF_PROBLEM_RESULT_WITHOUT_CALL};
        const size_t m[] = {1};
        CHECK("an output without its call", problems_are("[" USER ", " FCO("c1") "]", 1, c, m));
    }
    {
        const mf_problem_code c[] = {MF_PROBLEM_RESULT_WITHOUT_CALL, MF_PROBLEM_CALL_WITHOUT_RESULT};
        const size_t m[] = {0, 1};
        CHECK("an output before its call", problems_are("[" FCO("c1") ", " FC("c1") "]", 2, c, m));
    }
    {
        const mf_problem_code c[] = {MF_PROBLEM_DUPLICATE_ID};
        const size_t m[] = {3};
        CHECK("a second output for one call", problems_are("[" USER ", " FC("c1") ", " FCO("c1") ", " FCO("c1") "]", 1, c, m));
    }
    {
        const mf_problem_code c[] = {MF_PROBLEM_BAD_CONTENT, MF_PROBLEM_RESULT_WITHOUT_CALL};
        const size_t m[] = {1, 2};
        CHECK("a reasoning item whose call is missing",
              problems_are("[" USER ", {\"type\": \"reasoning\", \"id\": \"rs_9\", \"summary\": []}, " FCO("c1") "]", 2, c, m));
    }
    {
        const mf_problem_code c[] = {MF_PROBLEM_RESULT_WITHOUT_CALL};
        const size_t m[] = {1};
        CHECK("an approval without its request",
              problems_are("[" USER ", {\"type\": \"mcp_approval_response\", \"approval_request_id\": \"mcpr_x\", "
                           "\"approve\": false}]", 1, c, m));
    }
    {
        const mf_problem_code c[] = {MF_PROBLEM_CALL_WITHOUT_RESULT, MF_PROBLEM_RESULT_WITHOUT_CALL};
        const size_t m[] = {0, 1};
        CHECK("a custom tool call is not answered by a function output",
              problems_are("[{\"type\": \"custom_tool_call\", \"call_id\": \"c1\", \"name\": \"sql\", \"input\": \"SELECT 1\"}, "
                           FCO("c1") "]", 2, c, m));
    }
    CHECK("the Agents SDK's items pair by callId (function_call_result answers function_call)",
          problems_are("[" USER ", {\"type\": \"function_call\", \"callId\": \"c1\", \"name\": \"f\", \"arguments\": \"{}\", "
                       "\"status\": \"completed\"}, {\"type\": \"function_call_result\", \"callId\": \"c1\", \"name\": \"f\", "
                       "\"status\": \"completed\", \"output\": {\"type\": \"text\", \"text\": \"done\"}}]", 0, NULL, NULL));
    {
        const mf_problem_code c[] = {MF_PROBLEM_CALL_WITHOUT_RESULT};
        const size_t m[] = {1};
        CHECK("an Agents SDK call without its result",
              problems_are("[" USER ", {\"type\": \"function_call\", \"callId\": \"c1\", \"name\": \"f\", \"arguments\": \"{}\"}]",
                           1, c, m));
    }
    CHECK("an approval request may wait for its decision",
          problems_are("[" USER ", {\"type\": \"mcp_approval_request\", \"id\": \"mcpr_1\", \"server_label\": \"s\", "
                       "\"name\": \"t\", \"arguments\": \"{}\"}]", 0, NULL, NULL));
}

#define CU(effort) "{\"type\": \"configuration_update\", \"reasoning\": {\"effort\": \"" effort "\"}}"
#define TURN(id) USER ", " FC(id) ", " FCO(id) ", {\"role\": \"assistant\", \"content\": \"ok\"}"

/* The compaction plan of `json` with no tail budget beyond the pending turn, or NULL. */
static mf_compact_plan *fold_plan(const char *json)
{
    mf_doc *doc = parse(json);
    mf_compact_options o;
    mf_compact_options_init(&o);
    o.keep_tail_tokens = 0;
    mf_compact_plan *plan = NULL;
    if (doc && mf_doc_compact_plan(doc, MF_FORMAT_AUTO, &o, &plan, NULL) != MF_OK) plan = NULL;
    mf_doc_free(doc); /* the plan holds indices and its own copies */
    return plan;
}

/* A configuration update holds for the responses after it: a system message of the view, so a
 * fold keeps it in the head (the JS side makes a run of them one); two in a row are rejected. */
static void configuration_updates(void)
{
    const char *json = "[" TURN("c1") ", " CU("high") ", " TURN("c2") ", " CU("low") ", " TURN("c3") ", " USER "]";
    CHECK("updates apart are valid", problems_are(json, 0, NULL, NULL));
    {
        mf_problem_code c[] = {MF_PROBLEM_BAD_CONTENT};
        size_t m[] = {2};
        CHECK("an update right after another is a problem",
              problems_are("[" USER ", " CU("high") ", " CU("low") ", " USER "]", 1, c, m));
    }
    mf_compact_plan *plan = fold_plan(json);
    CHECK("the fold keeps both updates in the head, in order, and summarizes neither",
          plan && plan->tail_start == 14 && plan->head_count == 2 && plan->head[0] == 4 && plan->head[1] == 9 &&
              plan->middle_count == 12);
    mf_compact_plan_free(plan);
}

/* An async call (async: true) may wait for its output; until it comes it is never folded. */
static void async_calls(void)
{
    const char *waiting = "[" TURN("c1") ", " USER ", {\"type\": \"function_call\", \"call_id\": \"ci\", \"name\": "
                          "\"run_ci\", \"arguments\": \"{}\", \"async\": true}, " TURN("c2") ", " TURN("c3") ", " USER "]";
    CHECK("a waiting async call is valid", problems_are(waiting, 0, NULL, NULL));
    mf_compact_plan *plan = fold_plan(waiting);
    CHECK("the fold stops right before it", plan && plan->tail_start == 5 && plan->middle_count == 5);
    mf_compact_plan_free(plan);
    mf_problem_code c[] = {MF_PROBLEM_CALL_WITHOUT_RESULT};
    size_t m[] = {1};
    CHECK("a plain call may not wait", problems_are("[" USER ", " FC("c1") ", " USER "]", 1, c, m));
}

/* openai 7 made an mcp_call's error an object: its message, or the tool's content, is the error. */
static void mcp_errors(void)
{
    const char *call = "[{\"role\": \"user\", \"content\": \"file it\"}, {\"type\": \"mcp_call\", \"id\": \"mcp_1\", "
                       "\"server_label\": \"linear\", \"name\": \"create_issue\", \"arguments\": \"{}\", \"error\": ";
    char json[512];
    snprintf(json, sizeof json, "%s{\"type\": \"http_error\", \"code\": 502, \"message\": \"Bad Gateway\"}}]", call);
    char *t = transcript_of(json, MF_FORMAT_AUTO);
    CHECK("an http_error shows its message", t && strstr(t, "[tool_error:create_issue] Bad Gateway") != NULL);
    mf_free(t);
    snprintf(json, sizeof json, "%s{\"type\": \"mcp_tool_execution_error\", \"content\": [{\"type\": \"text\", "
             "\"text\": \"Team CHK not found\"}]}}]", call);
    t = transcript_of(json, MF_FORMAT_AUTO);
    CHECK("a tool execution error shows the tool's content", t && strstr(t, "[tool_error:create_issue] Team CHK not found") != NULL);
    mf_free(t);
}

static void chat_custom_calls(void)
{
    const char *chat = "[{\"role\": \"user\", \"content\": \"fix it\"}, {\"role\": \"assistant\", \"content\": null, "
                       "\"tool_calls\": [{\"id\": \"call_p\", \"type\": \"custom\", \"custom\": {\"name\": \"apply_patch\", "
                       "\"input\": \"*** Begin Patch\\n*** End Patch\"}}]}, {\"role\": \"tool\", \"tool_call_id\": \"call_p\", "
                       "\"content\": \"Done.\"}]";
    char *t = transcript_of(chat, MF_FORMAT_AUTO);
    CHECK_EQ_STR("a custom tool call keeps its name and input", t,
                 "[user]\nfix it\n\n[assistant]\n[tool_use:apply_patch] *** Begin Patch\n*** End Patch\n\n[user]\n"
                 "[tool_result:apply_patch] Done.");
    mf_free(t);
}

void test_responses(void)
{
    detection();
    transcript();
    estimates();
    micro();
    cuts();
    pairing();
    configuration_updates();
    mcp_errors();
    async_calls();
    chat_custom_calls();
}
