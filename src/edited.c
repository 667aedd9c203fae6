/* edited.c — a document as a micro-compaction plan's edits leave it, without copying the
 * conversation: a plan made after micro-compaction (the compaction plan of a fold) reads
 * the history it was encoded from, with the edits' replacements in place, instead of an
 * edited copy encoded again.
 *
 * Each edit is applied as js/core/apply.js applies it to a copy (applyEditsToCopy): the
 * edited message, its content (or parts) list and the edited block are copied, the edited
 * field replaced (a key the holder lacked comes last, as a JS assignment adds it), every
 * other value borrowed. The list of messages is copied once (its nodes, not what they hold),
 * so the result is the tree the edited copy would have been encoded to. */
#include "view.h"

#include <string.h>

static mf_node string_node(const char *s, size_t len) { return (mf_node){.kind = MF_STRING, .str = s, .len = len}; }

/* The field of the holder an edit replaces (apply.js fieldOf), or NULL for an unknown target. */
static const char *field_of(mf_edit_target target)
{
    switch (target) {
    case MF_EDIT_BLOCK_CONTENT: case MF_EDIT_MESSAGE_CONTENT:
    case MF_EDIT_RESULT_STDOUT: case MF_EDIT_RESULT_VIEW: case MF_EDIT_RESULT_FETCHED: return "content";
    case MF_EDIT_PART_OUTPUT: case MF_EDIT_PART_OUTPUT_ERROR: case MF_EDIT_ITEM_OUTPUT: case MF_EDIT_UI_OUTPUT: return "output";
    case MF_EDIT_PART_RESULT: return "result";
    case MF_EDIT_UI_ERROR_TEXT: return "errorText";
    /* A call's input (clear_tool_inputs): its new input is JSON text, which this document could hold
     * only parsed; the Compactor gives the compaction plan the result edits alone. */
    case MF_EDIT_CALL_INPUT: case MF_EDIT_CALL_ARGS: case MF_EDIT_UI_INPUT: case MF_EDIT_CALL_ARGUMENTS:
    case MF_EDIT_MESSAGE_CALL_ARGS: case MF_EDIT_ITEM_ARGUMENTS: return NULL;
    }
    return NULL;
}

/* The AI SDK's {type, value} output object of `text`, in `arena`. */
static bool typed_output(mf_arena *arena, const char *type, const char *text, size_t len, mf_node *out)
{
    mf_node *items = mf_arena_alloc(arena, 2 * sizeof *items);
    if (!items) return false;
    items[0] = string_node(type, strlen(type));
    items[0].key = "type";
    items[0].key_len = 4;
    items[1] = string_node(text, len);
    items[1].key = "value";
    items[1].key_len = 5;
    *out = (mf_node){.kind = MF_OBJECT, .count = 2, .items = items};
    return true;
}

typedef enum { EDIT_OK, EDIT_MISFIT, EDIT_NOMEM } edit_result;

/* The value edit `e` writes into its holder `holder` (for the server-tool targets, built
 * from the holder's own content). */
static edit_result value_of(mf_arena *arena, const mf_micro_edit *e, const mf_node *holder, mf_node *out)
{
    switch (e->target) {
    case MF_EDIT_PART_OUTPUT: return typed_output(arena, "text", e->replacement, e->replacement_len, out) ? EDIT_OK : EDIT_NOMEM;
    case MF_EDIT_PART_OUTPUT_ERROR:
        return typed_output(arena, "error-text", e->replacement, e->replacement_len, out) ? EDIT_OK : EDIT_NOMEM;
    case MF_EDIT_RESULT_STDOUT: case MF_EDIT_RESULT_VIEW: case MF_EDIT_RESULT_FETCHED: {
        const mf_node *content = mf_get(holder, "content");
        if (!content || content->kind != MF_OBJECT ||
            (e->target == MF_EDIT_RESULT_FETCHED && !mf_is(mf_get(content, "content"), MF_OBJECT)))
            return EDIT_MISFIT;
        const mf_node *left = mf_anthropic_cleared(arena, content, e->target, e->replacement, e->replacement_len);
        if (!left) return EDIT_NOMEM;
        *out = *left;
        return EDIT_OK;
    }
    default: *out = string_node(e->replacement, e->replacement_len); return EDIT_OK;
    }
}

