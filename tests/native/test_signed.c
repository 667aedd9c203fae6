/* test_signed.c — signed thinking, read in C (src/signing.c, src/signed.c): the view's
 * `signing` flag on each part, in every format, and what the plans answer of it: `in_flight`
 * (a tool loop with signed thinking in flight: every edit waits) and `drops` (the signed parts
 * a changed prefix makes the provider refuse: they go). js/core/thinking.js only applies these
 * answers.
 *
 * The fixtures are written with ' for " (swapped before parsing): tool loops with Chinese
 * text, parallel calls and thinking mid-loop, as the providers' SDKs write them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "helpers.h"
#include "internal.h"
#include "midfold.h"
#include "suites.h"

/* `text` with every ' made a ", in a buffer to free(). */
static char *quoted(const char *text)
{
    size_t n = strlen(text);
    char *out = malloc(n + 1);
    if (!out) return NULL;
    for (size_t i = 0; i <= n; i++) out[i] = text[i] == '\'' ? '"' : text[i];
    return out;
}

static mf_doc *doc_of(const char *text)
{
    char *json = quoted(text);
    mf_doc *doc = json ? parse(json) : NULL;
    free(json);
    return doc;
}

/* The signing of the view's part for block `index` of message `m` (SIZE_MAX: its first part
 * outside the content list) in the view of `text`, or -1 when there is no such part. */
static int signing_of(const char *text, mf_format format, size_t m, size_t index)
{
    mf_doc *doc = doc_of(text);
    mf_view view;
    int out = -1;
    if (doc && mf_view_build(doc, format, &view, NULL) == MF_OK) {
        for (size_t p = 0; m < view.count && p < view.msgs[m].count && out < 0; p++)
            if (view.msgs[m].parts[p].index == index) out = (int)view.msgs[m].parts[p].signing;
        mf_view_free(&view);
    }
    mf_doc_free(doc);
    return out;
}

static mf_micro_plan *micro_of(const char *text, mf_format format, uint32_t keep_recent)
{
    mf_doc *doc = doc_of(text);
    mf_micro_options o;
    mf_micro_options_init(&o);
    o.keep_recent = keep_recent;
    mf_micro_plan *plan = NULL;
    if (doc && mf_doc_micro_plan(doc, format, &o, &plan, NULL) != MF_OK) plan = NULL;
    mf_doc_free(doc);
    return plan;
}

static mf_compact_plan *compact_of(const char *text, mf_format format, uint64_t keep_tail_tokens)
{
    mf_doc *doc = doc_of(text);
    mf_compact_options o;
    mf_compact_options_init(&o);
    o.keep_tail_tokens = keep_tail_tokens;
    mf_compact_plan *plan = NULL;
    if (doc && mf_doc_compact_plan(doc, format, &o, &plan, NULL) != MF_OK) plan = NULL;
    mf_doc_free(doc);
    return plan;
}

static bool drop_is(const mf_signed_drop *d, size_t message, size_t part, mf_drop_kind kind, int alone)
{
    return d->message == message && d->part == part && d->kind == kind && d->alone == alone;
}

/* A config file of a few hundred code points: long enough that its marker frees tokens. */
#define CONFIG_YAML                                                                                   \
    "server:\\n  port: 8080  # 端口被占用时改成 8081\\n  host: 0.0.0.0\\n  workers: 4\\ndatabase:\\n"   \
    "  url: postgres://app@db:5432/app\\n  pool: 16  # 连接池大小\\n  timeout_ms: 3000\\nlogging:\\n" \
    "  level: info\\n  format: json  # 日志格式\\n  file: /var/log/app/server.log\\ncache:\\n"          \
    "  redis: redis://cache:6379/0\\n  ttl_s: 600\\n"

#define SIG "EqQBCkgIARABGAIiQLk9Vb3MmQ2f5c7k"

/* Anthropic: a signed loop, then a second signed step with two parallel calls whose results
 * end the conversation (in flight). */
