/* test_serialize.c — the transcript a summarizer reads: "[role]" sections, tool calls as
 * "[tool_use:NAME] {json}" with ": " and ", " separators and non-ASCII unescaped, results
 * as "[tool_result:NAME] text", a blank line between messages; the same text whatever the
 * wire format. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "fixtures.h"
#include "helpers.h"
#include "midfold.h"
#include "suites.h"

#define SERIALIZES_TO(fact, json, format, expected)                  \
    do {                                                             \
        char *out_ = transcript_of((json), (format));                \
        CHECK_EQ_STR(fact, out_, (expected));                        \
        mf_free(out_);                                               \
    } while (0)

/* One Anthropic assistant message holding the given blocks (a JSON list's inside). */
#define ASSISTANT(blocks) "[{\"role\": \"assistant\", \"content\": [" blocks "]}]"

static void whole_conversations(void)
{
    SERIALIZES_TO("the seed example gives DESIGN.md's transcript", FX_SEED_ANTHROPIC, MF_FORMAT_AUTO, FX_SEED_TRANSCRIPT);
    SERIALIZES_TO("the seed in OpenAI form gives the same transcript", FX_SEED_OPENAI, MF_FORMAT_AUTO, FX_SEED_TRANSCRIPT);
    SERIALIZES_TO("the seed in AI SDK form gives the same transcript", FX_SEED_AISDK, MF_FORMAT_AUTO, FX_SEED_TRANSCRIPT);
    SERIALIZES_TO("the Anthropic session gives its transcript", FX_SESSION_ANTHROPIC, MF_FORMAT_AUTO, FX_SESSION_TRANSCRIPT);
    SERIALIZES_TO("the OpenAI session gives the same transcript (its tool messages merged under one [user])",
                  FX_SESSION_OPENAI, MF_FORMAT_AUTO, FX_SESSION_TRANSCRIPT);
    SERIALIZES_TO("the AI SDK session gives the same transcript", FX_SESSION_AISDK, MF_FORMAT_AUTO, FX_SESSION_TRANSCRIPT);
    SERIALIZES_TO("the session with its format named gives the same transcript",
                  FX_SESSION_OPENAI, MF_FORMAT_OPENAI, FX_SESSION_TRANSCRIPT);
    SERIALIZES_TO("Chinese text is written as it is, never escaped", FX_CHINESE_ANTHROPIC, MF_FORMAT_AUTO,
                  FX_CHINESE_TRANSCRIPT);
    SERIALIZES_TO("an empty conversation is an empty transcript", "[]", MF_FORMAT_AUTO, "");
    SERIALIZES_TO("a request body is serialized by its messages",
                  "{\"model\": \"gpt-4o\", \"messages\": [{\"role\": \"user\", \"content\": \"hi\"}]}", MF_FORMAT_AUTO,
                  "[user]\nhi");
    SERIALIZES_TO("a system message is a [system] section",
                  "[{\"role\": \"system\", \"content\": \"You are terse.\"}, {\"role\": \"user\", \"content\": \"hi\"}]",
                  MF_FORMAT_AUTO, "[system]\nYou are terse.\n\n[user]\nhi");
    SERIALIZES_TO("an OpenAI developer message is a [system] section",
                  "[{\"role\": \"developer\", \"content\": \"Be terse.\"}]", MF_FORMAT_AUTO, "[system]\nBe terse.");
    SERIALIZES_TO("an unknown role is written as it is, after a word of midfold's own", "[{\"role\": \"robot\", \"content\": \"beep\"}]",
                  MF_FORMAT_ANTHROPIC, "[role: robot]\nbeep");
    SERIALIZES_TO("so \"User\" (no role a provider takes) never reads as a user turn", "[{\"role\": \"User\", \"content\": \"beep\"}]",
                  MF_FORMAT_ANTHROPIC, "[role: User]\nbeep");
}

