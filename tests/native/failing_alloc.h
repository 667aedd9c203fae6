/*
 * failing_alloc.h — the test allocator, installed through mf_set_allocator: it counts
 * allocations (malloc and realloc calls), can make the Nth one fail, and keeps the
 * number of live blocks so a test can assert that nothing leaked, with or without
 * LeakSanitizer.
 */
#ifndef MIDFOLD_FAILING_ALLOC_H
#define MIDFOLD_FAILING_ALLOC_H

#include <stdbool.h>
#include <stddef.h>

/* Routes midfold (and the cJSON it embeds) through the test allocator. */
void fa_install(void);

/* Counts from zero again and fails nothing. */
void fa_reset(void);

/* The nth allocation from now (1-based) fails; with `persistent`, every one after it
 * fails too. 0 fails nothing. Resets the count. */
void fa_fail_nth(size_t n, bool persistent);

/* Allocations asked for since the last reset (failed ones included). */
size_t fa_allocations(void);

/* Whether an allocation has been failed since the last reset. */
bool fa_failed(void);

/* The largest size asked for since the last reset. */
size_t fa_largest_request(void);

/* Blocks handed out and not yet freed (over the whole run). */
size_t fa_live(void);

#endif