#define ANTHROPIC_LOOP                                                                                  \
    "[{'role': 'user', 'content': '读一下 config.yaml, 然后把端口改成 8081 并重启服务'},"                \
    "{'role': 'assistant', 'content': [{'type': 'thinking', 'thinking': '先读配置文件。', 'signature': '" \
    SIG "'}, {'type': 'tool_use', 'id': 'tu_1', 'name': 'read_file', 'input': {'path': 'config.yaml'}}]}," \
    "{'role': 'user', 'content': [{'type': 'tool_result', 'tool_use_id': 'tu_1', 'content': '" CONFIG_YAML "'}]}," \
    "{'role': 'assistant', 'content': [{'type': 'redacted_thinking', 'data': 'EmwKAhgBEgy3va3pzix'},"     \
    "{'type': 'tool_use', 'id': 'tu_2', 'name': 'edit_file', 'input': {'path': 'config.yaml', 'old': '8080', 'new': '8081'}}," \
    "{'type': 'tool_use', 'id': 'tu_3', 'name': 'bash', 'input': {'command': 'systemctl restart app'}}]},"  \
    "{'role': 'user', 'content': [{'type': 'tool_result', 'tool_use_id': 'tu_2', 'content': '" CONFIG_YAML "'}," \
    "{'type': 'tool_result', 'tool_use_id': 'tu_3', 'content': 'ok'}]}"

/* The same loop finished: the answer, then the user's next request. */
#define ANTHROPIC_DONE ANTHROPIC_LOOP ","                                                               \
    "{'role': 'assistant', 'content': [{'type': 'thinking', 'thinking': '重启成功。', 'signature': '" SIG "'}," \
    "{'type': 'text', 'text': '端口已改为 8081, 服务已重启。'}]},"                                          \
    "{'role': 'user', 'content': '很好, 再看看日志里有没有报错'}]"

static void anthropic(void)
{
    const char *loop = ANTHROPIC_LOOP "]";
    CHECK("Anthropic: a thinking block is signed thinking", signing_of(loop, MF_FORMAT_ANTHROPIC, 1, 0) == MF_SIGNING_THINKING);
    CHECK("Anthropic: a redacted_thinking block is too", signing_of(loop, MF_FORMAT_ANTHROPIC, 3, 0) == MF_SIGNING_THINKING);
    CHECK("Anthropic: a tool_use block is not signed", signing_of(loop, MF_FORMAT_ANTHROPIC, 1, 1) == MF_SIGNING_NONE);

    mf_micro_plan *p = micro_of(loop, MF_FORMAT_ANTHROPIC, 1);
    CHECK("Anthropic, results ending the list: the second signed step is the loop in flight", p && p->in_flight == 3);
    CHECK("the plan still lists its edit (the caller's policy defers it)", p && p->count == 1 && p->edits[0].message == 2);
    CHECK("the edit would drop the in-flight step's thinking: which is why a prefix-bound caller waits",
          p && p->drop_count == 1 && drop_is(&p->drops[0], 3, 0, MF_DROP_PART, 0) && p->drops[0].milli > 0);
    CHECK("the drops' estimate is what they take off", p && p->milli_drops == p->drops[0].milli);
    mf_micro_plan_free(p);

    /* The calls wait (no results yet): still in flight, as when a server tool paused. */
    const char *waiting = ANTHROPIC_LOOP ",{'role': 'assistant', 'content': [{'type': 'thinking', 'thinking': '查日志。', 'signature': '"
        SIG "'}, {'type': 'tool_use', 'id': 'tu_4', 'name': 'bash', 'input': {'command': 'tail -n 50 /var/log/app/server.log'}}]}]";
    p = micro_of(waiting, MF_FORMAT_ANTHROPIC, 1);
    CHECK("Anthropic: an assistant message ending the list with its calls waiting is in flight", p && p->in_flight == 5);
    mf_micro_plan_free(p);
    const char *served = "[{'role': 'user', 'content': '搜索一下 8081 端口的常见冲突'},"
        "{'role': 'assistant', 'content': [{'type': 'thinking', 'thinking': '搜索。', 'signature': '" SIG "'},"
        "{'type': 'server_tool_use', 'id': 'srv_1', 'name': 'web_search', 'input': {'query': 'port 8081 conflict'}},"
        "{'type': 'web_search_tool_result', 'tool_use_id': 'srv_1', 'content': []}, {'type': 'text', 'text': '常见的是 Tomcat。'}]}]";
    p = micro_of(served, MF_FORMAT_ANTHROPIC, 1);
    CHECK("Anthropic: a server tool answered in its own message waits for nothing", p && p->in_flight == SIZE_MAX);
    mf_micro_plan_free(p);

    const char *done = ANTHROPIC_DONE;
    p = micro_of(done, MF_FORMAT_ANTHROPIC, 1);
    CHECK("Anthropic, at the turn boundary: nothing is in flight", p && p->in_flight == SIZE_MAX);
    CHECK("an edit of message 2 drops the later signed thinking: message 3's and the answer's",
          p && p->count == 1 && p->drop_count == 2 && drop_is(&p->drops[0], 3, 0, MF_DROP_PART, 0) &&
              drop_is(&p->drops[1], 5, 0, MF_DROP_PART, 0));
    CHECK("messages before the first edit keep theirs", p && p->drop_count && p->drops[0].message > 1);
    mf_micro_plan_free(p);

    mf_compact_plan *c = compact_of(done, MF_FORMAT_ANTHROPIC, 60);
    CHECK("a fold keeps the last turns, whose signed thinking goes", c && c->tail_start == 5 && c->in_flight == SIZE_MAX &&
          c->drop_count == 1 && drop_is(&c->drops[0], 5, 0, MF_DROP_PART, 0));
    mf_compact_plan_free(c);
    c = compact_of(loop, MF_FORMAT_ANTHROPIC, 60);
    CHECK("the compaction plan names the loop in flight too", c && c->in_flight == 3);
    mf_compact_plan_free(c);
    /* A kept message that held nothing but thinking goes whole after a fold. */
    const char *lone = "[{'role': 'user', 'content': '总结一下'}, {'role': 'assistant', 'content': [{'type': 'thinking', "
        "'thinking': '想一想。', 'signature': '" SIG "'}]}, {'role': 'user', 'content': '继续'}]";
    c = compact_of(lone, MF_FORMAT_ANTHROPIC, 100000);
    CHECK("a message of signed thinking alone is `alone` (the fold removes it)",
          c && c->drop_count == 1 && drop_is(&c->drops[0], 1, 0, MF_DROP_PART, 1));
    mf_compact_plan_free(c);
}

