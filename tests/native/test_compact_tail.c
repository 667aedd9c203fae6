/* test_compact_tail.c — keep_tail_messages: the tail's floor in messages, never a cut between
 * a call and its results. */
#include <stdint.h>

#include "check.h"
#include "helpers.h"
#include "midfold.h"
#include "suites.h"

/* OpenAI Chat: two parallel calls answered by two tool messages, a reply, a new request. */
static const char *PARALLEL =
    "[{\"role\":\"system\",\"content\":\"You are a coding agent.\"},"
    "{\"role\":\"user\",\"content\":\"读取 config.toml 和 main.rs\"},"
    "{\"role\":\"assistant\",\"content\":null,\"tool_calls\":["
    "{\"id\":\"c1\",\"type\":\"function\",\"function\":{\"name\":\"read_file\",\"arguments\":\"{\\\"path\\\":\\\"config.toml\\\"}\"}},"
    "{\"id\":\"c2\",\"type\":\"function\",\"function\":{\"name\":\"read_file\",\"arguments\":\"{\\\"path\\\":\\\"src/main.rs\\\"}\"}}]},"
    "{\"role\":\"tool\",\"tool_call_id\":\"c1\",\"content\":\"[provider]\\nname = \\\"anthropic\\\"\"},"
    "{\"role\":\"tool\",\"tool_call_id\":\"c2\",\"content\":\"fn main() { println!(\\\"你好\\\"); }\"},"
    "{\"role\":\"assistant\",\"content\":\"两个文件都读完了。\"},"
    "{\"role\":\"user\",\"content\":\"Now run the tests.\"}]";

void test_compact_tail(void)
{
    CHECK("no message floor: the pending turn alone at a budget of 0", plan_tail_start(PARALLEL, 0, 0) == 6);
    CHECK("a floor of 2: the reply and the pending turn", plan_tail_start(PARALLEL, 0, 2) == 5);
    CHECK("a floor of 3 lands on the second tool message: the call that made both is kept",
          plan_tail_start(PARALLEL, 0, 3) == 2);
    CHECK("a floor of 4 lands on the first tool message: the same cut", plan_tail_start(PARALLEL, 0, 4) == 2);
    CHECK("a floor beyond the conversation keeps everything after the system message",
          plan_tail_start(PARALLEL, 0, 100) <= 1);
    CHECK("a token budget that holds more wins over a smaller floor",
          plan_tail_start(PARALLEL, 100000, 1) == plan_tail_start(PARALLEL, 100000, 0));
}
