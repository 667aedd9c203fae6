/* test_langchain.c — LangChain JS messages in their dict form (adapt_langchain.c), as the CLI reads a
 * JSON file of them: detection, the estimate against the same conversation in OpenAI Chat form, the
 * transcript, micro-compaction, the compaction cut and validation. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "helpers.h"
#include "midfold.h"
#include "suites.h"

/* A coding turn: parallel calls (one also a content tool_use block, as @langchain/anthropic keeps it), an
 * invalid tool call, an error result, Chinese text, signed thinking. */
static const char *const LC =
    "[{\"type\": \"system\", \"content\": \"You are a coding agent.\"},"
    " {\"type\": \"human\", \"content\": \"请读取 package.json 和 src/app.ts\"},"
    " {\"type\": \"ai\", \"id\": \"ai-1\", \"content\": [{\"type\": \"thinking\", \"thinking\": \"Read both.\", \"signature\": \"SIG\"},"
    "   {\"type\": \"tool_use\", \"id\": \"c1\", \"name\": \"read_file\", \"input\": {\"path\": \"package.json\"}}],"
    "  \"tool_calls\": [{\"id\": \"c1\", \"name\": \"read_file\", \"args\": {\"path\": \"package.json\"}, \"type\": \"tool_call\"},"
    "   {\"id\": \"c2\", \"name\": \"read_file\", \"args\": {\"path\": \"src/app.ts\"}, \"type\": \"tool_call\"}],"
    "  \"invalid_tool_calls\": [{\"id\": \"c3\", \"name\": \"bash\", \"args\": \"{\\\"cmd\\\": \", \"error\": \"bad JSON\"}]},"
    " {\"type\": \"tool\", \"tool_call_id\": \"c1\", \"name\": \"read_file\", \"content\": \"{\\\"name\\\": \\\"app\\\", \\\"version\\\": \\\"1.0.0\\\"}\"},"
    " {\"type\": \"tool\", \"tool_call_id\": \"c2\", \"status\": \"error\", \"content\": \"ENOENT: no such file or directory, open 'src/app.ts'\"},"
    " {\"type\": \"ai\", \"content\": \"src/app.ts 不存在。\"},"
    " {\"type\": \"human\", \"content\": \"那就创建它。\"}]";

/* The same conversation as @langchain/openai sends it in Chat form (thinking and the invalid call are not sent). */
static const char *const CHAT =
    "[{\"role\": \"system\", \"content\": \"You are a coding agent.\"},"
    " {\"role\": \"user\", \"content\": \"请读取 package.json 和 src/app.ts\"},"
    " {\"role\": \"assistant\", \"content\": \"\", \"tool_calls\": [{\"id\": \"c1\", \"type\": \"function\", \"function\": {\"name\": \"read_file\", \"arguments\": \"{\\\"path\\\":\\\"package.json\\\"}\"}},"
    "   {\"id\": \"c2\", \"type\": \"function\", \"function\": {\"name\": \"read_file\", \"arguments\": \"{\\\"path\\\":\\\"src/app.ts\\\"}\"}}]},"
    " {\"role\": \"tool\", \"tool_call_id\": \"c1\", \"content\": \"{\\\"name\\\": \\\"app\\\", \\\"version\\\": \\\"1.0.0\\\"}\"},"
    " {\"role\": \"tool\", \"tool_call_id\": \"c2\", \"content\": \"ENOENT: no such file or directory, open 'src/app.ts'\"},"
    " {\"role\": \"assistant\", \"content\": \"src/app.ts 不存在。\"},"
    " {\"role\": \"user\", \"content\": \"那就创建它。\"}]";

static mf_format detect(const char *json)
{
    mf_doc *doc = parse(json);
    mf_format f = doc ? mf_doc_detect(doc) : MF_FORMAT_UNKNOWN;
    mf_doc_free(doc);
    return f;
}

static size_t problems(const char *json, mf_problem_code *first)
{
    mf_doc *doc = parse(json);
    mf_validation *v = NULL;
    size_t n = SIZE_MAX;
    if (doc && mf_doc_validate(doc, MF_FORMAT_AUTO, &v, NULL) == MF_OK) {
        n = 0;
        for (size_t i = 0; i < v->count; i++) {
            if (v->problems[i].severity != MF_SEVERITY_ERROR) continue;
            if (n++ == 0 && first) *first = v->problems[i].code;
        }
    }
    mf_validation_free(v);
    mf_doc_free(doc);
    return n;
}

