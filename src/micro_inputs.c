/* micro_inputs.c — clearToolInputs: the input of a call whose result micro-compaction cleared
 * keeps its shape and loses its bulk. Anthropic's clear_tool_uses_20250919 can clear a call's
 * parameters too (clear_tool_inputs); on the client the call must stay one every format and
 * SDK accepts (docs/provider-rules.md): an Anthropic tool_use's input and an AI SDK
 * tool-call's input stay objects, an OpenAI Chat call's function.arguments and a Responses
 * function_call's arguments stay strings of JSON. So only strings inside the input change:
 * each one costlier than its marker becomes "[truncated: NAME input, N chars]" (N: its code
 * points), and the model still reads which tool ran with which short arguments (a path, a
 * command, a count). A string that already is a marker is left alone (the plan is idempotent). */
#include "micro_inputs.h"
#include "measure.h"
#include "result.h"

#include <string.h>

static const char MARK[] = "[truncated:";

typedef struct clearing {
    const char *name;
    size_t name_len;
    mf_profile profile;
    size_t chars;   /* code points of the strings replaced */
    bool changed;
    mf_buf scratch; /* one marker */
} clearing;

static void write_string(mf_buf *b, const char *s, size_t len)
{
    mf_node n = {.kind = MF_STRING, .str = s, .len = len};
    mf_write_json(b, &n);
}

/* `node` as JSON with its large strings replaced by markers. */
static void write_cleared(clearing *c, mf_buf *b, const mf_node *node)
{
    if (node->kind == MF_STRING) {
        bool marked = node->len >= sizeof MARK - 1 && memcmp(node->str, MARK, sizeof MARK - 1) == 0;
        size_t chars = marked ? 0 : mf_count_code_points(node->str, node->len);
        if (!marked) {
            mf_buf_reset(&c->scratch);
            mf_buf_puts(&c->scratch, "[truncated: ");
            mf_buf_put_utf8(&c->scratch, c->name, c->name_len);
            mf_buf_puts(&c->scratch, " input, ");
            mf_buf_put_uint(&c->scratch, chars);
            mf_buf_puts(&c->scratch, " chars]");
        }
        if (!marked && !c->scratch.failed &&
            mf_estimate_text(c->scratch.data, c->scratch.len, c->profile) < mf_estimate_text(node->str, node->len, c->profile)) {
            write_string(b, c->scratch.data, c->scratch.len);
            c->chars += chars;
            c->changed = true;
        } else {
            mf_write_json(b, node);
        }
        return;
    }
    if (node->kind == MF_ARRAY || node->kind == MF_OBJECT) {
        bool object = node->kind == MF_OBJECT;
        mf_buf_putc(b, object ? '{' : '[');
        for (uint32_t i = 0; i < node->count; i++) {
            if (i) mf_buf_putc(b, ',');
            if (object) {
                write_string(b, node->items[i].key, node->items[i].key_len);
                mf_buf_putc(b, ':');
            }
            write_cleared(c, b, &node->items[i]);
        }
        mf_buf_putc(b, object ? '}' : ']');
        return;
    }
    mf_write_json(b, node);
}

/* How an edit writes the new input back into the call, or 0 when it cannot: by the format
 * and where the adapter found the input (view.h: mf_part.args). `text_args`: the input is a
 * string of JSON. */
