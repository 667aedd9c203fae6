/* test_format.c — telling the three wire formats apart, and the static names every code
 * and enum value has. */
#include <string.h>

#include "check.h"
#include "fixtures.h"
#include "helpers.h"
#include "midfold.h"
#include "suites.h"

static mf_format detect(const char *json)
{
    mf_doc *doc = parse(json);
    mf_format f = doc ? mf_doc_detect(doc) : (mf_format)-1;
    mf_doc_free(doc);
    return f;
}

static void detection(void)
{
    CHECK("the Anthropic session is Anthropic", detect(FX_SESSION_ANTHROPIC) == MF_FORMAT_ANTHROPIC);
    CHECK("the OpenAI session is OpenAI", detect(FX_SESSION_OPENAI) == MF_FORMAT_OPENAI);
    CHECK("the AI SDK session is AI SDK", detect(FX_SESSION_AISDK) == MF_FORMAT_AISDK);
    CHECK("the Chinese conversation is Anthropic", detect(FX_CHINESE_ANTHROPIC) == MF_FORMAT_ANTHROPIC);
    CHECK("the seed is Anthropic, OpenAI and AI SDK in its three forms",
          detect(FX_SEED_ANTHROPIC) == MF_FORMAT_ANTHROPIC && detect(FX_SEED_OPENAI) == MF_FORMAT_OPENAI &&
          detect(FX_SEED_AISDK) == MF_FORMAT_AISDK);
    CHECK("plain text messages fit every format and are reported as OpenAI",
          detect("[{\"role\": \"system\", \"content\": \"You are terse.\"}, {\"role\": \"user\", \"content\": \"hi\"},"
                 " {\"role\": \"assistant\", \"content\": \"Hello.\"}]") == MF_FORMAT_OPENAI);
    CHECK("an empty list is reported as OpenAI", detect("[]") == MF_FORMAT_OPENAI);
    CHECK("a text block with citations (none: null) is Anthropic",
          detect("[{\"role\": \"user\", \"content\": \"hi\"}, {\"role\": \"assistant\", \"content\": "
                 "[{\"type\": \"text\", \"text\": \"Hello.\", \"citations\": null}]}]") == MF_FORMAT_ANTHROPIC);
    CHECK("text parts without citations stay plain text (OpenAI)",
          detect("[{\"role\": \"user\", \"content\": [{\"type\": \"text\", \"text\": \"hi\"}]}]") == MF_FORMAT_OPENAI);
    CHECK("a request body is detected by its messages",
          detect("{\"model\": \"claude-sonnet-4-5\", \"max_tokens\": 1024, \"messages\": " "[{\"role\": \"assistant\", "
                 "\"content\": [{\"type\": \"thinking\", \"thinking\": \"hm\", \"signature\": \"x\"}]}]}") == MF_FORMAT_ANTHROPIC);
    CHECK("a lone message is detected",
          detect("{\"role\": \"tool\", \"tool_call_id\": \"call_1\", \"content\": \"ok\"}") == MF_FORMAT_OPENAI);
    CHECK("a developer message is OpenAI", detect("[{\"role\": \"developer\", \"content\": \"Be terse.\"}]") == MF_FORMAT_OPENAI);
    CHECK("an AI SDK reasoning part is AI SDK",
          detect("[{\"role\": \"assistant\", \"content\": [{\"type\": \"reasoning\", \"text\": \"hm\"}]}]") == MF_FORMAT_AISDK);
    CHECK("an OpenAI image_url part is OpenAI",
          detect("[{\"role\": \"user\", \"content\": [{\"type\": \"image_url\", \"image_url\": {\"url\": \"https://x/y.png\"}}]}]") ==
              MF_FORMAT_OPENAI);
    CHECK("an Anthropic image block (with a source) is Anthropic",
          detect("[{\"role\": \"user\", \"content\": [{\"type\": \"image\", \"source\": {\"type\": \"url\", \"url\": \"https://x/y.png\"}}]}]") ==
              MF_FORMAT_ANTHROPIC);
    CHECK("an AI SDK image part (with an image) is AI SDK",
          detect("[{\"role\": \"user\", \"content\": [{\"type\": \"image\", \"image\": \"https://x/y.png\"}]}]") == MF_FORMAT_AISDK);
    CHECK("Anthropic tool_use followed by an OpenAI tool message is mixed: unknown",
          detect("[{\"role\": \"assistant\", \"content\": [{\"type\": \"tool_use\", \"id\": \"t1\", \"name\": \"ls\", \"input\": {}}]},"
                 " {\"role\": \"tool\", \"tool_call_id\": \"t1\", \"content\": \"a.txt\"}]") == MF_FORMAT_UNKNOWN);
    CHECK("OpenAI tool_calls next to an AI SDK tool-result is mixed: unknown",
          detect("[{\"role\": \"assistant\", \"content\": null, \"tool_calls\": []},"
                 " {\"role\": \"tool\", \"content\": [{\"type\": \"tool-result\", \"toolCallId\": \"c\", \"toolName\": \"ls\","
                 " \"output\": {\"type\": \"text\", \"value\": \"\"}}]}]") == MF_FORMAT_UNKNOWN);
    CHECK("a list of numbers is no conversation: unknown", detect("[1, 2, 3]") == MF_FORMAT_UNKNOWN);
    CHECK("a string is no conversation: unknown", detect("\"hello\"") == MF_FORMAT_UNKNOWN);
    CHECK("an object without role or messages is unknown", detect("{\"model\": \"gpt-4o\"}") == MF_FORMAT_UNKNOWN);
    CHECK("a message whose role is not a string makes the list no conversation",
          detect("[{\"role\": \"user\", \"content\": \"hi\"}, {\"role\": 7}]") == MF_FORMAT_UNKNOWN);
    CHECK("a NULL document is unknown", mf_doc_detect(NULL) == MF_FORMAT_UNKNOWN);
}