void test_langchain(void)
{
    CHECK("dict-form LangChain messages are langchain", detect(LC) == MF_FORMAT_LANGCHAIN);
    CHECK("the format has its name", strcmp(mf_format_name(MF_FORMAT_LANGCHAIN), "langchain") == 0);
    mf_format parsed = MF_FORMAT_AUTO;
    CHECK("the name parses", mf_format_parse("langchain", 9, &parsed) == MF_OK && parsed == MF_FORMAT_LANGCHAIN);
    CHECK("OpenAI tool definitions ({type: function} without content) are no LangChain messages",
          detect("[{\"type\": \"function\", \"name\": \"search_logs\", \"parameters\": {\"type\": \"object\"}}]") == MF_FORMAT_UNKNOWN);
    CHECK("a LangChain message beside an Anthropic tool_result is mixed: unknown",
          detect("[{\"type\": \"human\", \"content\": \"hi\"}, {\"role\": \"user\", \"content\": [{\"type\": \"tool_result\", "
                 "\"tool_use_id\": \"t\", \"content\": \"x\"}]}]") == MF_FORMAT_UNKNOWN);

    /* Thinking is priced (the provider reads it back); the content tool_use repeating c1 is read once. */
    uint64_t lc = estimate_of(LC, MF_FORMAT_AUTO), chat = estimate_of(CHAT, MF_FORMAT_AUTO);
    uint64_t thinking = estimate_of("[{\"type\": \"ai\", \"content\": [{\"type\": \"thinking\", \"thinking\": \"Read both.\"}]}]", MF_FORMAT_AUTO) -
                        estimate_of("[{\"type\": \"ai\", \"content\": []}]", MF_FORMAT_AUTO);
    /* Arguments are walked as an object (as Anthropic's tool_use input is), where Chat carries a JSON string
     * whose braces and quotes are priced too: on so small a conversation that is a few percent. */
    CHECK("the estimate is the Chat form's plus the thinking, within 8 %",
          lc > thinking && (lc - thinking) * 100 <= chat * 108 && (lc - thinking) * 108 >= chat * 100);

    char *t = transcript_of(LC, MF_FORMAT_AUTO);
    static const char first[] = "[tool_use:read_file] {\"path\": \"package.json\"}";
    const char *at = t ? strstr(t, first) : NULL;
    CHECK("the transcript names both calls once each",
          at && !strstr(at + sizeof first - 1, "package.json\"}") && strstr(t, "[tool_use:read_file] {\"path\": \"src/app.ts\"}"));
    CHECK("the error result is marked as one", t && strstr(t, "[tool_error:read_file] ENOENT"));
    CHECK("the transcript shows the roles in the providers' words and never the signature",
          t && strstr(t, "[system]") && strstr(t, "[user]") && strstr(t, "[assistant]") && !strstr(t, "SIG") && !strstr(t, "bad JSON"));
    mf_free(t);

    mf_micro_plan *p = plan_of(LC, MF_FORMAT_AUTO, 0);
    CHECK("micro-compaction replaces each tool message's content as a whole",
          p && p->count == 2 && p->edits[0].message == 3 && p->edits[0].target == MF_EDIT_MESSAGE_CONTENT &&
              p->edits[1].message == 4 && strncmp(p->edits[0].replacement, "[truncated: read_file result", 28) == 0);
    mf_micro_plan_free(p);

    CHECK("the session validates", problems(LC, NULL) == 0);
    mf_problem_code code = 0;
    CHECK("a tool message answering the invalid call answers nothing sent",
          problems("[{\"type\": \"human\", \"content\": \"go\"}, {\"type\": \"ai\", \"content\": \"\", \"tool_calls\": [],"
                   " \"invalid_tool_calls\": [{\"id\": \"c3\", \"name\": \"bash\", \"args\": \"{\", \"error\": \"x\"}]},"
                   " {\"type\": \"tool\", \"tool_call_id\": \"c3\", \"content\": \"ran\"}]", &code) == 1 &&
              code == MF_PROBLEM_RESULT_WITHOUT_CALL);
    CHECK("a call without its tool message is reported",
          problems("[{\"type\": \"human\", \"content\": \"go\"}, {\"type\": \"ai\", \"content\": \"\", \"tool_calls\": "
                   "[{\"id\": \"c1\", \"name\": \"ls\", \"args\": {}}]}, {\"type\": \"human\", \"content\": \"?\"}]", &code) >= 1 &&
              code == MF_PROBLEM_CALL_WITHOUT_RESULT);

    mf_doc *doc = parse(LC);
    mf_compact_options o;
    mf_compact_options_init(&o);
    o.keep_tail_tokens = 0;
    mf_compact_plan *plan = NULL;
    CHECK("the cut keeps the system message and falls at the last human message",
          doc && mf_doc_compact_plan(doc, MF_FORMAT_AUTO, &o, &plan, NULL) == MF_OK && plan->tail_start == 6);
    mf_compact_plan_free(plan);
    mf_doc_free(doc);
}
