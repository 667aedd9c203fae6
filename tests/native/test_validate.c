/* test_validate.c — each provider rule a conversation can break, reported with its code
 * at the message (and block) where it is broken; valid conversations report nothing. */
#include <string.h>

#include "check.h"
#include "fixtures.h"
#include "helpers.h"
#include "midfold.h"
#include "suites.h"

#define NO_PART SIZE_MAX

static mf_validation *validate(const char *json, mf_format format)
{
    mf_doc *doc = parse(json);
    mf_validation *v = NULL;
    if (doc && mf_doc_validate(doc, format, &v, NULL) != MF_OK) v = NULL;
    mf_doc_free(doc);
    return v;
}

/* True when the report is exactly one problem with this code, message and part, and a
 * sentence to show. */
static int only_problem(const char *json, mf_format format, mf_problem_code code, size_t message, size_t part)
{
    mf_validation *v = validate(json, format);
    int ok = v && v->count == 1 && v->problems[0].code == code && v->problems[0].message == message &&
             v->problems[0].part == part && v->problems[0].text && v->problems[0].text[0];
    mf_validation_free(v);
    return ok;
}

/* True when the report holds no problem at all. */
static int no_problem(const char *json, mf_format format)
{
    mf_validation *v = validate(json, format);
    int ok = v && v->count == 0;
    mf_validation_free(v);
    return ok;
}

static int has_problem(const mf_validation *v, mf_problem_code code, size_t message, size_t part)
{
    for (size_t i = 0; v && i < v->count; i++)
        if (v->problems[i].code == code && v->problems[i].message == message && v->problems[i].part == part) return 1;
    return 0;
}

#define USER(text) "{\"role\": \"user\", \"content\": \"" text "\"}"
#define TOOL_USE(id, name) "{\"type\": \"tool_use\", \"id\": \"" id "\", \"name\": \"" name "\", \"input\": {}}"
#define TOOL_RESULT(id, text) "{\"type\": \"tool_result\", \"tool_use_id\": \"" id "\", \"content\": \"" text "\"}"
#define ASSISTANT(blocks) "{\"role\": \"assistant\", \"content\": [" blocks "]}"
#define USER_BLOCKS(blocks) "{\"role\": \"user\", \"content\": [" blocks "]}"

static void valid(void)
{
    static const struct { const char *name, *json; mf_format format; } ok[] = {
        {"the Anthropic session (stopped on tool results) is valid", FX_SESSION_ANTHROPIC, MF_FORMAT_ANTHROPIC},
        {"the OpenAI session is valid", FX_SESSION_OPENAI, MF_FORMAT_OPENAI},
        {"the AI SDK session is valid", FX_SESSION_AISDK, MF_FORMAT_AISDK},
        {"the Chinese conversation is valid", FX_CHINESE_ANTHROPIC, MF_FORMAT_ANTHROPIC},
        {"the seed is valid", FX_SEED_ANTHROPIC, MF_FORMAT_ANTHROPIC},
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        mf_validation *v = validate(ok[i].json, MF_FORMAT_AUTO);
        CHECK(ok[i].name, v && v->count == 0 && v->format == ok[i].format);
        mf_validation_free(v);
    }
    mf_validation *v = validate("[" ASSISTANT(TOOL_USE("t1", "bash")) ", {\"role\": \"system\", \"content\": \"Tool output follows.\"}, "
                                USER_BLOCKS(TOOL_RESULT("t1", "ok")) "]", MF_FORMAT_AUTO);
    CHECK("an Anthropic system entry between a call and its result is skipped over", v && v->count == 0);
    mf_validation_free(v);
    v = validate("[" USER("hi") "]", MF_FORMAT_ANTHROPIC);
    CHECK("the report says which format's rules were applied", v && v->format == MF_FORMAT_ANTHROPIC);
    mf_validation_free(v);
    mf_validation_free(NULL); /* documented as fine */
}