static void tool_calls(void)
{
    SERIALIZES_TO("non-ASCII arguments are left unescaped",
                  ASSISTANT("{\"type\": \"tool_use\", \"id\": \"t1\", \"name\": \"search\", \"input\": {\"query\": \"配置 文件\"}}"),
                  MF_FORMAT_AUTO, "[assistant]\n[tool_use:search] {\"query\": \"配置 文件\"}");
    SERIALIZES_TO("quotes, backslashes, newlines and control characters in arguments are escaped as JSON",
                  ASSISTANT("{\"type\": \"tool_use\", \"id\": \"t1\", \"name\": \"bash\", "
                            "\"input\": {\"command\": \"printf \\\"a\\\\tb\\\\n\\\"\\n\\u0001\"}}"),
                  MF_FORMAT_AUTO, "[assistant]\n[tool_use:bash] {\"command\": \"printf \\\"a\\\\tb\\\\n\\\"\\n\\u0001\"}");
    SERIALIZES_TO("numbers, booleans, null and lists keep their JSON text, with \", \" between items",
                  ASSISTANT("{\"type\": \"tool_use\", \"id\": \"t1\", \"name\": \"read_file\", \"input\": {\"offset\": 39, "
                            "\"limit\": 6, \"ratio\": 0.25, \"delta\": -3, \"size\": 12345678901234, \"follow\": false, "
                            "\"encoding\": null, \"lines\": [1, 2]}}"),
                  MF_FORMAT_AUTO,
                  "[assistant]\n[tool_use:read_file] {\"offset\": 39, \"limit\": 6, \"ratio\": 0.25, \"delta\": -3, "
                  "\"size\": 12345678901234, \"follow\": false, \"encoding\": null, \"lines\": [1, 2]}");
    SERIALIZES_TO("empty arguments are {}",
                  ASSISTANT("{\"type\": \"tool_use\", \"id\": \"t1\", \"name\": \"pwd\", \"input\": {}}"),
                  MF_FORMAT_AUTO, "[assistant]\n[tool_use:pwd] {}");
    SERIALIZES_TO("OpenAI arguments are re-printed with \": \" and \", \"",
                  "[{\"role\": \"assistant\", \"content\": null, \"tool_calls\": [{\"id\": \"c1\", \"type\": \"function\", "
                  "\"function\": {\"name\": \"grep\", \"arguments\": \"{\\\"pattern\\\":\\\"TODO\\\",\\\"path\\\":\\\"src\\\"}\"}}]}]",
                  MF_FORMAT_AUTO, "[assistant]\n[tool_use:grep] {\"pattern\": \"TODO\", \"path\": \"src\"}");
    SERIALIZES_TO("OpenAI arguments cut off mid-stream are shown as they are",
                  "[{\"role\": \"assistant\", \"content\": null, \"tool_calls\": [{\"id\": \"c1\", \"type\": \"function\", "
                  "\"function\": {\"name\": \"read_file\", \"arguments\": \"{\\\"path\\\": \\\"sr\"}}]}]",
                  MF_FORMAT_AUTO, "[assistant]\n[tool_use:read_file] {\"path\": \"sr");
    SERIALIZES_TO("empty OpenAI arguments are {}",
                  "[{\"role\": \"assistant\", \"content\": null, \"tool_calls\": [{\"id\": \"c1\", \"type\": \"function\", "
                  "\"function\": {\"name\": \"pwd\", \"arguments\": \"\"}}]}]",
                  MF_FORMAT_AUTO, "[assistant]\n[tool_use:pwd] {}");
}

