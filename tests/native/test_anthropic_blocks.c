/* test_anthropic_blocks.c — the Anthropic adapter beyond tool_use/tool_result: server
 * tools and MCP calls pair inside one assistant message, opaque strings are never priced
 * or written, a PDF costs its pages, server-tool results clear into their output field,
 * and a block type midfold does not know is a warning (docs/anthropic-blocks.md). */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "fixtures.h"
#include "helpers.h"
#include "midfold.h"
#include "suites.h"

static mf_validation *validate_json(const char *json)
{
    mf_doc *doc = parse(json);
    mf_validation *v = NULL;
    if (doc && mf_doc_validate(doc, MF_FORMAT_AUTO, &v, NULL) != MF_OK) v = NULL;
    mf_doc_free(doc);
    return v;
}

/* `json` with every occurrence of `from` replaced by `to` (malloc'd; free()). */
static char *replaced(const char *json, const char *from, const char *to)
{
    size_t nf = strlen(from), nt = strlen(to), n = 0;
    for (const char *p = strstr(json, from); p; p = strstr(p + nf, from)) n++;
    char *out = malloc(strlen(json) + n * nt + 1), *w = out;
    if (!out) return NULL;
    for (const char *p = json;;) {
        const char *hit = strstr(p, from);
        if (!hit) { strcpy(w, p); break; }
        memcpy(w, p, (size_t)(hit - p));
        w += hit - p;
        memcpy(w, to, nt);
        w += nt;
        p = hit + nf;
    }
    return out;
}

static void reading(void)
{
    mf_doc *doc = parse(FX_SERVER_TOOLS_ANTHROPIC);
    CHECK("server tools, MCP calls and documents make the conversation Anthropic", doc && mf_doc_detect(doc) == MF_FORMAT_ANTHROPIC);
    mf_doc_free(doc);

    char *t = transcript_of(FX_SERVER_TOOLS_ANTHROPIC, MF_FORMAT_AUTO);
    CHECK("the transcript names the search, its query and the result's title and URL",
          t && strstr(t, "[tool_use:web_search] {\"query\": \"cJSON CJSON_NESTING_LIMIT\"}\n"
                         "[tool_result:web_search] [search result] cJSON README <https://github.com/DaveGamble/cJSON>"));
    CHECK("an MCP call shows its server and tool", t && strstr(t, "[tool_use:github/search_code] {\"q\": \"CJSON_NESTING_LIMIT\"}"));
    CHECK("a code execution shows its stdout", t && strstr(t, "[tool_result:code_execution] #ifndef CJSON_NESTING_LIMIT"));
    CHECK("a PDF shows as its title", t && strstr(t, "[document: Parser spec]\n"));
    CHECK("no encrypted content and no base64 reach the transcript", t && !strstr(t, "EqgfCioI") && !strstr(t, "JVBERi0x"));
    mf_free(t);
    t = transcript_of("[{\"role\": \"user\", \"content\": [{\"type\": \"tool_result\", \"tool_use_id\": \"toolu_b1\", \"content\": ["
                      "{\"type\": \"text\", \"text\": \"Clicked Sign in.\"}, {\"type\": \"browser_state\", \"tabs\": [{\"tab_id\": \"t1\", "
                      "\"title\": \"Sign in - Acme\", \"url\": \"https://acme.example/login\", \"active\": true}]}]}]}]",
                      MF_FORMAT_ANTHROPIC);
    CHECK("a browser tool's state lists its tabs by title and URL (inside the result: its placeholders escaped)",
          t && strstr(t, "Clicked Sign in.\n\\[browser_state]\n\\[tab] Sign in - Acme <https://acme.example/login>"));
    mf_free(t);
    static const char future[] =
        "[{\"role\": \"assistant\", \"content\": [{\"type\": \"server_tool_use\", \"id\": \"srvtoolu_m1\", \"name\": \"maps\", "
        "\"input\": {\"q\": \"ferry Piraeus Naxos\"}}, {\"type\": \"maps_tool_result\", \"tool_use_id\": \"srvtoolu_m1\", "
        "\"content\": {\"type\": \"maps_route_result\", \"summary\": \"Blue Star Ferries, 5 h 30 min\", "
        "\"encrypted_route\": \"EqMCCkYIBBgCKkBvcm5pbmcgZmVycnk\"}}]}]";
    t = transcript_of(future, MF_FORMAT_ANTHROPIC);
    CHECK("a server-tool result of a shape midfold does not know shows its text fields, not its encrypted ones",
          t && strstr(t, "[tool_result:maps] [block: maps_route_result] Blue Star Ferries, 5 h 30 min") && !strstr(t, "EqMCCkYI"));
    mf_free(t);

    /* Opaque strings are not priced: another encrypted page, another estimate? No. */
    char *other = replaced(FX_SERVER_TOOLS_ANTHROPIC, "EqgfCioIAxgCIiQ4ODk4YTFkYy0yMTNkLTQ1NzItOTY5Ni1hODEyNmU2ZGFkNTQSDH3wZ0pLrT6uHZqYBxoMhIbEu0wB8Y9Jd1o7IjA5", "E");
    CHECK("encrypted_content costs nothing", other && estimate_of(other, MF_FORMAT_AUTO) == estimate_of(FX_SERVER_TOOLS_ANTHROPIC, MF_FORMAT_AUTO));
    free(other);
    /* The PDF has two /Type /Page objects (one spaced, one not): 2 x 3000 tokens. */
    char *untitled = replaced(FX_SERVER_TOOLS_ANTHROPIC, "\"title\": \"Parser spec\", ", "");
    char *no_pdf = replaced(untitled, "{\"type\": \"base64\", \"media_type\": \"application/pdf\", \"data\": \"JVBERi0x", "{\"type\": \"text\", \"media_type\": \"text/plain\", \"data\": \"\", \"x\": \"");
    uint64_t with = untitled ? estimate_of(untitled, MF_FORMAT_AUTO) : 0, without = no_pdf ? estimate_of(no_pdf, MF_FORMAT_AUTO) : 0;
    CHECK_EQ_U64("a base64 PDF costs the document price per page it holds", with - without, 2 * 3000000);
    free(untitled);
    free(no_pdf);
}