static void shapes(void)
{
    mf_validation *v = validate("[" USER("hi") ", 42, {\"content\": \"no role\"}]", MF_FORMAT_AUTO);
    CHECK("entries that are not messages are each reported at their index",
          v && v->count == 2 && has_problem(v, MF_PROBLEM_NOT_A_MESSAGE, 1, NO_PART) &&
              has_problem(v, MF_PROBLEM_NOT_A_MESSAGE, 2, NO_PART));
    CHECK("... and the format is unknown", v && v->format == MF_FORMAT_UNKNOWN);
    mf_validation_free(v);
    CHECK("a value that is no list of messages is one problem, not an error",
          only_problem("{\"model\": \"gpt-4o\"}", MF_FORMAT_AUTO, MF_PROBLEM_NOT_A_MESSAGE, 0, NO_PART));
    CHECK("an unknown role is reported at its message",
          only_problem("[" USER("hi") ", {\"role\": \"robot\", \"content\": \"beep\"}]", MF_FORMAT_ANTHROPIC,
                       MF_PROBLEM_UNKNOWN_ROLE, 1, NO_PART));
    CHECK("role \"tool\" is unknown to Anthropic",
          only_problem("[{\"role\": \"tool\", \"content\": \"x\"}]", MF_FORMAT_ANTHROPIC, MF_PROBLEM_UNKNOWN_ROLE, 0, NO_PART));
    CHECK("content that is a number is bad content",
          only_problem("[" USER("hi") ", {\"role\": \"assistant\", \"content\": 42}]", MF_FORMAT_ANTHROPIC,
                       MF_PROBLEM_BAD_CONTENT, 1, NO_PART));
    CHECK("null content is bad content for Anthropic",
          only_problem("[{\"role\": \"assistant\", \"content\": null}]", MF_FORMAT_ANTHROPIC, MF_PROBLEM_BAD_CONTENT, 0, NO_PART));
    CHECK("null content beside tool_calls is fine for an OpenAI assistant",
          only_problem("[{\"role\": \"assistant\", \"content\": null, \"tool_calls\": [{\"id\": \"c1\", \"type\": \"function\", "
                       "\"function\": {\"name\": \"ls\", \"arguments\": \"{}\"}}]}, {\"role\": \"tool\", \"tool_call_id\": \"c1\", "
                       "\"content\": \"a.txt\"}, {\"role\": \"robot\", \"content\": \"\"}]",
                       MF_FORMAT_OPENAI, MF_PROBLEM_UNKNOWN_ROLE, 2, NO_PART));
    CHECK("an unknown block type is reported at its block",
          only_problem("[" USER_BLOCKS("{\"type\": \"text\", \"text\": \"Watch this:\"}, {\"type\": \"video\", \"url\": \"https://x/v.mp4\"}") "]",
                       MF_FORMAT_ANTHROPIC, MF_PROBLEM_UNKNOWN_BLOCK, 0, 1));
    CHECK("a block without a type is an unknown block",
          only_problem("[" USER_BLOCKS("{\"text\": \"no type\"}") "]", MF_FORMAT_ANTHROPIC, MF_PROBLEM_UNKNOWN_BLOCK, 0, 0));
    CHECK("a content entry that is a string is bad content at its block",
          only_problem("[" USER_BLOCKS("{\"type\": \"text\", \"text\": \"a\"}, \"b\"") "]", MF_FORMAT_ANTHROPIC,
                       MF_PROBLEM_BAD_CONTENT, 0, 1));
    CHECK("Anthropic server-tool blocks are known",
          only_problem("[" ASSISTANT("{\"type\": \"server_tool_use\", \"id\": \"srvtoolu_1\", \"name\": \"web_search\", \"input\": {\"query\": \"cJSON\"}}, "
                                     "{\"type\": \"web_search_tool_result\", \"tool_use_id\": \"srvtoolu_1\", \"content\": []}, "
                                     "{\"type\": \"mystery\"}") "]",
                       MF_FORMAT_ANTHROPIC, MF_PROBLEM_UNKNOWN_BLOCK, 0, 2));
}