static void results(void)
{
    SERIALIZES_TO("a result whose call is missing names the tool \"unknown\"",
                  "[{\"role\": \"user\", \"content\": [{\"type\": \"tool_result\", \"tool_use_id\": \"toolu_gone\", \"content\": \"ok\"}]}]",
                  MF_FORMAT_AUTO, "[user]\n[tool_result:unknown] ok");
    SERIALIZES_TO("a failed Anthropic result is [tool_error:NAME]",
                  "[{\"role\": \"assistant\", \"content\": [{\"type\": \"tool_use\", \"id\": \"t1\", \"name\": \"bash\", \"input\": {\"command\": \"make\"}}]},"
                  " {\"role\": \"user\", \"content\": [{\"type\": \"tool_result\", \"tool_use_id\": \"t1\", \"is_error\": true, "
                  "\"content\": \"make: *** No rule to make target 'all'.  Stop.\"}]}]",
                  MF_FORMAT_AUTO,
                  "[assistant]\n[tool_use:bash] {\"command\": \"make\"}\n\n[user]\n"
                  "[tool_error:bash] make: *** No rule to make target 'all'.  Stop.");
    SERIALIZES_TO("an AI SDK error-text output is [tool_error:NAME]",
                  "[{\"role\": \"tool\", \"content\": [{\"type\": \"tool-result\", \"toolCallId\": \"c1\", \"toolName\": \"bash\", "
                  "\"output\": {\"type\": \"error-text\", \"value\": \"command not found: pnpm\"}}]}]",
                  MF_FORMAT_AUTO, "[user]\n[tool_error:bash] command not found: pnpm");
    SERIALIZES_TO("an AI SDK v4 result (\"result\" spelling) is read too",
                  "[{\"role\": \"tool\", \"content\": [{\"type\": \"tool-result\", \"toolCallId\": \"c1\", \"toolName\": \"ls\", "
                  "\"result\": \"a.txt\\nb.txt\"}]}]",
                  MF_FORMAT_AUTO, "[user]\n[tool_result:ls] a.txt\nb.txt");
    SERIALIZES_TO("result blocks are joined by newlines, an image as [image] (escaped on a line of its own: it is the result's)",
                  "[{\"role\": \"user\", \"content\": [{\"type\": \"tool_result\", \"tool_use_id\": \"t9\", \"content\": "
                  "[{\"type\": \"text\", \"text\": \"Screenshot of the login page:\"}, {\"type\": \"image\", \"source\": "
                  "{\"type\": \"base64\", \"media_type\": \"image/png\", \"data\": \"iVBORw0KGgo=\"}}]}]}]",
                  MF_FORMAT_AUTO, "[user]\n[tool_result:unknown] Screenshot of the login page:\n\\[image]");
    SERIALIZES_TO("text after tool results in the same user message gets a [user] header of its own (a result cannot pass for it)",
                  "[{\"role\": \"assistant\", \"content\": [{\"type\": \"tool_use\", \"id\": \"t1\", \"name\": \"ls\", \"input\": {}}]},"
                  " {\"role\": \"user\", \"content\": [{\"type\": \"tool_result\", \"tool_use_id\": \"t1\", \"content\": \"a.txt\"},"
                  " {\"type\": \"text\", \"text\": \"Now delete it.\"}]}]",
                  MF_FORMAT_AUTO, "[assistant]\n[tool_use:ls] {}\n\n[user]\n[tool_result:ls] a.txt\n\n[user]\nNow delete it.");
}

/* Numbers in JSON arguments are re-printed from their value (cJSON keeps no text): exact
 * for integers below 1e17, else 15 significant digits, in JavaScript's notation. */
static void numbers(void)
{
    static const struct { const char *in, *out; } cases[] = {
        {"3.14159", "3.14159"}, {"0.000001", "0.000001"}, {"-2.5e-5", "-0.000025"}, {"1e-7", "1e-7"},
        {"1.5e300", "1.5e+300"}, {"1e-300", "1e-300"}, {"5e-324", "4.94065645841247e-324"},
        {"1E400", "null"}, {"-0", "0"}, {"120", "120"},
    };
    int all = 1;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char json[200], expected[200];
        snprintf(json, sizeof json, ASSISTANT("{\"type\": \"tool_use\", \"id\": \"t1\", \"name\": \"f\", \"input\": {\"x\": %s}}"),
                 cases[i].in);
        snprintf(expected, sizeof expected, "[assistant]\n[tool_use:f] {\"x\": %s}", cases[i].out);
        char *out = transcript_of(json, MF_FORMAT_AUTO);
        if (!out || strcmp(out, expected) != 0) {
            all = 0;
            printf("     %s printed as %s (expected %s)\n", cases[i].in, out ? strchr(out, '{') : "nothing", cases[i].out);
        }
        mf_free(out);
    }
    CHECK("numbers in arguments are printed as their value, the tiniest (5e-324) and the infinite (1E400, as null) too", all);
}

