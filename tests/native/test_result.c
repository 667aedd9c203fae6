/* test_result.c — one reader of a tool result's content (src/result.c) with three sinks: the
 * estimate, the transcript and the micro-compaction marker's "N chars" give one answer for
 * every shape. Pinned here: an AI SDK `custom` part (a kind and provider options, which
 * @ai-sdk/anthropic turns into a tool_reference or drops) is nothing to all three, where the
 * estimate once priced it 0, the transcript skipped it and the marker counted its JSON. */
#include <string.h>

#include "check.h"
#include "helpers.h"
#include "midfold.h"
#include "suites.h"

/* A build log of 300 code points (Chinese and ASCII), long enough that its marker frees tokens. */
#define BUILD_LOG                                                                            \
    "构建开始: make -j2 all\\ncc -O2 -c src/parser.c -o build/parser.o\\ncc -O2 -c src/lexer.c " \
    "-o build/lexer.o\\ncc -O2 -c src/eval.c -o build/eval.o\\nld build/*.o -o build/calc\\n"   \
    "测试: 128 个通过, 0 个失败\\nwarning: src/eval.c:88: unused variable 'depth'\\n"           \
    "构建完成, 用时 4.2 秒\\nartifacts: build/calc (312 KB), build/calc.map (41 KB)\\n"

/* An AI SDK conversation whose bash result's output is `value` (a content list's items),
 * answered so that the result is no longer the pending turn. */
#define CONVERSATION(value)                                                                         \
    "[{\"role\": \"user\", \"content\": \"Build it and run the tests.\"},"                           \
    "{\"role\": \"assistant\", \"content\": [{\"type\": \"tool-call\", \"toolCallId\": \"c1\", "    \
    "\"toolName\": \"bash\", \"input\": {\"command\": \"make all test\"}}]},"                       \
    "{\"role\": \"tool\", \"content\": [{\"type\": \"tool-result\", \"toolCallId\": \"c1\", "       \
    "\"toolName\": \"bash\", \"output\": {\"type\": \"content\", \"value\": [" value "]}}]},"        \
    "{\"role\": \"assistant\", \"content\": \"Built; 128 tests pass.\"}]"

#define TEXT_PART "{\"type\": \"text\", \"text\": \"" BUILD_LOG "\"}"
#define CUSTOM_PART                                                                                 \
    "{\"type\": \"custom\", \"providerOptions\": {\"anthropic\": {\"type\": \"tool-reference\", " \
    "\"toolName\": \"deploy_to_staging_environment\"}}}"

/* The marker's N for the conversation's one clearable result; SIZE_MAX when the plan clears
 * anything but exactly that result. */
static size_t marker_chars(const char *json)
{
    mf_micro_plan *plan = plan_of(json, MF_FORMAT_AISDK, 0);
    size_t chars = plan && plan->count == 1 && plan->edits[0].message == 2 ? plan->edits[0].chars : SIZE_MAX;
    mf_micro_plan_free(plan);
    return chars;
}

static void custom_part(void)
{
    static const char plain[] = CONVERSATION(TEXT_PART);
    static const char after[] = CONVERSATION(TEXT_PART ", " CUSTOM_PART);
    static const char before[] = CONVERSATION(CUSTOM_PART ", " TEXT_PART);
    static const char around[] = CONVERSATION(TEXT_PART ", " CUSTOM_PART ", " TEXT_PART);
    static const char twice[] = CONVERSATION(TEXT_PART ", " TEXT_PART);

    CHECK_EQ_U64("the build log is 300 code points, and its marker says so", marker_chars(plain), 300);
    CHECK_EQ_U64("a custom part after the text adds nothing to the marker's count", marker_chars(after), 300);
    CHECK_EQ_U64("nor before it", marker_chars(before), 300);
    CHECK_EQ_U64("between two texts the count is the two texts'", marker_chars(around), 600);

    uint64_t milli = estimate_of(plain, MF_FORMAT_AISDK);
    CHECK("the conversation is estimated", milli != UINT64_MAX && milli > 0);
    CHECK_EQ_U64("a custom part after the text adds nothing to the estimate", estimate_of(after, MF_FORMAT_AISDK), milli);
    CHECK_EQ_U64("nor before it", estimate_of(before, MF_FORMAT_AISDK), milli);
    CHECK_EQ_U64("between two texts the estimate is the two texts'", estimate_of(around, MF_FORMAT_AISDK),
                 estimate_of(twice, MF_FORMAT_AISDK));

    char *t_plain = transcript_of(plain, MF_FORMAT_AISDK), *t_after = transcript_of(after, MF_FORMAT_AISDK),
         *t_before = transcript_of(before, MF_FORMAT_AISDK), *t_around = transcript_of(around, MF_FORMAT_AISDK),
         *t_twice = transcript_of(twice, MF_FORMAT_AISDK);
    CHECK("the transcript shows the build log", t_plain && strstr(t_plain, "[tool_result:bash] 构建开始: make -j2 all\n"));
    CHECK_EQ_STR("a custom part after the text writes nothing, not even a line", t_after, t_plain);
    CHECK_EQ_STR("nor before it", t_before, t_plain);
    CHECK_EQ_STR("between two texts the transcript is the two texts'", t_around, t_twice);
    CHECK("no transcript names the custom part or its options",
          t_around && !strstr(t_around, "custom") && !strstr(t_around, "deploy_to_staging"));
    mf_free(t_plain);
    mf_free(t_after);
    mf_free(t_before);
    mf_free(t_around);
    mf_free(t_twice);
}

void test_result(void)
{
    custom_part();
}