/* AI SDK ModelMessages: Anthropic's signature, Bedrock's redactedData, OpenAI's encrypted
 * reasoning, OpenRouter's details copied onto the call, a reasoning part nobody signed. */
#define AISDK_LOOP                                                                                       \
    "[{'role': 'user', 'content': [{'type': 'text', 'text': '检查 CI 为什么失败'}]},"                     \
    "{'role': 'assistant', 'content': ["                                                                 \
    "{'type': 'reasoning', 'text': '先看日志。', 'providerOptions': {'anthropic': {'signature': '" SIG "'}}}," \
    "{'type': 'reasoning', 'text': '', 'providerOptions': {'bedrock': {'redactedData': 'EmwKAhgB'}}},"   \
    "{'type': 'reasoning', 'text': '看测试。', 'providerOptions': {'openai': {'itemId': 'rs_1', 'reasoningEncryptedContent': 'gAAAAB'}}}," \
    "{'type': 'reasoning', 'text': '普通的思考。'},"                                                      \
    "{'type': 'tool-call', 'toolCallId': 'c1', 'toolName': 'bash', 'input': {'command': 'gh run view --log'}," \
    "'providerOptions': {'openrouter': {'reasoning_details': [{'type': 'reasoning.text', 'text': '先看日志。', 'signature': '" SIG "'}]}}}]}," \
    "{'role': 'tool', 'content': [{'type': 'tool-result', 'toolCallId': 'c1', 'toolName': 'bash', "      \
    "'output': {'type': 'text', 'value': '" CONFIG_YAML "'}}]}"