static void pairing(void)
{
    mf_validation *v = validate_json(FX_SERVER_TOOLS_ANTHROPIC);
    CHECK("server and MCP calls answered in their own message are valid", v && v->count == 0);
    mf_validation_free(v);

    char *moved = replaced(FX_SERVER_TOOLS_ANTHROPIC, "\"tool_use_id\": \"mcptoolu_01\"", "\"tool_use_id\": \"mcptoolu_99\"");
    v = moved ? validate_json(moved) : NULL;
    CHECK("an MCP result whose call is not in its message, and the call left without it, are errors",
          v && v->count == 2 && v->problems[0].code == MF_PROBLEM_CALL_WITHOUT_RESULT && v->problems[0].part == 4 &&
              v->problems[1].code == MF_PROBLEM_RESULT_WITHOUT_CALL && v->problems[1].part == 5 &&
              v->problems[0].severity == MF_SEVERITY_ERROR);
    mf_validation_free(v);
    free(moved);

    char *unknown = replaced(FX_SERVER_TOOLS_ANTHROPIC, "{\"type\": \"text\", \"text\": \"Yes:", "{\"type\": \"citation_map\", \"note\": \"one\"}, {\"type\": \"text\", \"text\": \"Yes:");
    v = unknown ? validate_json(unknown) : NULL;
    CHECK("an Anthropic block type midfold does not know is one warning, not an error",
          v && v->count == 1 && v->problems[0].code == MF_PROBLEM_UNKNOWN_BLOCK && v->problems[0].severity == MF_SEVERITY_WARNING);
    mf_validation_free(v);
    char *t = unknown ? transcript_of(unknown, MF_FORMAT_AUTO) : NULL;
    CHECK("... and its text fields are in the transcript", t && strstr(t, "[block: citation_map] one\n"));
    mf_free(t);
    free(unknown);
}

