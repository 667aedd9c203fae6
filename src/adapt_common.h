/* adapt_common.h — helpers the format adapters share (adapt_anthropic.c, adapt_openai.c,
 * adapt_openai_responses.c, adapt_aisdk.c, adapt_aisdk_ui.c). */
#ifndef MIDFOLD_ADAPT_COMMON_H
#define MIDFOLD_ADAPT_COMMON_H

#include "view.h"

/* Appends a zeroed part of `kind` for `node` at content index `index`, with its type and how
 * it is signed (signed.c reads every format's signed blocks alike); NULL on OOM.
 * msg->parts must have room (adapters size it first with adapt_reserve). */
static inline mf_part *adapt_add(mf_msg *msg, mf_part_kind kind, const mf_node *node, size_t index)
{
    mf_part *p = &msg->parts[msg->count++];
    __builtin_memset(p, 0, sizeof *p);
    p->kind = kind;
    p->node = node;
    p->index = index;
    p->type = mf_get_str(node, "type");
    p->signing = mf_block_signing(node, p->type);
    return p;
}

static inline bool adapt_reserve(mf_arena *arena, mf_msg *msg, size_t n)
{
    msg->count = 0;
    msg->parts = n ? mf_arena_alloc(arena, n * sizeof(mf_part)) : NULL;
    return !n || msg->parts;
}

/* Sets out/len from a string member; leaves them NULL/0 when absent or not a string. */
static inline void adapt_str(const mf_node *obj, const char *key, const char **out, size_t *len)
{
    const mf_node *s = mf_get_str(obj, key);
    *out = s ? s->str : NULL;
    *len = s ? s->len : 0;
}

/* Adds the string `content` as the message's TEXT part (room reserved by the caller). */
static inline void adapt_add_string_content(mf_msg *msg, const mf_node *content)
{
    mf_part *p = adapt_add(msg, MF_PART_TEXT, content, SIZE_MAX);
    p->text = content->str;
    p->text_len = content->len;
    msg->string_content = true;
}

/* Content given as one string becomes a single TEXT part. Returns true if handled. */
static inline bool adapt_string_content(mf_arena *arena, mf_msg *msg, const mf_node *content, size_t extra,
                                        mf_status *st)
{
    if (!content || content->kind != MF_STRING) return false;
    *st = MF_OK;
    if (!adapt_reserve(arena, msg, 1 + extra)) { *st = MF_ERR_NOMEM; return true; }
    adapt_add_string_content(msg, content);
    return true;
}

/* An AI SDK text part that stands for Anthropic's server `compaction` block: @ai-sdk/anthropic
 * gives the block back as a text part whose provider metadata says {anthropic: {type:
 * "compaction", signature}} (`providerMetadata` in a step's content and a UIMessage,
 * `providerOptions` in a ModelMessage), and sends such a part as the block again. The part is
 * then typed "compaction", so the core reads it as the anthropic adapter reads the block: the
 * provider reads from the last one on (view.c, mf_view_window_start). */
static inline void adapt_mark_aisdk_compaction(mf_part *p, const mf_node *part)
{
    static const mf_node compaction_type = {.kind = MF_STRING, .str = "compaction", .len = 10};
    const mf_node *meta = mf_get(part, "providerOptions");
    if (!meta || meta->kind != MF_OBJECT) meta = mf_get(part, "providerMetadata");
    if (mf_str_eq(mf_get_str(mf_get(meta, "anthropic"), "type"), "compaction")) p->type = &compaction_type;
}

#endif
