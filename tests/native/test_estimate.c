/* test_estimate.c — the reference profile (bareagent): per code point CJK 1.5, ASCII letter
 * or digit 0.25, whitespace (Python's \s) 0.25, anything else 0.5 tokens, kept in
 * milli-tokens; structures walked by what the model sees. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "fixtures.h"
#include "helpers.h"
#include "midfold.h"
#include "suites.h"

#define TEXT(lit) mf_estimate_text((lit), sizeof(lit) - 1, MF_PROFILE_BAREAGENT)

/* The classes as issue 2 lists them, written here independently of src/text_class.c. */
static unsigned expected_milli(uint32_t cp)
{
    static const uint32_t space[][2] = {{0x09, 0x0D}, {0x1C, 0x20}, {0x85, 0x85}, {0xA0, 0xA0},
        {0x1680, 0x1680}, {0x2000, 0x200A}, {0x2028, 0x2029}, {0x202F, 0x202F}, {0x205F, 0x205F},
        {0x3000, 0x3000}};
    static const uint32_t cjk[][2] = {{0x2E80, 0x2FDF}, {0x3001, 0x303F}, {0x3040, 0x30FF},
        {0x3100, 0x31FF}, {0x3400, 0x4DBF}, {0x4E00, 0x9FFF}, {0xAC00, 0xD7AF}, {0xF900, 0xFAFF},
        {0xFF00, 0xFFEF}, {0x20000, 0x2FA1F}};
    for (size_t i = 0; i < sizeof space / sizeof space[0]; i++)
        if (cp >= space[i][0] && cp <= space[i][1]) return 250;
    for (size_t i = 0; i < sizeof cjk / sizeof cjk[0]; i++)
        if (cp >= cjk[i][0] && cp <= cjk[i][1]) return 1500;
    if ((cp >= '0' && cp <= '9') || (cp >= 'A' && cp <= 'Z') || (cp >= 'a' && cp <= 'z')) return 250;
    return 500;
}

static size_t encode(uint32_t cp, char *out)
{
    if (cp < 0x80) { out[0] = (char)cp; return 1; }
    if (cp < 0x800) { out[0] = (char)(0xC0 | cp >> 6); out[1] = (char)(0x80 | (cp & 63)); return 2; }
    if (cp < 0x10000) {
        out[0] = (char)(0xE0 | cp >> 12); out[1] = (char)(0x80 | ((cp >> 6) & 63));
        out[2] = (char)(0x80 | (cp & 63));
        return 3;
    }
    out[0] = (char)(0xF0 | cp >> 18); out[1] = (char)(0x80 | ((cp >> 12) & 63));
    out[2] = (char)(0x80 | ((cp >> 6) & 63)); out[3] = (char)(0x80 | (cp & 63));
    return 4;
}

static void every_code_point(void)
{
    /* One failure per class boundary is enough to read; count the rest. */
    size_t wrong = 0, first_wrong = SIZE_MAX, miscounted = 0;
    for (uint32_t cp = 0; cp <= 0x10FFFF; cp++) {
        if (cp >= 0xD800 && cp <= 0xDFFF) continue;
        char buf[4];
        size_t n = encode(cp, buf);
        if (mf_estimate_text(buf, n, MF_PROFILE_BAREAGENT) != expected_milli(cp)) {
            if (!wrong++) first_wrong = cp;
        }
        if (mf_count_code_points(buf, n) != 1) miscounted++;
    }
    CHECK("every code point from U+0000 to U+10FFFF is weighted by its class in the reference profile",
          wrong == 0);
    if (wrong) CHECK_EQ_U64("   (first code point weighted wrongly)", first_wrong, SIZE_MAX);
    CHECK("every valid code point counts as exactly one", miscounted == 0);
}