static void aisdk(void)
{
    const char *loop = AISDK_LOOP "]";
    CHECK("AI SDK: a reasoning part with Anthropic's signature is signed thinking",
          signing_of(loop, MF_FORMAT_AISDK, 1, 0) == MF_SIGNING_THINKING);
    CHECK("AI SDK: one with Bedrock's redactedData is too", signing_of(loop, MF_FORMAT_AISDK, 1, 1) == MF_SIGNING_THINKING);
    CHECK("AI SDK: one with OpenAI's reasoningEncryptedContent is encrypted reasoning",
          signing_of(loop, MF_FORMAT_AISDK, 1, 2) == MF_SIGNING_ENCRYPTED);
    CHECK("AI SDK: a reasoning part without a provider's signature is not signed",
          signing_of(loop, MF_FORMAT_AISDK, 1, 3) == MF_SIGNING_NONE);
    CHECK("AI SDK: a tool-call carrying OpenRouter's signed details is DETAILS",
          signing_of(loop, MF_FORMAT_AISDK, 1, 4) == MF_SIGNING_DETAILS);
    mf_micro_plan *p = micro_of(loop, MF_FORMAT_AISDK, 0);
    CHECK("AI SDK: the loop answered by a tool message is in flight", p && p->in_flight == 1);
    mf_micro_plan_free(p);

    const char *done = AISDK_LOOP ",{'role': 'assistant', 'content': [{'type': 'text', 'text': '测试 test_port 失败: 端口被占用。'}]},"
        "{'role': 'user', 'content': [{'type': 'text', 'text': '修一下'}]}, {'role': 'assistant', 'content': ["
        "{'type': 'reasoning', 'text': '改端口。', 'providerOptions': {'amazonBedrock': {'signature': '" SIG "'}}},"
        "{'type': 'tool-call', 'toolCallId': 'c2', 'toolName': 'bash', 'input': {'command': 'sed -i s/8080/8081/ config.yaml'}}]},"
        "{'role': 'tool', 'content': [{'type': 'tool-result', 'toolCallId': 'c2', 'toolName': 'bash', 'output': {'type': 'text', 'value': '" CONFIG_YAML "'}}]},"
        "{'role': 'assistant', 'content': [{'type': 'text', 'text': '改好了。'}]}]";
    p = micro_of(done, MF_FORMAT_AISDK, 1);
    CHECK("AI SDK, at the turn boundary: nothing in flight", p && p->in_flight == SIZE_MAX);
    CHECK("an edit of message 2 drops message 5's Bedrock-signed reasoning (amazonBedrock)",
          p && p->count == 1 && p->edits[0].message == 2 && p->drop_count == 1 && drop_is(&p->drops[0], 5, 0, MF_DROP_PART, 0));
    mf_micro_plan_free(p);
    mf_compact_plan *c = compact_of(done, MF_FORMAT_AISDK, 100000);
    CHECK("a fold keeping everything drops the signed parts and strips the call's details; the encrypted and the plain reasoning stay",
          c && c->drop_count == 4 && drop_is(&c->drops[0], 1, 0, MF_DROP_PART, 0) && drop_is(&c->drops[1], 1, 1, MF_DROP_PART, 0) &&
              drop_is(&c->drops[2], 1, 4, MF_DROP_DETAILS, 0) && c->drops[2].keys == MF_META_PROVIDER_OPTIONS &&
              drop_is(&c->drops[3], 5, 0, MF_DROP_PART, 0));
    mf_compact_plan_free(c);
}

/* A UIMessage holds a whole tool loop: each step's signed reasoning, then its tool part. */
#define UI_LOOP                                                                                          \
    "[{'id': 'u1', 'role': 'user', 'parts': [{'type': 'text', 'text': '部署到预发环境'}]},"              \
    "{'id': 'a1', 'role': 'assistant', 'parts': [{'type': 'step-start'},"                                \
    "{'type': 'reasoning', 'text': '先构建。', 'providerMetadata': {'anthropic': {'signature': '" SIG "'}}}," \
    "{'type': 'tool-bash', 'toolCallId': 'b1', 'state': 'output-available', 'input': {'command': 'make build'}, 'output': '" CONFIG_YAML "'}," \
    "{'type': 'step-start'},"                                                                            \
    "{'type': 'reasoning', 'text': '再部署。', 'providerMetadata': {'anthropic': {'signature': '" SIG "'}}}," \
    "{'type': 'tool-deploy', 'toolCallId': 'b2', 'state': 'output-available', 'input': {'env': 'staging'}, 'output': '" CONFIG_YAML "'}," \
    "{'type': 'tool-bash', 'toolCallId': 'b3', 'state': 'output-available', 'input': {'command': 'curl staging/health'}, 'output': 'ok'}]}"

