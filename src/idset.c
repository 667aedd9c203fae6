/* idset.c — a map from tool-call ids to their calls (open addressing, arena-backed),
 * so that pairing calls with results stays linear however many calls there are. */
#include "tree.h"

#include <string.h>

static uint32_t hash_id(const char *s, size_t n)
{
    uint32_t h = 2166136261u; /* FNV-1a */
    for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

bool mf_idmap_init(mf_idmap *map, mf_arena *arena, size_t capacity)
{
    size_t cap = 16;
    while (cap < capacity * 2) cap *= 2;
    map->slots = mf_arena_calloc(arena, cap, sizeof(mf_idslot));
    map->mask = cap - 1;
    return map->slots != NULL;
}

mf_idslot *mf_idmap_slot(mf_idmap *map, const char *id, size_t len)
{
    size_t i = hash_id(id, len) & map->mask;
    while (map->slots[i].id && !(map->slots[i].len == len && memcmp(map->slots[i].id, id, len) == 0))
        i = (i + 1) & map->mask;
    return &map->slots[i];
}