static void names(void)
{
    int all = 1;
    for (int s = 0; s <= 20; s++) all &= mf_strerror((mf_status)s) != NULL && mf_strerror((mf_status)s)[0];
    CHECK("mf_strerror is never NULL nor empty, even for a status that does not exist", all);
    CHECK_EQ_STR("MF_ERR_NOMEM reads \"out of memory\"", mf_strerror(MF_ERR_NOMEM), "out of memory");
    CHECK("every status has its own text",
          strcmp(mf_strerror(MF_ERR_PARSE), mf_strerror(MF_ERR_DEPTH)) != 0 &&
          strcmp(mf_strerror(MF_ERR_SHAPE), mf_strerror(MF_ERR_FORMAT)) != 0 &&
          strcmp(mf_strerror(MF_ERR_TOO_LARGE), mf_strerror(MF_ERR_INVALID_ARG)) != 0);

    all = 1;
    for (int f = 0; f <= 20; f++) all &= mf_format_name((mf_format)f) != NULL;
    CHECK("mf_format_name is never NULL", all);
    CHECK_EQ_STR("MF_FORMAT_ANTHROPIC is \"anthropic\"", mf_format_name(MF_FORMAT_ANTHROPIC), "anthropic");
    CHECK_EQ_STR("MF_FORMAT_OPENAI is \"openai\"", mf_format_name(MF_FORMAT_OPENAI), "openai");
    CHECK_EQ_STR("MF_FORMAT_AISDK is \"ai-sdk\"", mf_format_name(MF_FORMAT_AISDK), "ai-sdk");
    CHECK_EQ_STR("MF_FORMAT_UNKNOWN is \"unknown\"", mf_format_name(MF_FORMAT_UNKNOWN), "unknown");
    CHECK_EQ_STR("MF_FORMAT_AUTO is \"auto\"", mf_format_name(MF_FORMAT_AUTO), "auto");

    mf_format f = MF_FORMAT_UNKNOWN;
    CHECK("\"ai-sdk\" parses to MF_FORMAT_AISDK", mf_format_parse("ai-sdk", 6, &f) == MF_OK && f == MF_FORMAT_AISDK);
    CHECK("\"anthropic\" parses to MF_FORMAT_ANTHROPIC", mf_format_parse("anthropic", 9, &f) == MF_OK && f == MF_FORMAT_ANTHROPIC);
    CHECK("\"auto\" parses to MF_FORMAT_AUTO", mf_format_parse("auto", 4, &f) == MF_OK && f == MF_FORMAT_AUTO);
    CHECK("\"Anthropic\" (capitalized) is an invalid argument", mf_format_parse("Anthropic", 9, &f) == MF_ERR_INVALID_ARG);
    CHECK("\"openai-chat\" is an invalid argument", mf_format_parse("openai-chat", 11, &f) == MF_ERR_INVALID_ARG);
    CHECK("a NULL name is an invalid argument", mf_format_parse(NULL, 0, &f) == MF_ERR_INVALID_ARG);

    all = 1;
    for (int c = 0; c <= 20; c++) all &= mf_problem_name((mf_problem_code)c) != NULL;
    CHECK("mf_problem_name is never NULL", all);
    CHECK_EQ_STR("MF_PROBLEM_CALL_WITHOUT_RESULT is \"call-without-result\"",
                 mf_problem_name(MF_PROBLEM_CALL_WITHOUT_RESULT), "call-without-result");
    CHECK_EQ_STR("MF_PROBLEM_DUPLICATE_ID is \"duplicate-id\"", mf_problem_name(MF_PROBLEM_DUPLICATE_ID), "duplicate-id");
}

void test_format(void)
{
    detection();
    names();
}