static void text(void)
{
    CHECK("an empty text costs nothing", TEXT("") == 0);
    CHECK("a NULL text of length 0 costs nothing", mf_estimate_text(NULL, 0, MF_PROFILE_BAREAGENT) == 0);
    CHECK_EQ_U64("an ASCII letter or digit costs 250 milli-tokens", TEXT("a"), 250);
    CHECK_EQ_U64("ASCII punctuation costs 500 milli-tokens", TEXT("{"), 500);
    CHECK_EQ_U64("a space costs 250 milli-tokens", TEXT(" "), 250);
    CHECK_EQ_U64("a Han character costs 1500 milli-tokens", TEXT("界"), 1500);
    CHECK_EQ_U64("\"hello world\" is 10 letters and a space", TEXT("hello world"), 10 * 250 + 250);
    CHECK_EQ_U64("\"你好，世界\": the full-width comma is CJK too", TEXT("你好，世界"), 5 * 1500);
    CHECK_EQ_U64("\"hello, 世界!\" mixes every class", TEXT("hello, 世界!"), 5 * 250 + 500 + 250 + 2 * 1500 + 500);
    CHECK_EQ_U64("Python code with a Chinese comment",
                 TEXT("x = 1  # 空行"), 250 + 250 + 500 + 250 + 250 + 250 + 250 + 500 + 250 + 2 * 1500);
    CHECK_EQ_U64("a Hangul syllable is CJK", TEXT("한"), 1500);
    CHECK_EQ_U64("katakana is CJK", TEXT("カ"), 1500);
    CHECK_EQ_U64("a CJK extension B character (four bytes) is CJK", TEXT("\xf0\xa0\x80\x80"), 1500);
    CHECK_EQ_U64("U+3000, the ideographic space, is whitespace, not CJK", TEXT("\xe3\x80\x80"), 250);
    CHECK_EQ_U64("U+3001, the ideographic comma, is CJK", TEXT("、"), 1500);
    CHECK_EQ_U64("a no-break space is whitespace", TEXT("\xc2\xa0"), 250);
    CHECK_EQ_U64("U+0085 (next line) is whitespace", TEXT("\xc2\x85"), 250);
    CHECK_EQ_U64("U+001C..U+001F (information separators) are whitespace, as Python's \\s says",
                 TEXT("\x1c\x1d\x1e\x1f"), 4 * 250);
    CHECK_EQ_U64("U+200B (zero width space) is not whitespace: other", TEXT("\xe2\x80\x8b"), 500);
    CHECK_EQ_U64("a letter with an accent is other", TEXT("\xc3\xa9"), 500);
    CHECK_EQ_U64("an emoji is other", TEXT("\xf0\x9f\x98\x80"), 500);
    CHECK_EQ_U64("a tab and a newline are whitespace", TEXT("\t\n"), 500);
}

static void invalid_text(void)
{
    CHECK_EQ_U64("an invalid byte costs one 'other'", TEXT("\xff"), 500);
    CHECK_EQ_U64("an overlong '/' costs its two bytes as 'other', not one '/'", TEXT("\xc0\xaf"), 1000);
    CHECK_EQ_U64("an encoded surrogate costs three 'other'", TEXT("\xed\xa0\x80"), 1500);
    CHECK_EQ_U64("a Han character cut short costs its two bytes as 'other'", TEXT("\xe4\xbd"), 1000);
    CHECK_EQ_U64("a value past U+10FFFF costs four 'other'", TEXT("\xf4\x90\x80\x80"), 2000);
    CHECK_EQ_U64("valid text around invalid bytes keeps its own weights", TEXT("ab\xff" "界"), 500 + 500 + 1500);
}

