/* tree.c — reading the generic value tree that both parsers produce. */
#include "tree.h"

#include <string.h>

bool mf_is(const mf_node *n, mf_kind kind) { return n && n->kind == kind; }

bool mf_str_eq(const mf_node *n, const char *s)
{
    if (!n || n->kind != MF_STRING) return false;
    size_t len = strlen(s);
    return n->len == len && memcmp(n->str, s, len) == 0;
}

const mf_node *mf_get(const mf_node *obj, const char *key)
{
    if (!obj || obj->kind != MF_OBJECT) return NULL;
    size_t len = strlen(key);
    /* Objects are small (a message has a handful of keys): a linear scan beats a map.
     * The last duplicate wins, as in JSON.parse. */
    const mf_node *found = NULL;
    for (uint32_t i = 0; i < obj->count; i++) {
        const mf_node *m = &obj->items[i];
        if (m->key_len == len && memcmp(m->key, key, len) == 0) found = m;
    }
    return found;
}

const mf_node *mf_get_str(const mf_node *obj, const char *key)
{
    const mf_node *n = mf_get(obj, key);
    return n && n->kind == MF_STRING ? n : NULL;
}

mf_node *mf_with_member(mf_arena *arena, const mf_node *obj, const char *key, mf_node value)
{
    const mf_node *old = mf_get(obj, key);
    uint32_t count = obj->count + (old ? 0 : 1);
    mf_node *items = mf_arena_alloc(arena, count * sizeof *items), *out = mf_arena_alloc(arena, sizeof *out);
    if (!items || !out) return NULL;
    memcpy(items, obj->items, obj->count * sizeof *items);
    mf_node *slot = old ? &items[old - obj->items] : &items[obj->count];
    value.key = key;
    value.key_len = strlen(key);
    *slot = value;
    *out = *obj;
    out->items = items;
    out->count = count;
    return out;
}