/* Applies edit `e` to message node `msg` (a slot of the copied list): the message becomes a
 * copy holding the edit. */
static edit_result apply_edit(mf_arena *arena, mf_node *msg, const mf_micro_edit *e)
{
    const char *field = field_of(e->target);
    if (!field || msg->kind != MF_OBJECT) return EDIT_MISFIT;
    mf_node value;
    if (e->target == MF_EDIT_MESSAGE_CONTENT || e->target == MF_EDIT_ITEM_OUTPUT) {
        edit_result r = value_of(arena, e, msg, &value);
        if (r != EDIT_OK) return r;
        const mf_node *edited = mf_with_member(arena, msg, field, value);
        if (!edited) return EDIT_NOMEM;
        *msg = *edited;
        return EDIT_OK;
    }
    const char *list_key = e->target == MF_EDIT_UI_OUTPUT || e->target == MF_EDIT_UI_ERROR_TEXT ? "parts" : "content";
    const mf_node *list = mf_get(msg, list_key);
    if (!list || list->kind != MF_ARRAY || e->part >= list->count || list->items[e->part].kind != MF_OBJECT) return EDIT_MISFIT;
    const mf_node *block = &list->items[e->part];
    edit_result r = value_of(arena, e, block, &value);
    if (r != EDIT_OK) return r;
    const mf_node *edited_block = mf_with_member(arena, block, field, value);
    mf_node *items = mf_arena_alloc(arena, list->count * sizeof *items);
    if (!edited_block || !items) return EDIT_NOMEM;
    memcpy(items, list->items, list->count * sizeof *items);
    items[e->part] = *edited_block;
    mf_node edited_list = *list;
    edited_list.items = items;
    const mf_node *edited = mf_with_member(arena, msg, list_key, edited_list);
    if (!edited) return EDIT_NOMEM;
    *msg = *edited;
    return EDIT_OK;
}

mf_status mf_doc_edited(const mf_doc *doc, const mf_micro_edit *edits, size_t count, mf_arena *arena, mf_doc *out,
                        mf_error *err)
{
    if (!doc) return mf_fail(err, MF_ERR_INVALID_ARG, SIZE_MAX, "NULL document");
    *out = *doc;
    if (!count) return MF_OK;
    if (!edits) return mf_fail(err, MF_ERR_INVALID_ARG, SIZE_MAX, "edit_count without edits");
    const mf_node *messages = doc->messages;
    if (!messages || messages->kind != MF_ARRAY) return mf_fail(err, MF_ERR_SHAPE, SIZE_MAX, "expected a list of messages");
    mf_node *items = mf_arena_alloc(arena, (messages->count ? messages->count : 1) * sizeof *items);
    mf_node *list = mf_arena_alloc(arena, sizeof *list);
    if (!items || !list) return mf_fail(err, MF_ERR_NOMEM, SIZE_MAX, "out of memory");
    memcpy(items, messages->items, messages->count * sizeof *items);
    *list = *messages;
    list->items = items;
    for (size_t i = 0; i < count; i++) {
        const mf_micro_edit *e = &edits[i];
        edit_result r = e->message < list->count ? apply_edit(arena, &items[e->message], e) : EDIT_MISFIT;
        if (r == EDIT_NOMEM) return mf_fail(err, MF_ERR_NOMEM, SIZE_MAX, "out of memory");
        if (r == EDIT_MISFIT)
            return mf_fail(err, MF_ERR_INVALID_ARG, e->message, "edit %zu does not fit message %zu (target %d, part %zu)", i,
                           e->message, (int)e->target, e->part);
    }
    /* The list is where the document holds it: the root itself, a request body's member (what
     * the request's extras are read beside), or the one-item list a lone message is read as. */
    if (doc->root == messages) {
        out->root = list;
        out->messages = list;
        return MF_OK;
    }
    static const char *const holders[] = { "messages", "input" };
    for (size_t k = 0; k < 2; k++) {
        if (mf_get(doc->root, holders[k]) != messages) continue;
        mf_node *root = mf_with_member(arena, doc->root, holders[k], *list);
        if (!root) return mf_fail(err, MF_ERR_NOMEM, SIZE_MAX, "out of memory");
        out->root = root;
        out->messages = mf_get(root, holders[k]);
        return MF_OK;
    }
    out->messages = list;
    return MF_OK;
}
