/* bridge_alloc.c — allocation across the boundary, linked into every wasm module
 * (midfold.wasm, midfold-lite.wasm, midfold-memory.wasm). The ownership rules are
 * bridge_common.h's. */
#include "bridge_common.h"

#include <emscripten/emmalloc.h>

/* Allocates `size` bytes of linear memory (0 on failure). Free with mfw_free. */
EXPORT void *mfw_alloc(size_t size) { return mf_alloc(size); }
/* Releases memory from mfw_alloc or a result buffer. 0 is fine. */
EXPORT void mfw_free(void *ptr) { mf_dealloc(ptr); }

/* Resizes a block from mfw_alloc (0: a new one) to `size` bytes, keeping its first bytes
 * (as many as both sizes hold); returns where the block now is, or 0 with the block
 * unchanged when there is no memory. Ownership: the caller's, as from mfw_alloc.
 *
 * It grows the block in place whenever the allocator can, so that growing never holds the
 * block twice (js/core/encode.js writes a whole conversation into one such block): into
 * free memory right after it, and, when it ends where the heap does, into memory claimed
 * for it there (emmalloc claims new memory at the heap's end, right after the last block,
 * and a claimed block once released is free memory after ours). What is claimed is at least
 * half the memory there is, so the memory grows by half at a time: each growth of a large
 * memory costs the engine a full garbage collection (V8 counts wasm memory as external
 * memory), and growing by the step asked, 1 MiB, took 21 s instead of 2.2 s (54 collections
 * instead of 6) for a 142 MB conversation.
 * Only when neither works (a used block follows it) is it moved and copied, as realloc does. */
EXPORT void *mfw_realloc(void *ptr, size_t size)
{
    if (!ptr) return mf_alloc(size);
    if (emmalloc_realloc_try(ptr, size)) return ptr;
    size_t have = emmalloc_usable_size(ptr);
    if (size > have) {
        size_t need = size - have;
        size_t ahead = __builtin_wasm_memory_size(0) * (size_t)65536 / 2;
        void *claim = need < ahead ? mf_alloc(ahead) : NULL;
        if (!claim) claim = mf_alloc(need);
        if (claim) {
            mf_dealloc(claim);
            if (emmalloc_realloc_try(ptr, size)) return ptr;
        }
    }
    return mf_realloc(ptr, size);
}
