/* arena.c — bump allocation for trees and views: one free releases a whole parse. */
#include "base.h"

#include <string.h>

struct mf_arena_chunk {
    mf_arena_chunk *next;
    size_t cap;
    /* the chunk's bytes follow, 8-byte aligned */
};

#define CHUNK_HEADER ((sizeof(mf_arena_chunk) + 7u) & ~(size_t)7u)
#define FIRST_CHUNK 4096u

void mf_arena_init(mf_arena *arena) { arena->head = NULL; arena->used = arena->cap = 0; }

void *mf_arena_alloc(mf_arena *arena, size_t size)
{
    if (size > SIZE_MAX - 7u) return NULL; /* rounding up would wrap to a tiny chunk */
    size = (size + 7u) & ~(size_t)7u;
    if (size == 0) size = 8;
    if (!arena->head || arena->cap - arena->used < size) {
        /* Chunks double so that a large parse needs few of them; a request larger than
         * the next chunk gets a chunk of its own size. */
        size_t cap = arena->cap ? arena->cap * 2 : FIRST_CHUNK;
        if (cap > ((size_t)1 << 24)) cap = (size_t)1 << 24;
        if (cap < size) cap = size;
        if (cap > SIZE_MAX - CHUNK_HEADER) return NULL;
        mf_arena_chunk *chunk = mf_alloc(CHUNK_HEADER + cap);
        if (!chunk) return NULL;
        chunk->next = arena->head;
        chunk->cap = cap;
        arena->head = chunk;
        arena->cap = cap;
        arena->used = 0;
    }
    void *p = (char *)arena->head + CHUNK_HEADER + arena->used;
    arena->used += size;
    return p;
}

void *mf_arena_calloc(mf_arena *arena, size_t count, size_t size)
{
    if (size && count > SIZE_MAX / size) return NULL;
    void *p = mf_arena_alloc(arena, count * size);
    if (p) memset(p, 0, count * size);
    return p;
}

char *mf_arena_strdup(mf_arena *arena, const char *s, size_t len)
{
    if (len == SIZE_MAX) return NULL;
    char *p = mf_arena_alloc(arena, len + 1);
    if (!p) return NULL;
    if (len) memcpy(p, s, len);
    p[len] = 0;
    return p;
}

void mf_arena_free(mf_arena *arena)
{
    mf_arena_chunk *c = arena->head;
    while (c) {
        mf_arena_chunk *next = c->next;
        mf_dealloc(c);
        c = next;
    }
    mf_arena_init(arena);
}
