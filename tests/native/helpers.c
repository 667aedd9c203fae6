/* helpers.c — see helpers.h. apply_plan uses cJSON directly: the tests edit JSON the way
 * the wrapper edits the caller's objects, independently of midfold's own tree. */
#include "helpers.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cJSON.h"
#include "text_features.h"

mf_doc *parse(const char *json)
{
    mf_doc *doc = NULL;
    if (mf_doc_parse_json(json, strlen(json), &doc, NULL) != MF_OK) return NULL;
    return doc;
}

char *transcript_of(const char *json, mf_format format)
{
    mf_doc *doc = parse(json);
    char *out = NULL;
    size_t len = 0;
    if (doc && mf_doc_serialize(doc, format, &out, &len, NULL) != MF_OK) out = NULL;
    mf_doc_free(doc);
    return out;
}

uint64_t estimate_of(const char *json, mf_format format)
{
    mf_doc *doc = parse(json);
    uint64_t milli = UINT64_MAX;
    if (doc && mf_doc_estimate(doc, format, MF_PROFILE_BAREAGENT, &milli, NULL) != MF_OK) milli = UINT64_MAX;
    mf_doc_free(doc);
    return milli;
}

mf_micro_plan *plan_of(const char *json, mf_format format, uint32_t keep_recent)
{
    mf_doc *doc = parse(json);
    mf_micro_options options;
    mf_micro_options_init(&options);
    options.keep_recent = keep_recent;
    mf_micro_plan *plan = NULL;
    if (doc && mf_doc_micro_plan(doc, format, &options, &plan, NULL) != MF_OK) plan = NULL;
    mf_doc_free(doc);
    return plan;
}

static cJSON *text_of(const mf_micro_edit *e)
{
    char *s = cJSON_malloc(e->replacement_len + 1);
    if (!s) return NULL;
    memcpy(s, e->replacement, e->replacement_len);
    s[e->replacement_len] = 0;
    cJSON *text = cJSON_CreateString(s);
    cJSON_free(s);
    return text;
}

static cJSON *output_of(const mf_micro_edit *e, const char *type)
{
    cJSON *output = cJSON_CreateObject();
    cJSON *value = text_of(e);
    if (!output || !value || !cJSON_AddStringToObject(output, "type", type)) {
        cJSON_Delete(output);
        cJSON_Delete(value);
        return NULL;
    }
    cJSON_AddItemToObject(output, "value", value);
    return output;
}

/* The member `key` of an object; the last one when the key repeats, as JSON.parse keeps
 * (and as midfold reads). */
cJSON *json_member(const cJSON *obj, const char *key)
{
    cJSON *found = NULL;
    if (!cJSON_IsObject(obj)) return NULL;
    for (cJSON *c = obj->child; c; c = c->next)
        if (c->string && strcmp(c->string, key) == 0) found = c;
    return found;
}

/* Puts `value` in place of obj's member `key` (which must exist). */
static int replace_member(cJSON *obj, const char *key, cJSON *value)
{
    cJSON *old = json_member(obj, key);
    size_t n = strlen(key) + 1;
    if (!value) return 0;
    if (!old || !(value->string = cJSON_malloc(n))) { cJSON_Delete(value); return 0; }
    memcpy(value->string, key, n);
    return cJSON_ReplaceItemViaPointer(obj, old, value);
}

/* Sets obj's member `key` to `value`, replacing it or adding it. */
static int set_member(cJSON *obj, const char *key, cJSON *value)
{
    if (!value) return 0;
    if (json_member(obj, key)) return replace_member(obj, key, value);
    return cJSON_AddItemToObject(obj, key, value);
}

/* The Anthropic server-tool targets (docs/anthropic-blocks.md): the output field of the
 * block's content object. */
