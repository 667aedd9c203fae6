/* doc.c — a parsed value and where its conversation is: a top-level list of messages,
 * an object's "messages" list (a request body) or "input" list (a Responses request
 * body), or one message on its own. */
#include "view.h"

#include <string.h>

/* A role-tagged message, an OpenAI Responses item that has no role (function_call,
 * reasoning, ...): those are messages of an item list, or a LangChain message in its dict
 * form ({type: "human", content}). */
static bool is_message(const mf_node *n)
{
    return mf_get_str(n, "role") != NULL || mf_responses_is_item(n) || mf_langchain_type(n) != NULL;
}

/* Points doc->messages at the conversation's list when the value holds one. A lone
 * message is wrapped in a one-item list so every operation sees a list. */
static mf_status locate_messages(mf_doc *doc)
{
    mf_node *root = doc->root;
    doc->messages = NULL;
    if (root->kind == MF_ARRAY) {
        doc->messages = root;
    } else if (root->kind == MF_OBJECT) {
        const mf_node *list = mf_get(root, "messages");
        if (!list || list->kind != MF_ARRAY) list = mf_get(root, "input"); /* a Responses request body */
        if (list && list->kind == MF_ARRAY) {
            doc->messages = list;
        } else if (is_message(root)) {
            mf_node *wrap = mf_arena_calloc(&doc->arena, 1, sizeof *wrap);
            if (!wrap) return MF_ERR_NOMEM;
            wrap->kind = MF_ARRAY;
            wrap->count = 1;
            wrap->items = root;
            doc->messages = wrap;
        }
    }
    return MF_OK;
}

static mf_status new_doc(mf_doc **out, mf_error *err)
{
    if (!out) return mf_fail(err, MF_ERR_INVALID_ARG, SIZE_MAX, "NULL output pointer");
    *out = NULL;
    mf_doc *doc = mf_alloc(sizeof *doc);
    if (!doc) return mf_fail(err, MF_ERR_NOMEM, SIZE_MAX, "out of memory");
    memset(doc, 0, sizeof *doc);
    mf_arena_init(&doc->arena);
    *out = doc;
    return MF_OK;
}

static mf_status finish(mf_doc *doc, mf_status st, mf_doc **out, mf_error *err)
{
    if (!st && locate_messages(doc)) st = mf_fail(err, MF_ERR_NOMEM, SIZE_MAX, "out of memory");
    if (st) {
        mf_doc_free(doc);
        *out = NULL;
        return st;
    }
    *out = doc;
    return MF_OK;
}

mf_status mf_doc_parse_json(const char *json, size_t len, mf_doc **out, mf_error *err)
{
    mf_status st = new_doc(out, err); /* checks `out` before anything is read */
    if (st) return st;
    mf_doc *doc = *out;
    doc->json_owner_free = mf_json_owner_free;
    st = mf_json_to_tree(&doc->arena, json, len, &doc->root, &doc->json_owner, err);
    return finish(doc, st, out, err);
}

mf_status mf_doc_parse_tree(const uint8_t *buf, size_t len, mf_doc **out, mf_error *err)
{
    mf_status st = new_doc(out, err);
    if (st) return st;
    mf_doc *doc = *out;
    st = mf_tree_decode(&doc->arena, buf, len, &doc->root, err);
    return finish(doc, st, out, err);
}

void mf_doc_free(mf_doc *doc)
{
    if (!doc) return;
    mf_arena_free(&doc->arena);
    if (doc->json_owner_free) doc->json_owner_free(doc->json_owner);
    mf_dealloc(doc);
}

bool mf_doc_is_conversation(const mf_doc *doc, size_t *bad_index)
{
    if (!doc->messages) { if (bad_index) *bad_index = SIZE_MAX; return false; }
    for (uint32_t i = 0; i < doc->messages->count; i++)
        if (!is_message(&doc->messages->items[i])) { if (bad_index) *bad_index = i; return false; }
    return true;
}