static void long_text(void)
{
    size_t n = (size_t)1 << 20;
    char *buf = malloc(n);
    if (!CHECK("the test could allocate 1 MiB", buf != NULL)) return;
    for (size_t i = 0; i < n; i++) buf[i] = "abc "[i % 4];
    CHECK_EQ_U64("1 MiB of \"abc \" costs exactly 250 milli-tokens per byte",
                 mf_estimate_text(buf, n, MF_PROFILE_BAREAGENT), (uint64_t)n * 250);
    /* "数据" is 6 bytes: 2 CJK characters. */
    for (size_t i = 0; i + 6 <= n; i += 6) memcpy(buf + i, "数据", 6);
    size_t used = n / 6 * 6;
    CHECK_EQ_U64("Chinese text costs 1500 milli-tokens per character",
                 mf_estimate_text(buf, used, MF_PROFILE_BAREAGENT), (uint64_t)(used / 3) * 1500);
    /* Extension A ideographs (U+3400, lead byte E3) are counted one at a time, the common ones
     * (lead bytes E4-E9) a run at a time: both add to the same 16-bit packed counter, which
     * must be emptied before it wraps. */
    size_t at = 0;
    for (int k = 0; k < 32000; k++, at += 3) memcpy(buf + at, "\xe3\x90\x80", 3);
    for (int k = 0; k < 40000; k++, at += 3) memcpy(buf + at, "数", 3);
    CHECK_EQ_U64("32,000 extension-A ideographs then 40,000 common ones cost 1500 milli-tokens each",
                 mf_estimate_text(buf, at, MF_PROFILE_BAREAGENT), (uint64_t)72000 * 1500);
    free(buf);
}

static void profiles(void)
{
    mf_profile p = (mf_profile)99;
    CHECK_EQ_STR("the reference profile is called bareagent", mf_profile_name(MF_PROFILE_BAREAGENT), "bareagent");
    CHECK("an unknown profile has no name", mf_profile_name((mf_profile)7) == NULL);
    CHECK("\"bareagent\" parses to the reference profile",
          mf_profile_parse("bareagent", 9, &p) == MF_OK && p == MF_PROFILE_BAREAGENT);
    CHECK("an unknown profile name is an invalid argument", mf_profile_parse("gpt", 3, &p) == MF_ERR_INVALID_ARG);
    CHECK("a prefix of a profile name is not that profile", mf_profile_parse("bare", 4, &p) == MF_ERR_INVALID_ARG);
    CHECK_EQ_U64("an unknown profile estimates text with the reference weights",
                 mf_estimate_text("hi 界", 6, (mf_profile)7), 250 + 250 + 250 + 1500);
    CHECK("0 milli-tokens round up to 0 tokens", mf_ceil_tokens(0) == 0);
    CHECK("1 milli-token rounds up to 1 token", mf_ceil_tokens(1) == 1);
    CHECK("1000 milli-tokens are exactly 1 token", mf_ceil_tokens(1000) == 1);
    CHECK("1001 milli-tokens round up to 2 tokens", mf_ceil_tokens(1001) == 2);
}

static void values(void)
{
    CHECK_EQ_U64("a JSON string is estimated by its text", estimate_of("\"hello\"", MF_FORMAT_AUTO), 5 * 250);
    CHECK_EQ_U64("a number by its text", estimate_of("-1.5", MF_FORMAT_AUTO), 500 + 250 + 500 + 250);
    CHECK_EQ_U64("true by its literal", estimate_of("true", MF_FORMAT_AUTO), 4 * 250);
    CHECK_EQ_U64("null by its literal", estimate_of("null", MF_FORMAT_AUTO), 4 * 250);
    CHECK_EQ_U64("an object that is no message by its keys and values",
                 estimate_of("{\"path\": \"src\", \"depth\": 2}", MF_FORMAT_AUTO), (4 + 3 + 5 + 1) * 250);
    CHECK_EQ_U64("a list that holds no messages by its values",
                 estimate_of("[1, \"x\", [true]]", MF_FORMAT_AUTO), 250 + 250 + 1000);
    CHECK_EQ_U64("an empty list of messages costs nothing", estimate_of("[]", MF_FORMAT_AUTO), 0);
}

