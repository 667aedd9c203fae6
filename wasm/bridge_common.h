/* bridge_common.h — what both wasm modules' bridges (bridge.c, bridge_memory.c) share:
 * the export attribute, the error record, allocation.
 *
 * Ownership across the boundary:
 * - Buffers from mfw_alloc are the caller's until mfw_free.
 * - A document from mfw_doc_parse borrows the input buffer: keep the buffer unchanged
 *   until mfw_doc_free.
 * - Results (text, plans, reports) are written to *out_ptr / *out_len as one buffer
 *   the caller releases with mfw_free.
 * - Errors go to a caller-provided mfw_error (168 bytes): u32 code, u32 position
 *   (0xFFFFFFFF when none applies), then a NUL-terminated message of at most 160 bytes.
 * Every function returns an mf_status (0 = success) unless said otherwise. */
#ifndef MIDFOLD_BRIDGE_COMMON_H
#define MIDFOLD_BRIDGE_COMMON_H

#include <stdint.h>
#include <string.h>

#include "../src/internal.h"

#define EXPORT __attribute__((used, visibility("default")))

typedef struct mfw_error {
    uint32_t code;
    uint32_t position;
    char message[160];
} mfw_error;

/* Copies a failure into the caller's record; returns the status. */
static inline int report(mfw_error *out, const mf_error *err, mf_status st)
{
    if (out && st) {
        out->code = (uint32_t)st;
        out->position = err->position > UINT32_MAX ? UINT32_MAX : (uint32_t)err->position;
        memcpy(out->message, err->message, sizeof out->message);
    }
    return (int)st;
}

/* Allocates `size` bytes of linear memory (0 on failure). Free with mfw_free. */
EXPORT void *mfw_alloc(size_t size) { return mf_alloc(size); }
/* Releases memory from mfw_alloc or a result buffer. 0 is fine. */
EXPORT void mfw_free(void *ptr) { mf_dealloc(ptr); }

#endif