static void other_blocks(void)
{
    SERIALIZES_TO("thinking is kept as [thinking] text; redacted thinking is a marker",
                  ASSISTANT("{\"type\": \"thinking\", \"thinking\": \"The diff removed strip().\", \"signature\": \"EqQB\"},"
                            " {\"type\": \"redacted_thinking\", \"data\": \"EmwKAhgB\"}, {\"type\": \"text\", \"text\": \"Found it.\"}"),
                  MF_FORMAT_AUTO, "[assistant]\n[thinking] The diff removed strip().\n[redacted_thinking]\nFound it.");
    SERIALIZES_TO("AI SDK reasoning is kept as [thinking] text",
                  "[{\"role\": \"assistant\", \"content\": [{\"type\": \"reasoning\", \"text\": \"Check the tests.\"}]}]",
                  MF_FORMAT_AUTO, "[assistant]\n[thinking] Check the tests.");
    SERIALIZES_TO("DeepSeek's reasoning_content is [thinking] text, before the answer and the calls",
                  "[{\"role\": \"user\", \"content\": \"为什么日期测试失败？\"},"
                  " {\"role\": \"assistant\", \"content\": \"\", \"reasoning_content\": \"先看 src/dates.js 的时区处理。\","
                  " \"tool_calls\": [{\"id\": \"call_0\", \"type\": \"function\", \"function\": {\"name\": \"read_file\","
                  " \"arguments\": \"{\\\"path\\\":\\\"src/dates.js\\\"}\"}}]},"
                  " {\"role\": \"tool\", \"tool_call_id\": \"call_0\", \"content\": \"export const tz = 0;\"}]",
                  MF_FORMAT_AUTO, "[user]\n为什么日期测试失败？\n\n[assistant]\n[thinking] 先看 src/dates.js 的时区处理。\n\n"
                  "[tool_use:read_file] {\"path\": \"src/dates.js\"}\n\n[user]\n[tool_result:read_file] export const tz = 0;");
    SERIALIZES_TO("an image is [image], a titled document [document: TITLE] (and its URL), an untitled one [document]",
                  "[{\"role\": \"user\", \"content\": [{\"type\": \"image\", \"source\": {\"type\": \"url\", \"url\": \"https://x/y.png\"}},"
                  " {\"type\": \"document\", \"title\": \"Q3 report\", \"source\": {\"type\": \"url\", \"url\": \"https://x/q3.pdf\"}},"
                  " {\"type\": \"document\", \"source\": {\"type\": \"base64\", \"media_type\": \"application/pdf\", \"data\": \"JVBERi0=\"}},"
                  " {\"type\": \"text\", \"text\": \"Summarize these.\"}]}]",
                  MF_FORMAT_AUTO, "[user]\n[image]\n[document: Q3 report] https://x/q3.pdf\n[document]\nSummarize these.");
}