static void pairing(void)
{
    CHECK("a tool call with no result after it is reported at the call",
          only_problem("[" USER("List the files.") ", " ASSISTANT("{\"type\": \"text\", \"text\": \"Sure.\"}, " TOOL_USE("t1", "ls"))
                       ", " USER("Never mind.") "]",
                       MF_FORMAT_ANTHROPIC, MF_PROBLEM_CALL_WITHOUT_RESULT, 1, 1));
    CHECK("a conversation ending on a tool call reports it (the result must come before the next request)",
          only_problem("[" USER("List the files.") ", " ASSISTANT(TOOL_USE("t1", "ls")) "]",
                       MF_FORMAT_ANTHROPIC, MF_PROBLEM_CALL_WITHOUT_RESULT, 1, 0));
    CHECK("a tool result answering no call is reported at the result",
          only_problem("[" ASSISTANT(TOOL_USE("t1", "ls")) ", " USER_BLOCKS(TOOL_RESULT("t1", "a.txt") ", " TOOL_RESULT("t7", "?")) "]",
                       MF_FORMAT_ANTHROPIC, MF_PROBLEM_RESULT_WITHOUT_CALL, 1, 1));
    mf_validation *v = validate("[" ASSISTANT(TOOL_USE("t1", "ls")) ", " USER("wait") ", " USER_BLOCKS(TOOL_RESULT("t1", "a.txt")) "]",
                                MF_FORMAT_ANTHROPIC);
    CHECK("a result two messages after its call: the call has no result and the result no call (and two user messages in a row)",
          v && v->count == 3 && has_problem(v, MF_PROBLEM_CALL_WITHOUT_RESULT, 0, 0) &&
              has_problem(v, MF_PROBLEM_RESULT_WITHOUT_CALL, 2, 0) && has_problem(v, MF_PROBLEM_CONSECUTIVE_ROLE, 2, NO_PART));
    mf_validation_free(v);
    CHECK("an Anthropic tool_result after a text block is not first",
          only_problem("[" ASSISTANT(TOOL_USE("t1", "ls")) ", " USER_BLOCKS("{\"type\": \"text\", \"text\": \"Here:\"}, " TOOL_RESULT("t1", "a.txt")) "]",
                       MF_FORMAT_ANTHROPIC, MF_PROBLEM_RESULT_NOT_FIRST, 1, 1));
    v = validate("[" ASSISTANT("{\"type\": \"tool_use\", \"name\": \"ls\", \"input\": {}}") ", " USER("ok") "]", MF_FORMAT_ANTHROPIC);
    CHECK("a tool call without an id is reported as missing its id", v && has_problem(v, MF_PROBLEM_MISSING_ID, 0, 0));
    mf_validation_free(v);
    v = validate("[" ASSISTANT(TOOL_USE("t1", "ls")) ", " USER_BLOCKS(TOOL_RESULT("t1", "a") ", {\"type\": \"tool_result\", \"content\": \"b\"}") "]",
                 MF_FORMAT_ANTHROPIC);
    CHECK("a tool result without an id is reported as missing its id", v && has_problem(v, MF_PROBLEM_MISSING_ID, 1, 1));
    mf_validation_free(v);
    CHECK("a tool call id used twice is reported at the second call",
          only_problem("[" ASSISTANT(TOOL_USE("toolu_01", "ls")) ", " USER_BLOCKS(TOOL_RESULT("toolu_01", "a")) ", "
                       ASSISTANT(TOOL_USE("toolu_01", "ls")) ", " USER_BLOCKS(TOOL_RESULT("toolu_01", "a")) "]",
                       MF_FORMAT_ANTHROPIC, MF_PROBLEM_DUPLICATE_ID, 2, 0));

    /* OpenAI: results are tool messages right after the assistant message. */
    CHECK("OpenAI: the second of two parallel calls without its tool message is reported at its place in tool_calls",
          only_problem("[{\"role\": \"assistant\", \"content\": null, \"tool_calls\": ["
                       "{\"id\": \"c1\", \"type\": \"function\", \"function\": {\"name\": \"ls\", \"arguments\": \"{}\"}}, "
                       "{\"id\": \"c2\", \"type\": \"function\", \"function\": {\"name\": \"pwd\", \"arguments\": \"{}\"}}]}, "
                       "{\"role\": \"tool\", \"tool_call_id\": \"c1\", \"content\": \"a.txt\"}, " USER("thanks") "]",
                       MF_FORMAT_OPENAI, MF_PROBLEM_CALL_WITHOUT_RESULT, 0, 1));
    CHECK("OpenAI: a tool message after a user message answers nothing",
          only_problem("[" USER("hi") ", {\"role\": \"tool\", \"tool_call_id\": \"c1\", \"content\": \"a.txt\"}]",
                       MF_FORMAT_OPENAI, MF_PROBLEM_RESULT_WITHOUT_CALL, 1, NO_PART));
    /* DeepSeek's thinking mode: a tool-calling turn's reasoning_content goes back with it. */
#define DS_CALL(id, reasoning) "{\"role\": \"assistant\", \"content\": \"\", " reasoning "\"tool_calls\": [{\"id\": \"" id "\", " \
    "\"type\": \"function\", \"function\": {\"name\": \"ls\", \"arguments\": \"{}\"}}]}, " \
    "{\"role\": \"tool\", \"tool_call_id\": \"" id "\", \"content\": \"a.txt\"}"
    v = validate("[" USER("列出文件") ", " DS_CALL("c1", "\"reasoning_content\": \"先列目录。\", ") ", "
                 DS_CALL("c2", "") "]", MF_FORMAT_AUTO);
    CHECK("OpenAI: a tool call without the reasoning_content the others carry is a warning at its message",
          v && v->count == 1 && has_problem(v, MF_PROBLEM_MISSING_REASONING, 3, NO_PART) &&
          v->problems[0].severity == MF_SEVERITY_WARNING);
    mf_validation_free(v);
    v = validate("[" USER("列出文件") ", " DS_CALL("c1", "") ", " USER("再来") "]", MF_FORMAT_AUTO);
    CHECK("OpenAI: without any reasoning_content nothing is missing", v && v->count == 0);
    mf_validation_free(v);
    v = validate("[" USER("列出文件") ", " DS_CALL("c1", "\"reasoning_content\": \"先列目录。\", ") ", "
                 DS_CALL("c2", "\"reasoning_content\": \"\", ") "]", MF_FORMAT_AUTO);
    CHECK("OpenAI: an empty reasoning_content (the AI SDK's when there is none) is passed back", v && v->count == 0);
    mf_validation_free(v);
#undef DS_CALL
    CHECK("AI SDK: a tool-result answering no call is reported at its part",
          only_problem("[{\"role\": \"assistant\", \"content\": [{\"type\": \"text\", \"text\": \"Done.\"}]}, "
                       "{\"role\": \"tool\", \"content\": [{\"type\": \"tool-result\", \"toolCallId\": \"c9\", \"toolName\": \"ls\", "
                       "\"output\": {\"type\": \"text\", \"value\": \"a.txt\"}}]}]",
                       MF_FORMAT_AISDK, MF_PROBLEM_RESULT_WITHOUT_CALL, 1, 0));
}