static int apply_server_edit(cJSON *block, const mf_micro_edit *e)
{
    cJSON *content = json_member(block, "content");
    if (!cJSON_IsObject(content)) return 0;
    if (e->target == MF_EDIT_RESULT_STDOUT)
        return set_member(content, "stdout", text_of(e)) && set_member(content, "stderr", cJSON_CreateString(""));
    if (e->target == MF_EDIT_RESULT_VIEW)
        return set_member(content, "content", text_of(e)) && set_member(content, "file_type", cJSON_CreateString("text"));
    cJSON *doc = json_member(content, "content");
    cJSON *source = cJSON_CreateObject();
    if (!cJSON_IsObject(doc) || !source || !cJSON_AddStringToObject(source, "type", "text") ||
        !cJSON_AddStringToObject(source, "media_type", "text/plain")) {
        cJSON_Delete(source);
        return 0;
    }
    cJSON *data = text_of(e);
    if (!data) { cJSON_Delete(source); return 0; }
    cJSON_AddItemToObject(source, "data", data);
    return set_member(doc, "source", source);
}

/* A call's new input (clear_tool_inputs): JSON text, set as a value or as a string of JSON,
 * the way js/core/apply.js sets it. */
static int apply_input_edit(cJSON *msg, const mf_micro_edit *e)
{
    char *text = malloc(e->replacement_len + 1);
    if (!text) return 0;
    memcpy(text, e->replacement, e->replacement_len);
    text[e->replacement_len] = '\0';
    int as_text = e->target == MF_EDIT_CALL_ARGUMENTS || e->target == MF_EDIT_ITEM_ARGUMENTS;
    cJSON *value = as_text ? cJSON_CreateString(text) : cJSON_Parse(text);
    free(text);
    if (!value) return 0;
    if (e->target == MF_EDIT_ITEM_ARGUMENTS) return replace_member(msg, "arguments", value);
    int listed = e->target == MF_EDIT_CALL_ARGUMENTS || e->target == MF_EDIT_MESSAGE_CALL_ARGS;
    cJSON *entry = cJSON_GetArrayItem(json_member(msg, listed ? "tool_calls" : e->target == MF_EDIT_UI_INPUT ? "parts" : "content"), (int)e->part);
    if (e->target == MF_EDIT_CALL_ARGUMENTS) entry = json_member(entry, "function");
    if (!cJSON_IsObject(entry)) { cJSON_Delete(value); return 0; }
    const char *key = e->target == MF_EDIT_CALL_ARGUMENTS ? "arguments"
                    : e->target == MF_EDIT_CALL_ARGS || e->target == MF_EDIT_MESSAGE_CALL_ARGS ? "args" : "input";
    return replace_member(entry, key, value);
}

static int apply_edit(cJSON *messages, const mf_micro_edit *e)
{
    cJSON *msg = cJSON_GetArrayItem(messages, (int)e->message);
    if (!cJSON_IsObject(msg)) return 0;
    if (e->target >= MF_EDIT_CALL_INPUT) return apply_input_edit(msg, e);
    if (e->target == MF_EDIT_MESSAGE_CONTENT) return replace_member(msg, "content", text_of(e));
    if (e->target == MF_EDIT_ITEM_OUTPUT) return replace_member(msg, "output", text_of(e));
    bool ui = e->target == MF_EDIT_UI_OUTPUT || e->target == MF_EDIT_UI_ERROR_TEXT; /* a UIMessage's parts */
    cJSON *part = cJSON_GetArrayItem(json_member(msg, ui ? "parts" : "content"), (int)e->part);
    if (!cJSON_IsObject(part)) return 0;
    if (ui) return set_member(part, e->target == MF_EDIT_UI_OUTPUT ? "output" : "errorText", text_of(e));
    if (e->target >= MF_EDIT_RESULT_STDOUT) return apply_server_edit(part, e);
    const char *key = e->target == MF_EDIT_BLOCK_CONTENT ? "content"
                    : e->target == MF_EDIT_PART_RESULT ? "result" : "output";
    cJSON *value = e->target == MF_EDIT_PART_OUTPUT ? output_of(e, "text")
                 : e->target == MF_EDIT_PART_OUTPUT_ERROR ? output_of(e, "error-text") : text_of(e);
    return replace_member(part, key, value);
}

