/* bridge_common.h — what every wasm module's bridge (bridge.c, bridge_full.c,
 * bridge_memory.c) shares: the export attribute and the error record. Allocation is
 * bridge_alloc.c's, linked into every module.
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

#endif