/* A turn paused with stop_reason "pause_turn" ends on a server call it has not run; the
 * continuation, the next assistant message, holds its result (docs/anthropic-blocks.md). */
#define SERVER_CALL(id) "{\"type\": \"server_tool_use\", \"id\": \"" id "\", \"name\": \"web_search\", \"input\": {\"query\": \"sqlite wal\"}}"
#define SERVER_RESULT(id) "{\"type\": \"web_search_tool_result\", \"tool_use_id\": \"" id "\", \"content\": [{\"type\": \"web_search_result\", " \
    "\"title\": \"Write-Ahead Logging\", \"url\": \"https://www.sqlite.org/wal.html\", \"encrypted_content\": \"EqgfCioI\"}]}"
#define TEXT(t) "{\"type\": \"text\", \"text\": \"" t "\"}"
static void paused_turns(void)
{
    mf_validation *v = validate("[" USER("Does WAL work over NFS?") ", " ASSISTANT(SERVER_CALL("s1") ", " SERVER_RESULT("s1") ", " SERVER_CALL("s2"))
                                ", " ASSISTANT(SERVER_RESULT("s2") ", " TEXT("No: WAL needs shared memory.")) ", " USER("Thanks.") "]",
                                MF_FORMAT_AUTO);
    CHECK("a server call a turn paused on, answered at the start of the next assistant message: no problem", v && v->count == 0);
    mf_validation_free(v);
    v = validate("[" USER("Does WAL work over NFS?") ", " ASSISTANT(SERVER_CALL("s2") ", " TEXT("Searching."))
                 ", " ASSISTANT(SERVER_RESULT("s2")) "]", MF_FORMAT_AUTO);
    CHECK("a server call followed by text did not pause there: its result in the next message is a pair of errors "
          "(and the two assistant messages in a row a warning)",
          v && v->count == 3 && has_problem(v, MF_PROBLEM_CALL_WITHOUT_RESULT, 1, 0) && has_problem(v, MF_PROBLEM_RESULT_WITHOUT_CALL, 2, 0) &&
          has_problem(v, MF_PROBLEM_CONSECUTIVE_ROLE, 2, SIZE_MAX));
    mf_validation_free(v);
    v = validate("[" USER("Does WAL work over NFS?") ", " ASSISTANT(SERVER_CALL("s2")) ", " USER("go on") ", "
                 ASSISTANT(SERVER_RESULT("s2")) "]", MF_FORMAT_AUTO);
    CHECK("a user message between the paused call and its result: a pair of errors",
          v && v->count == 2 && has_problem(v, MF_PROBLEM_CALL_WITHOUT_RESULT, 1, 0) && has_problem(v, MF_PROBLEM_RESULT_WITHOUT_CALL, 3, 0));
    mf_validation_free(v);
    v = validate("[" USER("Does WAL work over NFS?") ", " ASSISTANT(SERVER_CALL("s2")) "]", MF_FORMAT_AUTO);
    CHECK("a paused turn that ends the list is still a warning",
          v && v->count == 1 && v->problems[0].code == MF_PROBLEM_CALL_WITHOUT_RESULT && v->problems[0].severity == MF_SEVERITY_WARNING);
    mf_validation_free(v);
}
#undef SERVER_CALL
#undef SERVER_RESULT
#undef TEXT