static void bad_text(void)
{
    SERIALIZES_TO("each invalid UTF-8 byte in a text becomes one U+FFFD",
                  "[{\"role\": \"user\", \"content\": \"caf\xe9 \xed\xa0\x80!\"}]", MF_FORMAT_AUTO,
                  "[user]\ncaf\xef\xbf\xbd \xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd!");
    SERIALIZES_TO("an invalid byte inside tool arguments becomes U+FFFD in the JSON text",
                  ASSISTANT("{\"type\": \"tool_use\", \"id\": \"t1\", \"name\": \"cat\", \"input\": {\"path\": \"r\xe9sum\xe9.txt\"}}"),
                  MF_FORMAT_AUTO, "[assistant]\n[tool_use:cat] {\"path\": \"r\xef\xbf\xbdsum\xef\xbf\xbd.txt\"}");
    SERIALIZES_TO("a text block without its text is an empty line",
                  "[{\"role\": \"user\", \"content\": [{\"type\": \"text\"}, {\"type\": \"text\", \"text\": 7}]}]",
                  MF_FORMAT_AUTO, "[user]\n\n");
    SERIALIZES_TO("a thinking block without its text is an empty [thinking]",
                  ASSISTANT("{\"type\": \"thinking\", \"signature\": \"EqQB\"}"), MF_FORMAT_AUTO, "[assistant]\n[thinking] ");
    SERIALIZES_TO("a real U+FFFD is kept as one",
                  "[{\"role\": \"user\", \"content\": \"\xef\xbf\xbd\"}]", MF_FORMAT_AUTO, "[user]\n\xef\xbf\xbd");
}

static void errors(void)
{
    mf_doc *doc = parse("{\"model\": \"gpt-4o\"}");
    char *out = (char *)1;
    size_t len = 0;
    mf_error err;
    CHECK("a value that is no conversation is MF_ERR_SHAPE with no position",
          mf_doc_serialize(doc, MF_FORMAT_AUTO, &out, &len, &err) == MF_ERR_SHAPE && err.position == SIZE_MAX && out == NULL);
    mf_doc_free(doc);
    doc = parse("[{\"role\": \"user\", \"content\": \"hi\"}, \"hello\", {\"role\": \"user\", \"content\": \"?\"}]");
    CHECK("a list with a string in it is MF_ERR_SHAPE at that index",
          mf_doc_serialize(doc, MF_FORMAT_AUTO, &out, &len, &err) == MF_ERR_SHAPE && err.position == 1);
    mf_doc_free(doc);
    doc = parse("[{\"role\": \"assistant\", \"content\": [{\"type\": \"tool_use\", \"id\": \"t1\", \"name\": \"ls\", \"input\": {}}]},"
                " {\"role\": \"tool\", \"tool_call_id\": \"t1\", \"content\": \"a.txt\"}]");
    CHECK("mixed formats are MF_ERR_FORMAT", mf_doc_serialize(doc, MF_FORMAT_AUTO, &out, &len, &err) == MF_ERR_FORMAT);
    CHECK("an explicit MF_FORMAT_UNKNOWN is an invalid argument",
          mf_doc_serialize(doc, MF_FORMAT_UNKNOWN, &out, &len, &err) == MF_ERR_INVALID_ARG);
    CHECK("a NULL output pointer is an invalid argument",
          mf_doc_serialize(doc, MF_FORMAT_ANTHROPIC, NULL, &len, NULL) == MF_ERR_INVALID_ARG);
    CHECK("a NULL document is an invalid argument",
          mf_doc_serialize(NULL, MF_FORMAT_AUTO, &out, &len, NULL) == MF_ERR_INVALID_ARG);
    CHECK("the output length is optional",
          mf_doc_serialize(doc, MF_FORMAT_ANTHROPIC, &out, NULL, NULL) == MF_OK && out != NULL);
    mf_free(out);
    out = NULL;
    CHECK("the transcript is NUL-terminated at its length",
          mf_doc_serialize(doc, MF_FORMAT_ANTHROPIC, &out, &len, NULL) == MF_OK && out && out[len] == 0 && strlen(out) == len);
    mf_free(out);
    mf_doc_free(doc);
}

void test_serialize(void)
{
    whole_conversations();
    tool_calls();
    results();
    numbers();
    other_blocks();
    bad_text();
    errors();
}