static void conversations(void)
{
    CHECK_EQ_U64("a lone message costs 4 tokens plus its text",
                 estimate_of("{\"role\": \"user\", \"content\": \"hi\"}", MF_FORMAT_AUTO), 4000 + 500);
    CHECK_EQ_U64("a request body adds its system prompt, not its model name",
                 estimate_of("{\"model\": \"claude-sonnet-4-5\", \"max_tokens\": 1024, \"system\": \"Be brief.\", "
                             "\"messages\": [{\"role\": \"user\", \"content\": \"hi\"}]}", MF_FORMAT_AUTO),
                 4000 + 500 + (500 + 250 + 1250 + 500));
    CHECK_EQ_U64("an image costs 1600 tokens whatever its data",
                 estimate_of("[{\"role\": \"user\", \"content\": [{\"type\": \"image\", \"source\": {\"type\": \"base64\", "
                             "\"media_type\": \"image/png\", \"data\": \"iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk\"}}, "
                             "{\"type\": \"text\", \"text\": \"What is this?\"}]}]", MF_FORMAT_AUTO),
                 4000 + 1600000 + (1000 + 250 + 500 + 250 + 1000 + 500));
    CHECK_EQ_U64("a PDF document costs 3000 tokens",
                 estimate_of("[{\"role\": \"user\", \"content\": [{\"type\": \"document\", \"source\": {\"type\": \"base64\", "
                             "\"media_type\": \"application/pdf\", \"data\": \"JVBERi0xLjcK\"}}]}]", MF_FORMAT_AUTO),
                 4000 + 3000000);
    CHECK_EQ_U64("a document with a text source costs its text",
                 estimate_of("[{\"role\": \"user\", \"content\": [{\"type\": \"document\", \"source\": {\"type\": \"text\", "
                             "\"media_type\": \"text/plain\", \"data\": \"a b\"}}]}]", MF_FORMAT_AUTO),
                 4000 + 750);
    CHECK_EQ_U64("a tool call costs its name and its arguments' keys and values",
                 estimate_of("[{\"role\": \"assistant\", \"content\": [{\"type\": \"tool_use\", \"id\": \"toolu_01\", "
                             "\"name\": \"bash\", \"input\": {\"command\": \"ls\"}}]}]", MF_FORMAT_AUTO),
                 4000 + 1000 + 1750 + 500);
    CHECK_EQ_U64("an OpenAI tool call costs its name and its arguments string",
                 estimate_of("[{\"role\": \"assistant\", \"content\": null, \"tool_calls\": [{\"id\": \"call_1\", "
                             "\"type\": \"function\", \"function\": {\"name\": \"bash\", \"arguments\": \"{\\\"command\\\":\\\"ls\\\"}\"}}]}]",
                             MF_FORMAT_AUTO),
                 4000 + 1000 + (500 + 500 + 1750 + 500 + 500 + 500 + 500 + 500 + 500));
    CHECK_EQ_U64("thinking costs its text, not its signature",
                 estimate_of("[{\"role\": \"assistant\", \"content\": [{\"type\": \"thinking\", \"thinking\": \"Check the diff.\", "
                             "\"signature\": \"EqQBCkYIBBgCKkDx7fZ2\"}]}]", MF_FORMAT_AUTO),
                 4000 + (1250 + 250 + 750 + 250 + 1000 + 500));
    CHECK_EQ_U64("DeepSeek's reasoning_content costs its text, like thinking",
                 estimate_of("[{\"role\": \"assistant\", \"content\": \"ok\", \"reasoning_content\": \"Check the diff.\"}]",
                             MF_FORMAT_AUTO),
                 4000 + (1250 + 250 + 750 + 250 + 1000 + 500) + 500);
    CHECK_EQ_U64("OpenRouter's reasoning costs its text once, beside the reasoning_details that repeat it",
                 estimate_of("[{\"role\": \"assistant\", \"content\": \"ok\", \"reasoning\": \"Check the diff.\", "
                             "\"reasoning_details\": [{\"type\": \"reasoning.text\", \"text\": \"Check the diff.\", "
                             "\"signature\": \"EqQBCkYIBBgC\", \"format\": \"anthropic-claude-v1\", \"index\": 0}]}]",
                             MF_FORMAT_AUTO),
                 4000 + (1250 + 250 + 750 + 250 + 1000 + 500) + 500);
    CHECK_EQ_U64("OpenRouter's reasoning_details without `reasoning`: their text and summary, not the encrypted entry",
                 estimate_of("[{\"role\": \"assistant\", \"content\": \"ok\", \"reasoning_details\": ["
                             "{\"type\": \"reasoning.text\", \"text\": \"Check the diff.\", \"signature\": \"EqQB\"}, "
                             "{\"type\": \"reasoning.summary\", \"summary\": \"ok\"}, "
                             "{\"type\": \"reasoning.encrypted\", \"data\": \"gAAAAABo\"}, 7]}]", MF_FORMAT_AUTO),
                 4000 + (1250 + 250 + 750 + 250 + 1000 + 500) + 500 + 500);
    CHECK_EQ_U64("an empty reasoning_content (the AI SDK's when there is none) costs nothing",
                 estimate_of("[{\"role\": \"assistant\", \"content\": \"ok\", \"reasoning_content\": \"\"}]", MF_FORMAT_AUTO),
                 4000 + 500);
    CHECK_EQ_U64("the Anthropic session is estimated as an independent walker finds",
                 estimate_of(FX_SESSION_ANTHROPIC, MF_FORMAT_AUTO), 788750);
    CHECK_EQ_U64("the OpenAI session (arguments counted as their JSON text)",
                 estimate_of(FX_SESSION_OPENAI, MF_FORMAT_AUTO), 822750);
    CHECK_EQ_U64("the AI SDK session (the JSON output counted by keys and values)",
                 estimate_of(FX_SESSION_AISDK, MF_FORMAT_AUTO), 779000);
    CHECK_EQ_U64("the Chinese conversation", estimate_of(FX_CHINESE_ANTHROPIC, MF_FORMAT_AUTO), 199000);
    CHECK_EQ_U64("the session's estimate rounds up to 789 tokens",
                 mf_ceil_tokens(estimate_of(FX_SESSION_ANTHROPIC, MF_FORMAT_AUTO)), 789);
    CHECK_EQ_U64("an explicit format gives the same estimate as detection",
                 estimate_of(FX_SESSION_ANTHROPIC, MF_FORMAT_ANTHROPIC), 788750);
}

