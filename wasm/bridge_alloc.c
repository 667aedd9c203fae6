/* bridge_alloc.c — allocation across the boundary, linked into every wasm module
 * (midfold.wasm, midfold-lite.wasm, midfold-memory.wasm). The ownership rules are
 * bridge_common.h's. */
#include "bridge_common.h"

/* Allocates `size` bytes of linear memory (0 on failure). Free with mfw_free. */
EXPORT void *mfw_alloc(size_t size) { return mf_alloc(size); }
/* Releases memory from mfw_alloc or a result buffer. 0 is fine. */
EXPORT void mfw_free(void *ptr) { mf_dealloc(ptr); }