static void mixed_and_errors(void)
{
    mf_validation *v = validate("[" ASSISTANT(TOOL_USE("t1", "ls")) ", {\"role\": \"tool\", \"tool_call_id\": \"t1\", \"content\": \"a\"}]",
                                MF_FORMAT_AUTO);
    CHECK("mixed formats are a finding (format unknown, one problem), not an error",
          v && v->format == MF_FORMAT_UNKNOWN && v->count == 1 && v->problems[0].code == MF_PROBLEM_BAD_CONTENT);
    mf_validation_free(v);
    v = validate(FX_SESSION_OPENAI, MF_FORMAT_ANTHROPIC);
    CHECK("OpenAI messages checked against Anthropic's rules break them (role \"tool\" at message 2)",
          v && v->format == MF_FORMAT_ANTHROPIC && has_problem(v, MF_PROBLEM_UNKNOWN_ROLE, 2, NO_PART));
    mf_validation_free(v);
    mf_validation *out = NULL;
    mf_doc *doc = parse(FX_SEED_ANTHROPIC);
    CHECK("a NULL document is an invalid argument", mf_doc_validate(NULL, MF_FORMAT_AUTO, &out, NULL) == MF_ERR_INVALID_ARG);
    CHECK("a NULL output pointer is an invalid argument", mf_doc_validate(doc, MF_FORMAT_AUTO, NULL, NULL) == MF_ERR_INVALID_ARG);
    CHECK("an explicit MF_FORMAT_UNKNOWN is an invalid argument",
          mf_doc_validate(doc, MF_FORMAT_UNKNOWN, &out, NULL) == MF_ERR_INVALID_ARG && out == NULL);
    mf_doc_free(doc);
}