static void ui_message(void)
{
    const char *loop = UI_LOOP "]";
    CHECK("UIMessage: a reasoning part with Anthropic's providerMetadata signature is signed thinking",
          signing_of(loop, MF_FORMAT_AISDK_UI, 1, 1) == MF_SIGNING_THINKING);
    mf_micro_plan *p = micro_of(loop, MF_FORMAT_AISDK_UI, 1);
    CHECK("UIMessage: the last message, a loop holding its own results, is in flight", p && p->in_flight == 1);
    mf_micro_plan_free(p);
    const char *done = UI_LOOP ",{'id': 'u2', 'role': 'user', 'parts': [{'type': 'text', 'text': '好的, 谢谢'}]}]";
    p = micro_of(done, MF_FORMAT_AISDK_UI, 0);
    CHECK("UIMessage, the user spoke after it: nothing in flight", p && p->in_flight == SIZE_MAX);
    CHECK("the first edit is the build's output (part 2): the later step's reasoning (part 4) goes, the step's own (part 1) stays",
          p && p->count >= 1 && p->edits[0].part == 2 && p->drop_count == 1 && drop_is(&p->drops[0], 1, 4, MF_DROP_PART, 0));
    mf_micro_plan_free(p);
}

static void responses(void)
{
    const char *loop = "[{'type': 'message', 'role': 'user', 'content': [{'type': 'input_text', 'text': '统计 src 目录的代码行数'}]},"
        "{'type': 'reasoning', 'id': 'rs_1', 'summary': [{'type': 'summary_text', 'text': '用 wc 统计。'}], 'encrypted_content': 'gAAAAABpZ'},"
        "{'type': 'function_call', 'call_id': 'fc_1', 'name': 'bash', 'arguments': '{\\'command\\': \\'wc -l src/*.c\\'}'},"
        "{'type': 'function_call_output', 'call_id': 'fc_1', 'output': '" CONFIG_YAML "'},"
        "{'type': 'function_call', 'call_id': 'fc_2', 'name': 'bash', 'arguments': '{}'},"
        "{'type': 'function_call_output', 'call_id': 'fc_2', 'output': '" CONFIG_YAML "'}]";
    CHECK("Responses: a reasoning item with encrypted_content is encrypted reasoning",
          signing_of(loop, MF_FORMAT_OPENAI_RESPONSES, 1, SIZE_MAX) == MF_SIGNING_ENCRYPTED);
    mf_micro_plan *p = micro_of(loop, MF_FORMAT_OPENAI_RESPONSES, 1);
    CHECK("Responses: a trailing run of reasoning, calls and outputs is in flight at its encrypted reasoning",
          p && p->in_flight == 1 && !p->in_flight_open);
    CHECK("encrypted reasoning is never dropped", p && p->drop_count == 0);
    mf_micro_plan_free(p);
    const char *end = "[{'type': 'function_call', 'call_id': 'fc_2', 'name': 'bash', 'arguments': '{}'},"
        "{'type': 'function_call_output', 'call_id': 'fc_2', 'output': 'ok'}]";
    p = micro_of(end, MF_FORMAT_OPENAI_RESPONSES, 1);
    CHECK("the end of a run alone: no reasoning in it, and the answer is open (the run may start before)",
          p && p->in_flight == SIZE_MAX && p->in_flight_open);
    mf_micro_plan_free(p);
    const char *plain = "[{'type': 'message', 'role': 'user', 'content': [{'type': 'input_text', 'text': '列出文件'}]},"
        "{'type': 'reasoning', 'id': 'rs_1', 'summary': []},"
        "{'type': 'function_call', 'call_id': 'fc_1', 'name': 'ls', 'arguments': '{}'},"
        "{'type': 'function_call_output', 'call_id': 'fc_1', 'output': 'a.c b.c'}]";
    p = micro_of(plain, MF_FORMAT_OPENAI_RESPONSES, 1);
    CHECK("Responses: reasoning without encrypted content holds no loop", p && p->in_flight == SIZE_MAX && !p->in_flight_open);
    mf_micro_plan_free(p);
}