static void micro(void)
{
    mf_micro_plan *p = plan_of(FX_SERVER_TOOLS_ANTHROPIC, MF_FORMAT_AUTO, 0);
    CHECK("keep_recent 0 clears the code execution and the MCP result, not the web search (no valid shorter form)",
          p && p->count == 2 && p->edits[0].message == 1 && p->edits[0].part == 3 &&
              p->edits[0].target == MF_EDIT_RESULT_STDOUT && p->edits[1].part == 5 && p->edits[1].target == MF_EDIT_BLOCK_CONTENT);
    char *applied = p ? apply_plan(FX_SERVER_TOOLS_ANTHROPIC, p) : NULL;
    CHECK("the cleared stdout holds the marker and stderr is emptied",
          applied && strstr(applied, "\"stdout\":\"[truncated: code_execution result, 107 chars]\",\"stderr\":\"\""));
    mf_micro_plan_free(p);
    mf_validation *v = applied ? validate_json(applied) : NULL;
    CHECK("the cleared conversation is still valid", v && v->count == 0);
    mf_validation_free(v);
    p = applied ? plan_of(applied, MF_FORMAT_AUTO, 0) : NULL;
    CHECK("clearing again finds nothing to do", p && p->count == 0);
    mf_micro_plan_free(p);
    free_json(applied);

    /* A paused turn: the assistant message ends the list, its server results in flight. */
    char *paused = replaced(FX_SERVER_TOOLS_ANTHROPIC, ", {\"role\": \"user\", \"content\": \"And the string length limit?\"}", "");
    p = paused ? plan_of(paused, MF_FORMAT_AUTO, 0) : NULL;
    CHECK("the results of an assistant turn that ends the list are pending: never cleared", p && p->count == 0);
    mf_micro_plan_free(p);
    free(paused);
}

/* A conversation whose provider compaction leaves nothing to fold (found by fuzz_compact,
 * regressions/compact/tail-from-zero-past-a-compaction): the whole list is the tail, and its
 * estimate is what the provider reads, from the compaction on, never the messages before
 * it, so the tail is within the conversation's estimate. */
static void tail_past_a_compaction(void)
{
    const char *json =
        "[{\"role\": \"user\", \"content\": \"Move the billing worker from the Redis list queue to the new SQS queue "
        "without losing in-flight jobs. Every queued job must survive the switch, and the old consumer stays up until the "
        "new one has drained the processing list.\"},"
        "{\"role\": \"assistant\", \"content\": [{\"type\": \"compaction\", \"content\": \"Summary: the worker "
        "pops jobs with BRPOPLPUSH; an SQS consumer sits behind BILLING_SQS.\"}]}]";
    mf_doc *doc = parse(json);
    mf_compact_options o;
    mf_compact_options_init(&o);
    o.keep_tail_tokens = 512;
    mf_compact_plan *plan = NULL;
    uint64_t total = 0, read = 0;
    mf_status st = doc ? mf_doc_compact_plan(doc, MF_FORMAT_AUTO, &o, &plan, NULL) : MF_ERR_PARSE;
    if (doc) mf_doc_estimate(doc, MF_FORMAT_AUTO, o.profile, &total, NULL);
    mf_doc *window = parse("[{\"role\": \"assistant\", \"content\": [{\"type\": \"compaction\", \"content\": \"Summary: the "
                           "worker pops jobs with BRPOPLPUSH; an SQS consumer sits behind BILLING_SQS.\"}]}]");
    if (window) mf_doc_estimate(window, MF_FORMAT_AUTO, o.profile, &read, NULL);
    CHECK("past a compaction with nothing to fold, the tail's estimate is what the provider reads, within the total",
          st == MF_OK && plan && plan->tail_start == 0 && plan->middle_count == 0 && plan->milli_tail == read && plan->milli_middle + plan->milli_tail <= total);
    mf_compact_plan_free(plan);
    mf_doc_free(window);
    mf_doc_free(doc);
}

void test_anthropic_blocks(void)
{
    reading();
    pairing();
    micro();
    tail_past_a_compaction();
}