static void errors(void)
{
    mf_doc *doc = parse(FX_SEED_ANTHROPIC);
    uint64_t milli = 7;
    mf_error err;
    CHECK("an unknown profile is an invalid argument",
          mf_doc_estimate(doc, MF_FORMAT_AUTO, (mf_profile)MF_PROFILE_COUNT, &milli, &err) == MF_ERR_INVALID_ARG &&
          err.code == MF_ERR_INVALID_ARG);
    CHECK("a NULL document is an invalid argument",
          mf_doc_estimate(NULL, MF_FORMAT_AUTO, MF_PROFILE_BAREAGENT, &milli, NULL) == MF_ERR_INVALID_ARG);
    CHECK("a NULL result pointer is an invalid argument",
          mf_doc_estimate(doc, MF_FORMAT_AUTO, MF_PROFILE_BAREAGENT, NULL, NULL) == MF_ERR_INVALID_ARG);
    CHECK("an unknown format number is an invalid argument",
          mf_doc_estimate(doc, (mf_format)42, MF_PROFILE_BAREAGENT, &milli, NULL) == MF_ERR_INVALID_ARG);
    mf_doc_free(doc);

    doc = parse("[{\"role\": \"assistant\", \"content\": [{\"type\": \"tool_use\", \"id\": \"t1\", \"name\": \"ls\", \"input\": {}}]},"
                " {\"role\": \"tool\", \"tool_call_id\": \"t1\", \"content\": \"a.txt\"}]");
    CHECK("messages mixing Anthropic and OpenAI features fail detection with MF_ERR_FORMAT",
          mf_doc_estimate(doc, MF_FORMAT_AUTO, MF_PROFILE_BAREAGENT, &milli, &err) == MF_ERR_FORMAT &&
          err.code == MF_ERR_FORMAT);
    CHECK("the same messages are estimated when the caller names the format",
          mf_doc_estimate(doc, MF_FORMAT_ANTHROPIC, MF_PROFILE_BAREAGENT, &milli, NULL) == MF_OK);
    mf_doc_free(doc);
}

void test_estimate(void)
{
    text();
    invalid_text();
    every_code_point();
    long_text();
    profiles();
    values();
    conversations();
    errors();
}
