/* digest_facts.c — the lists of the digest's facts, grown in their arena (digest_facts.h). */
#include "digest_facts.h"
#include "base.h"

#include <string.h>

void *mf_facts_push(mf_digest_facts *d, void *list, size_t *n, size_t *cap, size_t size)
{
    if (d->failed) return NULL;
    char *items;
    memcpy(&items, list, sizeof items); /* the list's pointer, whatever its item type */
    if (*n == *cap) {
        size_t next = *cap ? *cap * 2 : 8;
        char *bigger = mf_arena_alloc(&d->arena, next * size);
        if (!bigger) { d->failed = true; return NULL; }
        if (*n) memcpy(bigger, items, *n * size);
        items = bigger;
        memcpy(list, &items, sizeof items);
        *cap = next;
    }
    char *slot = items + (*n)++ * size;
    memset(slot, 0, size);
    return slot;
}

mf_span mf_facts_keep(mf_digest_facts *d, mf_span s, size_t max)
{
    if (s.n > max) {
        s.n = max;
        while (s.n && ((unsigned char)s.s[s.n] & 0xC0) == 0x80) s.n--;
    }
    char *copy = s.n ? mf_arena_strdup(&d->arena, s.s, s.n) : NULL;
    if (s.n && !copy) { d->failed = true; return (mf_span){0}; }
    return (mf_span){copy, s.n};
}
