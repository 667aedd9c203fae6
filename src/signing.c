/* signing.c — which blocks carry a provider's signature over the model's thinking, read from
 * the block's own shape in any format (the rules and their sources: docs/provider-rules.md).
 * Every adapter's parts get their `signing` from here (adapt_add); signed.c answers with it.
 * A leaf: it reads nodes and calls nothing above the tree. */
#include "view.h"

#include <string.h>

/* A JSON value JavaScript takes as true: a non-empty string, a number other than 0, true,
 * any list, object or binary value. */
bool mf_truthy(const mf_node *n)
{
    if (!n) return false;
    switch (n->kind) {
    case MF_TRUE: case MF_ARRAY: case MF_OBJECT: case MF_BLOB: return true;
    case MF_STRING: return n->len > 0;
    case MF_NUMBER:
        for (size_t i = 0; i < n->len && n->str[i] != 'e' && n->str[i] != 'E'; i++)
            if (n->str[i] >= '1' && n->str[i] <= '9') return true;
        return false;
    default: return false;
    }
}

static bool nonempty_str(const mf_node *n) { return n && n->kind == MF_STRING && n->len > 0; }
/* JavaScript's "an object" (a list too). */
static bool is_object(const mf_node *n) { return n && (n->kind == MF_OBJECT || n->kind == MF_ARRAY); }
static bool prefixed(const mf_node *s, const char *p)
{
    size_t n = strlen(p);
    return s && s->kind == MF_STRING && s->len >= n && memcmp(s->str, p, n) == 0;
}

bool mf_signed_details(const mf_node *details)
{
    /* OpenRouter's reasoning_details: an entry with a signature, or an encrypted one with its
     * data (Claude's and Gemini's reasoning, handed back to them); plain text entries are
     * reasoning nobody checks. */
    if (!details || details->kind != MF_ARRAY) return false;
    for (uint32_t i = 0; i < details->count; i++) {
        const mf_node *d = &details->items[i];
        if (!is_object(d)) continue;
        if (nonempty_str(mf_get(d, "signature"))) return true;
        if (mf_str_eq(mf_get(d, "type"), "reasoning.encrypted") && nonempty_str(mf_get(d, "data"))) return true;
    }
    return false;
}

/* The metadata of an AI SDK reasoning part: providerOptions (ModelMessage, V3/V4 prompts), else
 * providerMetadata (a UIMessage, a step's content). */
static const mf_node *part_meta(const mf_node *part)
{
    const mf_node *meta = mf_get(part, "providerOptions");
    return mf_truthy(meta) ? meta : mf_get(part, "providerMetadata");
}

/* A provider's signature over Claude's thinking in an AI SDK part's metadata: @ai-sdk/anthropic
 * (and its Vertex and Bedrock Messages variants) under `anthropic`; @ai-sdk/amazon-bedrock's
 * Converse provider under `bedrock` (4.x) and `amazonBedrock` (5.x), with a signature,
 * redactedData or redactedContent. */
static bool signed_by_provider(const mf_node *meta)
{
    static const char *const names[] = {"anthropic", "bedrock", "amazonBedrock"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        const mf_node *o = mf_get(meta, names[i]);
        if (is_object(o) && (mf_truthy(mf_get(o, "signature")) || mf_truthy(mf_get(o, "redactedData")) ||
                             mf_truthy(mf_get(o, "redactedContent"))))
            return true;
    }
    return false;
}

static bool openrouter_signed(const mf_node *meta)
{
    const mf_node *o = mf_get(meta, "openrouter");
    return is_object(o) && mf_signed_details(mf_get(o, "reasoning_details"));
}

/* OpenAI's encrypted reasoning on an AI SDK part (`store: false`): @ai-sdk/openai keeps it as
 * reasoningEncryptedContent, @ai-sdk/azure under its own name. */
static bool encrypted_by_provider(const mf_node *meta)
{
    static const char *const names[] = {"openai", "azure"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (nonempty_str(mf_get(mf_get(meta, names[i]), "reasoningEncryptedContent"))) return true;
    return false;
}

bool mf_block_is_call(const mf_node *type)
{
    /* Anthropic tool_use, AI SDK tool-call, UIMessage tool-NAME and dynamic-tool parts. */
    return mf_str_eq(type, "tool_use") || mf_str_eq(type, "tool-call") || mf_str_eq(type, "dynamic-tool") ||
           (prefixed(type, "tool-") && !mf_str_eq(type, "tool-result"));
}

/* Which metadata of a call part carry OpenRouter's signed details (MF_META_*). OpenRouter's
 * provider copies a step's signed details onto each of its tool calls and sends them from the
 * first call part that has them (findFirstReasoningDetails): the provider's metadata on a call,
 * a step's, and a UIMessage tool part's call and result. */
unsigned mf_details_keys(const mf_node *block)
{
    static const char *const keys[] = {"providerOptions", "providerMetadata", "callProviderMetadata",
                                       "resultProviderMetadata"};
    unsigned found = 0;
    for (unsigned i = 0; i < sizeof keys / sizeof *keys; i++)
        if (openrouter_signed(mf_get(block, keys[i]))) found |= 1u << i;
    return found;
}

mf_signing mf_block_signing(const mf_node *block, const mf_node *type)
{
    if (!type) return MF_SIGNING_NONE;
    if (mf_str_eq(type, "thinking") || mf_str_eq(type, "redacted_thinking")) return MF_SIGNING_THINKING;
    bool redacted = mf_str_eq(type, "redacted-reasoning");
    if (redacted || mf_str_eq(type, "reasoning")) {
        const mf_node *meta = part_meta(block);
        if (redacted) return MF_SIGNING_THINKING;
        if (!is_object(meta)) return MF_SIGNING_NONE;
        if (signed_by_provider(meta) || openrouter_signed(meta)) return MF_SIGNING_THINKING;
        return encrypted_by_provider(meta) ? MF_SIGNING_ENCRYPTED : MF_SIGNING_NONE;
    }
    return mf_block_is_call(type) && mf_details_keys(block) ? MF_SIGNING_DETAILS : MF_SIGNING_NONE;
}

bool mf_responses_reasoning_encrypted(const mf_node *item)
{
    return mf_str_eq(mf_get(item, "type"), "reasoning") && mf_truthy(mf_get(item, "encrypted_content"));
}

