/* format.c — telling Anthropic, OpenAI Chat and AI SDK messages apart by the features
 * only one of them has (LangChain's dict form by its `type`). Plain text conversations fit all three; they are reported as
 * OpenAI Chat, the shape every provider's compatibility layer accepts. */
#include "view.h"

#include <string.h>

/* `developer`: role "developer", which both OpenAI formats have (Chat Completions unless
 * something says Responses). */
typedef struct evidence { size_t anthropic, openai, aisdk, aisdk_ui, responses, developer, langchain; } evidence;

static void block_evidence(const mf_node *block, evidence *ev)
{
    const mf_node *type = mf_get_str(block, "type");
    if (!type) return;
    static const char *const anthropic[] = {"tool_use", "tool_result", "thinking", "redacted_thinking",
                                            "server_tool_use", "web_search_tool_result", "document",
                                            "search_result", "mcp_tool_use", "mcp_tool_result",
                                            "web_fetch_tool_result", "code_execution_tool_result",
                                            "bash_code_execution_tool_result", "text_editor_code_execution_tool_result",
                                            "tool_search_tool_result", "advisor_tool_result", "container_upload",
                                            "compaction", "mcp_tool_listing", NULL};
    static const char *const openai[] = {"image_url", "input_audio", "refusal", NULL};
    static const char *const aisdk[] = {"tool-call", "tool-result", "reasoning", "redacted-reasoning",
                                        "tool-approval-request", "tool-approval-response", "reasoning-file", NULL};
    for (int i = 0; anthropic[i]; i++) if (mf_str_eq(type, anthropic[i])) { ev->anthropic++; return; }
    for (int i = 0; openai[i]; i++) if (mf_str_eq(type, openai[i])) { ev->openai++; return; }
    for (int i = 0; aisdk[i]; i++) if (mf_str_eq(type, aisdk[i])) { ev->aisdk++; return; }
    if (mf_str_eq(type, "image")) {
        if (mf_get(block, "source")) ev->anthropic++;
        else if (mf_get(block, "image")) ev->aisdk++;
    } else if (mf_str_eq(type, "file")) {
        if (mf_get(block, "file")) ev->openai++;
        else if (mf_get(block, "data") || mf_get(block, "mediaType") || mf_get(block, "mimeType")) ev->aisdk++;
    }
    /* A text block with `citations` (a list, or null for none): Anthropic's text blocks have
     * the field (@anthropic-ai/sdk TextBlockParam, TextBlock); no other format's text part does. */
    if (mf_get(block, "cache_control") || (mf_str_eq(type, "text") && mf_get(block, "citations"))) ev->anthropic++;
    if (mf_get(block, "providerOptions")) ev->aisdk++;
}

static void message_evidence(const mf_node *msg, evidence *ev)
{
    /* A Responses item is told by its own type or parts; its other fields (a "refusal"
     * part, role "developer") would read as Chat Completions. */
    if (mf_responses_evidence(msg)) { ev->responses++; return; }
    /* A LangChain message is told by its `type` alone: its content may hold any provider's
     * blocks (@langchain/anthropic keeps tool_use and thinking blocks there), which are its own. */
    if (mf_langchain_type(msg)) { ev->langchain++; return; }
    const mf_node *role = mf_get_str(msg, "role");
    const mf_node *content = mf_get(msg, "content");
    if (mf_get(msg, "tool_calls") || mf_get(msg, "tool_call_id") || mf_get(msg, "function_call") ||
        mf_get(msg, "reasoning_content") || mf_get(msg, "reasoning_details")) /* DeepSeek's, OpenRouter's */
        ev->openai++;
    if (mf_str_eq(role, "developer")) ev->developer++;
    if (mf_str_eq(role, "function")) ev->openai++;
    /* A UIMessage has parts and no content (useChat's messages, a chat route's body). */
    const mf_node *parts = mf_get(msg, "parts");
    if (!content && parts && parts->kind == MF_ARRAY) { ev->aisdk_ui++; return; }
    if (mf_str_eq(role, "tool")) {
        const mf_node *first = content && content->kind == MF_ARRAY && content->count ? mf_get_str(&content->items[0], "type") : NULL;
        if (mf_str_eq(first, "tool-result") || mf_str_eq(first, "tool-approval-response"))
            ev->aisdk++;
        else
            ev->openai++;
    }
    if (mf_get(msg, "providerOptions")) ev->aisdk++;
    if (content && content->kind == MF_ARRAY)
        for (uint32_t i = 0; i < content->count; i++) block_evidence(&content->items[i], ev);
}

mf_format mf_doc_detect(const mf_doc *doc)
{
    if (!doc || !mf_doc_is_conversation(doc, NULL)) return MF_FORMAT_UNKNOWN;
    evidence ev = {0, 0, 0, 0, 0, 0, 0};
    for (uint32_t i = 0; i < doc->messages->count; i++) message_evidence(&doc->messages->items[i], &ev);
    if (!ev.responses) ev.openai += ev.developer;
    int kinds = (ev.anthropic > 0) + (ev.openai > 0) + (ev.aisdk > 0) + (ev.aisdk_ui > 0) + (ev.responses > 0) +
                (ev.langchain > 0);
    if (kinds > 1) return MF_FORMAT_UNKNOWN; /* mixed: no single provider accepts it */
    if (ev.langchain) return MF_FORMAT_LANGCHAIN;
    if (ev.responses) return MF_FORMAT_OPENAI_RESPONSES;
    if (ev.aisdk_ui) return MF_FORMAT_AISDK_UI;
    if (ev.anthropic) return MF_FORMAT_ANTHROPIC;
    if (ev.aisdk) return MF_FORMAT_AISDK;
    return MF_FORMAT_OPENAI;
}

const char *mf_format_name(mf_format format)
{
    switch (format) {
    case MF_FORMAT_AUTO: return "auto";
    case MF_FORMAT_ANTHROPIC: return "anthropic";
    case MF_FORMAT_OPENAI: return "openai";
    case MF_FORMAT_AISDK: return "ai-sdk";
    case MF_FORMAT_OPENAI_RESPONSES: return "openai-responses";
    case MF_FORMAT_AISDK_UI: return "ai-sdk-ui";
    case MF_FORMAT_LANGCHAIN: return "langchain";
    case MF_FORMAT_UNKNOWN: break;
    }
    return "unknown";
}

mf_status mf_format_parse(const char *name, size_t len, mf_format *out)
{
    if (!name || !out) return MF_ERR_INVALID_ARG;
    for (int f = MF_FORMAT_AUTO; f <= MF_FORMAT_LANGCHAIN; f++) {
        if (f == MF_FORMAT_UNKNOWN) continue;
        const char *n = mf_format_name((mf_format)f);
        if (strlen(n) == len && memcmp(n, name, len) == 0) { *out = (mf_format)f; return MF_OK; }
    }
    return MF_ERR_INVALID_ARG;
}