/* Two user or two assistant messages in a row: Anthropic combines them, deepseek-reasoner refuses them. */
static void consecutive_roles(void)
{
#define COMPACTION "{\"type\": \"compaction\", \"content\": \"摘要：读了 src/compact.c。\", \"signature\": \"cmp.x\"}"
    mf_validation *v = validate("[" ASSISTANT(COMPACTION) ", " ASSISTANT(TOOL_USE("t1", "ls")) ", "
                                USER_BLOCKS(TOOL_RESULT("t1", "a.txt")) "]", MF_FORMAT_ANTHROPIC);
    CHECK("Anthropic: an assistant message right after another is a warning at the second",
          v && v->count == 1 && has_problem(v, MF_PROBLEM_CONSECUTIVE_ROLE, 1, NO_PART) &&
          v->problems[0].severity == MF_SEVERITY_WARNING);
    mf_validation_free(v);
    CHECK("Anthropic: the compaction block leading the assistant turn it belongs to is no problem",
          no_problem("[" ASSISTANT(COMPACTION ", " TOOL_USE("t1", "ls")) ", " USER_BLOCKS(TOOL_RESULT("t1", "a.txt")) "]",
                     MF_FORMAT_ANTHROPIC));
    v = validate("[" USER("列出文件") ", " USER("再列一次") "]", MF_FORMAT_OPENAI);
    CHECK("OpenAI: a user message right after another is a warning",
          v && v->count == 1 && has_problem(v, MF_PROBLEM_CONSECUTIVE_ROLE, 1, NO_PART) &&
          v->problems[0].severity == MF_SEVERITY_WARNING);
    mf_validation_free(v);
    CHECK("OpenAI: tool messages in a row (the answers to parallel calls) are no run of one role",
          no_problem("[{\"role\": \"assistant\", \"content\": null, \"tool_calls\": ["
                     "{\"id\": \"c1\", \"type\": \"function\", \"function\": {\"name\": \"ls\", \"arguments\": \"{}\"}}, "
                     "{\"id\": \"c2\", \"type\": \"function\", \"function\": {\"name\": \"pwd\", \"arguments\": \"{}\"}}]}, "
                     "{\"role\": \"tool\", \"tool_call_id\": \"c1\", \"content\": \"a.txt\"}, "
                     "{\"role\": \"tool\", \"tool_call_id\": \"c2\", \"content\": \"/src\"}, " USER("thanks") "]",
                     MF_FORMAT_OPENAI));
    CHECK("a system message between two user messages breaks the run",
          no_problem("[" USER("a") ", {\"role\": \"system\", \"content\": \"Be brief.\"}, " USER("b") "]", MF_FORMAT_ANTHROPIC));
    CHECK("AI SDK messages are left to the providers, which group them",
          no_problem("[" USER("a") ", " USER("b") "]", MF_FORMAT_AISDK));
#undef COMPACTION
}

void test_validate(void)
{
    valid();
    paused_turns();
    shapes();
    pairing();
    consecutive_roles();
    mixed_and_errors();
}
