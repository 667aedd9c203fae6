/* failing_alloc.c — a counting allocator that can fail on request.
 *
 * Each block carries a small header with its size and a tag, so that the live count is
 * exact and a block freed twice or freed here after coming from elsewhere is caught
 * (the program aborts with a message rather than corrupting the heap). */
#include "failing_alloc.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "midfold.h"

#define TAG_LIVE 0x6d66616c6c697665ull /* "mfallive" */
#define TAG_DEAD 0x6d66646561646164ull

/* 16 bytes keep the payload aligned as malloc's own (max_align_t on the usual targets). */
typedef struct header { uint64_t tag; uint64_t size; } header;

static size_t count, fail_at, largest, live;
static bool persistent, failed;

void fa_reset(void) { count = 0; fail_at = 0; persistent = false; failed = false; largest = 0; }

void fa_fail_nth(size_t n, bool keep_failing)
{
    fa_reset();
    fail_at = n;
    persistent = keep_failing;
}

size_t fa_allocations(void) { return count; }
bool fa_failed(void) { return failed; }
size_t fa_largest_request(void) { return largest; }
size_t fa_live(void) { return live; }

/* Counts one allocation and says whether it must fail. */
static bool next_fails(size_t size)
{
    count++;
    if (size > largest) largest = size;
    bool fail = fail_at && (count == fail_at || (persistent && count > fail_at));
    if (fail) failed = true;
    return fail;
}

static header *header_of(void *p)
{
    header *h = (header *)p - 1;
    if (h->tag != TAG_LIVE) {
        fprintf(stderr, "failing_alloc: %p was not allocated here or was freed twice\n", p);
        abort();
    }
    return h;
}

static void *fa_malloc(size_t size)
{
    if (next_fails(size) || size > SIZE_MAX - sizeof(header)) return NULL;
    header *h = malloc(sizeof(header) + size);
    if (!h) return NULL;
    h->tag = TAG_LIVE;
    h->size = size;
    live++;
    return h + 1;
}

static void fa_free(void *p)
{
    if (!p) return;
    header *h = header_of(p);
    h->tag = TAG_DEAD;
    live--;
    free(h);
}

static void *fa_realloc(void *p, size_t size)
{
    if (!p) return fa_malloc(size);
    header_of(p);
    if (next_fails(size) || size > SIZE_MAX - sizeof(header)) return NULL; /* p stays valid */
    header *h = realloc((header *)p - 1, sizeof(header) + size);
    if (!h) return NULL;
    h->size = size;
    return h + 1;
}

void fa_install(void)
{
    static const mf_allocator allocator = {fa_malloc, fa_realloc, fa_free};
    fa_reset();
    mf_set_allocator(&allocator);
}
