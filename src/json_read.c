/* json_read.c — JSON text to the value tree, through cJSON (fetched at build time).
 *
 * cJSON keeps no number text, so numbers are printed back by mf_json_format_number
 * (json_number.c). The wasm module does not link this file's parser (the JS side sends
 * the tree encoding); json_reprint.c re-prints argument strings without it. */
#include "tree.h"

#include <string.h>

#include "cJSON.h"

/* Rejects nesting deeper than MF_MAX_DEPTH before cJSON recurses, with the position of
 * the bracket that goes too deep, and NULs in strings, escaped or raw. */
static mf_status check_depth(const char *json, size_t len, mf_error *err)
{
    size_t depth = 0;
    bool in_string = false;
    for (size_t i = 0; i < len; i++) {
        char c = json[i];
        if (in_string) {
            if (c == '\\') {
                /* cJSON hands strings back NUL-terminated: an escaped NUL would silently
                 * cut the string short, so it is refused here, where its position is known. */
                if (len - i >= 6 && json[i + 1] == 'u' && json[i + 2] == '0' && json[i + 3] == '0' &&
                    json[i + 4] == '0' && json[i + 5] == '0')
                    return mf_fail(err, MF_ERR_PARSE, i, "a NUL character (\\u0000) in a string at byte %zu is not supported", i);
                i++;
            } else if (c == '"') {
                in_string = false;
            } else if (c == 0) {
                /* A raw NUL byte is not JSON (controls must be escaped), and cJSON would
                 * keep it and cut the string there, the same silent truncation. */
                return mf_fail(err, MF_ERR_PARSE, i, "a NUL byte in a string at byte %zu is not supported", i);
            }
        } else if (c == '"') {
            in_string = true;
        } else if (c == '[' || c == '{') {
            if (++depth > MF_MAX_DEPTH)
                return mf_fail(err, MF_ERR_DEPTH, i, "nesting deeper than %zu levels at byte %zu",
                               (size_t)MF_MAX_DEPTH, i);
        } else if ((c == ']' || c == '}') && depth) {
            depth--;
        }
    }
    return MF_OK;
}

static mf_status convert(mf_arena *arena, const cJSON *src, mf_node *dst)
{
    memset(dst, 0, sizeof *dst);
    if (cJSON_IsNull(src)) dst->kind = MF_NULL;
    else if (cJSON_IsFalse(src)) dst->kind = MF_FALSE;
    else if (cJSON_IsTrue(src)) dst->kind = MF_TRUE;
    else if (cJSON_IsNumber(src)) {
        char text[40];
        size_t len = mf_json_format_number(src->valuedouble, text);
        dst->kind = MF_NUMBER;
        dst->str = mf_arena_strdup(arena, text, len);
        dst->len = len;
        if (!dst->str) return MF_ERR_NOMEM;
    } else if (cJSON_IsString(src)) {
        dst->kind = MF_STRING;
        dst->str = src->valuestring;
        dst->len = strlen(src->valuestring);
    } else {
        dst->kind = cJSON_IsArray(src) ? MF_ARRAY : MF_OBJECT;
        uint32_t count = 0;
        for (const cJSON *c = src->child; c; c = c->next) count++;
        dst->count = count;
        dst->items = mf_arena_alloc(arena, (size_t)count * sizeof(mf_node));
        if (!dst->items) return MF_ERR_NOMEM;
        uint32_t i = 0;
        for (const cJSON *c = src->child; c; c = c->next, i++) {
            mf_status st = convert(arena, c, &dst->items[i]);
            if (st) return st;
            if (dst->kind == MF_OBJECT) {
                dst->items[i].key = c->string ? c->string : "";
                dst->items[i].key_len = c->string ? strlen(c->string) : 0;
            }
        }
    }
    return MF_OK;
}

/* cJSON allocates through global hooks that start as plain malloc/free. mf_set_allocator
 * points them at midfold's allocator, but a host that never calls it (the wasm bridge)
 * would leave cJSON's failures uncounted, and running out of memory mid-parse would
 * read as invalid JSON: so the first parse points them there too. */
static void hook_cjson(void)
{
    static bool hooked;
    if (hooked) return;
    cJSON_Hooks hooks = {mf_alloc, mf_dealloc};
    cJSON_InitHooks(&hooks);
    hooked = true;
}

mf_status mf_json_to_tree(mf_arena *arena, const char *json, size_t len, mf_node **out,
                          void **owner, mf_error *err)
{
    if (!json && len) return mf_fail(err, MF_ERR_INVALID_ARG, SIZE_MAX, "NULL JSON text");
    if (len > MF_MAX_INPUT_BYTES)
        return mf_fail(err, MF_ERR_TOO_LARGE, SIZE_MAX, "input of %zu bytes is over the %zu byte limit",
                       len, (size_t)MF_MAX_INPUT_BYTES);
    mf_status st = check_depth(json, len, err);
    if (st) return st;
    const char *end = NULL;
    hook_cjson();
    size_t failures_before = mf_alloc_failures();
    cJSON *parsed = cJSON_ParseWithLengthOpts(json ? json : "", len, &end, 0);
    size_t pos = end && end >= json ? (size_t)(end - json) : 0;
    if (!parsed) {
        if (mf_alloc_failures() != failures_before)
            return mf_fail(err, MF_ERR_NOMEM, SIZE_MAX, "out of memory while parsing JSON");
        if (pos > len) pos = len;
        return mf_fail(err, MF_ERR_PARSE, pos, "invalid JSON at byte %zu", pos);
    }
    while (pos < len && (json[pos] == ' ' || json[pos] == '\t' || json[pos] == '\n' || json[pos] == '\r'))
        pos++;
    if (pos < len) {
        cJSON_Delete(parsed);
        return mf_fail(err, MF_ERR_PARSE, pos, "unexpected data after the JSON value at byte %zu", pos);
    }
    mf_node *root = mf_arena_alloc(arena, sizeof *root);
    st = root ? convert(arena, parsed, root) : MF_ERR_NOMEM;
    if (st) {
        cJSON_Delete(parsed);
        return mf_fail(err, st, SIZE_MAX, "out of memory while reading JSON");
    }
    *out = root;
    *owner = parsed;
    return MF_OK;
}

void mf_json_owner_free(void *owner) { if (owner) cJSON_Delete(owner); }