char *apply_plan(const char *json, const mf_micro_plan *plan)
{
    cJSON *root = cJSON_Parse(json);
    if (!root) return NULL;
    cJSON *messages = cJSON_IsArray(root) ? root : json_member(root, "messages");
    int ok = cJSON_IsArray(messages);
    for (size_t i = 0; ok && i < plan->count; i++) ok = apply_edit(messages, &plan->edits[i]);
    char *out = ok ? cJSON_PrintUnformatted(root) : NULL;
    cJSON_Delete(root);
    return out;
}

void free_json(char *json) { cJSON_free(json); }

/* ---- the tree encoding ---- */

static void put(enc *e, const void *p, size_t n)
{
    if (e->failed) return;
    if (e->len + n > e->cap) {
        size_t cap = e->cap ? e->cap * 2 : 256;
        while (cap < e->len + n) cap *= 2;
        unsigned char *d = realloc(e->data, cap);
        if (!d) { e->failed = 1; return; }
        e->data = d;
        e->cap = cap;
    }
    memcpy(e->data + e->len, p, n);
    e->len += n;
}

void enc_u8(enc *e, unsigned v) { unsigned char b = (unsigned char)v; put(e, &b, 1); }

void enc_u32(enc *e, uint32_t v)
{
    unsigned char b[4] = {(unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16), (unsigned char)(v >> 24)};
    put(e, b, 4);
}

static void put_bytes(enc *e, const char *s, size_t n) { enc_u32(e, (uint32_t)n); put(e, s, n); }

static void put_value(enc *e, const cJSON *v)
{
    if (cJSON_IsNull(v)) enc_u8(e, 0);
    else if (cJSON_IsFalse(v)) enc_u8(e, 1);
    else if (cJSON_IsTrue(v)) enc_u8(e, 2);
    else if (cJSON_IsNumber(v)) {
        char text[32];
        int n = snprintf(text, sizeof text, "%.17g", v->valuedouble);
        enc_u8(e, 3);
        put_bytes(e, text, (size_t)n);
    } else if (cJSON_IsString(v)) {
        enc_u8(e, 4);
        put_bytes(e, v->valuestring, strlen(v->valuestring));
    } else {
        uint32_t count = 0;
        for (const cJSON *c = v->child; c; c = c->next) count++;
        enc_u8(e, cJSON_IsArray(v) ? 5 : 6);
        enc_u32(e, count);
        for (const cJSON *c = v->child; c; c = c->next) {
            if (cJSON_IsObject(v)) put_bytes(e, c->string, strlen(c->string));
            put_value(e, c);
        }
    }
}

enc tree_encode_json(const char *json)
{
    enc e = {NULL, 0, 0, 0};
    cJSON *root = cJSON_Parse(json);
    if (!root) { e.failed = 1; return e; }
    put_value(&e, root);
    cJSON_Delete(root);
    return e;
}

uint64_t fp_bytes(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 1099511628211ull;
    return h;
}

uint64_t fp_u64(uint64_t h, uint64_t v) { return fp_bytes(h, &v, sizeof v); }

void count_features_whole(const char *text, size_t len, uint64_t *counts)
{
    mf_feature_state st;
    mf_features_begin(&st);
    mf_features_feed(&st, text, len, counts);
    mf_features_end(&st, counts);
}

size_t plan_tail_start(const char *json, uint64_t keep_tail_tokens, uint64_t keep_tail_messages)
{
    mf_doc *doc = parse(json);
    mf_compact_options o;
    mf_compact_options_init(&o);
    o.keep_tail_tokens = keep_tail_tokens;
    o.keep_tail_messages = keep_tail_messages;
    mf_compact_plan *plan = NULL;
    size_t start = SIZE_MAX;
    if (doc && mf_doc_compact_plan(doc, MF_FORMAT_AUTO, &o, &plan, NULL) == MF_OK) start = plan->tail_start;
    mf_compact_plan_free(plan);
    mf_doc_free(doc);
    return start;
}