/* OpenAI Chat: OpenRouter's signed reasoning_details beside the content; DeepSeek's plain
 * reasoning_content, which nobody signs. */
static void chat(void)
{
    const char *loop = "[{'role': 'user', 'content': '查一下磁盘占用'},"
        "{'role': 'assistant', 'content': null, 'reasoning': '用 du。', 'reasoning_details': [{'type': 'reasoning.text', 'text': '用 du。', 'signature': '" SIG "', 'format': 'anthropic-claude-v1'}],"
        "'tool_calls': [{'id': 'call_1', 'type': 'function', 'function': {'name': 'bash', 'arguments': '{\\'command\\': \\'du -sh /var\\'}'}},"
        "{'id': 'call_2', 'type': 'function', 'function': {'name': 'bash', 'arguments': '{\\'command\\': \\'df -h\\'}'}}]},"
        "{'role': 'tool', 'tool_call_id': 'call_1', 'content': '" CONFIG_YAML "'},"
        "{'role': 'tool', 'tool_call_id': 'call_2', 'content': '" CONFIG_YAML "'}";
    char buf[8192];
    snprintf(buf, sizeof buf, "%s]", loop);
    mf_micro_plan *p = micro_of(buf, MF_FORMAT_OPENAI, 0);
    CHECK("Chat: OpenRouter's signed reasoning_details make the loop in flight", p && p->in_flight == 1);
    mf_micro_plan_free(p);
    snprintf(buf, sizeof buf, "%s,{'role': 'assistant', 'content': '/var 用了 12G。'}, {'role': 'user', 'content': '清理一下日志'}]", loop);
    mf_compact_plan *c = compact_of(buf, MF_FORMAT_OPENAI, 100000);
    CHECK("after a fold the details (and reasoning) go from beside the content, counted by entry",
          c && c->in_flight == SIZE_MAX && c->drop_count == 1 && drop_is(&c->drops[0], 1, SIZE_MAX, MF_DROP_BESIDE, 0) &&
              c->drops[0].count == 1);
    mf_compact_plan_free(c);
    const char *deepseek = "[{'role': 'user', 'content': '查一下磁盘占用'},"
        "{'role': 'assistant', 'content': '', 'reasoning_content': '用 du。', 'tool_calls': [{'id': 'call_1', 'type': 'function', 'function': {'name': 'bash', 'arguments': '{}'}}]},"
        "{'role': 'tool', 'tool_call_id': 'call_1', 'content': '12G /var'}]";
    p = micro_of(deepseek, MF_FORMAT_OPENAI, 0);
    CHECK("Chat: DeepSeek's reasoning_content is not signed: nothing waits", p && p->in_flight == SIZE_MAX && p->drop_count == 0);
    mf_micro_plan_free(p);
}

/* LangChain messages cross as plain views ({type, role, content, tool_calls}). */
static void langchain(void)
{
    const char *loop = "[{'type': 'human', 'role': 'user', 'content': '把 README 翻译成英文'},"
        "{'type': 'ai', 'role': 'assistant', 'content': [{'type': 'thinking', 'thinking': '先读文件。', 'signature': '" SIG "'}],"
        "'tool_calls': [{'id': 'tc_1', 'name': 'read_file', 'args': {'path': 'README.md'}}]},"
        "{'type': 'tool', 'role': 'tool', 'tool_call_id': 'tc_1', 'content': '" CONFIG_YAML "'}]";
    CHECK("LangChain: Anthropic's thinking block in an AI message is signed thinking",
          signing_of(loop, MF_FORMAT_LANGCHAIN, 1, 0) == MF_SIGNING_THINKING);
    mf_micro_plan *p = micro_of(loop, MF_FORMAT_LANGCHAIN, 0);
    CHECK("LangChain: the AI message's loop answered by a tool message is in flight", p && p->in_flight == 1);
    mf_micro_plan_free(p);
}

void test_signed(void)
{
    anthropic();
    aisdk();
    ui_message();
    responses();
    chat();
    langchain();
}
