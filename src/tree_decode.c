/* tree_decode.c — midfold's binary tree encoding, written by the JS wrapper from its
 * objects (js/core/encode.js) so that a conversation crosses into wasm without
 * JSON.stringify and is read here without a JSON parser. Strings are not copied.
 *
 * Layout (integers are u32 little-endian, unaligned):
 *   value  := tag:u8 body
 *   tag 0 null, 1 false, 2 true                    (no body)
 *   tag 3 number  := len, len bytes of its JSON text
 *   tag 4 string  := len, len bytes of UTF-8
 *   tag 5 array   := count, count values
 *   tag 6 object  := count, count × (keylen, keylen bytes, value)
 *   tag 7 blob    := byte length (binary data: only its size crosses, never its bytes)
 * The buffer holds exactly one value. Every length is checked against what is left, so
 * a damaged buffer gives MF_ERR_PARSE with the byte position, never a wild read. */
#include "tree.h"

#include <string.h>

typedef struct reader {
    const uint8_t *buf;
    size_t len, pos;
    mf_arena *arena;
    mf_error *err;
} reader;

static mf_status bad(reader *r, const char *what)
{
    return mf_fail(r->err, MF_ERR_PARSE, r->pos, "invalid tree encoding at byte %zu: %s", r->pos, what);
}

static bool read_u32(reader *r, uint32_t *v)
{
    if (r->len - r->pos < 4) return false;
    const uint8_t *p = r->buf + r->pos;
    *v = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    r->pos += 4;
    return true;
}

static bool read_bytes(reader *r, const char **s, size_t *n)
{
    uint32_t len;
    if (!read_u32(r, &len) || r->len - r->pos < len) return false;
    *s = (const char *)r->buf + r->pos;
    *n = len;
    r->pos += len;
    return true;
}

static mf_status read_value(reader *r, mf_node *node, unsigned depth)
{
    if (r->pos >= r->len) return bad(r, "truncated");
    uint8_t tag = r->buf[r->pos++];
    node->count = 0;
    node->items = NULL;
    node->str = NULL;
    node->len = 0;
    switch (tag) {
    case MF_NULL: case MF_FALSE: case MF_TRUE:
        node->kind = tag;
        return MF_OK;
    case MF_NUMBER: case MF_STRING:
        node->kind = tag;
        return read_bytes(r, &node->str, &node->len) ? MF_OK : bad(r, "string runs past the end");
    case MF_BLOB: {
        uint32_t bytes;
        if (!read_u32(r, &bytes)) return bad(r, "truncated blob length");
        node->kind = MF_BLOB;
        node->len = bytes;
        return MF_OK;
    }
    case MF_ARRAY: case MF_OBJECT: {
        if (depth >= MF_MAX_DEPTH)
            return mf_fail(r->err, MF_ERR_DEPTH, r->pos - 1, "nesting deeper than %zu levels",
                           (size_t)MF_MAX_DEPTH);
        uint32_t count;
        if (!read_u32(r, &count)) return bad(r, "truncated count");
        /* Each item takes at least one byte (five for a member): a larger count is damage,
         * and checking it first keeps a bad count from asking for a huge allocation. */
        size_t min_item = tag == MF_OBJECT ? 5 : 1;
        if (count > (r->len - r->pos) / min_item) return bad(r, "count larger than the data");
        node->kind = tag;
        node->count = count;
        /* In wasm32 the product can pass SIZE_MAX (2^32) for a count the data allows. */
        size_t items = count;
        node->items = items > SIZE_MAX / sizeof(mf_node) ? NULL : mf_arena_alloc(r->arena, items * sizeof(mf_node));
        if (count && !node->items)
            return mf_fail(r->err, MF_ERR_NOMEM, SIZE_MAX, "out of memory while reading input");
        for (uint32_t i = 0; i < count; i++) {
            mf_node *item = &node->items[i];
            item->key = NULL;
            item->key_len = 0;
            if (tag == MF_OBJECT && !read_bytes(r, &item->key, &item->key_len))
                return bad(r, "key runs past the end");
            mf_status st = read_value(r, item, depth + 1);
            if (st) return st;
        }
        return MF_OK;
    }
    default:
        r->pos--;
        return bad(r, "unknown tag");
    }
}

mf_status mf_tree_decode(mf_arena *arena, const uint8_t *buf, size_t len, mf_node **out,
                         mf_error *err)
{
    if (!buf && len) return mf_fail(err, MF_ERR_INVALID_ARG, SIZE_MAX, "NULL buffer");
    if (len > MF_MAX_INPUT_BYTES)
        return mf_fail(err, MF_ERR_TOO_LARGE, SIZE_MAX, "input of %zu bytes is over the %zu byte limit",
                       len, (size_t)MF_MAX_INPUT_BYTES);
    reader r = {buf, len, 0, arena, err};
    mf_node *root = mf_arena_alloc(arena, sizeof *root);
    if (!root) return mf_fail(err, MF_ERR_NOMEM, SIZE_MAX, "out of memory while reading input");
    root->key = NULL;
    root->key_len = 0;
    mf_status st = read_value(&r, root, 0);
    if (st) return st;
    if (r.pos != len) return bad(&r, "data after the value");
    *out = root;
    return MF_OK;
}