static mf_edit_target target_of(const mf_view *view, const mf_msg *msg, const mf_part *call, bool text_args)
{
    const mf_node *node = call->node;
    switch (view->format) {
    case MF_FORMAT_OPENAI_RESPONSES:
        return text_args && mf_get(node, "arguments") == call->args ? MF_EDIT_ITEM_ARGUMENTS : 0;
    case MF_FORMAT_OPENAI: {
        const mf_node *calls = mf_get(msg->node, "tool_calls");
        bool listed = calls && calls->kind == MF_ARRAY && call->index < calls->count && &calls->items[call->index] == node;
        return listed && text_args && mf_get(mf_get(node, "function"), "arguments") == call->args ? MF_EDIT_CALL_ARGUMENTS : 0;
    }
    case MF_FORMAT_LANGCHAIN: {
        const mf_node *calls = mf_get(msg->node, "tool_calls");
        if (calls && calls->kind == MF_ARRAY && call->index < calls->count && &calls->items[call->index] == node)
            return !text_args ? MF_EDIT_MESSAGE_CALL_ARGS : 0;
        break; /* a content block: as below */
    }
    case MF_FORMAT_AISDK_UI:
        return !text_args && call->index != SIZE_MAX && mf_get(node, "input") == call->args ? MF_EDIT_UI_INPUT : 0;
    default:
        break;
    }
    if (text_args || call->index == SIZE_MAX) return 0;
    if (mf_get(node, "input") == call->args) return MF_EDIT_CALL_INPUT;
    if (mf_get(node, "args") == call->args) return MF_EDIT_CALL_ARGS;
    return 0;
}

bool mf_plan_input_edit(mf_arena *arena, const mf_view *view, size_t m, const mf_part *call, mf_profile profile,
                        mf_micro_edit *e, uint64_t *saved, bool *found)
{
    *found = false;
    *saved = 0;
    const mf_node *args = call->args;
    if (!args || call->pending || call->pinned || call->same_message) return true;
    bool text_args = args->kind == MF_STRING;
    mf_edit_target target = target_of(view, &view->msgs[m], call, text_args);
    if (!target) return true;
    const mf_node *input = args;
    void *owner = NULL;
    if (text_args) { /* a string of JSON: read it; anything but an object is left as it is */
        mf_node *tree = NULL;
        if (args->len == 0) return true;
        mf_status st = mf_json_to_tree(arena, args->str, args->len, &tree, &owner, NULL);
        if (st == MF_ERR_NOMEM) return false;
        if (st != MF_OK || !tree || tree->kind != MF_OBJECT) { mf_json_owner_free(owner); return true; }
        input = tree;
    } else if (args->kind != MF_OBJECT) {
        return true;
    }
    const char *name = call->name && call->name_len ? call->name : "unknown";
    size_t name_len = call->name && call->name_len ? call->name_len : strlen("unknown");
    clearing c = {.name = name, .name_len = name_len, .profile = profile};
    mf_buf_init(&c.scratch);
    mf_buf out;
    mf_buf_init(&out);
    write_cleared(&c, &out, input);
    mf_json_owner_free(owner);
    bool failed = out.failed || c.scratch.failed;
    mf_buf_free(&c.scratch);
    if (failed) { mf_buf_free(&out); return false; }
    if (!c.changed) { mf_buf_free(&out); return true; }
    char *text = mf_arena_strdup(arena, out.data, out.len);
    size_t text_len = out.len;
    mf_buf_free(&out);
    if (!text) return false;
    /* Priced as the call reads after the edit: the new input in place of the old. */
    mf_part after = *call;
    void *after_owner = NULL;
    if (text_args) {
        mf_node *s = mf_arena_alloc(arena, sizeof *s);
        if (!s) return false;
        *s = (mf_node){.kind = MF_STRING, .str = text, .len = text_len};
        after.args = s;
    } else {
        mf_node *tree = NULL;
        mf_status st = mf_json_to_tree(arena, text, text_len, &tree, &after_owner, NULL);
        if (st != MF_OK) { mf_json_owner_free(after_owner); return st != MF_ERR_NOMEM; }
        after.args = tree;
    }
    uint64_t cost_after = mf_estimate_part(&after, profile), cost_before = mf_estimate_part(call, profile);
    mf_json_owner_free(after_owner);
    *saved = cost_after < cost_before ? cost_before - cost_after : 0;
    if (*saved == 0) return true;
    memset(e, 0, sizeof *e);
    e->message = m;
    e->part = call->index;
    e->target = target;
    e->chars = c.chars;
    e->replacement = text;
    e->replacement_len = text_len;
    e->tool_name = mf_arena_strdup(arena, name, name_len);
    e->tool_name_len = name_len;
    if (!e->tool_name) return false;
    *found = true;
    return true;
}
